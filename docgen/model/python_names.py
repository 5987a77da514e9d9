"""How Python's `ast` spells a dotted name and a line: shared by the Python scanners and
the test collector, which read the same trees."""

from __future__ import annotations

import ast


def dotted_parts(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"], or None when the chain is not rooted at a name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    parts.reverse()
    return parts


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` of a Name/Attribute chain, else None."""
    parts = dotted_parts(node)
    return None if parts is None else ".".join(parts)


def node_line(node: ast.AST) -> int:
    """A node's line; 0 for a node built without one, which a parse never gives."""
    line = getattr(node, "lineno", None)
    return line if isinstance(line, int) else 0
