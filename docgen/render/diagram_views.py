"""A folder's import diagram: how its files and subfolders import (or include) each other.

Drawn as Mermaid in the folder's `doc.md` (GitHub renders it; the HTML site ships
the renderer).  A subfolder is one node for everything below it; only nodes with
an edge are drawn, the most connected first, at most `DIAGRAM_NODES` of them, and
the page says what was left out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

#: Nodes drawn at most: beyond this a diagram stops being readable.
DIAGRAM_NODES = 24


@dataclass(frozen=True)
class DiagramView:
    """A Mermaid diagram and what it had to leave out, which the page says."""

    mermaid: str  # the diagram's text, without the fence
    nodes: int  # nodes drawn
    edges: int  # edges drawn
    left_out: int  # connected nodes not drawn (over the cap)


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
