"""The files a build documents and those it leaves out: what discovery finds, the
record every later stage is handed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceFile:
    """A regular file to document; `abs_path` is a link's own path for in-repo links."""

    path: str
    abs_path: str
    size: int
    #: (size, mtime_ns, ctime_ns, inode) when listed: an unchanged stamp lets the
    #: cache skip reading the file again.
    stamp: tuple[int, ...] = ()


@dataclass(frozen=True)
class Skipped:
    """A file that exists but is deliberately not documented, with the reason shown to users."""

    path: str
    reason: str


@dataclass(frozen=True)
class Discovery:
    """The files a build documents, and those it left out with the reason shown to the user."""

    files: tuple[SourceFile, ...]
    skipped: tuple[Skipped, ...]
    used_git: bool
