"""Which files a change reaches, nearest first (`docgen affected PATH...`), from the
stored index without parsing: the relation of uses that `docgen find NAME --uses`
reads (see `docgen.index.python_uses`) and the import rows.

A file is one hop from a changed file when it imports it (`import a.b.c`, `from a.b
import c`, `from a.b.c import x`) or its code uses one of its top-level classes and
functions, or the module itself, through imports and re-exports; a file is a hop
further when it uses a definition of a file a hop nearer.  Beyond the first hop only
uses count: a file that imports a reached file without using it re-exports its names
at most (`torch/nn/__init__.py`), and the uses of those names lead through it to
where they are defined.  Following imports further would reach every test through
`import torch`.  Files are reached as wholes: a use of any definition of a reached
file counts, whichever of its definitions the change touched.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.index.native_calls import CallRow, call_key, row_lines
from docgen.index.python_uses import DefinitionFinder

#: (the file that imports, the line of the import), for each file imported
Importers = Mapping[str, Sequence[tuple[str, int]]]


@dataclass(frozen=True, order=True)
class Reach:
    """A file a change reaches, and how."""

    distance: int  # 0 for a changed file
    path: str
    via: tuple[str, ...]  # the files a hop nearer that it imports or uses, sorted
    lines: tuple[int, ...]  # its lines that import them or use their definitions


def use_index(rows: Iterable[tuple[str, CallRow]]) -> dict[str, list[tuple[str, CallRow]]]:
    """The rows of every file by the last name they read (what `kept_of` reads one key
    of), for a question that reads many keys."""
    found: dict[str, list[tuple[str, CallRow]]] = {}
    for path, row in rows:
        found.setdefault(call_key(row), []).append((path, row))
    return found


def importers_of(rows: Iterable[tuple[str, tuple[str, int]]]) -> dict[str, list[tuple[str, int]]]:
    """Who imports each file, on which line, from the import rows `(importer, (file,
    line))`."""
    found: dict[str, list[tuple[str, int]]] = {}
    for importer, (target, line) in rows:
        if importer != target:
            found.setdefault(target, []).append((importer, line))
    return found


@dataclass
class Reacher:
    """Follows a change out to the files that use it (see the module's docstring)."""

    finder: DefinitionFinder
    uses: Mapping[str, Sequence[tuple[str, CallRow]]]  # `use_index`
    importers: Importers

    def __post_init__(self) -> None:
        self._resolved: dict[tuple[str, str], str | None] = {}

    def reach(self, changed: Iterable[str], depth: int | None = None) -> list[Reach]:
        """Every file `changed` reaches within `depth` hops (None: any), nearest first,
        then by path; the changed files themselves at distance 0."""
        found = {path: Reach(0, path, (), ()) for path in sorted(set(changed))}
        frontier = sorted(found)
        distance = 0
        while frontier and (depth is None or distance < depth):
            distance += 1
            lines = self._hop(frontier, with_imports=distance == 1, known=found)
            for path in sorted(lines):
                by_via = lines[path]
                every = {n for via_lines in by_via.values() for n in via_lines}
                found[path] = Reach(distance, path, tuple(sorted(by_via)), tuple(sorted(every)))
            frontier = sorted(lines)
        return sorted(found.values())

    def _hop(
        self, frontier: Sequence[str], with_imports: bool, known: Mapping[str, Reach]
    ) -> dict[str, dict[str, set[int]]]:
        """The files not yet `known` that reach one of `frontier`: via which, on which lines."""
        targets = set(frontier)
        found: dict[str, dict[str, set[int]]] = {}
        if with_imports:
            for target in frontier:
                for path, line in self.importers.get(target, ()):
                    if path not in known:
                        found.setdefault(path, {}).setdefault(target, set()).add(line)
        for key in sorted({k for path in frontier for k in self._keys(path)}):
            for path, row in self.uses.get(key, ()):
                if path in known:
                    continue
                to = self._leads_to(path, row[0])
                if to is not None and to in targets:
                    found.setdefault(path, {}).setdefault(to, set()).update(row_lines(row))
        return found

    def _keys(self, path: str) -> list[str]:
        """The last names a use of the file's definitions or of the module reads."""
        summary = self.finder.summary_of(path)  # its definitions, without its imports
        module = self.finder.module_of(path)
        keys = [name for name, _ in summary.top_level] if summary is not None else []
        return [*keys, module.rsplit(".", 1)[-1]] if module else keys

    def _leads_to(self, path: str, name: str) -> str | None:
        """The file the name a file reads is defined in (None: none of the tree's)."""
        cache = (path, name) if name.startswith(".") else ("", name)
        if cache not in self._resolved:
            dotted = self.finder.absolute(path, name)
            found = self.finder.find(dotted) if dotted else None
            self._resolved[cache] = found[0] if found is not None else None
        return self._resolved[cache]
