"""Read-only connections to the state database from whichever process asks: pages
render in forked processes, and a connection never crosses a fork."""

from __future__ import annotations

import os
import sqlite3
import urllib.parse

#: meta keys of the kept C-family relations (see `docgen.state.db`)
RELATIONS, RELATIONS_KEY = "cfamily_relations", "cfamily_relations_key"


class KeptRows:
    """Reads a large row of the kept C-family relations through a connection of the
    process that asks (pages render in forked processes); a row missing, or kept under
    another key than the relations read, is damage."""

    def __init__(self, database: str, key: str) -> None:
        self._database = database
        self._key = key
        self._connections: dict[int, sqlite3.Connection] = {}

    def __call__(self, which: str) -> str:
        conn = process_reader(self._database, self._connections)
        query = "SELECT key, value FROM meta WHERE key IN (?, ?)"
        found = dict(conn.execute(query, (RELATIONS_KEY, f"{RELATIONS}.{which}")))
        row = found.get(f"{RELATIONS}.{which}")
        if found.get(RELATIONS_KEY) != self._key or row is None:
            # `docgen.state.StateDamaged`: the build starts afresh
            raise sqlite3.DatabaseError("the kept C-family relations cannot be read")
        return str(row)


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
