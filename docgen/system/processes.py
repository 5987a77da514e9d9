"""Starting a worker process: its pipe, and Ctrl-C held back around the fork.

Kept apart from the scanners so that the `docgen` command can fork a build's first
scan worker before anything else of docgen loads (see `docgen.scan.warm`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, NamedTuple

from docgen.system.interrupts import interrupts_blocked


class StartedProcess(NamedTuple):
    """A worker process and this process's end of the pipe to it."""

    process: BaseProcess
    conn: Connection


def start_process(ctx: BaseContext, target: Callable[..., None], *args: Any) -> StartedProcess:
    """A daemon process running `target(conn, parent_pid, *args)`.

    The parent's id is taken here: read in the child, it could already be init's."""
    parent_conn, child_conn = ctx.Pipe()
    process = ctx.Process(  # type: ignore[attr-defined]
        target=_child, args=(target, parent_conn, child_conn, os.getpid(), *args), daemon=True
    )
    # Ctrl-C during the fork would interrupt the new child inside this process's
    # own code; blocked here, it reaches this process once the child ignores it.
    with interrupts_blocked():
        process.start()
    child_conn.close()
    return StartedProcess(process, parent_conn)


def kill(started: StartedProcess) -> None:
    """Stop a process that has nothing to lose, at once: kill it, reap it, close this
    end of its pipe.  Harmless on one already stopped."""
    started.process.kill()  # a no-op once the process has been reaped
    started.process.join()
    started.conn.close()


def _child(
    target: Callable[..., None], parent_end: Connection, conn: Connection, *args: Any
) -> None:
    # A forked child holds a copy of the parent's end of its own pipe: closed, the
    # parent's exit reaches it as the end of the pipe, not only as a new parent id.
    parent_end.close()
    target(conn, *args)
