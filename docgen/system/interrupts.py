"""Ctrl-C: forked workers, and interrupts Python hands on in disguise.

A terminal's Ctrl-C reaches every process of the foreground group.  A worker
ignores it (the parent decides when to stop), but a SIGINT that lands between
`fork()` and the worker's `signal()` call would raise KeyboardInterrupt inside
a copy of the parent's own code.  The parent therefore blocks SIGINT around
each fork, and the new worker unblocks it once it ignores it; the parent gets
the held-back signal as soon as the fork is done.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def interrupts_blocked() -> Iterator[None]:
    """SIGINT held back (not lost) while processes fork; a no-op where signals cannot
    be masked."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})


def unblock_interrupts() -> None:
    """In a forked child that now ignores SIGINT: let signals through again."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})


def caused_by_interrupt(exc: BaseException) -> bool:
    """Whether Ctrl-C is behind `exc`: Python wraps a KeyboardInterrupt that lands while
    a class is being made (`__set_name__`, as when a library is imported) in a
    RuntimeError."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
