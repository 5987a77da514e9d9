"""Facts archives: the facts cache of one output folder, carried to another.

An archive comes from a CI artifact or a shared cache, so it is untrusted input:
it is JSON (never pickle) inside gzip, opens with a header naming its format and
docgen's version, and ends with a footer holding the count and digest of its rows,
so that a truncated or altered archive is refused as a whole.  Every row is
checked again on import (its facts decode, and name its own path and content
hash).  Importing merges rows so that the result does not depend on the order of
the archives: where two rows claim one path, the same rule always picks one, and a
build still believes a row only when the file's content hash and docgen's code
key match.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from docgen import __version__
from docgen.errors import DocgenError
from docgen.facts import ScannedFile
from docgen.serialize import loads
from docgen.state.facts import SCHEMA
from docgen.state.keys import facts_digest

FORMAT = "docgen-facts"
FORMAT_VERSION = 1


class ArchiveRefused(DocgenError):
    """An archive that is not docgen's, is damaged, or comes from another version."""


class FactsRow(NamedTuple):
    path: str
    sha256: str
    key: str  # the facts key of the code that made them
    facts: str  # their JSON


def export_rows(conn: sqlite3.Connection, target: Path) -> int:
    """Write every facts row of this state to `target`; how many.  The same rows always
    give the same bytes (sorted, and gzip without a time stamp)."""
    rows = [
        FactsRow(*row)
        for row in conn.execute("SELECT path, sha256, key, facts FROM files ORDER BY path, key")
    ]
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as packed:
        for line in _lines(rows):
            packed.write(line.encode("utf-8") + b"\n")
    target.write_bytes(buffer.getvalue())
    return len(rows)


def _lines(rows: Iterable[FactsRow]) -> Iterator[str]:
    yield json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "docgen": __version__})
    digest = hashlib.sha256()
    count = 0
    for row in rows:
        line = json.dumps(list(row), ensure_ascii=False)
        digest.update(line.encode("utf-8") + b"\n")
        count += 1
        yield line
    yield json.dumps({"rows": count, "sha256": digest.hexdigest()})


def read_archive(source: Path) -> list[FactsRow]:
    """Every row of one archive, checked; ArchiveRefused (one line saying why) otherwise."""
    try:
        text = gzip.decompress(source.read_bytes()).decode("utf-8")
    except OSError as exc:
        raise ArchiveRefused(f"{source}: not a docgen facts archive ({exc})") from exc
    except (EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise ArchiveRefused(f"{source}: damaged or truncated ({exc})") from exc
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ArchiveRefused(f"{source}: not a docgen facts archive")
    if header.get("version") != FORMAT_VERSION or header.get("docgen") != __version__:
        raise ArchiveRefused(
            f"{source}: made by docgen {header.get('docgen')} (archive format "
            f"{header.get('version')}); this is docgen {__version__} (format {FORMAT_VERSION})"
        )
    try:
        footer = json.loads(lines[-1]) if len(lines) > 1 else None
    except ValueError:
        footer = None
    body = lines[1:-1]
    digest = hashlib.sha256("".join(line + "\n" for line in body).encode("utf-8")).hexdigest()
    if not isinstance(footer, dict) or footer != {"rows": len(body), "sha256": digest}:
        raise ArchiveRefused(f"{source}: damaged or truncated (its rows do not match its footer)")
    return [_checked(source, n, line) for n, line in enumerate(body, start=2)]


def _checked(source: Path, number: int, line: str) -> FactsRow:
    try:
        fields = json.loads(line)
        row = FactsRow(*fields)
        if not all(isinstance(value, str) for value in row):
            raise TypeError("not four strings")
        scanned = loads(ScannedFile, row.facts)
    except (ValueError, TypeError, KeyError) as exc:
        raise ArchiveRefused(f"{source}:{number}: damaged row ({exc})") from exc
    if scanned.facts.path != row.path or scanned.facts.sha256 != row.sha256:
        raise ArchiveRefused(f"{source}:{number}: damaged row (its facts are of another file)")
    return row


def merge_rows(conn: sqlite3.Connection, rows: Iterable[FactsRow]) -> int:
    """Add rows to the facts cache; where a path has several candidates (this state's
    own row included), the greatest by (key, content hash, facts) is kept.  How many
    rows changed."""
    for statement in SCHEMA:
        conn.execute(statement)
    best: dict[str, FactsRow] = {
        path: FactsRow(path, sha, key, facts)
        for path, sha, key, facts in conn.execute("SELECT path, sha256, key, facts FROM files")
    }
    changed: dict[str, FactsRow] = {}
    for row in rows:
        held = best.get(row.path)
        if held is None or (row.key, row.sha256, row.facts) > (held.key, held.sha256, held.facts):
            best[row.path] = changed[row.path] = row
    conn.executemany(
        "INSERT OR REPLACE INTO files (path, stamp, sha256, key, facts, digest)"
        " VALUES (?, '', ?, ?, ?, ?)",
        [
            (r.path, r.sha256, r.key, r.facts, facts_digest(r.facts))
            for _, r in sorted(changed.items())
        ],
    )
    return len(changed)
