"""Whitespace clean-up applied to every rendered page.

Templates are easier to read when they may leave blank lines and stray spaces
behind; this pass gives every page the same shape whatever template made it:
no trailing spaces, no run of more than one blank line, no blank lines at the
top, exactly one newline at the end.  Fenced code blocks are copied verbatim,
because they hold embedded source that must round-trip byte for byte (but for a NUL
byte, which becomes U+FFFD).
"""

from __future__ import annotations

import re
from functools import cache

_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


@cache
def _closer(marker: str) -> re.Pattern[str]:
    """The line that closes a fence opened with `marker`: the same character, at least
    as many, indented at most three spaces, nothing after but spaces and tabs."""
    return re.compile(rf"^ {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$", re.MULTILINE)


class _Runs:
    """Where the next run of three backticks and of three tildes start, each found once:
    a page without tildes would otherwise be searched to its end at every fence."""

    def __init__(self, page: str) -> None:
        self._page = page
        self._found = {"```": -2, "~~~": -2}

    def at(self, run: str, pos: int) -> int:
        found = self._found[run]
        if found == -2 or 0 <= found < pos:
            found = self._page.find(run, pos)
            self._found[run] = found
        return found


def _next_fence(page: str, pos: int, runs: _Runs) -> re.Match[str] | None:
    """The next line at or after `pos` (a line's start) that opens a fence; a backtick
    fence's info string may not hold a backtick.  Only lines with a run of three
    backticks or tildes are looked at."""
    end = len(page)
    while pos < end:
        ticks, tildes = runs.at("```", pos), runs.at("~~~", pos)
        found = min(ticks, tildes) if ticks >= 0 and tildes >= 0 else max(ticks, tildes)
        if found < 0:
            return None
        start = page.rfind("\n", pos, found) + 1 or pos
        stop = page.find("\n", found)
        stop = end if stop < 0 else stop
        opened = _FENCE_OPEN.fullmatch(page, start, stop)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            return opened
        pos = stop + 1
    return None


def _lines(text: str, out: list[str], pending: bool) -> bool:
    """Add the whole lines of `text` (outside fences) to `out`, tidied; whether a blank
    line is owed before whatever comes next."""
    if not text:
        return pending
    lines = "\n".join(map(str.rstrip, text.split("\n")))
    if text.endswith("\n"):
        lines = lines[:-1]
    core = lines.strip("\n")
    if not core:
        return bool(out)  # blank lines only
    if (pending or lines.startswith("\n")) and out:
        out.append("")
    while "\n\n\n" in core:  # two or more blank lines in a row become one
        core = core.replace("\n\n\n", "\n\n")
    out.append(core)
    return lines.endswith("\n")


def tidy(page: str) -> str:
    """Normalise whitespace outside fenced code blocks (see the module docstring).

    The text between fences is tidied a whole stretch at a time with string methods,
    and a fence's body is found by one search for its closing line and copied whole:
    embedded source is most of a docs page.  A NUL byte from a source becomes U+FFFD,
    as CommonMark reads it: a raw NUL would make the page a binary file to git and grep.
    """
    page = page.replace("\0", "\ufffd")
    out: list[str] = []
    pending = False
    pos, end = 0, len(page)
    runs = _Runs(page)
    while pos <= end:
        opened = _next_fence(page, pos, runs)
        pending = _lines(page[pos : opened.start() if opened else end], out, pending)
        if opened is None:
            break
        if pending:
            out.append("")
            pending = False
        out.append(opened.group(0).rstrip())
        body = opened.end() + 1
        closing = _closer(opened.group(1)).search(page, body) if body <= end else None
        body_end = closing.end() if closing is not None else end
        out.append(page[body:body_end])
        pos = body_end + 1
    return "\n".join(out).rstrip("\n") + "\n" if out else ""
