"""Opening the state database: made when missing (and started afresh when it is not
docgen's), read-only for the commands that only read, and one clear line, never a
discarded state, when the disk is full."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from docgen.model.errors import DocgenError
from docgen.state.db import SCHEMA, STATE_DIR, STATE_FILE, STATE_VERSION, State

#: The state folder's `.gitignore`: everything in it.
IGNORE_ALL = b"# docgen's cache and keyword index; never commit it\n*\n"


@contextlib.contextmanager
def open_state(out: Path) -> Iterator[State]:
    """The state of OUT, made when missing; committed when the block ends without error."""
    state_dir = out / STATE_DIR
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.is_file():
        # A committed docs tree must not commit the cache, nor show it as a change.
        _put_in_place(ignore, IGNORE_ALL)
    path = state_dir / STATE_FILE
    try:
        conn = _connect(path)
    except sqlite3.DatabaseError as exc:
        if _no_room(exc):
            raise no_room(out, exc) from None
        # A corrupt or foreign state file: start afresh rather than trust it.
        path.unlink(missing_ok=True)
        conn = _connect(path)
    try:
        with conn:
            yield State(conn)
    except sqlite3.DatabaseError as exc:
        if _no_room(exc):  # not damage: the state is kept as it was before the block
            raise no_room(out, exc) from None
        raise
    finally:
        conn.close()


class NoRoom(DocgenError):
    """The disk that holds the output folder is full: one line, and the state is kept."""


def no_room(out: Path, exc: BaseException) -> NoRoom:
    return NoRoom(f"no space left on the device of {out} ({exc}); free some and run again")


def _no_room(exc: sqlite3.DatabaseError) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "disk is full" in str(exc)


@contextlib.contextmanager
def read_state(out: Path, any_version: bool = False) -> Iterator[State | None]:
    """The state of an earlier build, read-only, or None when there is none (or it is of
    another version, unless `any_version`: `clean` reads only its manifest)."""
    path = out / STATE_DIR / STATE_FILE
    if not path.is_file():
        yield None
        return
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        yield None
        return
    try:
        conn.execute("SELECT count(*) FROM pages").fetchone()
        # A state of another version is as good as none (a build would discard it).
        readable = any_version or of_this_version(conn)
    except sqlite3.DatabaseError:
        readable = False
    try:
        yield State(conn, readonly=True) if readable else None
    finally:
        conn.close()


def of_this_version(conn: sqlite3.Connection) -> bool:
    """Whether the state was written by this version of docgen: the one check of it,
    for building, for reading and for telling the user why a state is not used.
    Raises sqlite3.DatabaseError where the state is damaged."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'state_version'").fetchone()
    return row is not None and row[0] == STATE_VERSION


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    try:
        for statement in SCHEMA:
            conn.execute(statement)
        if not of_this_version(conn):
            conn.close()
            path.unlink()  # made by another docgen: start afresh (pages are still ours)
            conn = sqlite3.connect(path)
            for statement in SCHEMA:
                conn.execute(statement)
            State(conn).set_meta("state_version", STATE_VERSION)
            conn.commit()
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def _put_in_place(target: Path, data: bytes) -> None:
    """Write a small file of the state folder through a temporary one and a rename, so
    that no one ever reads it cut short (and never through a link in its place)."""
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    try:
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
