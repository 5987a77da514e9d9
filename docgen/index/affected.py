"""Which files a change reaches, nearest first (`docgen affected PATH...`), from the
stored index without parsing: the relation of uses that `docgen find NAME --uses`
reads (see `docgen.index.python_uses`), the import rows and the stored summaries.

A file is one hop from a changed file when it imports it (`import a.b.c`, `from a.b
import c`, `from a.b.c import x`) or its code uses one of its top-level classes and
functions (or the module itself), through imports and re-exports.  A file is a hop
further when its code uses a definition a hop nearer that was reached: a top-level
class or function whose body holds a use of what was reached before it, or every
definition of a file whose module-level code does (it runs at import).  An import
statement alone reaches no definition: a file that only imports a reached file
re-exports its names at most (`torch/nn/__init__.py`), and the uses of those names
lead through it to where they are defined; following imports further would reach
every test through `import torch`.  A stub (`.pyi`) runs nothing and reaches nothing.
A C-family file that binds names for Python (pybind11, `PyMethodDef`, `m.def` of a
`TORCH_LIBRARY` block) is one hop from the Python files that read those names, and a
changed C-family file reaches other C-family files first (see
`docgen.index.cfamily_affected`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.analyze.summary import FileSummary
from docgen.index.native_calls import CallRow, NativeEnd, row_lines
from docgen.index.python_uses import DefinitionFinder
from docgen.model.sites import DefinitionSite

#: (the file that imports, the line of the import), for each file imported
Importers = Mapping[str, Sequence[tuple[str, int]]]


@dataclass(frozen=True, order=True)
class Reach:
    """A file a change reaches, and how."""

    distance: int  # 0 for a changed file
    path: str
    via: tuple[str, ...]  # the files a hop nearer that it imports or uses, sorted
    lines: tuple[int, ...]  # its lines that import them or use their reached definitions


#: the rows whose last name (`call_key`) is one of some names, with their files
RowsFor = Callable[[Collection[str]], Iterable[tuple[str, CallRow]]]


def importers_of(rows: Iterable[tuple[str, tuple[str, int]]]) -> dict[str, list[tuple[str, int]]]:
    """Who imports each file, on which line, from the import rows `(importer, (file,
    line))`."""
    found: dict[str, list[tuple[str, int]]] = {}
    for importer, (target, line) in rows:
        if importer != target and not importer.endswith(".pyi"):
            found.setdefault(target, []).append((importer, line))
    return found


def reached_names(summary: FileSummary | None, lines: Iterable[int]) -> frozenset[str] | None:
    """The top-level classes and functions of a file that its `lines` (of uses of what
    reached it) reach: those whose bodies hold one; None (every one) when a line that
    is no import statement's is outside them all."""
    if summary is None:
        return None
    imports = set(summary.import_lines)
    found: set[str] = set()
    for line in lines:
        inside = [name for name, first, last in summary.spans if first <= line <= last]
        if inside:
            found.update(inside)
        elif line not in imports:
            return None
    return frozenset(found)


@dataclass
class Reacher:
    """Follows a change out to the files that use it (see the module's docstring)."""

    finder: DefinitionFinder
    uses: RowsFor  # the rows of some last names (the kept rows, by the state's keys)
    importers: Importers
    summary_of: Callable[[str], FileSummary | None]

    def reach(
        self,
        changed: Iterable[str],
        depth: int | None = None,
        seeds: Mapping[int, Mapping[str, Mapping[str, set[int]]]] | None = None,
        entries: Iterable[tuple[Reach, frozenset[str]]] = (),
    ) -> list[Reach]:
        """Every file `changed` reaches within `depth` hops (None: any), nearest first,
        then by path; the changed files themselves at distance 0.  `seeds`: by
        distance, files that no Python use of a changed file's shows (the readers of
        names a reached C-family file binds, see `binding_readers`), via which, on which
        lines; `entries`: files reached another way (C-family files, operator files,
        the stubs binding operators), with their names whose uses go on from there."""
        found = {path: Reach(0, path, (), ()) for path in sorted(set(changed))}
        joining: dict[int, list[tuple[Reach, frozenset[str]]]] = {}
        for entry in entries:
            joining.setdefault(entry[0].distance, []).append(entry)
        # the reached definitions of each file of the frontier (None: all of them)
        frontier: dict[str, frozenset[str] | None] = dict.fromkeys(found)
        frontier.update(self._joined(joining.pop(0, ()), found))
        pending = dict(seeds or {})
        distance = 0
        while (frontier or max([*pending, *joining], default=0) > distance) and (
            depth is None or distance < depth
        ):
            distance += 1
            lines = self._hop(frontier, with_imports=distance == 1, known=found)
            for path, by_via in pending.pop(distance, {}).items():
                if path not in found:
                    for via, via_lines in by_via.items():
                        lines.setdefault(path, {}).setdefault(via, set()).update(via_lines)
            frontier = {}
            for path in sorted(lines):
                by_via = lines[path]
                every = {n for via_lines in by_via.values() for n in via_lines}
                found[path] = Reach(distance, path, tuple(sorted(by_via)), tuple(sorted(every)))
                names = reached_names(self.summary_of(path), every)
                if names is None or names:
                    frontier[path] = names
            frontier.update(self._joined(joining.pop(distance, ()), found))
        return sorted(found.values())

    @staticmethod
    def _joined(
        entries: Iterable[tuple[Reach, frozenset[str]]], found: dict[str, Reach]
    ) -> dict[str, frozenset[str] | None]:
        """The entries not reached yet, put with what was found; those with names to
        follow, for the frontier."""
        frontier: dict[str, frozenset[str] | None] = {}
        for reach, names in entries:
            if reach.path not in found:
                found[reach.path] = reach
                if names:
                    frontier[reach.path] = names
        return frontier

    def _hop(
        self,
        frontier: Mapping[str, frozenset[str] | None],
        with_imports: bool,
        known: Mapping[str, Reach],
    ) -> dict[str, dict[str, set[int]]]:
        """The files not yet `known` that reach one of `frontier`'s reached definitions:
        via which file, on which lines."""
        found: dict[str, dict[str, set[int]]] = {}
        if with_imports:
            for target in sorted(frontier):
                for path, line in self.importers.get(target, ()):
                    if path not in known:
                        found.setdefault(path, {}).setdefault(target, set()).add(line)
        keys = {k for path, names in frontier.items() for k in self._keys(path, names)}
        for path, row in self.uses(keys):
            if path in known or path.endswith(".pyi"):
                continue
            to = self.finder.leads_to(path, row[0])
            if to is None or to[0] not in frontier:
                continue
            names = frontier[to[0]]
            if names is None or to[1].partition(".")[0] in names:
                found.setdefault(path, {}).setdefault(to[0], set()).update(row_lines(row))
        return found

    def _keys(self, path: str, names: frozenset[str] | None) -> list[str]:
        """The last names a use of the file's reached definitions reads: all its
        definitions' and the module's own (None), or those `names`."""
        if names is not None:
            return sorted(names)
        summary = self.summary_of(path)
        module = self.finder.module_of(path)
        keys = [name for name, _ in summary.top_level] if summary is not None else []
        return [*keys, module.rsplit(".", 1)[-1]] if module else keys


def binding_readers(
    path: str,
    made: Sequence[DefinitionSite],
    uses: RowsFor,
    ends_of: Callable[[str], Sequence[NativeEnd]],
) -> dict[str, dict[str, set[int]]]:
    """The Python files that read a name the C-family file `path` makes for Python
    (`made`: its `binding` and `op` sites), where the name leads there as the pages'
    links from Python into C++ read it (`ends_of`, see `native_calls.native_ends`):
    one hop from a change of the file, via it, on those lines."""
    made = [site for site in made if site.kind in ("binding", "op")]
    keys = {site.name for site in made}
    # the last part of a bound name as Python reads it (`CacheEntry.code`: `code`
    # after `CacheEntry`), or an operator's (`fast_ops::scale`: `fast_ops.scale`)
    tails = {site.qualname.replace("::", ".") for site in made}
    leads: dict[str, bool] = {}
    found: dict[str, dict[str, set[int]]] = {}
    for holder, row in uses(keys):
        name = row[0]
        if holder == path or holder.endswith(".pyi"):
            continue
        if name not in leads:
            near = any(name == t or f".{t}" in f"{name}." for t in tails)
            leads[name] = near and any(end.path == path for end in ends_of(name))
        if leads[name]:
            found.setdefault(holder, {}).setdefault(path, set()).update(row_lines(row))
    return found
