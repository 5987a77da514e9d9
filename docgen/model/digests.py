"""The digests docgen keys what it keeps by: of a run of strings, of a file's bytes, and
of its own installed code, each made one way."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

_EMPTY = hashlib.sha256(b"").hexdigest()


def parts_digest(parts: Iterable[str]) -> str:
    """The SHA-256 of each part followed by a NUL byte, hashed as one string: a build
    digests every page's inputs, tens of thousands of parts for a large tree."""
    items = list(parts)
    if not items:
        return _EMPTY
    return hashlib.sha256(("\0".join(items) + "\0").encode("utf-8", "surrogatepass")).hexdigest()


def facts_digest(facts_json: str) -> str:
    """The SHA-256 of a file's facts as JSON, kept with them so no build hashes them again."""
    return hashlib.sha256(facts_json.encode("utf-8", "surrogatepass")).hexdigest()


def file_digest(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, read in chunks (a large file is never held whole);
    None when it cannot be read."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


@cache
def code_digest(packages: tuple[str, ...] | None = None) -> str:
    """A digest of the installed package's files (each one's path and bytes: its modules
    and the data they read, such as the C-family macro tables): all of them, or those of
    the top-level `packages` and the package's own `__init__.py`.  The installed code is
    fixed for the life of a process, so each is read once."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for file in sorted(package.rglob("*")):
        relative = file.relative_to(package)
        if "__pycache__" in relative.parts or file.suffix == ".pyc" or not file.is_file():
            continue
        if packages is None or relative.parts[0] in (*packages, "__init__.py"):
            digest.update(relative.as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()
