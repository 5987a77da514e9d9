"""What a repository's index leaves for the next build: the folders' diagram edges and
the import graph, read off the whole index (the relations' own modules know nothing
of the index they feed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from docgen.index.folder_edges import FolderWeights, edge_weights
from docgen.index.graph_kept import KeptGraph, encode, graph_key
from docgen.index.repo import RepoIndex
from docgen.model.digests import code_digest


def import_weights(index: RepoIndex) -> FolderWeights:
    """Every folder's diagram edges made by Python's imports (see `edge_weights`): as kept
    by the last build and brought up to date, where they were (see `docgen.index.graph_kept`)."""
    if index.import_weights is not None:
        return index.import_weights
    files = index.files
    return edge_weights(((path, index.graph.imports_of(path)) for path in files), files)


def include_weights(index: RepoIndex) -> FolderWeights:
    """Every folder's diagram edges made by includes (kept with the C-family relations)."""
    files = index.files
    return edge_weights(((path, index.includes.includes_of(path)) for path in files), files)


def graph_to_keep(
    index: RepoIndex, digests: Mapping[str, str], roots: Sequence[str], kept: KeptGraph | None
) -> tuple[str, str | None] | None:
    """What to keep of this build's import graph for the next one: the key of what it
    was made from, and its edges (see `encode`; None where they are the kept ones: an
    edit that moved no import); None when the kept one was made from the same facts."""
    key = graph_key(digests.items(), roots, code_digest())
    if kept is not None and kept.key == key:
        return None
    weights = import_weights(index)
    if (
        kept is not None
        and dict(kept.imported_by) == dict(index.graph.imported_by)
        and kept.weights == weights
    ):
        return key, None
    return key, encode(index.graph, weights)
