"""The `docgen` command: a build's first scan worker forks before docgen loads.

A one-file edit waits on its worker loading libcst (about 0.15 s).  Forked here, that
overlaps the loading of the command line and the build's own modules, and the walk
of the tree, instead of following them."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from docgen.system.interrupts import caused_by_interrupt

if TYPE_CHECKING:
    from docgen.system.processes import StartedProcess

#: The commands that build pages, and so scan what changed first.
BUILDING_COMMANDS = frozenset({"build", "hook", "site"})


def main() -> NoReturn:
    """Entry point of the `docgen` command.

    It leaves through `os._exit` once the command has finished, its output is
    flushed and the early worker is stopped: tearing down the interpreter would
    free every object the build made, one by one (30 ms after a one-file edit of
    364 files, more on a larger tree), and nothing is left to do by then (pages,
    state and locks are closed by the command itself).  For the same reason the
    command's result, which holds the build's objects, is kept until then, and a
    building command runs without the cycle collector: a build holds it back anyway,
    and once the build had let it run again, its first pass walked every object the
    build made (66 ms after a one-file edit of 12,000 files).  An unexpected error
    still ends in Python's own traceback."""
    early: StartedProcess | None = None
    try:
        if builds_pages(sys.argv[1:]):
            # loaded only here: `find` and `check` need no worker, nor multiprocessing
            from docgen.scan.warm import fork_scan_worker

            early = fork_scan_worker()
            gc.disable()  # after the fork: the worker parses with the collector as it was
        from docgen.cli.main import main as cli_main
    except BaseException as exc:
        if early is not None:
            kill(early)
        if caused_by_interrupt(exc):  # Ctrl-C while docgen itself loads
            sys.stderr.write("docgen: interrupted\n")
            leave(130)
        raise
    made: object = None
    try:
        made = cli_main(early)
    except SystemExit as exc:  # `--strict`, or a hook that wrote pages, exits 1
        status = exc.code
        made = exc  # its traceback holds the command's frames, and so what it made
    else:
        status = 0
    finally:
        if early is not None:  # a build has stopped it already; a usage error has not:
            kill(early)  # it holds this command's output open, and a reader would wait
    leave(status, made)


def kill(early: StartedProcess) -> None:
    """Stop the early worker (`docgen.system.processes` loaded only when there is one)."""
    from docgen.system import processes

    processes.kill(early)


def leave(code: object, made: object = None) -> NoReturn:
    """Exit with `code` as `sys.exit` would (a message is printed and means status 1;
    output that cannot be flushed, as into a closed pipe, means 120, as in Python).
    `made`, what the command returned (or the exit it raised, whose traceback holds
    the command's frames), is never freed: a build's report holds its facts, index
    and page plan (freeing them took 35 ms after a one-file edit of
    12,000 files)."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        with contextlib.suppress(OSError, ValueError):
            print(code, file=sys.stderr)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            status = status or 120
    os._exit(status)


def builds_pages(args: Sequence[str]) -> bool:
    """Whether the command line names a building command (and does not ask for help).
    A wrong guess costs one idle process, which stops with this one."""
    return bool(args) and args[0] in BUILDING_COMMANDS and not {"-h", "--help"} & set(args)
