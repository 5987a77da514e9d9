"""The state database itself: one SQLite file, its tables, and the typed `State` over it.

Every table is created here and read and written only through `State` (and the
facts cache it hands out), so the rest of docgen never writes SQL.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from docgen.model.pages import as_left
from docgen.model.sites import DefinitionSite, MatchMode
from docgen.state.readers import KeptPerFile, database_file
from docgen.state.sites import (
    find_sites,
    letter_sites,
    paths_defining,
    site_marks,
    sites_of_files,
    store_sites,
    stored_sites,
)

if TYPE_CHECKING:  # loaded when a build has work to do, not by one that has none
    from docgen.model.facts import ScannedFile
    from docgen.state.archive import FactsRow
    from docgen.state.codec import FileCodec, Summary
    from docgen.state.facts import FactsCache
    from docgen.state.stored_operators import StoredOperators

STATE_DIR = ".docgen"
STATE_FILE = "state.sqlite"
#: Where pages are written before they are renamed into place; swept by every build.
TEMP_DIR = "tmp"
#: Bumped whenever a table changes shape; a state of another version is discarded.
STATE_VERSION = "10"
#: Tables every docgen state has from its first connection on.
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS pages (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL,"
    " stamp TEXT NOT NULL DEFAULT '', inputs TEXT NOT NULL DEFAULT '')",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS site_files (path TEXT PRIMARY KEY, made_from TEXT NOT NULL,"
    " sha256 TEXT NOT NULL, before TEXT NOT NULL DEFAULT '')",
    # What a stage keeps of each file beside its facts, with what it was made from
    # (`stamp`): each relation's rows (`kind`: its name, see `docgen.index.relations`)
    # and the C-family scanner's `#define`s of each header.
    "CREATE TABLE IF NOT EXISTS per_file (kind TEXT NOT NULL, path TEXT NOT NULL,"
    " stamp TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (kind, path))",
    # Which files hold rows of each key, for a relation that asks (see `keep_per_file`).
    "CREATE TABLE IF NOT EXISTS per_file_keys (kind TEXT NOT NULL, key TEXT NOT NULL,"
    " path TEXT NOT NULL, PRIMARY KEY (kind, key, path)) WITHOUT ROWID",
)

#: A state file that cannot be read as docgen's (damage found after opening it).
StateDamaged = sqlite3.DatabaseError


class SiteRecord(NamedTuple):
    """A file docgen wrote into the HTML site: what it was made from ("" while it is being
    put in place), its bytes' digest, and the digest of the bytes it replaces until then
    (either is docgen's)."""

    path: str
    made_from: str
    sha256: str
    before: str = ""


class PageRecord(NamedTuple):
    """A page docgen wrote: its bytes' digest, its file's stamp, its inputs' digest."""

    path: str
    sha256: str
    stamp: str
    inputs: str = ""


#: Meta key: what the scope of the next build's edit rests on (see `docgen.render.edit_scope`).
PAGE_SCOPE = "page_scope"
#: meta keys of what the C-family side of the index keeps as a whole (see
#: `docgen.index.cfamily_relations`): its key, the include names it was made with, itself
RELATIONS_KEY, RELATIONS_NAMES, RELATIONS = (
    "cfamily_relations_key",
    "cfamily_relations_names",
    "cfamily_relations",
)


class State:
    """One open state database; `readonly` when a command only reads it."""

    def __init__(self, conn: sqlite3.Connection, readonly: bool = False) -> None:
        self._conn = conn
        self.readonly = readonly

    # ------------------------------------------------------------ meta

    def meta(self, key: str) -> str | None:
        """A value the last build left (`inputs`, `report`, `source_root`, ...)."""
        try:
            row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError:
            return None
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # ------------------------------------------------------------ facts

    def facts(
        self,
        key: str,
        codec: FileCodec[Summary],
        language_keys: dict[str, str] | None = None,
    ) -> FactsCache[Summary]:
        """The facts of earlier builds made by code of this `key` (the scanners' facts key);
        `codec` says how the rows' summaries read and how a file is hashed."""
        from docgen.state.facts import FactsCache

        return FactsCache(self._conn, key, codec, self.readonly, language_keys)

    def kept_per_file(self, kind: str) -> dict[str, tuple[str, str]]:
        """What the last build kept of each file under `kind`: path -> (the stamp it was
        made from, the text), for the one who made it to read back."""
        query = "SELECT path, stamp, text FROM per_file WHERE kind = ?"
        return {path: (stamp, text) for path, stamp, text in self._conn.execute(query, (kind,))}

    def kept_stamps(self, kind: str) -> KeptPerFile:
        """What the last build kept under `kind`, read when first needed (in whichever
        process asks): for rows most builds never read.  Nothing is read before this
        build keeps its own rows (at its end)."""
        return KeptPerFile(self.database(), kind)

    def keep_per_file(
        self,
        kind: str,
        fresh: Iterable[tuple[str, str, str]],
        gone: Iterable[str],
        keys: Iterable[tuple[str, Iterable[str], Iterable[str]]] | None = None,
    ) -> None:
        """Keep `fresh` (path, stamp, text) under `kind`, and forget the rows of it of the
        files `gone` (the caller read the kept rows: it knows which).  `keys`: for each
        file whose rows changed, the keys they no longer point at and those they now
        point at, kept so that `KeptPerFile.holding` finds the files of a key without
        reading their rows."""
        fresh = list(fresh)
        gone = list(gone)
        self._conn.executemany(
            "INSERT OR REPLACE INTO per_file VALUES (?, ?, ?, ?)",
            [(kind, path, stamp, text) for path, stamp, text in fresh],
        )
        self._conn.executemany(
            "DELETE FROM per_file WHERE kind = ? AND path = ?", [(kind, p) for p in gone]
        )
        if keys is None:
            return
        removed: list[tuple[str, str, str]] = []
        added: list[tuple[str, str, str]] = []
        for path, old, new in keys:
            removed.extend((kind, key, path) for key in old)
            added.extend((kind, key, path) for key in new)
        query = "DELETE FROM per_file_keys WHERE kind = ? AND key = ? AND path = ?"
        self._conn.executemany(query, removed)
        # in the table's own order: a cold build adds every key of the tree
        insert = "INSERT OR IGNORE INTO per_file_keys VALUES (?, ?, ?)"
        self._conn.executemany(insert, sorted(added))

    def take_page_scope(self) -> str:
        """The key the last build left for the scope of an edit (see `docgen.render.edit_scope`),
        "" when it left none; none is left until this build keeps its own."""
        key = self.meta(PAGE_SCOPE) or ""
        if key and not self.readonly:
            self.set_meta(PAGE_SCOPE, "")
        return key

    def keep_page_scope(self, key: str) -> None:
        """Leave this build's scope key, once every page is as it made it."""
        self.set_meta(PAGE_SCOPE, key)

    def kept_relations(self, key: str) -> str | None:
        """What the C-family side of the last build's index kept as a whole (see
        `docgen.index.cfamily_relations`), as stored, when it was made from what `key` says."""
        if self.meta(RELATIONS_KEY) != key:
            return None
        return self.meta(RELATIONS)

    def kept_relations_names(self) -> list[str] | None:
        """The include names the kept relations' key was made with (see
        `docgen.index.cfamily_relations.include_names`); None when none are kept."""
        text = self.meta(RELATIONS_NAMES)
        try:
            names = json.loads(text) if text else None
        except ValueError:
            return None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return None
        return names

    def keep_relations(self, key: str, names: Sequence[str], text: str) -> None:
        """Keep what this build's C-family side keeps as a whole for the next one ("" when
        the tree has no C-family file)."""
        self.set_meta(RELATIONS_KEY, key)
        self.set_meta(RELATIONS_NAMES, json.dumps(list(names)))
        self.set_meta(RELATIONS, text)

    # ------------------------------------------------------------ pages

    def manifest(self) -> dict[str, str]:
        """Every page docgen wrote -> the digest of its bytes."""
        return dict(self._conn.execute("SELECT path, sha256 FROM pages ORDER BY path"))

    def pages_as_left(
        self, out: Path, stale: set[str] | None = None
    ) -> tuple[dict[str, str], dict[str, str]]:
        """The `manifest`, and page -> the digest of what it was made from for the pages
        still as docgen left them: read together, in one pass over the pages.  `stale`:
        the pages that are not, when a child found them (see `page_stamps`)."""
        root = os.path.join(out, "")  # plain strings: a no-op build checks every page this way
        manifest, found = {}, {}
        # In the table's own order: both are only looked up (the paths' index order cost
        # a fifth of the read).
        query = "SELECT path, sha256, stamp, inputs FROM pages"
        for rel, sha, stamp, inputs in self._conn.execute(query):
            manifest[rel] = sha
            if not inputs:
                continue  # no digest to reuse: the page is made again whatever its stamp
            if (rel not in stale) if stale is not None else as_left(root, rel, stamp):
                found[rel] = inputs
        return manifest, found

    def database(self) -> str:
        """The file of the state database, for another process to read."""
        return database_file(self._conn)

    def pages_intact(self, out: Path) -> int | None:
        """The number of pages when every recorded page is on disk as docgen left it."""
        root = os.path.join(out, "")  # as in `pages_as_left`
        count = 0
        for rel, stamp in self._conn.execute("SELECT path, stamp FROM pages"):
            if not as_left(root, rel, stamp):
                return None
            count += 1
        return count

    def page_count(self) -> int:
        """How many pages the last build recorded."""
        return int(self._conn.execute("SELECT count(*) FROM pages").fetchone()[0])

    def record_pages(self, records: Iterable[PageRecord]) -> None:
        self._conn.executemany(
            "INSERT OR REPLACE INTO pages (path, sha256, stamp, inputs) VALUES (?, ?, ?, ?)",
            records,
        )

    def forget_page(self, path: str) -> None:
        self._conn.execute("DELETE FROM pages WHERE path = ?", (path,))

    # ------------------------------------------------------------ facts archives

    def content_digests(self) -> dict[str, str]:
        """Each file's content hash as the last build found it (files whose facts it kept)."""
        from docgen.state.facts import content_digests

        return content_digests(self._conn)

    def export_facts(self, target: Path) -> int:
        """Write this state's facts to an archive (see `docgen.state.archive`); how many."""
        from docgen.state.archive import export_rows

        return export_rows(self._conn, target)

    def import_facts(self, rows: Iterable[FactsRow]) -> int:
        """Merge checked archive rows into the facts cache; how many rows changed."""
        from docgen.state.archive import merge_rows

        return merge_rows(self._conn, rows)

    # ------------------------------------------------------------ HTML site

    def site_files(self) -> dict[str, SiteRecord]:
        """Every file docgen wrote into the HTML site, by site-relative path."""
        try:
            rows = self._conn.execute("SELECT path, made_from, sha256, before FROM site_files")
            return {row[0]: SiteRecord(*row) for row in rows}
        except sqlite3.OperationalError:  # a state of an older docgen, read by `clean`
            return {}

    def record_site_files(self, records: Iterable[SiteRecord]) -> None:
        self._conn.executemany(
            "INSERT OR REPLACE INTO site_files (path, made_from, sha256, before)"
            " VALUES (?, ?, ?, ?)",
            records,
        )

    def forget_site_files(self, paths: Iterable[str]) -> None:
        self._conn.executemany("DELETE FROM site_files WHERE path = ?", ((p,) for p in paths))

    def commit(self) -> None:
        """Make what was written so far durable now (a step of a longer command that a
        kill may interrupt), not only when the state is closed."""
        self._conn.commit()

    # ------------------------------------------------------------ keyword index

    def stored_sites(self, made_from: Mapping[str, str]) -> dict[str, list[DefinitionSite]]:
        """The keyword sites of each file as the last build stored them, for the files
        whose sites were made from the same `made_from[path]` (facts and code)."""
        return stored_sites(self._conn, made_from)

    def store_sites(
        self,
        found: Iterable[DefinitionSite],
        made_from: Mapping[str, str],
        marks: Mapping[str, str] | None = None,
    ) -> None:
        """Make the keyword index behind `docgen find` hold these sites (rewriting only
        the rows of files whose `made_from` changed; `marks`: the `site_marks` read
        since, when they were)."""
        store_sites(self._conn, found, made_from, marks)

    def site_marks(self) -> dict[str, str]:
        """What each file's stored sites were made from (its facts and docgen's code)."""
        return site_marks(self._conn)

    def paths_defining(self, names: Iterable[tuple[str, str]]) -> set[str]:
        """The files whose stored sites hold any of these (name, qualified name) pairs."""
        return paths_defining(self._conn, names)

    def sites_of_files(self, paths: Iterable[str]) -> list[DefinitionSite]:
        """The stored sites of these files."""
        return sites_of_files(self._conn, paths)

    def letter_sites(self, letters: Iterable[str], skip: Iterable[str]) -> list[DefinitionSite]:
        """The stored sites on these keyword letters, but for the files in `skip`."""
        return letter_sites(self._conn, letters, skip)

    def stored_operators(self, path: str) -> StoredOperators:
        """A YAML file's stored operator entries, each decoded when asked for."""
        from docgen.state.facts import read_facts
        from docgen.state.stored_operators import StoredOperators

        return StoredOperators(path, read_facts(self._conn, [path]).get(path))

    def stored_summaries(self, paths: Sequence[str]) -> dict[str, str]:
        """These files' stored summaries, as their rows keep them (see
        `docgen.analyze.summary.read_summary`): what a command that makes no index reads
        of the files it passes through."""
        from docgen.state.facts import read_summaries

        return read_summaries(self._conn, paths)

    def stored_file(self, path: str) -> ScannedFile | None:
        """One file's stored facts, None when it has none or they cannot be read."""
        from docgen.state.facts import cached_facts, read_facts

        text = read_facts(self._conn, [path]).get(path)
        return cached_facts(path, text) if text is not None else None

    def all_sites(self) -> list[DefinitionSite]:
        """Every keyword site the last build stored, sorted."""
        return find_sites(self._conn, "*", "glob")

    def find_sites(
        self, pattern: str, mode: MatchMode = "exact", kind: str | None = None
    ) -> list[DefinitionSite]:
        """Definitions whose name (or, with `::`, qualified name) matches `pattern`."""
        return find_sites(self._conn, pattern, mode, kind)
