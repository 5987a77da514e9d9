"""The plain text scanner: the facts every text file has, whatever its language.

It is also the fallback when a language scanner fails, so it must stay tiny and
must never raise.
"""

from __future__ import annotations

import hashlib

from docgen.facts import FileFacts
from docgen.scan.decode import decode_text
from docgen.scan.languages import language_for
from docgen.scan.settings import DEFAULT_SETTINGS, ScanSettings


def count_lines(text: str) -> int:
    """Lines as an editor numbers them: only "\\n" ends a line, a last unterminated line counts.

    `str.splitlines` is not used because it also splits on form feeds and other
    separators that neither editors nor markdown-it treat as line ends.
    """
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def scan(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    decoded = decode_text(data)
    return FileFacts(
        path=path,
        kind="text",
        language=language_for(path),
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        line_count=count_lines(decoded.text),
        encoding=decoded.encoding,
        parsed=True,  # nothing to parse; undecodable bytes are listed as problems
        problems=decoded.problems,
    )
