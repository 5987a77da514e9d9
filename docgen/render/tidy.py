"""Whitespace clean-up applied to every rendered page.

Templates are easier to read when they may leave blank lines and stray spaces
behind; this pass gives every page the same shape whatever template made it:
no trailing spaces, no run of more than one blank line, no blank lines at the
top, exactly one newline at the end.  Fenced code blocks are copied verbatim,
because they hold embedded source that must round-trip byte for byte.
"""

from __future__ import annotations

import re
from functools import cache

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


@cache
def _closer(marker: str) -> re.Pattern[str]:
    """The line that closes a fence opened with `marker`: the same character, at least
    as many, indented at most three spaces, nothing after but spaces and tabs."""
    return re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$", re.MULTILINE)


def tidy(page: str) -> str:
    """Normalise whitespace outside fenced code blocks (see the module docstring).

    A fence's body is found by one search for its closing line and copied whole:
    embedded source is most of a docs page.
    """
    out: list[str] = []
    blank_pending = False
    pos, end = 0, len(page)
    while pos <= end:
        newline = page.find("\n", pos)
        if newline < 0:
            newline = end
        line = page[pos:newline].rstrip()
        pos = newline + 1
        if not line:
            blank_pending = bool(out)
            continue
        if blank_pending:
            out.append("")
            blank_pending = False
        out.append(line)
        opened = _FENCE_OPEN.match(line)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            closing = _closer(opened.group(1)).search(page, pos) if pos <= end else None
            body_end = closing.end() if closing is not None else end
            out.extend(page[pos:body_end].split("\n"))
            pos = body_end + 1
    return "\n".join(out).rstrip("\n") + "\n" if out else ""
