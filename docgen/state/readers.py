"""Read-only connections to the state database from whichever process asks: pages
render in forked processes, and a connection never crosses a fork."""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from collections.abc import Collection


class KeptPerFile:
    """What the last build kept of each file under one kind (see `State.kept_per_file`):
    the stamps read at once, the texts only when asked, through a connection of the
    process that asks (pages render in forked processes)."""

    def __init__(self, database: str, kind: str, stamps: dict[str, str]) -> None:
        self._database = database
        self._kind = kind
        self.stamps = stamps
        self._connections: dict[int, sqlite3.Connection] = {}

    def texts(self, paths: Collection[str] | None = None) -> dict[str, str]:
        """The kept texts of `paths` (None: every one), by path; a row whose stamp is no
        longer the one read at first is damage (another build kept its rows meanwhile)."""
        conn = process_reader(self._database, self._connections)
        query = "SELECT path, stamp, text FROM per_file WHERE kind = ?"
        if paths is None:
            rows = conn.execute(query, (self._kind,))
        else:
            wanted = sorted(paths)
            marks = ",".join("?" * len(wanted))
            rows = conn.execute(f"{query} AND path IN ({marks})", (self._kind, *wanted))
        found: dict[str, str] = {}
        for path, stamp, text in rows:
            if self.stamps.get(path, stamp) != stamp:
                # `docgen.state.StateDamaged`: the build starts afresh
                raise sqlite3.DatabaseError(f"the kept {self._kind} rows changed meanwhile")
            found[path] = text
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
