"""`docgen check`: are the pages in the output folder what a build would write now?

Nothing is written: facts come from the cache where the sources are unchanged
and are scanned afresh (in workers) where they are not, and every page a build
would write is compared with the one on disk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from docgen.build import discover_sources, project_for, up_to_date
from docgen.collector import collector_paused
from docgen.errors import DocgenError
from docgen.inputs import inputs_digest
from docgen.keywords import definition_sites
from docgen.links import DOCS_SUFFIX, FOLDER_DOC, FOLDER_INDEX, KW_SUFFIX
from docgen.lock import output_lock
from docgen.options import BuildOptions
from docgen.serialize import dumps
from docgen.state import (
    STATE_DIR,
    facts_digest,
    facts_key,
    keys_for,
    missing_state,
    page_check,
    read_state,
)

if TYPE_CHECKING:
    from docgen.workers import Progress


@dataclass(frozen=True, order=True)
class Difference:
    """One page that `docgen check` finds out of date, and the file that makes it so."""

    page: str  # output-relative
    what: str  # "stale", "missing" or "extra"
    source: str  # the repository path that makes it so

    def __str__(self) -> str:
        return f"{self.what}: {self.page} (source: {self.source})"


@dataclass
class CheckReport:
    """What `docgen check` found, for its report and exit status."""

    differences: list[Difference] = field(default_factory=list)
    pages: int = 0
    seconds: float = 0.0


def source_of(page: str) -> str:
    """The repository path a page documents ("." for the root folder)."""
    for suffix in (DOCS_SUFFIX, KW_SUFFIX):
        if page.endswith(suffix):
            return page[: -len(suffix)]
    if "/" not in page and page.startswith("keywords"):
        return "(every Python file: the repository keyword index)"
    for name in (FOLDER_INDEX, FOLDER_DOC):
        if page == name:
            return "."
        if page.endswith("/" + name):
            return page[: -len(name) - 1]
    return page


def check(options: BuildOptions, progress: Callable[[int], Progress] | None = None) -> CheckReport:
    """Compare the output folder with what a build would write; write nothing.

    Waits for a build into the same folder to finish, so it never compares
    against half-written pages.
    """
    state_dir = options.out / STATE_DIR
    if not state_dir.is_dir():
        raise DocgenError(f"no docgen build in {options.out}: every page is missing")
    with output_lock(state_dir), collector_paused():
        return compare_pages(options, progress)


def compare_pages(
    options: BuildOptions, progress: Callable[[int], Progress] | None = None
) -> CheckReport:
    started = time.perf_counter()
    with page_check(options.out) as pages:  # checked in a child while the tree is walked
        discovery = discover_sources(options)
        project = project_for(options)
        with read_state(options.out) as state:
            if state is None:
                raise DocgenError(f"{missing_state(options.out)}: run `docgen build`")
            inputs = inputs_digest(options, discovery, project)
            fast = up_to_date(state, options.out, inputs, pages)
            if fast is not None:
                return CheckReport([], fast.unchanged, time.perf_counter() - started)
            # The facts, the index, the parser and the renderer load only when something
            # may have changed.
            from docgen.index import build_index
            from docgen.scanning import scan_settings, sites_made_from

            settings = scan_settings(state, options, discovery)
            key = facts_key()
            cache = state.facts(key, keys_for(key, settings))
            reused, fresh = cache.split(discovery.files)
            known, previous = state.pages_as_left(options.out, pages.stale())
            stored = state.stored_sites(sites_made_from(cache.digests))
    from docgen.keyword_sites import KeywordSites
    from docgen.produce import make_pages, plan_pages
    from docgen.workers import scan_files

    tick = progress(len(fresh)) if progress and fresh else None
    texts: dict[str, str] = {}
    scanned_now = scan_files(fresh, options.jobs, tick, settings=settings, texts=texts)
    for item in scanned_now:
        made = texts.get(item.facts.path) or dumps(item)
        cache.digests[item.facts.path] = facts_digest(made)
    index = build_index(project, reused + scanned_now, options.source_roots, options.include_roots)
    every_site = KeywordSites(definition_sites(index, stored))  # no page is taken as kept
    plan = plan_pages(index, options, discovery, lambda _: every_site, cache.digests, previous)
    found = make_pages(plan, partial(compare_page, options.out), options.jobs)
    differences = [
        Difference(page, made.outcome, source_of(page))
        for page, made in sorted(found.items())
        if made.outcome
    ]
    for page in sorted(set(known) - set(plan.names)):
        if (options.out / page).exists():
            differences.append(Difference(page, "extra", source_of(page)))
    return CheckReport(sorted(differences), len(plan.pages), time.perf_counter() - started)


def compare_page(out: Path, page: str, text: str, inputs: str) -> str:
    """How the page on disk differs from its text: "missing", "stale" or "" (the same).
    `inputs`, the digest `make_pages` hands over with each page, does not count."""
    try:
        current = (out / page).read_bytes()
    except OSError:
        return "missing"
    return "" if current == text.encode("utf-8") else "stale"
