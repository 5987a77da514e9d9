"""A folder's import diagram: how its files and subfolders import (or include) each other.

Drawn as Mermaid in the folder's `doc.md` (GitHub renders it; the HTML site ships
the renderer).  A subfolder is one node for everything below it; only nodes with
an edge are drawn, the most connected first, at most `DIAGRAM_NODES` of them, and
the page says what was left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docgen.index import RepoIndex

#: Nodes drawn at most: beyond this a diagram stops being readable.
DIAGRAM_NODES = 24


@dataclass(frozen=True)
class DiagramView:
    """A Mermaid diagram and what it had to leave out, which the page says."""

    mermaid: str  # the diagram's text, without the fence
    nodes: int  # nodes drawn
    edges: int  # edges drawn
    left_out: int  # connected nodes not drawn (over the cap)


#: Every folder's diagram edges: folder -> (node, node) -> imports and includes.
FolderWeights = dict[str, Counter[tuple[str, str]]]
#: One diagram edge as kept between builds: folder, node, node, count.
EdgeRow = tuple[str, str, str, int]


def import_weights(index: RepoIndex) -> FolderWeights:
    """Every folder's diagram edges made by Python's imports (see `edge_weights`): as kept
    by the last build and brought up to date, where they were (see `docgen.graph_kept`)."""
    if index.import_weights is not None:
        return index.import_weights
    files = index.files
    return edge_weights(((path, index.graph.imports_of(path)) for path in files), files)


def include_weights(index: RepoIndex) -> FolderWeights:
    """Every folder's diagram edges made by includes (kept with the C-family relations)."""
    files = index.files
    return edge_weights(((path, index.includes.includes_of(path)) for path in files), files)


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


def import_diagram(weights: Counter[tuple[str, str]] | None) -> DiagramView | None:
    """A folder's diagram from its edges (see `import_weights`), or None when none of its
    parts imports another."""
    if not weights:
        return None
    degree: Counter[str] = Counter()
    for a, b in weights:
        degree[a] += 1
        degree[b] += 1
    ranked = sorted(degree, key=lambda n: (-degree[n], n))
    kept = sorted(ranked[:DIAGRAM_NODES])
    ids = {name: f"n{i}" for i, name in enumerate(kept)}
    lines = ["graph LR"]
    lines.extend(f'  {ids[name]}["{_label(name)}"]' for name in kept)
    drawn = [(a, b) for a, b in sorted(weights) if a in ids and b in ids]
    lines.extend(f"  {ids[a]} --> {ids[b]}" for a, b in drawn)
    return DiagramView("\n".join(lines), len(kept), len(drawn), len(ranked) - len(kept))


def _label(name: str) -> str:
    """A node's text as Mermaid shows it literally (its entity codes for the rest)."""
    return "".join(ch if ch.isalnum() or ch in "._-/+ " else f"#{ord(ch)};" for ch in name)
