"""Facts of files docgen shows without parsing them: unreadable ones, ones too large
to parse, and ones whose scanner crashed or hung its worker.  Each still gets its page,
and the page says why it holds no names."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from docgen.discover.readfile import open_regular, read_source
from docgen.model.facts import FileFacts, Problem, PythonFacts, ScannedFile
from docgen.model.languages import is_binary, language_for
from docgen.model.sources import SourceFile
from docgen.scan.decode import decode_python, decode_text
from docgen.scan.text import scan as scan_text


def unreadable_facts(source: SourceFile, exc: OSError) -> FileFacts:
    return FileFacts(
        path=source.path,
        kind="text",
        language=language_for(source.path),
        size=source.size,
        sha256="",
        parsed=False,
        problems=(Problem(0, f"could not be read: {exc.strerror or exc}", "error"),),
    )


def oversized_facts(source: SourceFile, limit: int) -> FileFacts:
    """A file too large to parse: its hash, size and line count, read as a stream."""
    digest = hashlib.sha256()
    size = lines = 0
    last = b"\n"
    binary = False
    with open_regular(source) as handle:
        while chunk := handle.read(1 << 20):
            if size == 0:
                binary = is_binary(chunk)
            digest.update(chunk)
            size += len(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    if binary:  # like any binary file: listed in its folder, no pages
        return FileFacts(
            path=source.path,
            kind="binary",
            language="",
            size=size,
            sha256=digest.hexdigest(),
            parsed=False,
        )
    if last != b"\n":
        lines += 1
    language = language_for(source.path)
    message = (
        f"not parsed: {human_size(size)} is more than the {human_size(limit)} "
        "docgen parses; no keywords were extracted"
    )
    return FileFacts(
        path=source.path,
        kind="python" if language == "python" else "text",
        language=language,
        size=size,
        sha256=digest.hexdigest(),
        line_count=lines,
        parsed=False,
        problems=(Problem(0, message, "warning"),),
        python=PythonFacts() if language == "python" else None,
    )


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size:,} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def crashed_facts(source: SourceFile, how: str) -> ScannedFile:
    """Facts for a file whose scanner killed or hung its process: metadata and text, no parse."""
    try:
        data = read_source(source)
    except OSError as exc:
        return ScannedFile(unreadable_facts(source, exc))
    return crashed_data(source.path, data, how)


def crashed_data(path: str, data: bytes, how: str) -> ScannedFile:
    """`crashed_facts` of bytes already read."""
    facts = scan_text(path, data)
    language = language_for(path)
    problem = Problem(0, f"the scanner {how} on this file; it is shown unparsed", "error")
    kind = "python" if language == "python" else facts.kind
    encoding = decode_python(data).encoding if kind == "python" else decode_text(data).encoding
    facts = replace(
        facts,
        kind=kind,
        language=language,
        encoding=encoding,
        parsed=False,
        problems=(*facts.problems, problem),
    )
    return ScannedFile(facts)
