"""make_pages: which pages are rendered, and where their input digests are made."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.render.produce import PageJob, PageMade, PagePlan, make_pages, page_conflicts


class Calls:
    """What the jobs were asked for, in this process."""

    def __init__(self) -> None:
        self.digested: list[str] = []
        self.rendered: list[str] = []

    def inputs(self, name: str) -> str:
        self.digested.append(name)
        return f"in:{name}"

    def render(self, name: str) -> str:
        self.rendered.append(name)
        return f"text of {name}"


def plan_of(names: list[str], previous: dict[str, str], calls: Calls) -> PagePlan:
    jobs = [PageJob(n, calls.inputs, calls.render, n) for n in names]
    return PagePlan(jobs, previous, [])


def finish(name: str, text: str, inputs: str) -> str:
    return f"{name}|{text}|{inputs}"


NAMES = [f"p{i:03}.md" for i in range(12)]


def test_a_first_build_digests_and_renders_every_page() -> None:
    calls = Calls()
    made = make_pages(plan_of(NAMES, {}, calls), finish, 1)
    assert list(made) == NAMES
    assert made["p003.md"] == PageMade("in:p003.md", "p003.md|text of p003.md|in:p003.md")
    assert calls.digested == NAMES and calls.rendered == NAMES


def test_pages_whose_inputs_are_unchanged_are_not_rendered() -> None:
    calls = Calls()
    previous = {n: f"in:{n}" for n in NAMES}
    previous["p005.md"] = "older"  # changed inputs
    del previous["p007.md"]  # a new page
    made = make_pages(plan_of(NAMES, previous, calls), finish, 1)
    assert list(made) == NAMES  # in plan order
    assert calls.digested == NAMES
    assert calls.rendered == ["p005.md", "p007.md"]
    assert made["p000.md"] == PageMade("in:p000.md", None)
    assert made["p005.md"].outcome == "p005.md|text of p005.md|in:p005.md"


def test_digests_made_before_rendering_equal_those_made_beside_the_pages() -> None:
    """An incremental build digests every page first; a first build digests each beside
    its page: the same digests either way."""
    previous = {n: f"in:{n}" for n in NAMES if n != "p002.md"}
    incremental = make_pages(plan_of(NAMES, previous, Calls()), finish, 1)
    first = make_pages(plan_of(NAMES, {}, Calls()), finish, 1)
    assert {n: m.inputs for n, m in incremental.items()} == {n: m.inputs for n, m in first.items()}
    assert [n for n, m in incremental.items() if m.outcome is not None] == ["p002.md"]


def test_worker_processes_give_the_results_of_one_process() -> None:
    names = [f"p{i:04}.md" for i in range(450)]  # enough for a pool of workers
    previous = {n: f"in:{n}" for n in names[::3]}
    one = make_pages(plan_of(names, previous, Calls()), finish, 1)
    two = make_pages(plan_of(names, previous, Calls()), finish, 2)
    cold = make_pages(plan_of(names, {}, Calls()), finish, 2)
    assert two == one
    assert sum(1 for m in one.values() if m.outcome is None) == len(previous)
    assert all(m.outcome is not None for m in cold.values())


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(["a", "b", "index.md", "doc.md", "x.py_docs.md"]),
            min_size=1,
            max_size=4,
        ).map("/".join),
        max_size=12,
    )
)
def test_page_conflicts_are_pages_that_are_folders_of_others(pages: list[str]) -> None:
    folders = {"/".join(p.split("/")[:i]) for p in pages for i in range(1, p.count("/") + 1)}
    assert page_conflicts(pages) == sorted(set(pages) & folders)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_build_work_given_runs_once_in_this_process_while_pages_render(jobs: int) -> None:
    names = [f"p{i:04}.md" for i in range(450)]  # enough for a pool of workers
    calls = Calls()
    ran: list[int] = []
    made = make_pages(plan_of(names, {}, calls), finish, jobs, lambda: ran.append(1))
    assert ran == [1]
    assert len(made) == len(names)
    # with workers, the pages were digested and rendered in them, not here
    assert len(calls.rendered) == (len(names) if jobs == 1 else 0)
