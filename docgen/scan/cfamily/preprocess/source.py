"""Where things stand in C-family source, found without parsing: preprocessor
lines, the ends of calls' argument lists, the arguments themselves, and
string literals.  Each costs time linear in the file, whatever its content.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

#: every byte to a space but line ends, which keep the lines where they were
BLANKED = bytes(b if b in (10, 13) else 32 for b in range(256))
#: the rest of a line after a call: nothing, or a comment
LINE_REST = re.compile(rb"[ \t]*(?://[^\n]*|/\*[^\n]*?\*/[ \t]*)?(?:\r?\n|\Z)")
#: the rest of a line after a call that ends a statement: `;`, then nothing or a comment
SEMICOLON_REST = re.compile(rb"[ \t]*;" + LINE_REST.pattern)
#: how far a macro's call is followed for its closing parenthesis: an attribute's
#: arguments or a declaration are never longer, and a file of unclosed calls costs no
#: more than this per call
_CALL_REACH = 1 << 11
_PAREN = re.compile(rb"[()]")
#: a string or character literal (to its line's end where its quote does not close) or a
#: comment: where brackets, quotes and words are text, not code
LITERAL_OR_COMMENT = (
    rb"\"(?:\\.|[^\"\\\n])*\"?|'(?:\\.|[^'\\\n])*'?|//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?"
)
#: what a call's arguments are read by: brackets, commas, and literals and comments,
#: which hide both
_CALL_TOKEN = re.compile(rb"[()\[\]{},]|" + LITERAL_OR_COMMENT)


#: a byte that can end a name: before a keyword a pattern starts with, it makes the
#: keyword part of another word
_WORD_BYTE = re.compile(rb"\w")


def whole_word_matches(pattern: re.Pattern[bytes], data: bytes) -> Iterator[re.Match[bytes]]:
    """The matches of `pattern` whose first word is a whole word.  Patterns start with
    the word itself rather than `\\b`, so that the engine jumps from one to the next."""
    for match in pattern.finditer(data):
        if not _WORD_BYTE.match(data, max(0, match.start() - 1), match.start()):
            yield match


def kept_argument(
    data: bytes, pos: int, place: int, close_at: int | None = None
) -> tuple[tuple[int, int], int] | None:
    """For a call whose `(` is at or after `pos` (after blanks): the span of its
    argument at `place` (from 1, blanks around it left out; a negative place: every
    argument from `-place` on, a variadic parameter's) and the end of the call; None
    without such a call, or when that argument is empty.  Commas inside brackets,
    strings and comments part nothing.
    The call is followed `_CALL_REACH` bytes, or to `close_at` where its closing
    parenthesis is known (`Calls.arguments`): code given to a macro can be long."""
    i = _opening(data, pos, b" \t\r\n")
    if i < 0:
        return None
    starts, depth, close = [i + 1], 0, -1
    limit = close_at + 1 if close_at is not None else min(len(data), i + _CALL_REACH)
    for token in _CALL_TOKEN.finditer(data, i, limit):
        first = data[token.start()]
        if first in b"([{":
            depth += 1
        elif first in b")]}":
            depth -= 1
            if depth == 0:
                close = token.start()
                break
        elif first == ord(",") and depth == 1:
            starts.append(token.end())
    rest = place < 0
    place = abs(place)
    if close < 0 or place > len(starts):
        return None
    start = starts[place - 1]
    end = starts[place] - 1 if place < len(starts) and not rest else close
    text = data[start:end]
    if not text.strip():
        return None  # an empty argument (`SINGLE_ARG()`): nothing is kept
    lead = len(text) - len(text.lstrip())
    return (start + lead, start + len(text.rstrip())), close + 1


def string_end(data: bytes, pos: int) -> int:
    """The closing quote of the string or character literal opened at `pos` (the end of
    its line when it does not close there)."""
    quote = data[pos]
    i = pos + 1
    while i < len(data) and data[i] != quote and data[i] != ord("\n"):
        i += 2 if data[i] == ord("\\") else 1
    return min(i, len(data) - 1)


def directives_matching(
    pattern: re.Pattern[bytes], data: bytes, pos: int = 0
) -> Iterator[re.Match[bytes]]:
    """The matches of `pattern`, which starts at a `#`, that stand first on their line
    (from `pos`, a line's start, on): the directives it finds (a pattern that starts
    with a character is searched for ten times as fast as one anchored at every line).
    A line is searched no further once other text stands before a `#` on it, so a long
    line costs its length once."""
    while (match := pattern.search(data, pos)) is not None:
        start = match.start()
        if data[data.rfind(b"\n", 0, start) + 1 : start].strip(b" \t"):
            line_end = data.find(b"\n", start)
            pos = len(data) if line_end < 0 else line_end + 1
            continue
        yield match
        pos = match.end()


def directive_end(data: bytes, pos: int) -> int:
    """Where the directive on the line at `pos` ends: the newline of its last line (one
    not continued with a backslash), or the end of the file."""
    while True:
        line_end = data.find(b"\n", pos)
        if line_end < 0:
            return len(data)
        last = line_end - 1
        if last >= 0 and data[last] == ord("\r"):
            last -= 1
        if last < pos or data[last] != ord("\\"):
            return line_end
        pos = line_end + 1


class LinePattern:
    """A pattern matched only from the start of a line, found about four times as fast
    as with `^` and `re.MULTILINE` (with which Python's engine tries every byte): the
    newline before the line leads, and the engine jumps from one to the next.  Groups
    are those of `body`; a match's `start()` is the newline before its line but on the
    first line (see `line_start`).  `body` must not match a newline at its start or end,
    nor match nothing."""

    def __init__(self, body: bytes) -> None:
        self._first = re.compile(body)
        self._after = re.compile(b"\n(?:" + body + b")")

    def finditer(self, data: bytes) -> Iterator[re.Match[bytes]]:
        first = self._first.match(data)
        if first is not None:
            yield first
        yield from self._after.finditer(data, first.end() if first is not None else 0)

    def search(self, data: bytes) -> re.Match[bytes] | None:
        return self._first.match(data) or self._after.search(data)

    def line_start(self, match: re.Match[bytes]) -> int:
        """Where the line of `match` starts."""
        return match.start() + (match.re is self._after)


class Directives:
    """Where a file's preprocessor lines are, their backslash-continued lines
    included: found in one pass, the first time they are asked for."""

    _START = LinePattern(rb"[ \t]*#")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._read = False

    def _find(self) -> None:
        data = self._data
        for match in self._START.finditer(data):
            start = self._START.line_start(match)
            if start < (self._ends[-1] if self._ends else 0):
                continue  # a continued line of the directive before
            before = data[max(0, start - 3) : max(0, start - 1)]
            if start > 1 and before.endswith((b"\\", b"\\\r")):
                continue  # continues a line that is no directive
            self._starts.append(start)
            self._ends.append(directive_end(data, start))
        self._read = True

    def holds(self, pos: int) -> bool:
        """Whether `pos` is on a preprocessor line, its continued lines included."""
        if not self._read:
            self._find()
        at = bisect.bisect_right(self._starts, pos) - 1
        return at >= 0 and pos <= self._ends[at]


class Calls:
    """Where the argument lists of one file's calls end.  The first calls are followed
    parenthesis by parenthesis; a file with many (a generated table of macro calls)
    has every parenthesis matched in one pass instead, so that its cost stays linear."""

    _FOLLOWED = 32  # calls followed one by one before all are matched at once

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._followed = 0
        self._closing: dict[int, int] | None = None
        self._closing_in_code: dict[int, int] | None = None

    def arguments(self, pos: int) -> tuple[int, int] | None:
        """The span inside the parentheses of a call whose `(` is at or after `pos` (after
        blanks), however long its arguments: every parenthesis of the file outside
        literals and comments is matched in one pass, the first time one is asked for.
        None without such a call, or when it does not close."""
        data = self._data
        i = _opening(data, pos, b" \t\r\n")
        if i < 0:
            return None
        if self._closing_in_code is None:
            self._closing_in_code = _matched_parens(data, _CALL_TOKEN)
        close = self._closing_in_code.get(i)
        if close is None or _DIRECTIVE_LINE.search(data, i, close):
            return None  # parentheses paired across `#if` branches: nothing is trusted
        return i + 1, close

    def args_end(self, pos: int) -> int:
        """The end of a parenthesised argument list starting at or after `pos` (after
        blanks), else `pos` (also when it does not close within `_CALL_REACH` bytes)."""
        data = self._data
        i = _opening(data, pos, b" \t")
        if i < 0:
            return pos
        if self._closing is None and self._followed >= self._FOLLOWED:
            self._closing = _matched_parens(data)
        if self._closing is not None:
            close = self._closing.get(i)
            return close + 1 if close is not None and close < i + _CALL_REACH else pos
        self._followed += 1
        depth = 0
        for paren in _PAREN.finditer(data, i, min(len(data), i + _CALL_REACH)):
            depth += 1 if paren.group() == b"(" else -1
            if depth == 0:
                return paren.end()
        return pos  # unbalanced: leave the rest alone


def _opening(data: bytes, pos: int, blanks: bytes) -> int:
    """Where a `(` stands at `pos` after `blanks`; -1 when something else does."""
    i = pos
    while i < len(data) and data[i] in blanks:
        i += 1
    return i if i < len(data) and data[i] == ord("(") else -1


def _matched_parens(data: bytes, tokens: re.Pattern[bytes] = _PAREN) -> dict[int, int]:
    """Offset of each `(` -> offset of the `)` that closes it, among the `tokens` of
    `data` (`_CALL_TOKEN`: the parentheses of literals and comments left out)."""
    closing: dict[int, int] = {}
    open_at: list[int] = []
    for token in tokens.finditer(data):
        first = data[token.start()]
        if first == ord("("):
            open_at.append(token.start())
        elif first == ord(")") and open_at:
            closing[open_at.pop()] = token.start()
    return closing


_DIRECTIVE_LINE = re.compile(rb"\n[ \t]*#")
