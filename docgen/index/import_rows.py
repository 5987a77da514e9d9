"""Who imports each file, as a relation (`docgen.index.relations`): each Python file's
rows are the (file, line) of every repository file its imports lead to.

The rows follow from the file's own imports and the module names of the tree (every
Python path and the source roots) alone.  An edit that keeps every Python path makes
again only the rows of the files it changed; every other file's imports are then
resolved only where a page reads them (`ResolvedOnDemand`), and who imports each
file, and the folders' diagram edges of imports, come from the rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType

from docgen.index.folder_edges import FolderWeights, edge_weights
from docgen.index.graph import (
    ImportGraph,
    ImportTarget,
    ModuleImports,
    TargetCache,
    build_graph,
    is_module,
    module_maps,
    python_modules,
    resolve_imports,
)
from docgen.index.relations import Kept, Relation, RelationRows, made_from, stale_paths
from docgen.model.facts import Import

ImportRow = tuple[str, int]  # (the file imported, the line of the import)


def _row(data: list[str | int]) -> ImportRow:
    target, line = data
    if not isinstance(target, str) or not isinstance(line, int):
        raise TypeError("an import row is (file, line)")
    return target, line


def _target(row: ImportRow) -> str:
    return row[0]


IMPORTS: Relation[ImportRow] = Relation("imports", "1", _target, _row)


def import_context(code: str, roots: Sequence[str], python_paths: Sequence[str]) -> str:
    """What every file's import rows follow from besides its facts: the module names of
    the tree (its Python paths and the roots) and docgen's code."""
    return IMPORTS.context(code, list(roots), sorted(python_paths))


def rows_of(resolved: Sequence[ImportTarget]) -> tuple[ImportRow, ...]:
    """A file's rows: each repository file its imports lead to, on each line."""
    return tuple(sorted({(t, target.line) for target in resolved for t in target.targets}))


class ResolvedOnDemand(Mapping[str, tuple[ImportTarget, ...]]):
    """Each Python file's imports resolved when first read (`ImportGraph.imports`)."""

    def __init__(
        self,
        written: Mapping[str, Sequence[Import]],
        modules: Mapping[str, str],
        names: Mapping[str, str],
    ) -> None:
        self._written = written
        self._modules = modules
        self._names = names
        self._resolved: dict[str, tuple[ImportTarget, ...]] = {}
        self._cache: TargetCache = {}

    def __getitem__(self, path: str) -> tuple[ImportTarget, ...]:
        found = self._resolved.get(path)
        if found is None:
            written = self._written[path]
            found = resolve_imports(path, written, self._modules, self._names, self._cache)
            self._resolved[path] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._written)

    def __len__(self) -> int:
        return len(self._written)


def import_graph(
    files: Sequence[ModuleImports],
    roots: Sequence[str],
    kept: Kept,
    digests: Mapping[str, str],
    code: str,
    tree: Sequence[str],
) -> tuple[ImportGraph, RelationRows[ImportRow], FolderWeights | None]:
    """The import graph of `files`, its rows (the `kept` ones where they still hold, see
    `IMPORTS`) and, when rows were kept, the folders' diagram edges made from them (None:
    made from the graph when first needed).  `digests`: each file's facts digest;
    `tree`: every path."""
    python_files = python_modules(files)
    context = import_context(code, roots, [f.path for f in python_files])
    sources = made_from(context, digests, (f.path for f in python_files))
    stale = stale_paths(kept, sources)
    if len(stale) == len(sources):  # nothing kept holds: every import resolved now
        graph = build_graph(python_files, roots)
        everything = graph.imports

        def made(path: str) -> tuple[ImportRow, ...]:
            return rows_of(everything.get(path, ()))

        return graph, RelationRows(IMPORTS, kept, sources, made), None
    modules, names = module_maps(python_files, roots)
    written = {f.path: f.imports for f in python_files if f.imports is not None}
    resolved = ResolvedOnDemand(written, modules, names)

    def resolved_rows(path: str) -> tuple[ImportRow, ...]:
        return rows_of(resolved[path]) if path in written else ()

    rows = RelationRows(IMPORTS, kept, sources, resolved_rows)
    importers: dict[str, set[str]] = {}
    targets: dict[str, list[str]] = {}
    for path, found in rows.rows.items():
        if is_module(path) and found:
            files_imported = sorted({target for target, _ in found})
            targets[path] = files_imported
            for target in files_imported:
                importers.setdefault(target, set()).add(path)
    graph = ImportGraph(
        modules=MappingProxyType(dict(sorted(modules.items()))),
        module_names=MappingProxyType(dict(sorted(names.items()))),
        imports=resolved,
        imported_by=MappingProxyType({k: tuple(sorted(v)) for k, v in sorted(importers.items())}),
    )
    return graph, rows, edge_weights(sorted(targets.items()), frozenset(tree))
