"""Whitespace clean-up applied to every rendered page.

Templates are easier to read when they may leave blank lines and stray spaces
behind; this pass gives every page the same shape whatever template made it:
no trailing spaces, no run of more than one blank line, no blank lines at the
top, exactly one newline at the end.  Fenced code blocks are copied verbatim,
because they hold embedded source that must round-trip byte for byte.
"""

from __future__ import annotations

import re

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _closes(line: str, marker: str) -> bool:
    """Whether a line closes a fence opened with `marker` (same character, at least as long)."""
    stripped = line.lstrip(" ")
    if not stripped.startswith(marker) or len(line) - len(stripped) > 3:
        return False
    return stripped.rstrip(" \t").strip(marker[0]) == ""


def tidy(page: str) -> str:
    """Normalise whitespace outside fenced code blocks (see the module docstring)."""
    out: list[str] = []
    fence = ""  # the opening marker of the fence we are in, "" outside fences
    blank_pending = False
    for line in page.split("\n"):
        if fence:
            out.append(line)
            if _closes(line, fence):
                fence = ""
            continue
        line = line.rstrip()
        if not line:
            blank_pending = bool(out)
            continue
        if blank_pending:
            out.append("")
            blank_pending = False
        out.append(line)
        opened = _FENCE_OPEN.match(line)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
    return "\n".join(out).rstrip("\n") + "\n" if out else ""
