"""Reading a source file that discovery listed, safely.

Between discovery and reading, a file may vanish or be replaced (by a FIFO that
would block a plain `open()` forever, by a device): every read goes through here.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from typing import BinaryIO

from docgen.model.sources import SourceFile

#: No file is parsed or read whole past this size (libcst takes about a minute per 25 MB
#: of Python): larger files are hashed and counted as a stream, and their pages say so.
#: Every reader honours it: the scanners, the macros learned from headers, the site.
READ_LIMIT = 8 * 1024 * 1024


def open_regular(source: SourceFile) -> BinaryIO:
    """Open a file that discovery found regular, refusing anything it has become since
    (a FIFO put in its place would block a plain open() forever)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(source.abs_path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "no longer a regular file", source.abs_path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_source(source: SourceFile, limit: int | None = None) -> bytes:
    """The file's bytes (its first `limit`), read with plain system calls: a file object
    would add four more per file (its status twice, a terminal check, a seek), and a
    build reads each C-family file up to three times (its macros, its scan, its page)."""
    return read_regular(source.abs_path, limit)


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file (its first `limit`); OSError for anything else."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.EINVAL, "no longer a regular file", os.fspath(path))
        chunks = []
        left = limit if limit is not None else -1
        size = status.st_size + 1  # one byte more: the end is seen in one read
        while left != 0 and (chunk := os.read(fd, max(size, 1 << 16) if left < 0 else left)):
            chunks.append(chunk)
            size = 0
            if left > 0:
                left -= len(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


def hash_source(source: SourceFile) -> str:
    """The sha256 of a file's bytes, read in chunks (a large file is never held whole)."""
    digest = hashlib.sha256()
    with open_regular(source) as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()
