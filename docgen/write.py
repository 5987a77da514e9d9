"""Writing pages: only when their bytes change, atomically, and only our own.

docgen keeps a manifest of the pages it wrote in `OUT/.docgen/state.sqlite`.
A page is replaced only when docgen wrote it (it is in the manifest, or it
carries docgen's front matter); a user's file at the same place is left alone
and reported.  Pages that the build no longer produces are pruned, and only
those.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import sqlite3
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from docgen.discover import PAGE_HEAD_BYTES, is_docgen_page
from docgen.errors import DocgenError

STATE_DIR = ".docgen"
STATE_FILE = "state.sqlite"
#: Where pages are written before they are renamed into place; swept by every build.
TEMP_DIR = "tmp"
#: Bumped whenever a table changes shape; a state of another version is discarded.
STATE_VERSION = "3"
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS pages (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL,"
    " stamp TEXT NOT NULL DEFAULT '', inputs TEXT NOT NULL DEFAULT '')",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)


RECORD_PAGE = "INSERT OR REPLACE INTO pages (path, sha256, stamp) VALUES (?, ?, ?)"


@dataclass
class WriteResult:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # user files docgen would not replace
    failed: list[tuple[str, str]] = field(default_factory=list)  # (page, why) not written


@contextlib.contextmanager
def open_state(out: Path) -> Iterator[sqlite3.Connection]:
    state_dir = out / STATE_DIR
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.is_file():
        # A committed docs tree must not commit the cache, nor show it as a change.
        atomic_write(ignore, b"# docgen's cache and keyword index; never commit it\n*\n")
    path = state_dir / STATE_FILE
    try:
        conn = _connect(path)
    except sqlite3.DatabaseError:
        # A corrupt or foreign state file: start afresh rather than trust it.
        path.unlink(missing_ok=True)
        conn = _connect(path)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    try:
        for statement in SCHEMA:
            conn.execute(statement)
        if get_meta(conn, "state_version") != STATE_VERSION:
            conn.close()
            path.unlink()  # made by another docgen: start afresh (pages are still ours)
            conn = sqlite3.connect(path)
            for statement in SCHEMA:
                conn.execute(statement)
            set_meta(conn, "state_version", STATE_VERSION)
            conn.commit()
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def page_stamp(target: Path) -> str:
    """Size and modification time of a written page, to notice later edits cheaply."""
    return _stamp(target.stat())


def pages_intact(conn: sqlite3.Connection, out: Path) -> int | None:
    """The number of pages when every recorded page is on disk as docgen left it, else None."""
    count = 0
    for rel, stamp in conn.execute("SELECT path, stamp FROM pages"):
        try:
            if page_stamp(out / rel) != stamp:
                return None
        except OSError:
            return None
        count += 1
    return count


def read_state(out: Path) -> sqlite3.Connection | None:
    """The state of an earlier build, read-only, or None when there is none."""
    path = out / STATE_DIR / STATE_FILE
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM pages").fetchone()
    except sqlite3.DatabaseError:
        return None
    return conn


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None else str(row[0])


def page_inputs(conn: sqlite3.Connection, out: Path) -> dict[str, str]:
    """Page -> the digest of what it was made from, for pages still as docgen left them."""
    found = {}
    for rel, stamp, inputs in conn.execute("SELECT path, stamp, inputs FROM pages"):
        try:
            if inputs and page_stamp(out / rel) == stamp:
                found[rel] = inputs
        except OSError:
            continue
    return found


def manifest(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT path, sha256 FROM pages ORDER BY path"))


def page_mode() -> int:
    """The mode a plain `open()` would give a new file under the current umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(
    target: Path, data: bytes, mode: int = 0o644, temp_dir: Path | None = None
) -> None:
    """Write via a temporary file and rename, so no reader ever sees half a page.

    The temporary file goes to `temp_dir` (docgen's own, swept by every build, so
    a build killed between write and rename leaves nothing among the pages), or
    beside the target when that folder is on another file system.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    folder = temp_dir if temp_dir is not None else target.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".tmp", dir=folder)
    os.fchmod(fd, mode)  # mkstemp makes files private; pages are as readable as any file
    try:
        _publish(fd, Path(tmp), target, data)
    except OSError as exc:
        if exc.errno != errno.EXDEV or temp_dir is None:
            raise
        atomic_write(target, data, mode)  # across file systems: beside the target


def _publish(fd: int, temp: Path, target: Path, data: bytes) -> os.stat_result:
    """Write `data` to the open temporary file, rename it onto `target` and return its
    status (a rename keeps size and mtime); the temporary file never outlives a failure."""
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            written = os.fstat(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return written


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}"


def _ours(target: Path, known: Mapping[str, str], rel: str) -> bool:
    if rel in known:
        return True
    try:
        with open(target, "rb") as handle:
            return is_docgen_page(handle.read(PAGE_HEAD_BYTES))
    except OSError:
        return False


def _safe_target(out: Path, rel: str) -> Path:
    target = out / rel
    if ".." in Path(rel).parts or Path(rel).is_absolute():
        raise DocgenError(f"refusing to write outside the output folder: {rel}")
    return target


def write_pages(
    out: Path, pages: Mapping[str, str | None], inputs: Mapping[str, str] | None = None
) -> WriteResult:
    """Bring OUT in line with `pages` (output-relative path -> text, or None for a page
    whose inputs did not change: it stays as it is).  `inputs` are the pages' input
    digests, kept for the next build."""
    inputs = inputs or {}
    result = WriteResult()
    with open_state(out) as conn:
        known = manifest(conn)
        # Prune first: a stale page may stand where a new folder is needed, or the reverse.
        for rel in sorted(set(known) - set(pages)):
            target = _safe_target(out, rel)
            with contextlib.suppress(FileNotFoundError):
                if target.is_file() and not target.is_symlink():
                    target.unlink()
                    result.pruned.append(rel)
            conn.execute("DELETE FROM pages WHERE path = ?", (rel,))
            remove_empty_parents(out, target.parent)
        writer = PageWriter(out, known)
        records = []
        for rel in sorted(pages):
            text = pages[rel]
            if text is None:
                result.unchanged += 1
                continue
            try:
                record = writer.write(rel, text.encode("utf-8"), result)
            except OSError as exc:  # e.g. a name longer than the file system allows
                result.failed.append((rel, exc.strerror or str(exc)))
                continue
            if record is not None:
                records.append((*record, inputs.get(rel, "")))
        conn.executemany(
            "INSERT OR REPLACE INTO pages (path, sha256, stamp, inputs) VALUES (?, ?, ?, ?)",
            records,
        )
    return result


class PageWriter:
    """Writes the pages of one build: each folder made once, each page with one status
    call before and one after, through a temporary file named by process and count."""

    def __init__(self, out: Path, known: Mapping[str, str]) -> None:
        self._out = out
        self._known = known
        self._mode = page_mode()
        self._temp = out / STATE_DIR / TEMP_DIR
        self._folders: set[Path] = set()
        self._count = 0

    def _folder(self, folder: Path) -> None:
        if folder not in self._folders:
            folder.mkdir(parents=True, exist_ok=True)
            self._folders.add(folder)

    def write(self, rel: str, data: bytes, result: WriteResult) -> tuple[str, str, str] | None:
        """Write one page unless it is unchanged or not ours; (path, digest, stamp) to record."""
        target = _safe_target(self._out, rel)
        digest = hashlib.sha256(data).hexdigest()
        try:
            st = os.lstat(target)
        except FileNotFoundError:
            st = None
        if st is not None:
            if not stat.S_ISREG(st.st_mode) or not _ours(target, self._known, rel):
                result.refused.append(rel)
                return None
            if st.st_size == len(data) and target.read_bytes() == data:
                result.unchanged += 1
                return rel, digest, _stamp(st)
        self._folder(target.parent)
        self._folder(self._temp)
        self._count += 1
        temp = self._temp / f"{os.getpid()}-{self._count}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, self._mode)
        try:
            written = _publish(fd, temp, target, data)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            atomic_write(target, data, self._mode)  # across file systems: beside the target
            written = os.stat(target)
        result.written.append(rel)
        return rel, digest, _stamp(written)


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
