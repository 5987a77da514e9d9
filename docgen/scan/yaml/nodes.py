"""PyYAML nodes as docgen reads them: lines, and a value as written on one line.

Nodes come from `yaml.compose`, which builds no Python objects (so no tag of the file
can run code), and an anchor used inside itself makes a cycle: every walk here goes a
bounded depth."""

from __future__ import annotations

import yaml

#: how deep a value is followed when it is written out (`a: {b: [c]}`)
MAX_DEPTH = 4


def first_line(node: yaml.Node) -> int:
    """The 1-based line a node starts on."""
    return int(node.start_mark.line) + 1


def last_line(node: yaml.Node, depth: int = 0) -> int:
    """The 1-based line a node ends on: its last value's (a block's own end mark lies
    past the comments and blank lines after it), a scalar's end mark being just past it."""
    if isinstance(node, yaml.MappingNode) and node.value and depth < MAX_DEPTH:
        return last_line(node.value[-1][1], depth + 1)
    if isinstance(node, yaml.SequenceNode) and node.value and depth < MAX_DEPTH:
        return last_line(node.value[-1], depth + 1)
    end = node.end_mark
    return max(first_line(node), int(end.line) + (0 if end.column == 0 else 1))


def holds(node: yaml.Node) -> str:
    """What a key's value is: "mapping", "list" or "value"."""
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return "value"


def scalar(node: yaml.Node) -> str | None:
    """A scalar's text, None for a list or mapping."""
    return str(node.value) if isinstance(node, yaml.ScalarNode) else None


def as_text(node: yaml.Node, depth: int = 0) -> str:
    """A value on one line: a scalar as is, a list as `a, b`, a mapping as `k: v; k: v`."""
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    if depth >= MAX_DEPTH:
        return f"(nested deeper than {MAX_DEPTH} levels)"  # or an anchor used in itself
    if isinstance(node, yaml.SequenceNode):
        return ", ".join(as_text(item, depth + 1) for item in node.value)
    if isinstance(node, yaml.MappingNode):
        return "; ".join(
            f"{as_text(key, depth + 1)}: {as_text(value, depth + 1)}" for key, value in node.value
        )
    return ""


def pairs(node: yaml.Node) -> list[tuple[str, yaml.Node, int]]:
    """A mapping's scalar keys with their values and lines (other keys are skipped)."""
    if not isinstance(node, yaml.MappingNode):
        return []
    found = []
    for key, value in node.value:
        name = scalar(key)
        if name is not None:
            found.append((name, value, first_line(key)))
    return found
