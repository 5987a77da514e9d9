"""Putting a file in place through a temporary one, so no reader ever sees half of it."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path


def page_mode() -> int:
    """The mode a plain `open()` would give a new file under the current umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write(
    target: Path, data: bytes, mode: int = 0o644, temp_dir: Path | None = None
) -> None:
    """Write via a temporary file and rename.

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
        publish(fd, Path(tmp), target, data)
    except OSError as exc:
        if exc.errno != errno.EXDEV or temp_dir is None:
            raise
        atomic_write(target, data, mode)  # across file systems: beside the target


def publish(
    fd: int,
    temp: str | Path,
    target: str | Path,
    data: bytes,
    temp_folder: int | None = None,
    target_folder: int | None = None,
) -> os.stat_result:
    """Write `data` to the open temporary file, rename it onto `target` and return its
    status (a rename keeps size and mtime); the temporary file never outlives a failure.
    `temp_folder`, `target_folder`: the folders' descriptors the names are relative to."""
    try:
        try:  # plain system calls: a file object would add three more per page
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            written = os.fstat(fd)
        finally:
            os.close(fd)
        os.replace(temp, target, src_dir_fd=temp_folder, dst_dir_fd=target_folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=temp_folder)
        raise
    return written
