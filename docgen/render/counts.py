"""How many classes, functions and methods a Python file defines: one count for every
page that states it (the docs page, the keyword page and the folder pages)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from docgen.model.facts import Definition
from docgen.render.filters import plural


@dataclass(frozen=True)
class DefinitionCounts:
    """A Python file's definitions by kind, for sentences that must add up."""

    classes: int  # classes outside any function (at module level or inside a class)
    functions: int  # module-level functions
    methods: int  # functions defined directly in a class
    local: int  # classes and functions defined inside a function (closures, helpers)

    @property
    def total(self) -> int:
        return self.classes + self.functions + self.methods + self.local

    def phrase(self) -> str:
        """ "3 classes, 1 function and 43 methods, plus 33 local definitions inside
        functions", naming only the kinds there are."""
        parts = [
            plural(count, word, many)
            for count, word, many in (
                (self.classes, "class", "classes"),
                (self.functions, "function", None),
                (self.methods, "method", None),
            )
            if count
        ]
        text = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
        if self.local:
            local = plural(self.local, "local definition")
            text = f"{text}, plus {local} inside functions" if text else f"{local} inside functions"
        return text


def definition_counts(definitions: Iterable[Definition]) -> DefinitionCounts:
    definitions = tuple(definitions)
    kinds = {d.qualname: d.kind for d in definitions}

    def inside_function(d: Definition) -> bool:
        parent = d.parent
        while parent is not None:
            if kinds.get(parent) in ("function", "method"):
                return True
            parent = parent.rpartition(".")[0] or None
        return False

    classes = functions = methods = local = 0
    for d in definitions:
        if inside_function(d):
            local += 1
        elif d.kind == "class":
            classes += 1
        elif d.kind == "method":
            methods += 1
        else:
            functions += 1
    return DefinitionCounts(classes, functions, methods, local)
