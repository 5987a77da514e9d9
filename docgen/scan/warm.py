"""The scan worker a build forks before it knows what changed.

It loads the Python scanner (most of the time a one-file edit takes in its worker)
while the build walks the tree and reads its state.  The child imports the scanners
itself, so that this module is light: the `docgen` command forks the worker before
anything else of docgen loads, and a build with nothing to scan never loads them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from typing import TYPE_CHECKING

from docgen.system.processes import StartedProcess, kill, start_process

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: How much lower the early worker's priority is than the build's own process.
WARM_NICENESS = 5


def fork_scan_worker() -> StartedProcess | None:
    """A scan worker that loads the Python scanner and waits for its settings; None
    where processes cannot fork (the build then starts its workers as it scans)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    try:
        return start_process(multiprocessing.get_context("fork"), _scan_worker)
    except OSError:  # no process to spare: the build forks later
        return None


def _scan_worker(conn: Connection, parent: int) -> None:
    # It gives way to the build's own process and to the check of its pages while they
    # compete for the cores (a build with nothing to do never needs it), and has
    # loaded libcst long before a one-file edit hands it the file.
    with contextlib.suppress(OSError):
        os.nice(WARM_NICENESS)
    from docgen.scan.workers import serve_scans

    serve_scans(conn, parent, True)


class WarmWorker:
    """The build's early scan worker: `scan_files` takes it as its first worker; a
    build with nothing to scan stops it unused."""

    def __init__(self, started: StartedProcess | None = None) -> None:
        """`started`: the worker the `docgen` command forked as it began (see `launch`);
        without it, one is forked now."""
        self._worker = started if started is not None else fork_scan_worker()

    def take(self) -> StartedProcess | None:
        worker, self._worker = self._worker, None
        return worker

    def close(self) -> None:
        """Stop the worker unless `scan_files` took it (it loads libcst: not worth waiting
        for, and it has no file to lose)."""
        worker = self.take()
        if worker is not None:
            kill(worker)

    def __enter__(self) -> WarmWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
