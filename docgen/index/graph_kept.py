"""Who imports each file, and the folders' diagram edges of imports, kept between builds.

Both follow from every Python file's imports and the paths of the tree alone (see
`graph_key`).  An edit that keeps every path brings the last build's up to date from
the imports of the files it scanned, before and after, instead of resolving every
import of the tree again; each other file's imports are resolved only where a page
reads them (`ResolvedOnDemand`).  Stored as JSON, never pickled.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.index.folder_edges import (
    FolderWeights,
    add_weights,
    edge_weights,
    weight_rows,
    weights_of,
)
from docgen.index.graph import (
    PYTHON_SUFFIXES,
    ImportGraph,
    ImportTarget,
    ModuleImports,
    TargetCache,
    imported_files,
    module_maps,
    python_modules,
    resolve_imports,
)
from docgen.model.facts import Import

if TYPE_CHECKING:  # docgen.index.repo reads this module
    pass

#: Changes whenever what is stored here, or how it is read, changes.
GRAPH_FORMAT = "1"


@dataclass(frozen=True)
class KeptGraph:
    """The reverse edges and diagram edges of the import graph a build made, with what
    they were made from (see `graph_key`)."""

    key: str
    imported_by: Mapping[str, tuple[str, ...]]
    weights: FolderWeights


@dataclass(frozen=True)
class GraphEdit:
    """A Python file scanned by this build: its kind and imports as the kept graph read
    them (from its last summary)."""

    kind: str
    imports: Sequence[Import] | None


def graph_key(digests: Iterable[tuple[str, str]], roots: Sequence[str], code: str) -> str:
    """What the kept graph follows from: each Python file (`.py`, `.pyi`) of the tree with
    the digest of its facts (`digests`: every file's, in any order), the source roots and
    docgen's code."""
    rows = sorted((p, d) for p, d in digests if p.endswith(PYTHON_SUFFIXES))
    head = json.dumps([GRAPH_FORMAT, code, list(roots)])
    text = head + "\0\0" + "".join(f"{p}\0{d}\0" for p, d in rows)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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


def patched_graph(
    kept: KeptGraph,
    files: Iterable[ModuleImports],
    edits: Mapping[str, GraphEdit],
    roots: Sequence[str],
    tree: Container[str],
) -> tuple[ImportGraph, FolderWeights] | None:
    """The import graph of `files` and its diagram edges, from the kept ones and the
    imports of the files scanned now (`edits`, as they were before); None where a scanned
    file changed its kind (the graph is then made afresh).  `tree`: every path."""
    python_files = python_modules(files)
    now = {f.path: f for f in python_files}
    modules, names = module_maps(python_files, roots)
    importers = {target: set(paths) for target, paths in kept.imported_by.items()}
    weights = {folder: Counter(counts) for folder, counts in kept.weights.items()}
    for path, before in sorted(edits.items()):
        after = now.get(path)
        if after is None or before.kind != "python":
            if after is not None or before.kind == "python":
                return None  # it left or joined the graph: not what the kept one says
            continue
        old = imported_files(path, before.imports, modules, names)
        new = imported_files(path, after.imports, modules, names)
        for target in old - new:
            if path not in importers.get(target, ()):
                return None  # not what the kept graph says: made afresh
            importers[target].discard(path)
        for target in new - old:
            importers.setdefault(target, set()).add(path)
        if not _subtract(weights, edge_weights([(path, sorted(old))], tree)):
            return None
        add_weights(weights, edge_weights([(path, sorted(new))], tree))
    written = {f.path: f.imports for f in python_files if f.imports is not None}
    graph = ImportGraph(
        modules=MappingProxyType(dict(sorted(modules.items()))),
        module_names=MappingProxyType(dict(sorted(names.items()))),
        imports=ResolvedOnDemand(written, modules, names),
        imported_by=MappingProxyType(
            {k: tuple(sorted(v)) for k, v in sorted(importers.items()) if v}
        ),
    )
    return graph, {folder: counts for folder, counts in weights.items() if counts}


def _subtract(weights: FolderWeights, part: FolderWeights) -> bool:
    """`part` taken out of `weights`; False where they do not hold it."""
    for folder, counts in part.items():
        found = weights.get(folder)
        if found is None or any(found[edge] < n for edge, n in counts.items()):
            return False
        found.subtract(counts)
        for edge in [e for e, n in found.items() if n == 0]:
            del found[edge]
    return True


def encode(graph: ImportGraph, weights: FolderWeights) -> str:
    rows = list(weight_rows(weights))
    importers = [[target, list(paths)] for target, paths in graph.imported_by.items()]
    return json.dumps([GRAPH_FORMAT, importers, rows], separators=(",", ":"))


def decode(text: str | None, key: str) -> KeptGraph | None:
    """The kept graph (made from what `key` says); None when there is none, or when it
    cannot be read (it is then made afresh)."""
    if not text:
        return None
    try:
        form, importers, rows = json.loads(text)
        if form != GRAPH_FORMAT:
            return None
        imported_by = {str(t): tuple(map(str, paths)) for t, paths in importers}
        weights = weights_of((str(f), str(a), str(b), int(n)) for f, a, b, n in rows)
    except (ValueError, TypeError):
        return None
    return KeptGraph(key, MappingProxyType(imported_by), weights)
