"""Which of a Python file's top-level classes and functions its own code uses: with
the uses other files make of them (`docgen.render.use_links`), what tells a name no
code of the tree uses (a dead-code candidate)."""

from __future__ import annotations

from docgen.analyze.summary import is_top_level
from docgen.model.facts import PythonFacts


def used_here(python: PythonFacts) -> tuple[str, ...]:
    """The top-level classes and functions the file's own code uses outside their own
    bodies (a recursive call is no use), from its bare-name uses of them, and the
    methods of its top-level classes it calls through `self` outside their own bodies
    (as `Class.method`)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for d in python.definitions:
        if is_top_level(d) or (d.parent is not None and d.qualname.count(".") == 1):
            spans.setdefault(d.qualname, []).append((d.line, d.end_line))
    return tuple(
        sorted(
            {
                use.name
                for use in python.own_uses
                if use.name in spans
                and any(not any(a <= n <= b for a, b in spans[use.name]) for n in use.lines)
            }
        )
    )
