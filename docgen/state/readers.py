"""Read-only connections to the state database from whichever process asks: pages
render in forked processes, and a connection never crosses a fork."""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from collections.abc import Collection


class KeptPerFile:
    """What the last build kept of each file under one kind (see `State.kept_per_file`),
    read only when asked (the stamps first, the texts when a row is read), through a
    connection of the process that asks (pages render in forked processes)."""

    def __init__(self, database: str, kind: str) -> None:
        self._database = database
        self._kind = kind
        self._stamps: dict[str, str] | None = None
        self._connections: dict[int, sqlite3.Connection] = {}

    @property
    def stamps(self) -> dict[str, str]:
        """What each file's kept text was made from, read when first asked."""
        if self._stamps is None:
            conn = process_reader(self._database, self._connections)
            query = "SELECT path, stamp FROM per_file WHERE kind = ?"
            self._stamps = dict(conn.execute(query, (self._kind,)))
        return self._stamps

    def texts(self, paths: Collection[str] | None = None) -> dict[str, str]:
        """The kept texts of `paths` (None: every one), by path; a row whose stamp is no
        longer the one read at first is damage (another build kept its rows meanwhile)."""
        conn = process_reader(self._database, self._connections)
        query = "SELECT path, stamp, text FROM per_file WHERE kind = ?"
        if paths is None:
            rows = list(conn.execute(query, (self._kind,)))
        else:
            wanted, rows = sorted(paths), []
            for start in range(0, len(wanted), 500):  # below SQLite's limit of parameters
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows += conn.execute(f"{query} AND path IN ({marks})", (self._kind, *chunk))
        found: dict[str, str] = {}
        stamps = self.stamps
        for path, stamp, text in rows:
            if stamps.get(path, stamp) != stamp:
                # `docgen.state.StateDamaged`: the build starts afresh
                raise sqlite3.DatabaseError(f"the kept {self._kind} rows changed meanwhile")
            found[path] = text
        return found

    def close(self) -> None:
        """Close this process's connection (the build is done with the rows)."""
        conn = self._connections.pop(os.getpid(), None)
        if conn is not None:
            conn.close()

    def holding(self, keys: Collection[str]) -> set[str]:
        """The files whose kept rows point at any of `keys` (for a kind kept with its keys)."""
        conn = process_reader(self._database, self._connections)
        wanted = sorted(set(keys))
        found: set[str] = set()
        for start in range(0, len(wanted), 500):  # below SQLite's limit of parameters
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT path FROM per_file_keys WHERE kind = ? AND key IN ({marks})"
            found.update(path for (path,) in conn.execute(query, (self._kind, *chunk)))
        return found

    def keyed(self) -> dict[str, list[str]]:
        """Every file's keys (for a kind kept with its keys), in the table's order: what
        its rows point at, read in one query without decoding a row."""
        conn = process_reader(self._database, self._connections)
        query = "SELECT path, key FROM per_file_keys WHERE kind = ?"
        found: dict[str, list[str]] = {}
        for path, key in conn.execute(query, (self._kind,)):
            if path in found:
                found[path].append(key)
            else:
                found[path] = [key]
        return found


def database_file(conn: sqlite3.Connection) -> str:
    """The file of a connection's main database."""
    return str(conn.execute("PRAGMA database_list").fetchone()[2])


def process_reader(database: str, connections: dict[int, sqlite3.Connection]) -> sqlite3.Connection:
    """A read-only connection to `database` for this process, made once and kept in
    `connections`: a connection never crosses a fork."""
    pid = os.getpid()
    conn = connections.get(pid)
    if conn is None:
        uri = f"file:{urllib.parse.quote(database)}?mode=ro"
        conn = connections[pid] = sqlite3.connect(uri, uri=True)
    return conn
