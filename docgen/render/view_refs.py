"""The smallest pieces every view holds: a line of a file and a link to a page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LineRef:
    """A source line; `href` is "" when the line cannot be linked (0 or past the end)."""

    line: int
    href: str


@dataclass(frozen=True)
class LinkView:
    """A link to a path; `label` is raw text (shown as code), `href` is encoded."""

    label: str
    href: str
