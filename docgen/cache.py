"""Facts of earlier builds, so an unchanged file is never parsed again.

Rows live in the output folder's state database, keyed by path and checked
two ways: a file whose stamp (size, mtime, ctime, inode) is unchanged is
reused without being read; otherwise its content hash decides.  Every row also
carries the facts key (docgen's version and the code that makes facts): a row
made by other code is never believed.  Facts are stored as JSON, never pickled.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from docgen import __version__
from docgen.discover import SourceFile
from docgen.facts import ScannedFile
from docgen.readfile import hash_source
from docgen.serialize import dumps, loads

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS files ("
    " path TEXT PRIMARY KEY, stamp TEXT NOT NULL, sha256 TEXT NOT NULL,"
    " key TEXT NOT NULL, facts TEXT NOT NULL)",
)

#: The modules whose code decides what facts a file has.
FACTS_CODE = ("facts.py", "analyze.py", "serialize.py", "workers.py", "readfile.py", "scan")


def facts_key() -> str:
    """docgen's version, libcst's, and a digest of the code that makes facts."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"{__version__}\0{metadata.version('libcst')}".encode())
    for name in FACTS_CODE:
        entry = package / name
        files = sorted(entry.rglob("*.py")) if entry.is_dir() else [entry]
        for file in files:
            digest.update(file.relative_to(package).as_posix().encode() + b"\0")
            digest.update(file.read_bytes())
    return digest.hexdigest()


#: Words of the problem a worker records for a file that timed out.
TIMEOUT_WORDS = "took longer than"


def is_transient(scanned: ScannedFile) -> bool:
    """Facts that another run might not repeat (a timeout under load): never cache them."""
    return any(TIMEOUT_WORDS in p.message for p in scanned.facts.problems)


def facts_digest(facts_json: str) -> str:
    return hashlib.sha256(facts_json.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class _Row:
    stamp: str
    sha256: str
    facts: str


class FactsCache:
    """The facts rows of one output folder, read once per build."""

    def __init__(self, conn: sqlite3.Connection, key: str, readonly: bool = False) -> None:
        self._conn = conn
        self._key = key
        self._readonly = readonly
        #: path -> sha256 of the facts' JSON, for every file this build knows facts of
        self.digests: dict[str, str] = {}
        self._rows: dict[str, _Row] = {}
        if readonly:
            exists = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'files'"
            ).fetchone()
            if not exists:
                return
        else:
            for statement in SCHEMA:
                conn.execute(statement)
        self._rows = {
            path: _Row(stamp, sha, facts)
            for path, stamp, sha, facts in conn.execute(
                "SELECT path, stamp, sha256, facts FROM files WHERE key = ?", (key,)
            )
        }

    def split(self, sources: Sequence[SourceFile]) -> tuple[list[ScannedFile], list[SourceFile]]:
        """Facts reused from the cache, and the files that must be scanned."""
        unchanged, fresh = self.partition(sources)
        reused, damaged = self.load(unchanged)
        return reused, fresh + damaged

    def partition(self, sources: Sequence[SourceFile]) -> tuple[list[SourceFile], list[SourceFile]]:
        """Files whose cached facts still hold, and files that must be scanned (cheap:
        a stat comparison, or a content hash when the stat changed)."""
        unchanged: list[SourceFile] = []
        fresh: list[SourceFile] = []
        for source in sources:
            (unchanged if self._holds(source) else fresh).append(source)
        return unchanged, fresh

    def load(self, unchanged: Sequence[SourceFile]) -> tuple[list[ScannedFile], list[SourceFile]]:
        """The cached facts of unchanged files, and files whose row cannot be read."""
        reused: list[ScannedFile] = []
        damaged: list[SourceFile] = []
        for source in unchanged:
            text = self._rows[source.path].facts
            try:
                scanned = loads(ScannedFile, text)
            except (ValueError, TypeError, KeyError):
                scanned = None
            if scanned is None or scanned.facts.path != source.path:
                damaged.append(source)  # a damaged row: scan the file again
                continue
            self.digests[source.path] = facts_digest(text)
            reused.append(scanned)
        return reused, damaged

    def _holds(self, source: SourceFile) -> bool:
        row = self._rows.get(source.path)
        if row is None:
            return False
        stamp = json.dumps(list(source.stamp))
        if source.stamp and row.stamp == stamp:
            return True
        try:
            sha = hash_source(source)
        except OSError:
            return False
        if sha != row.sha256:
            return False
        if not self._readonly:
            self._conn.execute("UPDATE files SET stamp = ? WHERE path = ?", (stamp, source.path))
        return True

    def store(self, sources: Iterable[SourceFile], scanned: Iterable[ScannedFile]) -> None:
        """Remember freshly scanned files; forget files that are gone."""
        by_path = {s.path: s for s in sources}
        rows = []
        for item in scanned:
            text = dumps(item)
            self.digests[item.facts.path] = facts_digest(text)
            source = by_path.get(item.facts.path)
            if source is None or not item.facts.sha256 or is_transient(item):
                continue
            rows.append(
                (
                    item.facts.path,
                    json.dumps(list(source.stamp)),
                    item.facts.sha256,
                    self._key,
                    text,
                )
            )
        self._conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)", rows)

    def forget_all_but(self, paths: Iterable[str]) -> None:
        keep = set(paths)
        gone = [(p,) for p in self._rows if p not in keep]
        stale = self._conn.execute("SELECT path FROM files WHERE key != ?", (self._key,))
        gone += list(stale)
        self._conn.executemany("DELETE FROM files WHERE path = ?", gone)
