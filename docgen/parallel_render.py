"""Rendering many pages on every core.

Pages are pure functions of the index, which the workers inherit by forking:
nothing but each job's result (what was done with its page) crosses a process
boundary.  Where fork is not
available, or there is little to render, pages are rendered in this process.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from docgen.interrupts import interrupts_blocked, unblock_interrupts

T = TypeVar("T")

#: Below this many pages a pool costs more than it saves.
MIN_PAGES_FOR_POOL = 200

#: Set in each forked worker by `_start`: the jobs it inherited from its parent.
_worker_jobs: Sequence[Callable[[], object]] = ()


def _start(jobs: Sequence[Callable[[], object]]) -> None:
    global _worker_jobs
    _worker_jobs = jobs
    gc.disable()  # a short-lived worker: its pages are freed by reference counting
    # Ctrl-C reaches the whole process group; the parent alone decides to stop and then
    # terminates the pool. A worker dying of KeyboardInterrupt would hang the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    unblock_interrupts()  # blocked by the parent while it forked this worker


def _render(indices: Sequence[int]) -> list[object]:
    return [_worker_jobs[i]() for i in indices]


def render_all(
    jobs: Sequence[Callable[[], T]], workers: int, meanwhile: Callable[[], None] | None = None
) -> list[T]:
    """Each job's result, in order; on `workers` processes when that pays.  `meanwhile`
    runs in this process while the workers render (after them without workers): work of
    the build's own that no page waits for."""
    if (
        workers < 2
        or len(jobs) < MIN_PAGES_FOR_POOL
        or ("fork" not in multiprocessing.get_all_start_methods())
    ):
        results = [job() for job in jobs]
        if meanwhile is not None:
            meanwhile()
        return results
    chunks = max(workers * 8, 1)
    slices = [list(range(start, len(jobs), chunks)) for start in range(chunks)]
    slices = [s for s in slices if s]
    placed: dict[int, T] = {}
    context = multiprocessing.get_context("fork")
    with interrupts_blocked():  # no Ctrl-C inside a half-made worker (see workers._start)
        pool = context.Pool(workers, initializer=_start, initargs=(jobs,))
    with pool:
        pending = pool.map_async(_render, slices)
        if meanwhile is not None:  # the workers have forked: nothing it opens is theirs
            meanwhile()
        while not pending.ready():
            pending.wait(0.2)  # a timed wait lets Ctrl-C through to this process at once
        for indices, done in zip(slices, pending.get(), strict=True):
            for i, result in zip(indices, done, strict=True):
                placed[i] = cast(T, result)
    return [placed[i] for i in range(len(jobs))]
