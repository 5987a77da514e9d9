"""Which pages are no longer as docgen left them, found in a forked process.

Every incremental build checks each page it wrote before against the stamp it
recorded: a page edited or removed by hand is made again.  That is a status call
for each of tens of thousands of pages, and a one-file edit spends its time in
this process otherwise (reading the state, decoding summaries), while the
second core waits: so the calls are made in a child forked as the build begins
(before it walks the tree), which sends back only the pages that changed.  A build
with nothing to do waits on that answer alone.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

from docgen.model.pages import as_left
from docgen.state.readers import process_reader
from docgen.system.interrupts import unblock_interrupts
from docgen.system.processes import StartedProcess, kill, start_process

#: Seconds the build waits for the child's answer before it checks the pages itself.
ANSWER_SECONDS = 30.0


def start_check(out: Path, database: str) -> StartedProcess | None:
    """A child checking the pages of `out` that `database` records; None when none can be
    forked (the build then checks them itself)."""
    try:
        return start_process(multiprocessing.get_context("fork"), _check, str(out), database)
    except (OSError, ValueError):
        return None


class PageCheck:
    """The check of a build's pages, asked once, answered once: a build that finds
    nothing changed and one that scans read the same answer."""

    def __init__(self, started: StartedProcess | None) -> None:
        self._started = started
        self._asked = False
        self._stale: set[str] | None = None

    def stale(self) -> set[str] | None:
        """The recorded pages not on disk as docgen left them; None when the child gave
        no answer (the build then checks the pages itself)."""
        if not self._asked:
            self._asked = True
            self._stale = answer(self._started) if self._started is not None else None
        return self._stale

    def stop(self) -> None:
        if self._started is not None:
            kill(self._started)  # a no-op once it answered


@contextmanager
def page_check(out: Path) -> Iterator[PageCheck]:
    """The pages of `out` checked in a child from now on, when a build left a state
    database there; the child stopped on leaving."""
    from docgen.state.db import STATE_DIR, STATE_FILE  # db reads this module's `as_left`

    database = out / STATE_DIR / STATE_FILE
    check = PageCheck(start_check(out, str(database)) if database.is_file() else None)
    try:
        yield check
    finally:
        check.stop()


def stale_pages(out: str, rows: list[tuple[str, str]]) -> set[str]:
    """The recorded pages (path, stamp) that are not on disk as docgen left them."""
    root = os.path.join(out, "")  # plain strings: one call per page
    return {rel for rel, stamp in rows if not as_left(root, rel, stamp)}


def answer(started: StartedProcess) -> set[str] | None:
    """The child's answer, and the child stopped; None when it gave none."""
    try:
        if not started.conn.poll(ANSWER_SECONDS):
            return None
        found = started.conn.recv()
    except (EOFError, OSError):
        return None
    finally:
        kill(started)
    return found if isinstance(found, set) else None


def _check(conn: Connection, parent: int, out: str, database: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    unblock_interrupts()  # blocked by the parent around the fork
    try:
        rows = list(process_reader(database, {}).execute("SELECT path, stamp FROM pages"))
        conn.send(stale_pages(out, rows))
    except Exception:
        conn.close()
