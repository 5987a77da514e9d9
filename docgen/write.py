"""Writing pages: only when their bytes change, atomically, and only our own.

docgen keeps a manifest of the pages it wrote in its state database.  A page
is replaced only when docgen wrote it (it is in the manifest, or it
carries docgen's front matter); a user's file at the same place is left alone
and reported.  Pages that the build no longer produces are pruned, and only
those.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from docgen.atomic import atomic_write, page_mode, publish, stamp_of
from docgen.discover import PAGE_HEAD_BYTES, is_docgen_page
from docgen.errors import DocgenError
from docgen.state import STATE_DIR, TEMP_DIR, PageRecord, State, open_state


@dataclass
class WriteResult:
    """What writing the pages did, and what it refused to do."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # user files docgen would not replace
    failed: list[tuple[str, str]] = field(default_factory=list)  # (page, why) not written


def _ours(target: str | Path, known: Mapping[str, str], rel: str) -> bool:
    if rel in known:
        return True
    try:
        with open(target, "rb") as handle:
            return is_docgen_page(handle.read(PAGE_HEAD_BYTES))
    except OSError:
        return False


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _inside(rel: str) -> str:
    """`rel` itself, when it names a place inside the output folder."""
    if os.path.isabs(rel) or ".." in rel.replace(os.sep, "/").split("/"):
        raise DocgenError(f"refusing to write outside the output folder: {rel}")
    return rel


def _safe_target(out: Path, rel: str) -> Path:
    return out / _inside(rel)


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
    writer = PageWriter(out, state.manifest())
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
    for rel in sorted(known.keys() - set(pages)):
        target = _safe_target(out, rel)
        with contextlib.suppress(FileNotFoundError):
            if target.is_file() and not target.is_symlink():
                target.unlink()
                result.pruned.append(rel)
        state.forget_page(rel)
        remove_empty_parents(out, target.parent)
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
    """Writes the pages of one build, from any process: each folder made once per process,
    each page with one status call before and one after, through a temporary file named
    by process and count."""

    def __init__(self, out: Path, known: Mapping[str, str]) -> None:
        # Plain strings, not Path objects: a cold build writes tens of thousands of
        # pages, and pathlib's parsing was a third of the time spent writing each one.
        self._prefix = os.path.join(out, "")
        self._known = known
        self._mode = page_mode()
        self._temp = os.path.join(out, STATE_DIR, TEMP_DIR)
        self._folders: set[str] = set()
        self._count = 0

    def _folder(self, folder: str) -> None:
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)

    def write(self, rel: str, text: str, inputs: str = "") -> PageOutcome:
        """Write one page unless it is unchanged or not ours; `inputs`, the digest of what
        it was made from, is kept in its record."""
        try:
            return self._write(rel, text.encode("utf-8"), inputs)
        except OSError as exc:  # e.g. a name longer than the file system allows
            return PageOutcome("failed", why=exc.strerror or str(exc))

    def _write(self, rel: str, data: bytes, inputs: str) -> PageOutcome:
        target = self._prefix + _inside(rel)
        digest = hashlib.sha256(data).hexdigest()
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            st = None
        if st is not None:
            if not stat.S_ISREG(st.st_mode) or not _ours(target, self._known, rel):
                return PageOutcome("refused")
            if st.st_size == len(data) and _read(target) == data:
                return PageOutcome("unchanged", PageRecord(rel, digest, stamp_of(st), inputs))
        self._folder(os.path.dirname(target))
        self._folder(self._temp)
        self._count += 1
        temp = os.path.join(self._temp, f"{os.getpid()}-{self._count}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, self._mode)
        try:
            written = publish(fd, temp, target, data)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            atomic_write(Path(target), data, self._mode)  # across file systems: beside it
            written = os.stat(target)
        return PageOutcome("written", PageRecord(rel, digest, stamp_of(written), inputs))


def remove_empty_parents(out: Path, folder: Path) -> None:
    out = out.resolve()
    while True:
        try:
            resolved = folder.resolve()
        except OSError:
            return
        if resolved == out or out not in resolved.parents:
            return
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
