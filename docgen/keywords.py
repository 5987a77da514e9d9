"""The repo-wide keyword index: every class and function name, where it is defined.

The same rows feed the `keywords*.md` pages and the SQLite table behind
`docgen find`, so a page and the command always agree.
"""

from __future__ import annotations

import fnmatch
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from docgen.index import RepoIndex

MatchMode = Literal["exact", "prefix", "glob"]

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS definitions ("
    " name TEXT NOT NULL, kind TEXT NOT NULL, qualname TEXT NOT NULL,"
    " path TEXT NOT NULL, line INTEGER NOT NULL, anchor TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS definitions_name ON definitions (name)",
)


#: C-family kinds left out of the repository index: a namespace is reopened in every
#: file that uses it, so listing each opening would bury the definitions.
UNINDEXED_C_KINDS = frozenset({"namespace"})


@dataclass(frozen=True, order=True)
class DefinitionSite:
    """One place that defines a name (sorted by name, then path and line)."""

    name: str
    path: str
    line: int
    kind: str
    qualname: str
    anchor: str  # the definition's anchor on the file's docs page

    def __str__(self) -> str:
        if self.kind == "import":
            return f"{self.path}:{self.line}: import {self.qualname} as {self.name}"
        return f"{self.path}:{self.line}: {self.kind} {self.qualname}"


def definition_sites(index: RepoIndex) -> list[DefinitionSite]:
    # Imported here so that `docgen find` never loads the renderer.
    from docgen.render.anchors import (
        anchored_c_definitions,
        anchored_definitions,
        section_anchor,
    )

    dependencies = section_anchor("dependencies")
    sites = []
    for scanned in index.documented():
        c = scanned.facts.cfamily
        if c is not None:
            for item in anchored_c_definitions(scanned.facts.path, c.definitions):
                cdef = item.definition
                if cdef.kind in UNINDEXED_C_KINDS:
                    continue
                site = (cdef.name, scanned.facts.path, cdef.line, cdef.kind, cdef.qualname)
                sites.append(DefinitionSite(*site, item.anchor))
        py = scanned.facts.python
        if py is None:
            continue
        for imp in py.imports:
            for bound, target in imp.aliases:
                if is_alias(bound, target, imp.is_from):
                    path = scanned.facts.path
                    sites.append(
                        DefinitionSite(bound, path, imp.line, "import", target, dependencies)
                    )
        for anchored in anchored_definitions(scanned.facts.path, py.definitions):
            d = anchored.definition
            sites.append(
                DefinitionSite(
                    d.name, scanned.facts.path, d.line, d.kind, d.qualname, anchored.anchor
                )
            )
    return sorted(sites)


def is_alias(bound: str, target: str, is_from: bool) -> bool:
    """Whether an import binds a name of its own that code uses for the target:
    `as FSDP`, `import torch.nn.functional as F`, `import torch.distributed as dist`
    (not `import os` nor `from x import y`, whose names are the target's own)."""
    if is_from:
        return bound != target.rsplit(".", 1)[-1]
    return bound != target


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
