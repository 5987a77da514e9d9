"""The plain text scanner: the facts every text file has, whatever its language.

It is also the fallback when a language scanner fails, so it must stay tiny and
must never raise.
"""

from __future__ import annotations

import hashlib

from docgen.model.facts import FileFacts
from docgen.model.languages import language_for
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings
from docgen.scan.decode import DecodedText, count_lines, decode_text


def scan(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    return text_facts(path, data, decode_text(data))


def text_facts(path: str, data: bytes, decoded: DecodedText) -> FileFacts:
    """The facts every text file has, from its bytes and their decoding; a language's
    scanner puts its own facts, kind and problems in (`dataclasses.replace`)."""
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
