"""The scanner table: one scanner per language, chosen by file name.

Adding a language is one module with a `scan(path, data) -> FileFacts` function
and one row in `SCANNERS`.  `scan_file` never raises.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from docgen.facts import FileFacts, Problem
from docgen.scan import markdown as markdown
from docgen.scan import python as python
from docgen.scan import text as text
from docgen.scan.languages import is_binary, language_for

Scanner = Callable[[str, bytes], FileFacts]

#: language -> scanner; languages without a row use the plain text scanner.
SCANNERS: dict[str, Scanner] = {
    "python": python.scan,
    "markdown": markdown.scan,
}


def binary_facts(path: str, data: bytes) -> FileFacts:
    return FileFacts(
        path=path,
        kind="binary",
        language="",
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        parsed=False,
    )


def scan_file(path: str, data: bytes) -> FileFacts:
    """Scan one file's bytes; any failure becomes a Problem in the facts."""
    if is_binary(data):
        return binary_facts(path, data)
    language = language_for(path)
    scanner = SCANNERS.get(language, text.scan)
    try:
        return scanner(path, data)
    except Exception as exc:  # a scanner bug must cost one file, not the build
        fallback = text.scan(path, data)
        problem = Problem(0, f"{language or 'text'} scanner failed: {type(exc).__name__}: {exc}")
        return FileFacts(
            path=fallback.path,
            kind=fallback.kind,
            language=language or fallback.language,
            size=fallback.size,
            sha256=fallback.sha256,
            line_count=fallback.line_count,
            encoding=fallback.encoding,
            parsed=False,
            problems=(*fallback.problems, problem),
        )
