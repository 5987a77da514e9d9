"""One build at a time per output folder.

Two builds into the same folder (a pre-commit hook while a shell build runs, two
CI steps) would interleave pages and cache rows.  An advisory lock on
`OUT/.docgen/lock` makes the second wait; the operating system releases it
when its holder exits, however it exits (a SIGKILL included), so a killed build
never leaves a stale lock behind.  `clean` removes the lock file, last: a run that
waited on it locks the one made in its place (see `output_lock`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from docgen.model.errors import UsageError
from docgen.system.nofollow import link_refusal

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no fcntl; builds there are not locked
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "lock"


@contextlib.contextmanager
def output_lock(state_dir: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the output folder's lock; when another docgen holds it, say so once and wait."""
    for folder in (state_dir.parent, state_dir):  # never written through a link
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise link_refusal(folder)
    told = False
    while True:
        fd = _open_lock(state_dir)
        if fd is None:
            continue  # `clean` removed the folder between its making and the open
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if on_wait is not None and not told:
                        on_wait(f"waiting for another docgen run that is using {state_dir.parent}")
                        told = True
                    fcntl.flock(fd, fcntl.LOCK_EX)
            if fcntl is None or _in_place(fd, state_dir / LOCK_FILE):
                break
        except BaseException:
            os.close(fd)
            raise
        # `clean` removed the file while this run waited on it: a run that came later
        # locks the file in its place, so this one must lock that one too.
        os.close(fd)
    try:
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _open_lock(state_dir: Path) -> int | None:
    """The lock file, made when missing; None when its folder went before the open."""
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        return os.open(state_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except FileNotFoundError:
        return None
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise UsageError(f"cannot write into the output folder {state_dir.parent}: {why}") from exc


def _in_place(fd: int, path: Path) -> bool:
    """Whether the file locked through `fd` is still the one at `path`: a lock held on a
    removed file keeps no one else out."""
    try:
        here = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)
