"""Bytes to text, the way Python and editors read them.

Python sources honour a UTF-8 BOM and a PEP 263 coding cookie; everything else
is UTF-8 (BOM allowed).  Undecodable bytes never stop a build: they become a
`Problem` and U+FFFD in the text.
"""

from __future__ import annotations

import codecs
import io
import re
import tokenize
from dataclasses import dataclass

from docgen.model.facts import Problem


@dataclass(frozen=True)
class DecodedText:
    """A file's text and what decoding it cost, which its page shows."""

    text: str  # newlines normalised to "\n"
    encoding: str
    problems: tuple[Problem, ...] = ()
    ok: bool = True  # False when bytes had to be replaced


def _line_of_offset(data: bytes, offset: int) -> int:
    head = data[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return head.count(b"\n") + 1


def _decode(data: bytes, encoding: str) -> DecodedText:
    try:
        text = data.decode(encoding)
    except (LookupError, UnicodeError) as exc:
        if not isinstance(exc, UnicodeDecodeError):
            # A cookie naming a codec that is not a text encoding (rot13, hex, undefined).
            fallback = _decode(data, "utf-8")
            problem = Problem(1, f"cannot decode as {encoding!r}: {exc}; read as UTF-8")
            return DecodedText(fallback.text, "utf-8", (problem, *fallback.problems), ok=False)
        text = data.decode(encoding, errors="replace")
        problem = Problem(
            _line_of_offset(data, exc.start),
            f"not valid {encoding}: the byte at offset {exc.start} cannot be decoded"
            " (shown as U+FFFD)",
        )
        return DecodedText(_normalise(text), encoding, (problem,), ok=False)
    return DecodedText(_normalise(text), encoding)


def _normalise(text: str) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_python(data: bytes) -> DecodedText:
    """Decode a Python source as the interpreter would (BOM, then a coding cookie)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        decoded = _decode(data, "utf-8")
        problem = Problem(getattr(exc, "lineno", None) or 1, f"bad coding cookie: {exc.msg}")
        return DecodedText(decoded.text, "utf-8", (problem, *decoded.problems), ok=False)
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    try:
        canonical = codecs.lookup(encoding).name
    except LookupError:
        canonical = encoding
    return _decode(data, canonical)


def decode_text(data: bytes) -> DecodedText:
    """Decode any non-Python text file as UTF-8."""
    return _decode(data, "utf-8")


_LONE_RETURN = re.compile(rb"\r(?!\n)")


def lone_returns_as_newlines(data: bytes) -> bytes:
    """A file whose lines end in a lone CR (classic Mac) read as its decoded text is, and
    as every other file of the tree: each lone CR a line end.  Byte for byte, so every
    offset is the original's; the C-family grammar and its line numbers count only LF."""
    return _LONE_RETURN.sub(b"\n", data) if b"\r" in data else data


def count_lines(text: str) -> int:
    """Lines as an editor numbers them: only "\\n" ends a line, a last unterminated line counts.

    `str.splitlines` is not used because it also splits on form feeds and other
    separators that neither editors nor markdown-it treat as line ends.
    """
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
