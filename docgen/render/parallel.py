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

from docgen.system.interrupts import interrupts_blocked, unblock_interrupts

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
    jobs: Sequence[Callable[[], T]],
    workers: int,
    meanwhile: Callable[[], None] | None = None,
    together: int = 1,
) -> list[T]:
    """Each job's result, in order; on `workers` processes when that pays.  `meanwhile`
    runs in this process while the workers render (after them without workers): work of
    the build's own that no page waits for.  Each run of `together` jobs (from the
    first) goes to one worker: jobs that share what they compute (a file's two pages
    share its anchors and views) compute it once."""
    if (
        workers < 2
        or len(jobs) < MIN_PAGES_FOR_POOL
        or ("fork" not in multiprocessing.get_all_start_methods())
    ):
        results = [job() for job in jobs]
        if meanwhile is not None:
            meanwhile()
        return results
    slices = job_slices(len(jobs), workers, together)
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


def job_slices(count: int, workers: int, together: int = 1) -> list[list[int]]:
    """The jobs' indices dealt out in turn, a run of `together` at a time, into eight
    slices per worker: big folders' pages, planned side by side, spread over all."""
    chunks = max(workers * 8, 1)
    run = max(together, 1)
    stride = chunks * run
    slices = []
    for start in range(0, min(stride, count), run):
        firsts = range(start, count, stride)
        slices.append([i for first in firsts for i in range(first, min(first + run, count))])
    return slices
