"""The edges of every folder's diagram: how its files and subfolders import (or include)
each other, counted in one pass over the tree's relations and kept between builds.
The renderer draws them (`docgen.render.diagram_views`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Iterator, Mapping

#: Every folder's diagram edges: folder -> (node, node) -> imports and includes.
FolderWeights = dict[str, Counter[tuple[str, str]]]
#: One diagram edge as kept between builds: folder, node, node, count.
EdgeRow = tuple[str, str, str, int]


def merged_weights(*parts: FolderWeights) -> FolderWeights:
    """The edges of every part, counted together."""
    weights: FolderWeights = {}
    for part in parts:
        add_weights(weights, part)
    return weights


def weight_rows(weights: Mapping[str, Counter[tuple[str, str]]]) -> Iterator[EdgeRow]:
    """Folders' diagram edges as rows, sorted: how they are kept (see `weights_of`)."""
    for folder, counts in sorted(weights.items()):
        for (a, b), count in sorted(counts.items()):
            yield folder, a, b, count


def weights_of(rows: Iterable[EdgeRow]) -> FolderWeights:
    """Folders' diagram edges from their rows (see `weight_rows`)."""
    weights: FolderWeights = {}
    for folder, a, b, count in rows:
        counts = weights.get(folder)
        if counts is None:  # not `setdefault`, which would make a Counter for every row
            counts = weights[folder] = Counter()
        counts[(a, b)] = count
    return weights


def add_weights(weights: FolderWeights, part: FolderWeights) -> None:
    """Count `part`'s edges into `weights`."""
    for folder, counts in part.items():
        found = weights.get(folder)
        if found is None:
            weights[folder] = Counter(counts)
        else:
            found.update(counts)


def edge_weights(
    edges: Iterable[tuple[str, Iterable[str]]], files: Container[str]
) -> FolderWeights:
    """Every folder's diagram edges from these (file, targets), in one pass.

    An edge between two files is drawn in one folder only: the deepest one that
    holds both, where they are different nodes; in every folder above it, both
    are inside the same subfolder node.  One pass over the edges therefore makes
    every folder's diagram, where walking each folder's own subtree would visit a
    file once per folder above it.  Targets that are not files of the index are
    left out (`files`: every file of the tree).
    """
    weights: FolderWeights = {}
    split: dict[str, list[str]] = {}  # a header included by thousands is split once
    for path, targets in edges:
        parts: list[str] | None = None
        for target in targets:
            other = split.get(target)
            if other is None:
                if target not in files:
                    continue
                other = split[target] = target.split("/")
            if parts is None:
                parts = path.split("/")
            common = 0
            folders = min(len(parts), len(other)) - 1  # folders both paths can share
            while common < folders and parts[common] == other[common]:
                common += 1
            a = parts[common] + ("/" if common < len(parts) - 1 else "")
            b = other[common] + ("/" if common < len(other) - 1 else "")
            if a != b:
                folder = "/".join(parts[:common])
                found = weights.get(folder)
                if found is None:
                    found = weights[folder] = Counter()
                found[(a, b)] += 1
    return weights
