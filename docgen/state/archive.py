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
from docgen.model.digests import facts_digest
from docgen.model.errors import DocgenError
from docgen.model.facts import ScannedFile
from docgen.model.serialize import loads
from docgen.state.facts import SCHEMA

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


#: An archive whose text inflates past this many bytes is refused: a gzip bomb would
#: otherwise fill memory (the facts of the whole torch/ tree of the 2.13 wheel are
#: 70 MB of text).
MAX_UNPACKED_BYTES = 1024**3


class ArchiveRows(NamedTuple):
    """The rows of one archive that may be imported, and how many were refused."""

    rows: list[FactsRow]
    outside: int  # rows naming a path outside the repository (absolute, `..`, NUL, ...)


def read_archive(source: Path, limit: int = MAX_UNPACKED_BYTES) -> ArchiveRows:
    """Every row of one archive, checked; ArchiveRefused (one line saying why) otherwise.
    The archive is read as a stream, never inflated whole: its text may not pass
    `limit` bytes, nor its JSON nest deeper than the interpreter recurses.  Every row
    is checked (a row repeated right after itself once), and of the rows that claim
    one path only the one `merge_rows` would keep is held: an archive of one row
    repeated costs neither memory nor time."""
    digest = hashlib.sha256()
    best: dict[str, FactsRow] = {}
    outside = 0
    header: object = None
    previous: str | None = None  # the last line read: the footer, once the stream ends
    checked_last: str | None = None  # the last row checked
    count = 0
    for number, line in enumerate(_text_lines(source, limit), start=1):
        if number == 1:
            header = _json(line)
            _check_header(source, header)
            continue
        if previous is not None:
            digest.update(previous.encode("utf-8") + b"\n")
            count += 1
            row = _fields(source, number - 1, previous)
            if _outside(row.path):
                outside += 1
            else:
                if previous != checked_last:  # each row is checked; a repeat only once
                    _checked(source, number - 1, row)
                    checked_last = previous
                if _better(row, best.get(row.path)):
                    best[row.path] = row
        previous = line
    if header is None:
        raise ArchiveRefused(f"{source}: not a docgen facts archive")
    footer = None if previous is None else _json(previous)
    if not isinstance(footer, dict) or footer != {"rows": count, "sha256": digest.hexdigest()}:
        raise ArchiveRefused(f"{source}: damaged or truncated (its rows do not match its footer)")
    return ArchiveRows([best[path] for path in sorted(best)], outside)


def _better(row: FactsRow, held: FactsRow | None) -> bool:
    """Whether `row` wins over the row held for its path (the one rule of `merge_rows`,
    the same whatever the order the rows come in)."""
    return held is None or (row.key, row.sha256, row.facts) > (held.key, held.sha256, held.facts)


def _text_lines(source: Path, limit: int) -> Iterator[str]:
    """The archive's lines, inflated as they are read, up to `limit` bytes in all."""
    read = 0
    try:
        with gzip.open(source, "rb") as packed:
            while True:
                line = packed.readline(limit - read + 1)
                if not line:
                    return
                read += len(line)
                if read > limit:
                    raise ArchiveRefused(
                        f"{source}: refused: it inflates past {limit // 1024**2} MiB"
                    )
                yield line.removesuffix(b"\n").decode("utf-8")
    except gzip.BadGzipFile as exc:
        raise ArchiveRefused(f"{source}: not a docgen facts archive ({exc})") from exc
    except (EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise ArchiveRefused(f"{source}: damaged or truncated ({exc})") from exc


def _json(line: str) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _check_header(source: Path, header: object) -> None:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ArchiveRefused(f"{source}: not a docgen facts archive")
    if header.get("version") != FORMAT_VERSION or header.get("docgen") != __version__:
        raise ArchiveRefused(
            f"{source}: made by docgen {header.get('docgen')} (archive format "
            f"{header.get('version')}); this is docgen {__version__} (format {FORMAT_VERSION})"
        )


def _outside(path: str) -> bool:
    """Whether a row's path could name a file outside the repository (or none)."""
    parts = path.split("/")
    return (
        not path
        or path.startswith("/")
        or "\\" in path
        or any(c in path for c in "\0\n\r")
        or any(part in ("", ".", "..") for part in parts)
    )


def _fields(source: Path, number: int, line: str) -> FactsRow:
    """A row's four strings; its facts are decoded by `_checked`."""
    try:
        fields = json.loads(line)
    except RecursionError as exc:
        raise ArchiveRefused(f"{source}:{number}: refused: nested deeper than facts are") from exc
    except ValueError as exc:
        raise ArchiveRefused(f"{source}:{number}: damaged row ({exc})") from exc
    if not (isinstance(fields, list) and len(fields) == 4):
        raise ArchiveRefused(f"{source}:{number}: damaged row (not a list of four strings)")
    if not all(isinstance(value, str) for value in fields):
        raise ArchiveRefused(f"{source}:{number}: damaged row (not four strings)")
    return FactsRow(*fields)


def _checked(source: Path, number: int, row: FactsRow) -> FactsRow:
    """`row`, when its facts decode and are of its own file."""
    try:
        scanned = loads(ScannedFile, row.facts)
    except RecursionError as exc:
        raise ArchiveRefused(f"{source}:{number}: refused: nested deeper than facts are") from exc
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
        if _better(row, best.get(row.path)):
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
