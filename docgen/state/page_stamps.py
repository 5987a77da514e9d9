"""Which pages are no longer as docgen left them, found in a forked process.

Every incremental build checks each page it wrote before against the stamp it
recorded: a page edited or removed by hand is made again.  That is a status call
for each of tens of thousands of pages, and a one-file edit spends its time in
this process otherwise (reading the state, decoding summaries), while the
second core waits: so the calls are made in a child forked when the scan
begins, which sends back only the pages that changed.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.connection import Connection
from pathlib import Path

from docgen.atomic import stamp_of
from docgen.interrupts import unblock_interrupts
from docgen.processes import StartedProcess, kill, start_process
from docgen.state.readers import process_reader

#: Seconds the build waits for the child's answer before it checks the pages itself.
ANSWER_SECONDS = 30.0


def start_check(out: Path, database: str) -> StartedProcess | None:
    """A child checking the pages of `out` that `database` records; None when none can be
    forked (the build then checks them itself)."""
    try:
        return start_process(multiprocessing.get_context("fork"), _check, str(out), database)
    except (OSError, ValueError):
        return None


def stale_pages(out: str, rows: list[tuple[str, str]]) -> set[str]:
    """The recorded pages (path, stamp) that are not on disk as docgen left them."""
    root = os.path.join(out, "")  # plain strings: one call per page
    return {rel for rel, stamp in rows if not as_left(root, rel, stamp)}


def as_left(root: str, rel: str, stamp: str) -> bool:
    """Whether the page `rel` under `root` (ending in a separator) is on disk with the
    stamp docgen recorded when it wrote it."""
    try:
        return stamp_of(os.stat(root + rel)) == stamp
    except OSError:
        return False


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
