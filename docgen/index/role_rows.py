"""What each Python file's docstring roles name, as a relation (`docgen.index.relations`).

A page links `:class:\\`torch.nn.Linear\\`` to the definition's anchor on another
file's page, so that page changes when the definition, or a re-export on the way to
it, does.  A file's rows are made from its own facts alone: each role's target (and
each target of a docstring it attaches, `add_docstr(torch.add, ...)`, which its page
links too) as written, what the file's imports make of its first name (`nn.Module` with `import
torch.nn as nn` is `torch.nn.Module`), and, as keys, the names after the first that
resolving it looks up in other files (a definition's name, or a re-exported one).
An edit that changes the sites or imports of a name re-renders the pages of the
files whose rows hold that key (`RelationRows.holding`), and no others.
"""

from __future__ import annotations

from collections.abc import Iterator

from docgen.index.relations import Relation
from docgen.model.doc_roles import role_targets
from docgen.model.facts import Import, PythonFacts

#: (the target as written, what the file's imports make of it or "", a key or "")
RoleRow = tuple[str, str, str]


def _row(data: list[str | int]) -> RoleRow:
    target, stands_for, key = data
    if not isinstance(target, str) or not isinstance(stands_for, str) or not isinstance(key, str):
        raise TypeError("a role row is (target, what it stands for, key)")
    return target, stands_for, key


def _key(row: RoleRow) -> str:
    return row[2]


ROLES: Relation[RoleRow] = Relation("doc-roles", "2", _key, _row, keyed=True)


def docstrings_of(python: PythonFacts) -> Iterator[str]:
    """Every docstring a Python file's page shows, with its roles."""
    if python.module_docstring:
        yield python.module_docstring
    for definition in python.definitions:
        if definition.docstring:
            yield definition.docstring
    for attribute in python.attributes:
        if attribute.docstring:
            yield attribute.docstring


def bindings(imports: tuple[Import, ...]) -> dict[str, str]:
    """Each name the file's imports bind -> what it stands for as written (`torch.nn`,
    `..modules.Linear`): the first import of it in the file, in line order."""
    bound: dict[str, str] = {}
    for imp in sorted(imports, key=lambda i: i.line):
        for name, target in imp.aliases:
            bound.setdefault(name, target)
    return bound


def stands_for(written: str, bound: dict[str, str]) -> str:
    """A dotted name with its first name read through the file's imports (`bound`, see
    `bindings`): `nn.Module` with `import torch.nn as nn` is `torch.nn.Module`; "" when
    no import binds it under another name."""
    first, dot, rest = written.partition(".")
    import_of = bound.get(first)
    return f"{import_of}{dot}{rest}" if import_of and import_of != first else ""


def role_rows(python: PythonFacts | None) -> tuple[RoleRow, ...]:
    """A file's rows: one per target and key, sorted (see the module's docstring)."""
    if python is None:
        return ()
    targets: set[str] = set()
    for docstring in docstrings_of(python):
        targets |= role_targets(docstring)
    targets.update(a.target for a in python.attached)  # its page links where each leads
    if not targets:
        return ()
    bound = bindings(python.imports)
    rows: set[RoleRow] = set()
    for target in targets:
        absolute = stands_for(target, bound)
        keys = {*target.split(".")[1:], *absolute.lstrip(".").split(".")[1:]} - {""}
        rows.update((target, absolute, key) for key in keys or {""})
    return tuple(sorted(rows))
