"""Coming back from whatever happened to an output folder since the last build.

A build may have been killed at any moment, and the state file may be
truncated, corrupt, or made by another program or another docgen.  None of
that may leak into the pages: temporary files are swept, a state that cannot be
trusted is discarded (and the user told in one line), and the pages docgen wrote
are adopted again from their front matter so that pruning still works.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
from pathlib import Path

from docgen.model.pages import PAGE_HEAD_BYTES, is_docgen_page
from docgen.state.connection import of_this_version, open_state
from docgen.state.db import STATE_DIR, STATE_FILE, TEMP_DIR, PageRecord


def sweep_temporary(out: Path) -> None:
    """Remove the temporary files of a build that was killed before it renamed them."""
    shutil.rmtree(out / STATE_DIR / TEMP_DIR, ignore_errors=True)


def state_trouble(out: Path) -> str | None:
    """Why the state file cannot be trusted, or None (also None when there is none yet).

    Cheap on purpose (it runs before every build, the no-op one included): the
    header, docgen's tables and the version mark.  Damage deeper in the file
    surfaces as sqlite3.DatabaseError during the build, which discards it then.
    """
    path = out / STATE_DIR / STATE_FILE
    if not os.path.lexists(path):
        return None
    if path.is_symlink() or not path.is_file():
        return "it is not a regular file"
    if path.stat().st_size == 0:
        return None  # created by a build killed at once: nothing to distrust
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError as exc:
        return f"it cannot be opened: {exc}"
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not {"pages", "meta"} <= tables:
            return "it was not written by docgen"
        if not of_this_version(conn):
            return "it was written by another version of docgen"
        conn.execute("SELECT count(*) FROM pages").fetchone()
    except sqlite3.DatabaseError as exc:
        return f"it is damaged: {exc}"
    finally:
        conn.close()
    return None


def missing_state(out: Path) -> str:
    """Why `read_state` found no state in OUT, for a one-line message."""
    if not (out / STATE_DIR / STATE_FILE).is_file():
        return f"no docgen build in {out}"
    why = state_trouble(out) or "it cannot be read"
    return f"the docgen state in {out} cannot be used: {why}"


def discard_state(out: Path) -> int:
    """Start a new state file, listing the docgen pages found in OUT as docgen's own.

    Returns how many pages were adopted.  Their recorded digests are their
    current bytes and their stamps are empty, so the next build re-renders
    each one and prunes those whose source is gone.
    """
    state_dir = out / STATE_DIR
    path = state_dir / STATE_FILE
    for stale in (
        path,
        path.with_name(STATE_FILE + "-journal"),
        path.with_name(STATE_FILE + "-wal"),
    ):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
    pages = sorted(docgen_pages(out))
    with open_state(out) as state:
        state.record_pages(pages)
    return len(pages)


def docgen_pages(out: Path) -> list[PageRecord]:
    """The pages in OUT that carry docgen's front matter (not through a link)."""
    found: list[PageRecord] = []
    for folder, dirs, files in os.walk(out):
        if Path(folder) == out:
            dirs[:] = [d for d in dirs if d != STATE_DIR]
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            path = Path(folder) / name
            try:
                if path.is_symlink():
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if is_docgen_page(data[:PAGE_HEAD_BYTES]):
                rel = path.relative_to(out).as_posix()
                found.append(PageRecord(rel, hashlib.sha256(data).hexdigest(), ""))
    return found
