"""The scanner table: one scanner per language, chosen by file name.

Adding a language is one module with a `scan(path, data, settings) -> FileFacts`
function and one row in `SCANNERS`; the module may also have a `prepare_for_many()`,
which makes what repays its cost only over many files.  `scan_file` never raises.
Scanner modules load on first use: a build that parses nothing never loads libcst.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import cast

from docgen.model.facts import FileFacts, Problem
from docgen.model.languages import is_binary, language_for
from docgen.scan import text as text
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings

Scanner = Callable[[str, bytes, ScanSettings], FileFacts]

#: language -> the module whose `scan` reads it; other languages get the text scanner.
SCANNERS: dict[str, str] = {
    "python": "docgen.scan.python.scanner",
    "markdown": "docgen.scan.markdown.scanner",
    "c": "docgen.scan.cfamily.scanner",
    "cpp": "docgen.scan.cfamily.scanner",
    "cuda": "docgen.scan.cfamily.scanner",
    "objective-c++": "docgen.scan.cfamily.scanner",  # read as C++, Objective-C set aside
    "yaml": "docgen.scan.yaml.scanner",
}


def scanner_for(language: str) -> Scanner:
    module = SCANNERS.get(language)
    if module is None:
        return text.scan
    return cast(Scanner, importlib.import_module(module).scan)


def preload_scanners(languages: Iterable[str] | None = None, many: bool = False) -> None:
    """Load the scanners of these languages (of every one when None) now, e.g. once before
    forking many workers that all need them; a scanner no file needs is not worth its
    loading time (libcst's is most of a small build's start).  `many`: also prepare them
    for many files (see `prepare_loaded_for_many`)."""
    chosen = SCANNERS if languages is None else languages
    for module in sorted({SCANNERS[lang] for lang in chosen if lang in SCANNERS}):
        loaded = importlib.import_module(module)
        if many:
            _prepare_for_many(loaded)


def prepare_loaded_for_many() -> None:
    """Prepare the scanners loaded so far for many files: what they make then costs more
    than one file's scan saves (libcst's unchecked constructors, see `cst_parse`)."""
    for module in sorted(set(SCANNERS.values())):
        loaded = sys.modules.get(module)
        if loaded is not None:
            _prepare_for_many(loaded)


def _prepare_for_many(module: ModuleType) -> None:
    prepare = getattr(module, "prepare_for_many", None)
    if prepare is not None:
        prepare()


def binary_facts(path: str, data: bytes) -> FileFacts:
    return FileFacts(
        path=path,
        kind="binary",
        language="",
        size=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        parsed=False,
    )


def scan_file(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    """Scan one file's bytes; any failure becomes a Problem in the facts."""
    if is_binary(data):
        return binary_facts(path, data)
    language = language_for(path)
    scanner = scanner_for(language)
    try:
        return scanner(path, data, settings)
    except Exception as exc:  # a scanner bug must cost one file, not the build
        fallback = text.scan(path, data, settings)
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
