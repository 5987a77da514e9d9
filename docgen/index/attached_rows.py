"""The docstrings each Python file attaches at import to names made elsewhere, as a
relation (`docgen.index.relations`).

`add_docstr(torch.add, r\"\"\"...\"\"\")` of `torch/_torch_docs.py` documents the `add` that
`torch/_C/_VariableFunctions.pyi` declares, so that stub's page shows the text.  A
file's rows are made from its own facts alone: each attached docstring's target as
written, what the file's imports make of its first name (as for a docstring's role,
see `docgen.index.role_rows`), its line and its text, keyed by the target's last
name, which the definition it documents bears.  Where a target leads is told at
render time, through the same resolver as the roles (`docgen.render.attached_links`).
"""

from __future__ import annotations

from docgen.index.relations import Relation
from docgen.index.role_rows import bindings, stands_for
from docgen.model.facts import PythonFacts

#: (target as written, what the imports make of it or "", line, its text ("" when
#: code docgen does not run makes it), the arguments of a `.format(...)` filling it or
#: "", the call as written, the name its result is bound to or "")
AttachedRow = tuple[str, str, int, str, str, str, str]


def _row(data: list[str | int]) -> AttachedRow:
    target, stands_for, line, text, fields, via, bound = data
    if not (
        isinstance(target, str)
        and isinstance(stands_for, str)
        and isinstance(line, int)
        and isinstance(text, str)
        and isinstance(fields, str)
        and isinstance(via, str)
        and isinstance(bound, str)
    ):
        raise TypeError("an attached-docstring row is (target, stands for, line, text, ...)")
    return target, stands_for, line, text, fields, via, bound


def attached_key(row: AttachedRow) -> str:
    """The name the documented definition bears: the target's last name."""
    return row[0].rsplit(".", 1)[-1]


ATTACHED_DOCS: Relation[AttachedRow] = Relation(
    "attached-docs", "2", attached_key, _row, keyed=True
)


def attached_rows(python: PythonFacts | None) -> tuple[AttachedRow, ...]:
    """A file's rows, sorted (see the module's docstring)."""
    if python is None or not python.attached:
        return ()
    bound = bindings(python.imports)
    rows = set()
    for doc in python.attached:
        absolute = stands_for(doc.target, bound)
        rows.add((doc.target, absolute, doc.line, doc.text or "", doc.fields, doc.via, doc.bound))
    return tuple(sorted(rows))
