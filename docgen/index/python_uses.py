"""Where the tree's Python code uses a Python definition, answered from the stored
index (`docgen find NAME --uses`) without parsing.

The uses are the rows of the dotted-reads relation (`docgen.index.native_calls`):
each dotted name a file's code reads, with its first name read as the file's imports
make it (`dist.all_reduce` with `import torch.distributed as dist`, and `all_reduce`
after `from torch.distributed import all_reduce` or a relative `from .c10d import
all_reduce`, read from the file's package, see
`docgen.scan.python.name_uses`), keyed by its last name.  A row is a use of a
definition when its name leads there the way Python would import it: through the
longest module of the tree that the name starts with, then through that module's
own definitions, its imports (a re-export: `torch/distributed/__init__.py`'s `from
.distributed_c10d import *`) and submodules, read from the files' stored summaries.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from docgen.analyze.summary import FileSummary
from docgen.index.graph import ImportGraph, absolute_name, package_of
from docgen.index.native_calls import CallRow, row_lines
from docgen.index.top_bindings import FileBindings, star_binds, summary_bindings
from docgen.index.trace_line import TraceLine
from docgen.model.languages import language_for
from docgen.model.sites import DefinitionSite

#: the state's meta key of the tree's module names (dotted name -> path), as JSON
MODULES_META = "python-modules"
#: the kinds of keyword site a Python definition has
DEFINITION_KINDS = frozenset({"function", "class", "method"})
REEXPORT_DEPTH = 8  # re-exports followed before a name is given up


def modules_text(graph: ImportGraph) -> str:
    """The modules a dotted name can lead to, as JSON (see `lead_modules`)."""
    return json.dumps(lead_modules(graph), separators=(",", ":"))


def lead_modules(graph: ImportGraph) -> dict[str, str]:
    """The modules a dotted name can lead to: each module of the tree, and each stub
    (`.pyi`) whose module has no `.py` (`torch/_C/_distributed_c10d.pyi` stands for a
    module made in C++), sorted."""
    modules = dict(graph.modules)
    for path, name in graph.module_names.items():
        if path.endswith(".pyi"):
            modules.setdefault(name, path)
    return dict(sorted(modules.items()))


def read_modules(text: str | None) -> dict[str, str]:
    """The module names stored with `modules_text` (none when missing or unreadable)."""
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


@dataclass
class DefinitionFinder:
    """Follows a dotted name to the (path, qualified name) that defines it ("" for a
    module), through the modules' summaries (`summary_of`, read once per file), or
    what a build already knows of each file's top level (`bindings_of`)."""

    modules: Mapping[str, str]  # dotted module name -> path
    summary_of: Callable[[str], FileSummary | None]
    bindings_of: Callable[[str], FileBindings | None] | None = None
    _names: dict[str, str] = field(default_factory=dict)
    _bindings: dict[str, FileBindings | None] = field(default_factory=dict)
    _led: dict[tuple[str, str], tuple[str, str] | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, path in self.modules.items():
            self._names.setdefault(path, name)

    def absolute(self, path: str, dotted: str) -> str:
        """A name as the file at `path` reads it, made absolute: a relative import's
        (`.distributed_c10d.all_reduce`) from the file's own package ("" if none)."""
        if not dotted.startswith("."):
            return dotted
        name = self._names.get(path)
        return absolute_name(dotted, package_of(path, name) if name is not None else None)

    def leads_to(self, path: str, dotted: str) -> tuple[str, str] | None:
        """`find` for a name as the file at `path` reads it (see `absolute`), each name
        followed once (a relative one once per file)."""
        key = (path, dotted) if dotted.startswith(".") else ("", dotted)
        if key not in self._led:
            absolute = self.absolute(path, dotted)
            self._led[key] = self.find(absolute) if absolute else None
        return self._led[key]

    def find(self, dotted: str, depth: int = 0) -> tuple[str, str] | None:
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            path = self.modules.get(".".join(parts[:cut]))
            if path is not None:
                return self._follow(path, parts[cut:], depth)
        return None

    def _follow(self, path: str, rest: Sequence[str], depth: int) -> tuple[str, str] | None:
        if not rest:
            return path, ""
        if depth > REEXPORT_DEPTH:
            return None
        bindings = self.bindings(path)
        if bindings is None:
            return None
        name, tail = rest[0], "".join(f".{part}" for part in rest[1:])
        if name in bindings.definitions:
            return path, ".".join(rest)
        for module, original in bindings.imported.get(name, ()):
            found = self.find(f"{module}.{original}{tail}", depth + 1)
            if found is not None:
                return found
        for module in bindings.modules.get(name, ()):
            found = self.find(f"{module}{tail}", depth + 1)
            if found is not None:
                return found
        for module in bindings.stars:
            target = self.modules.get(module)
            exported = self.bindings(target) if target is not None and target != path else None
            if exported is not None and star_binds(exported, name):
                found = self._follow(target or "", rest, depth + 1)
                if found is not None:
                    return found
        return None

    def module_of(self, path: str) -> str | None:
        """The dotted module the file at `path` is (None: none of the tree's)."""
        return self._names.get(path)

    def bindings(self, path: str) -> FileBindings | None:
        """What the top level of the file at `path` binds, from its summary."""
        if self.bindings_of is not None:
            return self.bindings_of(path)
        if path not in self._bindings:
            summary = self.summary_of(path)
            name = self._names.get(path)
            package = package_of(path, name) if name is not None else None
            self._bindings[path] = summary_bindings(summary, package) if summary else None
        return self._bindings[path]


def python_definitions(
    name: str, named: Callable[[str], Sequence[DefinitionSite]]
) -> list[DefinitionSite]:
    """The Python definitions `name` names, a stub's too (a class made in C++ is
    defined in Python only there): by their name, or by their qualified name
    (`ProcessGroup.allreduce`) or a dotted name ending with it."""
    short = name.rsplit(".", 1)[-1]
    return [
        s
        for s in named(short)
        if s.kind in DEFINITION_KINDS
        and language_for(s.path) == "python"
        and (s.qualname == name or "." not in name or name.endswith(f".{s.qualname}"))
    ]


def use_lines(
    name: str,
    named: Callable[[str], Sequence[DefinitionSite]],
    kept_of: Callable[[str], list[tuple[str, CallRow]]],
    finder: DefinitionFinder,
) -> list[TraceLine]:
    """Every use of the definitions `name` names (see `python_definitions`), as
    `path:line: import|use WRITTEN (DOTTED)`, sorted; a dotted `name` that the tree's
    modules resolve narrows them to the one it leads to."""
    targets = {(s.path, s.qualname) for s in python_definitions(name, named)}
    if "." in name:
        found = finder.find(name)
        if found in targets:
            targets = {found}
    if not targets:
        return []
    lines: set[TraceLine] = set()
    for path, row in kept_of(name.rsplit(".", 1)[-1]):
        if finder.leads_to(path, row[0]) not in targets:
            continue
        dotted = finder.absolute(path, row[0])
        summary = finder.summary_of(path)
        imports = set(summary.import_lines) if summary is not None else set()
        for line in row_lines(row):
            how = "import" if line in imports else "use"
            lines.add(TraceLine(path, line, f"{how} {row[1]} ({dotted})"))
    return sorted(lines, key=lambda t: (t.path, t.line, t.what))
