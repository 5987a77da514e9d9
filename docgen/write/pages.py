"""Writing pages: only when their bytes change, atomically, and only our own.

docgen keeps a manifest of the pages it wrote in its state database.  A page
is replaced only when docgen wrote it (it is in the manifest, or it
carries docgen's front matter); a user's file at the same place is left alone
and reported.  Pages that the build no longer produces are pruned, and only
those.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from docgen.model.pages import PAGE_HEAD_BYTES, is_docgen_page, stamp_of
from docgen.state import STATE_DIR, TEMP_DIR, PageRecord, State, open_state
from docgen.system.atomic import page_mode, publish
from docgen.system.nofollow import Tree, link_refusal, parts_of


@dataclass
class WriteResult:
    """What writing the pages did, and what it refused to do."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # user files docgen would not replace
    failed: list[tuple[str, str]] = field(default_factory=list)  # (page, why) not written


def _ours(tree: Tree, rel: str, known: Mapping[str, str]) -> bool:
    if rel in known:
        return True
    head = tree.read(rel, PAGE_HEAD_BYTES)
    return head is not None and is_docgen_page(head)


@dataclass(frozen=True)
class PageOutcome:
    """What became of one page: small, so that a worker process returns it, not the page."""

    status: str  # "written", "unchanged", "refused" (a file docgen did not write), "failed"
    record: PageRecord | None = None  # what the state database keeps of it
    why: str = ""  # for "failed"


def write_pages(
    out: Path,
    pages: Mapping[str, str | None],
    inputs: Mapping[str, str] | None = None,
    state: State | None = None,
) -> WriteResult:
    """Bring OUT in line with `pages` (output-relative path -> text, or None for a page
    whose inputs did not change: it stays as it is).  `inputs` are the pages' input
    digests, kept for the next build in `state` (OUT's own when not given)."""
    if state is None:
        with open_state(out) as own:
            return write_pages(out, pages, inputs, own)
    inputs = inputs or {}
    result = prune_pages(out, pages, state)
    with PageWriter(out, state.manifest()) as writer:
        outcomes = {
            rel: writer.write(rel, text, inputs.get(rel, ""))
            for rel, text in sorted(pages.items())
            if text is not None
        }
    result.unchanged += sum(1 for text in pages.values() if text is None)
    record_outcomes(outcomes, state, result)
    return result


def prune_pages(
    out: Path, pages: Collection[str], state: State, manifest: Mapping[str, str] | None = None
) -> WriteResult:
    """Remove the pages docgen wrote before (`manifest`, read from `state` when not given)
    and this build no longer makes.  First of all: a stale page may stand where a new
    folder is needed, or the reverse."""
    result = WriteResult()
    known = state.manifest() if manifest is None else manifest
    with Tree(out) as tree:
        for rel in sorted(known.keys() - set(pages)):
            if tree.unlink(rel):  # a link or a folder there is left alone
                result.pruned.append(rel)
            state.forget_page(rel)
    return result


def record_outcomes(outcomes: Mapping[str, PageOutcome], state: State, result: WriteResult) -> None:
    """Count what became of each page (in page order) and keep the records of those written
    or found unchanged."""
    records = []
    for rel in sorted(outcomes):
        outcome = outcomes[rel]
        if outcome.status == "written":
            result.written.append(rel)
        elif outcome.status == "unchanged":
            result.unchanged += 1
        elif outcome.status == "refused":
            result.refused.append(rel)
        else:
            result.failed.append((rel, outcome.why))
        if outcome.record is not None:
            records.append(outcome.record)
    state.record_pages(records)


class PageWriter:
    """Writes the pages of one build, from any process: each folder opened once per
    process (never through a link), each page with one status call before and one
    after, through a temporary file named by process and count."""

    def __init__(self, out: Path, known: Mapping[str, str]) -> None:
        self._tree = Tree(out)
        self._known = known
        self._mode = page_mode()
        self._temp = f"{STATE_DIR}/{TEMP_DIR}"
        self._count = 0

    def close(self) -> None:
        """Close the folders it holds open (each worker closes its own copies on exit)."""
        self._tree.close()

    def __enter__(self) -> PageWriter:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def write(self, rel: str, text: str, inputs: str = "") -> PageOutcome:
        """Write one page unless it is unchanged or not ours; `inputs`, the digest of what
        it was made from, is kept in its record.  A link where the page or one of its
        folders should be stops the build (LinkInTheWay): nothing is written through it."""
        try:
            return self._write(rel, text.encode("utf-8"), inputs)
        except OSError as exc:  # e.g. a name longer than the file system allows
            return PageOutcome("failed", why=exc.strerror or str(exc))

    def _write(self, rel: str, data: bytes, inputs: str) -> PageOutcome:
        tree = self._tree
        parts = parts_of(rel)
        temp_folder = tree.pinned_folder(self._temp)  # never closed by opening another
        folder, name = tree.folder("/".join(parts[:-1])), parts[-1]
        assert folder is not None
        digest = hashlib.sha256(data).hexdigest()
        st = tree.lstat(rel)
        if st is not None:
            if stat.S_ISLNK(st.st_mode):
                raise link_refusal(tree.root / rel)  # never written through, never replaced
            if not stat.S_ISREG(st.st_mode) or not _ours(tree, rel, self._known):
                return PageOutcome("refused")
            if st.st_size == len(data) and tree.read(rel) == data:
                return PageOutcome("unchanged", PageRecord(rel, digest, stamp_of(st), inputs))
        self._count += 1
        temp = f"{os.getpid()}-{self._count}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(temp, flags, self._mode, dir_fd=temp_folder)
        try:
            written = publish(fd, temp, name, data, temp_folder, folder)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            written = tree.write(rel, data, self._mode)  # across file systems: beside it
        return PageOutcome("written", PageRecord(rel, digest, stamp_of(written), inputs))
