"""The docstring hops of `docgen find NAME --trace`: where Python attaches a docstring
at import to the name traced (`add_docstr(torch.add, r\"\"\"...\"\"\")` of
`torch/_torch_docs.py`, `add_docstr_all('add_', ...)` of `torch/_tensor_docs.py`),
from the kept rows of the attached-docstring relation (`docgen.index.attached_rows`),
keyed by the target's last name.

A row is taken for a name as the trace is asked: its target as written is the name
(`torch.add`), or a method's on `TensorBase` (`Tensor.add_`).  The pages resolve
targets through each file's imports; the trace, which reads no index, takes only
these two plain forms."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from docgen.index.attached_rows import AttachedRow
from docgen.index.trace_line import TraceLine

#: the kept attached-docstring rows of one key (a target's last name), with their files
AttachedOf = Callable[[str], Sequence[tuple[str, AttachedRow]]]


def attached_lines(
    name: str, base: str, method: bool | None, attached_of: AttachedOf
) -> list[TraceLine]:
    """Where a docstring is attached to `name` (`base`: its last name; `method`: asked
    as a method of `Tensor`, a function, or either)."""
    lines = []
    for path, row in sorted(attached_of(base)):
        target, line, via = row[0], row[2], row[5]
        as_method = method is True and target.endswith(f"TensorBase.{base}")
        if target == name or as_method:
            lines.append(TraceLine(path, line, f"docstring attached at import by {via}"))
    return lines
