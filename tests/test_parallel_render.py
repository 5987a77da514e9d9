"""Rendering on several processes: results in order, runs of jobs kept together."""

from __future__ import annotations

import os
from functools import partial

import pytest

from docgen.render.parallel import MIN_PAGES_FOR_POOL, job_slices, render_all


def _where(i: int) -> tuple[int, int]:
    return i, os.getpid()


@pytest.mark.parametrize("together", [1, 2, 3])
def test_results_come_back_in_order(together: int) -> None:
    count = MIN_PAGES_FOR_POOL + 7  # not a multiple of any run's length
    jobs = [partial(_where, i) for i in range(count)]
    results = render_all(jobs, 2, together=together)
    assert [i for i, _ in results] == list(range(count))
    assert os.getpid() not in {pid for _, pid in results}  # rendered by the workers


@pytest.mark.parametrize(("count", "workers", "together"), [(37, 2, 2), (400, 2, 2), (401, 3, 3)])
def test_a_run_of_jobs_stays_in_one_slice(count: int, workers: int, together: int) -> None:
    """A file's docs and keyword pages (side by side in the plan) go to one worker, so
    what both compute (the file's anchors) is computed once."""
    slices = job_slices(count, workers, together)
    assert sorted(i for s in slices for i in s) == list(range(count))  # each job once
    slice_of = {i: n for n, s in enumerate(slices) for i in s}
    assert all(
        slice_of[i] == slice_of[first]
        for first in range(0, count, together)
        for i in range(first, min(first + together, count))
    )
    assert len(slices) == min(workers * 8, -(-count // together))  # every slice used


def test_one_at_a_time_deals_every_job_in_turn() -> None:
    assert job_slices(5, 1) == [[0], [1], [2], [3], [4]]
    assert job_slices(20, 1)[0] == [0, 8, 16]
    assert job_slices(20, 1, together=2)[0] == [0, 1, 16, 17]
