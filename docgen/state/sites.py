"""The keyword index table behind `docgen find`: every definition site by name.

A file's sites are a function of its facts and docgen's code alone, so each
file's rows carry what they were made from (`site_sources`): the next build
reuses them while that is unchanged and rewrites only the rows of files whose
facts changed.
"""

from __future__ import annotations

import fnmatch
import sqlite3
from collections.abc import Iterable, Mapping

from docgen.model.construct import maker
from docgen.model.letters import LETTERS, OTHER, letter_of
from docgen.model.sites import DefinitionSite, MatchMode

INDEXES = {
    "definitions_name": "CREATE INDEX IF NOT EXISTS definitions_name ON definitions (name)",
    "definitions_path": "CREATE INDEX IF NOT EXISTS definitions_path ON definitions (path)",
}
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS definitions ("
    " name TEXT NOT NULL, kind TEXT NOT NULL, qualname TEXT NOT NULL,"
    " path TEXT NOT NULL, line INTEGER NOT NULL, anchor TEXT NOT NULL)",
    *INDEXES.values(),
    "CREATE TABLE IF NOT EXISTS site_sources (path TEXT PRIMARY KEY, made_from TEXT NOT NULL)",
)


#: every stored site's row: name, kind, qualified name, path, line, anchor
_SITE_ROWS = "SELECT name, kind, qualname, path, line, anchor FROM definitions"


def _has_tables(conn: sqlite3.Connection) -> bool:
    found = conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
        " AND name IN ('definitions', 'site_sources')"
    ).fetchone()
    return bool(found and found[0] == 2)


def stored_sites(
    conn: sqlite3.Connection, made_from: Mapping[str, str]
) -> dict[str, list[DefinitionSite]]:
    """The stored sites of each file whose rows were made from `made_from[path]`."""
    if not _has_tables(conn):
        return {}
    current = {path for path, made in site_marks(conn).items() if made_from.get(path) == made}
    found: dict[str, list[DefinitionSite]] = {path: [] for path in current}
    make = maker(DefinitionSite)  # a large tree has hundreds of thousands of rows
    rows = conn.execute(_SITE_ROWS)
    for name, kind, qualname, path, line, anchor in rows:
        if path in current:
            found[path].append(make(name, path, line, kind, qualname, anchor))
    return found


def site_marks(conn: sqlite3.Connection) -> dict[str, str]:
    """What each file's stored sites were made from (see `sites_made_from`)."""
    if not _has_tables(conn):
        return {}
    return dict(conn.execute("SELECT path, made_from FROM site_sources"))


def sites_of_files(conn: sqlite3.Connection, paths: Iterable[str]) -> list[DefinitionSite]:
    """The stored sites of these files."""
    if not _has_tables(conn):
        return []
    make = maker(DefinitionSite)
    found: list[DefinitionSite] = []
    for path in sorted(set(paths)):
        rows = conn.execute(f"{_SITE_ROWS} WHERE path = ?", (path,))
        found.extend(make(n, p, line, kind, q, anchor) for n, kind, q, p, line, anchor in rows)
    return found


def paths_defining(conn: sqlite3.Connection, names: Iterable[tuple[str, str]]) -> set[str]:
    """The files with a stored site of any of these (name, qualified name) pairs, read
    through the name index."""
    wanted = set(names)
    if not wanted or not _has_tables(conn):
        return set()
    found: set[str] = set()
    for name in sorted({name for name, _ in wanted}):
        rows = conn.execute("SELECT qualname, path FROM definitions WHERE name = ?", (name,))
        found.update(path for qualname, path in rows if (name, qualname) in wanted)
    return found


def letter_sites(
    conn: sqlite3.Connection, letters: Iterable[str], skip: Iterable[str]
) -> list[DefinitionSite]:
    """The stored sites whose names fall on these keyword letters (see `letter_of`),
    but for the files in `skip`; each letter is read by its ranges of the name index."""
    chosen = set(letters)
    if not chosen or not _has_tables(conn):
        return []
    skipped = set(skip)
    make = maker(DefinitionSite)
    found = []
    for low, high in sorted(r for letter in chosen for r in _LETTER_RANGES[letter]):
        rows = (
            conn.execute(f"{_SITE_ROWS} WHERE name >= ? AND name < ?", (low, high))
            if high
            else conn.execute(f"{_SITE_ROWS} WHERE name >= ?", (low,))
        )
        for name, kind, qualname, path, line, anchor in rows:
            if path not in skipped and letter_of(name) in chosen:
                found.append(make(name, path, line, kind, qualname, anchor))
    return found


def _letter_ranges() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each keyword letter's ranges of names in SQLite's order (code points): a letter in
    either case, `_`, and for the rest every gap between them."""
    ranges: dict[str, tuple[tuple[str, str], ...]] = {
        letter: ((letter, chr(ord(letter) + 1)), (letter.upper(), chr(ord(letter.upper()) + 1)))
        for letter in LETTERS
        if letter.isalpha() and len(letter) == 1
    }
    ranges["_"] = (("_", "`"),)
    ranges[OTHER] = (("", "A"), ("[", "_"), ("`", "a"), ("{", ""))  # "": no upper end
    return ranges


_LETTER_RANGES = _letter_ranges()


def store_sites(
    conn: sqlite3.Connection,
    sites: Iterable[DefinitionSite],
    made_from: Mapping[str, str],
    read: Mapping[str, str] | None = None,
) -> None:
    """Make the table hold `sites`, every file's rows marked with `made_from[path]`:
    only the rows of files whose mark changed are deleted and written again.  `read`:
    the marks as `site_marks` read them since (a one-file edit reads them once)."""
    for statement in SCHEMA:
        conn.execute(statement)
    marks = site_marks(conn) if read is None else read
    kept = {path for path, made in marks.items() if made_from.get(path) == made}
    # Every file with rows has a mark (see the end), so the marks tell which rows are
    # stale without reading the paths of all rows (25 ms on whole torch/'s 208,000).
    stale = set(marks) - kept
    conn.executemany("DELETE FROM definitions WHERE path = ?", [(p,) for p in sorted(stale)])
    rows = [
        (s.name, s.kind, s.qualname, s.path, s.line, s.anchor) for s in sites if s.path not in kept
    ]
    # A file given sites but no mark gets one that no build makes: its rows go next time.
    marked = {**{row[3]: "" for row in rows}, **made_from}
    # Filling an empty table, the indexes are made afterwards, each by one sort: about
    # twice as fast as keeping them up to date row by row (a first build of a large tree).
    refill = conn.execute("SELECT 1 FROM definitions LIMIT 1").fetchone() is None
    if refill:
        for name in INDEXES:
            conn.execute(f"DROP INDEX IF EXISTS {name}")
    conn.executemany(
        "INSERT INTO definitions (name, kind, qualname, path, line, anchor)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        rows,
    )
    if refill:
        for statement in INDEXES.values():
            conn.execute(statement)
    conn.executemany(
        "DELETE FROM site_sources WHERE path = ?",
        [(p,) for p in sorted(set(marks) - set(marked))],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO site_sources VALUES (?, ?)",
        [(p, m) for p, m in sorted(marked.items()) if marks.get(p) != m],
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
        rows = conn.execute(f"{_SITE_ROWS} WHERE name = ?", (pattern,))
    else:
        start = pattern if mode == "prefix" else _glob_prefix(pattern)
        if start:
            upper = start[:-1] + chr(ord(start[-1]) + 1)
            rows = conn.execute(f"{_SITE_ROWS} WHERE name >= ? AND name < ?", (start, upper))
        else:
            rows = conn.execute(_SITE_ROWS)
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
    rows = conn.execute(f"{_SITE_ROWS} WHERE qualname LIKE '%::%'")
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
