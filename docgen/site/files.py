"""The files docgen puts into a site, and only those.

Every file docgen writes into the site folder (pages, source views, style sheet,
scripts, search shards, the full-text index) is recorded in the state database
with the digest of its bytes.  Only a recorded file whose bytes are still those
is ever replaced or removed; anything else at a place docgen would write is the
user's, kept and named.  A new version of a file is made in a staging folder,
recorded as on its way (its digest beside the old one's, both docgen's), moved
into place, and only then recorded as made from its inputs: a publish killed at
any moment leaves records that make the next one redo what it had not finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from docgen.site import OWN_FOLDERS
from docgen.state import SiteRecord
from docgen.system.atomic import page_mode
from docgen.system.nofollow import LinkInTheWay, Tree

#: docgen's own folder inside the site, for files on their way in; swept by every publish.
STAGING = "._docgen-staging"
#: What every page of docgen's site carries in its head (adopted without a record).
SITE_GENERATOR = b'<meta name="generator" content="docgen '
#: Bytes a file is read up to when it is judged by its head alone.
_HEAD = 2048


class Staged(NamedTuple):
    """What became of one wanted file: small, so that a render worker returns it."""

    status: str  # "staged" (new bytes waiting in staging), "unchanged", "kept" (the user's)
    sha256: str  # of the new bytes
    before: str  # of the bytes it replaces ("" where nothing was there)


@dataclass
class SiteFiles:
    """The site folder as docgen may touch it: its tree (never through a link) and the
    records of what docgen wrote there."""

    site: Path
    records: Mapping[str, SiteRecord]
    adopting: bool = False  # unrecorded files in docgen's folders are docgen's (a new state)
    tree: Tree = field(init=False)
    kept: list[str] = field(default_factory=list)  # the user's files, left where they are

    def __post_init__(self) -> None:
        self.tree = Tree(self.site)
        self.mode = page_mode()

    def close(self) -> None:
        self.tree.close()

    def check_folders(self) -> None:
        """One clear error, before anything is written, when a link stands where one of
        docgen's own folders of the site should be."""
        for folder in (*OWN_FOLDERS, STAGING):
            self.tree.folder(folder, create=False)

    def sweep(self) -> None:
        """Remove what a killed publish left in the staging folder, and the folder."""
        self.tree.remove_folder(STAGING)

    def strangers(self) -> list[str]:
        """The files in docgen's own folders of the site that docgen did not write."""
        return [
            rel
            for folder in OWN_FOLDERS
            for rel in self.tree.files(folder)
            if rel not in self.records
        ]

    def owner_digest(self, rel: str, data: bytes | None = None) -> str | None:
        """The digest of the file at `rel` when docgen may replace or remove it ("" when
        nothing is there), None when it is the user's.  `data`: its bytes, if read."""
        st = self.tree.lstat(rel)
        if st is None:
            return ""
        if not stat.S_ISREG(st.st_mode):
            return None
        if data is None:
            data = self.tree.read(rel)
            if data is None:
                return None
        digest = hashlib.sha256(data).hexdigest()
        record = self.records.get(rel)
        if record is not None:
            return digest if digest in (record.sha256, record.before) else None
        if rel.endswith(".html") and SITE_GENERATOR in data[:_HEAD]:
            return digest  # a page of docgen's whose record was lost with an old state
        if self.adopting and rel.split("/", 1)[0] in OWN_FOLDERS:
            return digest  # a state started afresh: docgen's own folders are docgen's
        return None

    def stage(self, number: int, rel: str, data: bytes) -> Staged:
        """Stage new bytes for `rel` unless they are already there or the file there is
        the user's; in a render worker."""
        sha = hashlib.sha256(data).hexdigest()
        current = self.tree.read(rel)  # None where nothing, or no regular file, is there
        before = self.owner_digest(rel, current)
        if before is None:
            return Staged("kept", sha, "")
        if current == data:
            return Staged("unchanged", sha, before)
        self.tree.write(f"{STAGING}/{number}", data, self.mode)
        return Staged("staged", sha, before)

    def place(self, staged: str, rel: str) -> None:
        """Move the staged file at `staged` (below the staging folder) to `rel`."""
        self.tree.move_in(self.tree, staged, rel)

    def remove(self, rels: Iterable[str]) -> list[str]:
        """Remove these files of docgen's where they are still docgen's; those removed.
        The others are the user's now: kept, and named in `kept`."""
        removed = []
        for rel in sorted(rels):
            try:
                digest = self.owner_digest(rel)
            except LinkInTheWay:
                digest = None
            if digest is None:
                self.kept.append(rel)
            elif digest and self.tree.unlink(rel):
                removed.append(rel)
            elif not digest:  # gone already (a kill between two steps): its empty folders too
                with contextlib.suppress(LinkInTheWay):
                    self.tree.remove_empty_parents(rel)
        return removed


def staged_files(site_files: SiteFiles, folder: str) -> list[str]:
    """The files below a folder of the staging area, relative to it, in path order."""
    prefix = f"{STAGING}/{folder}/"
    return [rel[len(prefix) :] for rel in site_files.tree.files(f"{STAGING}/{folder}")]


def sha_of(tree: Tree, rel: str) -> str:
    data = tree.read(rel)
    return "" if data is None else hashlib.sha256(data).hexdigest()
