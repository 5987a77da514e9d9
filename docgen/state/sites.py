"""The keyword index table behind `docgen find`: every definition site by name."""

from __future__ import annotations

import fnmatch
import sqlite3
from collections.abc import Iterable

from docgen.keywords import DefinitionSite, MatchMode

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS definitions ("
    " name TEXT NOT NULL, kind TEXT NOT NULL, qualname TEXT NOT NULL,"
    " path TEXT NOT NULL, line INTEGER NOT NULL, anchor TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS definitions_name ON definitions (name)",
)


def store_sites(conn: sqlite3.Connection, sites: Iterable[DefinitionSite]) -> None:
    """Replace the stored index with these rows."""
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute("DELETE FROM definitions")
    conn.executemany(
        "INSERT INTO definitions (name, kind, qualname, path, line, anchor)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        ((s.name, s.kind, s.qualname, s.path, s.line, s.anchor) for s in sites),
    )


def _glob_prefix(pattern: str) -> str:
    """The literal start of a glob, which narrows the indexed search."""
    for i, ch in enumerate(pattern):
        if ch in "*?[":
            return pattern[:i]
    return pattern


def find_sites(
    conn: sqlite3.Connection, pattern: str, mode: MatchMode = "exact", kind: str | None = None
) -> list[DefinitionSite]:
    """Definitions whose name matches; names are case-sensitive, as in Python and C++.

    A pattern with `::` (`at::native::*`, `Foo::bar`) matches qualified names.
    """
    if "::" in pattern:
        return _find_qualified(conn, pattern, mode, kind)
    if mode == "exact":
        rows = conn.execute("SELECT * FROM definitions WHERE name = ?", (pattern,))
    else:
        start = pattern if mode == "prefix" else _glob_prefix(pattern)
        if start:
            upper = start[:-1] + chr(ord(start[-1]) + 1)
            rows = conn.execute(
                "SELECT * FROM definitions WHERE name >= ? AND name < ?", (start, upper)
            )
        else:
            rows = conn.execute("SELECT * FROM definitions")
    sites = [
        DefinitionSite(name, path, line, kind_, qualname, anchor)
        for name, kind_, qualname, path, line, anchor in rows
    ]
    if mode == "glob":
        sites = [s for s in sites if fnmatch.fnmatchcase(s.name, pattern)]
    if kind:
        sites = [s for s in sites if s.kind == kind]
    return sorted(sites)


def _find_qualified(
    conn: sqlite3.Connection, pattern: str, mode: MatchMode, kind: str | None
) -> list[DefinitionSite]:
    rows = conn.execute("SELECT * FROM definitions WHERE qualname LIKE '%::%'")
    sites = []
    for name, kind_, qualname, path, line, anchor in rows:
        if mode == "exact":
            hit = qualname == pattern
        elif mode == "prefix":
            hit = qualname.startswith(pattern)
        else:
            hit = fnmatch.fnmatchcase(qualname, pattern)
        if hit and (not kind or kind_ == kind):
            sites.append(DefinitionSite(name, path, line, kind_, qualname, anchor))
    return sorted(sites)
