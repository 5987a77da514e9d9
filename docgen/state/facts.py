"""Facts of earlier builds, so an unchanged file is never parsed again.

Rows live in the state database's `files` table, keyed by path and checked
two ways: a file whose stamp (size, mtime, ctime, inode) is unchanged is
reused without being read; otherwise its content hash decides.  Every row also
carries the facts key (docgen's version and the code that makes facts): a row
made by other code is never believed.  Facts are stored as JSON, never pickled.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Generic, Literal, NamedTuple

from docgen.model.digests import facts_digest
from docgen.model.facts import TIMEOUT_WORDS, ScannedFile
from docgen.model.languages import language_for
from docgen.model.serialize import dumps, loads
from docgen.model.sources import SourceFile
from docgen.state.codec import FileCodec, Summary
from docgen.state.readers import database_file, process_reader

#: The facts' JSON last: SQLite reads a column after a long one by walking that one's
#: overflow pages, and every build reads the small columns of every row.
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS files ("
    " path TEXT PRIMARY KEY, stamp TEXT NOT NULL, sha256 TEXT NOT NULL,"
    " key TEXT NOT NULL, digest TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '',"
    " facts TEXT NOT NULL)",
)


def is_transient(scanned: ScannedFile) -> bool:
    """Facts that another run might not repeat (a timeout under load): never cache them."""
    return any(TIMEOUT_WORDS in p.message for p in scanned.facts.problems)


class _Row(NamedTuple):
    """A row without its facts, which are read only for the files that need them (a
    tuple: a build reads one per file of the tree)."""

    stamp: str
    sha256: str
    key: str
    digest: str  # of the facts' JSON (`facts_digest`), kept so that no build hashes them


class FactsCache(Generic[Summary]):
    """The facts rows of one output folder, read once per build."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        key: str,
        codec: FileCodec[Summary],
        readonly: bool = False,
        language_keys: Mapping[str, str] | None = None,
    ) -> None:
        self._codec = codec
        self._conn = conn
        self._key = key
        #: language -> its own facts key where it differs from `key`
        self._language_keys = dict(language_keys or {})
        #: every facts key this build believes, for the queries below
        self._keys = sorted({key, *self._language_keys.values()})
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
        marks = ", ".join("?" * len(self._keys))
        self._rows = {
            path: _Row._make(rest)
            for path, *rest in conn.execute(
                f"SELECT path, stamp, sha256, key, digest FROM files WHERE key IN ({marks})",
                self._keys,
            )
        }

    def key_of(self, path: str) -> str:
        return self._language_keys.get(language_for(path), self._key)

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
        texts = read_facts(self._conn, [source.path for source in unchanged])
        for source in unchanged:
            text = texts.get(source.path, "")
            scanned = cached_facts(source.path, text)
            if scanned is None:
                damaged.append(source)  # a damaged row: scan the file again
                continue
            self.digests[source.path] = facts_digest(text)  # of the very text decoded
            reused.append(scanned)
        return reused, damaged

    def summarized(
        self, unchanged: Sequence[SourceFile]
    ) -> tuple[dict[str, Summary], list[ScannedFile], list[SourceFile]]:
        """The summaries of unchanged files that are not C-family (their facts stay in
        the database: see `encoded`); the facts of those whose row has no summary (a row
        merged from an archive), which is then added; and files whose row cannot be read."""
        found: dict[str, Summary] = {}
        unsummarized: list[SourceFile] = []
        damaged: list[SourceFile] = []
        texts = _read_column(self._conn, "summary", [source.path for source in unchanged])
        for source in unchanged:
            text = texts.get(source.path)
            if not text:
                unsummarized.append(source)
            elif (summary := self._summary(text)) is not None:
                found[source.path] = summary
            else:
                damaged.append(source)
        reused, unreadable = self.load(unsummarized)
        if reused and not self._readonly:
            self._conn.executemany(
                "UPDATE files SET summary = ? WHERE path = ?",
                [(self._codec.summary_text(item), item.facts.path) for item in reused],
            )
        return found, reused, damaged + unreadable

    def summaries_of(self, paths: Sequence[str]) -> dict[str, Summary]:
        """The stored summaries of these files, where they have a readable one."""
        texts = _read_column(self._conn, "summary", paths)
        found = ((path, self._summary(text)) for path, text in texts.items())
        return {path: summary for path, summary in found if summary is not None}

    def stored(self, sources: Sequence[SourceFile]) -> dict[str, tuple[str, ScannedFile]] | None:
        """The facts these files had when last stored, with their digest, read before a
        scan replaces them; None when any has none this build can read."""
        texts = read_facts(self._conn, [source.path for source in sources])
        found: dict[str, tuple[str, ScannedFile]] = {}
        for source in sources:
            row, text = self._rows.get(source.path), texts.get(source.path, "")
            scanned = cached_facts(source.path, text)
            if row is None or row.key != self.key_of(source.path) or scanned is None:
                return None
            if facts_digest(text) != row.digest:
                return None
            found[source.path] = (row.digest, scanned)
        return found

    def encoded(self, unchanged: Sequence[SourceFile]) -> StoredFacts:
        """The cached facts of unchanged files, left in the database until a page asks
        for them (see `docgen.index.file_table`)."""
        return StoredFacts(database_file(self._conn), self.note_digests(unchanged))

    def last_digests(self, paths: Iterable[str]) -> dict[str, str]:
        """The digest of each file's facts as the last build stored them ("" where this
        build believes no row of it), read before a scan replaces them."""
        rows = self._rows
        return {path: row.digest if (row := rows.get(path)) else "" for path in paths}

    def note_digests(self, unchanged: Sequence[SourceFile]) -> dict[str, str]:
        """The facts digests of unchanged files, from their rows, added to `digests`
        without reading their facts."""
        digests = {source.path: self._rows[source.path].digest for source in unchanged}
        self.digests.update(digests)
        return digests

    def _holds(self, source: SourceFile) -> bool:
        row = self._rows.get(source.path)
        if row is None or row.key != self.key_of(source.path):
            return False
        stamp = stamp_text(source.stamp)
        if source.stamp and row.stamp == stamp:
            return True
        try:
            sha = self._codec.content_hash(source)
        except OSError:
            return False
        if sha != row.sha256:
            return False
        if not self._readonly:
            self._conn.execute("UPDATE files SET stamp = ? WHERE path = ?", (stamp, source.path))
        return True

    def store(
        self,
        sources: Iterable[SourceFile],
        scanned: Iterable[ScannedFile],
        texts: Mapping[str, str] | None = None,
        summaries: Mapping[str, str] | None = None,
    ) -> None:
        """Remember freshly scanned files (`texts`: their JSON where the workers made it,
        and `summaries` their summaries' JSON)."""
        known = summaries or {}
        by_path = {s.path: s for s in sources}
        made = texts or {}
        rows = []
        for item in scanned:
            text = made.get(item.facts.path) or dumps(item)
            self.digests[item.facts.path] = facts_digest(text)
            source = by_path.get(item.facts.path)
            if source is None or not item.facts.sha256 or is_transient(item):
                continue
            rows.append(
                (
                    item.facts.path,
                    stamp_text(source.stamp),
                    item.facts.sha256,
                    self.key_of(item.facts.path),
                    self.digests[item.facts.path],
                    known.get(item.facts.path) or self._codec.summary_text(item),
                    text,
                )
            )
        self._conn.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def _summary(self, text: str) -> Summary | None:
        """A row's summary, None when it cannot be read."""
        try:
            return self._codec.read_summary(text)
        except (ValueError, TypeError, KeyError):
            return None

    def forget_all_but(self, paths: Iterable[str]) -> None:
        keep = set(paths)
        gone = [(p,) for p in self._rows if p not in keep]
        # Rows of other facts keys are looked for only when there are more rows than this
        # build read: the count walks the paths' small index, the search every whole row.
        (rows,) = self._conn.execute("SELECT count(*) FROM files").fetchone()
        if rows > len(self._rows):
            marks = ", ".join("?" * len(self._keys))
            query = f"SELECT path FROM files WHERE key NOT IN ({marks})"
            gone += list(self._conn.execute(query, self._keys))
        self._conn.executemany("DELETE FROM files WHERE path = ?", gone)


def stamp_text(stamp: tuple[int, ...]) -> str:
    """A file's stamp as its row holds it: `json.dumps` of its list of integers, made
    without the encoder (a build compares one per file of the tree)."""
    return "[" + ", ".join(map(str, stamp)) + "]"


#: Paths per query when facts are read by path (SQLite's oldest limit of parameters).
_PATHS_PER_QUERY = 900


def read_facts(conn: sqlite3.Connection, paths: Sequence[str]) -> dict[str, str]:
    """The stored facts (JSON) of these paths: path -> text, for the rows there are."""
    return _read_column(conn, "facts", paths)


def read_summaries(conn: sqlite3.Connection, paths: Sequence[str]) -> dict[str, str]:
    """The stored summaries (as their rows keep them) of these paths, for the rows there are."""
    return _read_column(conn, "summary", paths)


def _read_column(
    conn: sqlite3.Connection, column: Literal["facts", "summary"], paths: Sequence[str]
) -> dict[str, str]:
    found: dict[str, str] = {}
    for start in range(0, len(paths), _PATHS_PER_QUERY):
        chunk = paths[start : start + _PATHS_PER_QUERY]
        marks = ", ".join("?" * len(chunk))
        query = f"SELECT path, {column} FROM files WHERE path IN ({marks})"
        found.update(conn.execute(query, chunk))
    return found


class StoredFacts(Mapping[str, str]):
    """Facts (path -> JSON) still in the state database, read when asked for, by a
    connection of the process that asks (pages are rendered in forked processes).  A row
    that no longer holds the facts its digest says is reported as missing."""

    def __init__(self, database: str, digests: Mapping[str, str]) -> None:
        self._database = database
        self._digests = dict(digests)
        self._connections: dict[int, sqlite3.Connection] = {}

    def __getitem__(self, path: str) -> str:
        digest = self._digests[path]
        conn = process_reader(self._database, self._connections)
        row = conn.execute("SELECT facts FROM files WHERE path = ?", (path,))
        found = row.fetchone()
        if found is None or facts_digest(found[0]) != digest:
            raise KeyError(path)
        return str(found[0])

    def __contains__(self, path: object) -> bool:
        return path in self._digests

    def close(self) -> None:
        """Close this process's connection (the build is done with the facts)."""
        conn = self._connections.pop(os.getpid(), None)
        if conn is not None:
            conn.close()

    def __iter__(self) -> Iterator[str]:
        return iter(self._digests)

    def __len__(self) -> int:
        return len(self._digests)


def cached_facts(path: str, text: str) -> ScannedFile | None:
    """A file's facts from their row, None when the row cannot be read or is another
    file's."""
    try:
        scanned = loads(ScannedFile, text)
    except (ValueError, TypeError, KeyError):
        return None
    return scanned if scanned.facts.path == path else None


def content_digests(conn: sqlite3.Connection) -> dict[str, str]:
    """Path -> sha256 of the file's bytes, for every file with cached facts."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'files'"
    ).fetchone()
    return dict(conn.execute("SELECT path, sha256 FROM files")) if exists else {}
