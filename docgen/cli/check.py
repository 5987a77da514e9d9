"""`docgen check`: are the pages in the output folder what a build would write now?

Nothing is written: facts come from the cache where the sources are unchanged
and are scanned afresh (in workers) where they are not, and every page a build
would write is compared with the one on disk.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from docgen.build import discover_sources, project_for, up_to_date
from docgen.index.keywords import definition_sites
from docgen.model.digests import facts_digest
from docgen.model.errors import DocgenError
from docgen.model.links import DOCS_SUFFIX, FOLDER_DOC, FOLDER_INDEX, KW_SUFFIX
from docgen.model.options import BuildOptions
from docgen.model.serialize import dumps
from docgen.render.inputs import inputs_digest
from docgen.scan.keys import facts_key, keys_for
from docgen.state import STATE_DIR, docgen_pages, missing_state, open_state, read_state
from docgen.system.collector import collector_paused
from docgen.write.lock import output_lock
from docgen.write.page_check import page_check

if TYPE_CHECKING:
    from docgen.scan.workers import Progress


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
    site: list[str] = field(default_factory=list)  # files of the site a publish would change


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


def check(
    options: BuildOptions,
    progress: Callable[[int], Progress] | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> CheckReport:
    """Compare the output folder with what a build would write; write nothing.

    Waits for a build into the same folder to finish, so it never compares
    against half-written pages.  Without docgen's state (a fresh clone of a
    repository that commits its pages) every file is scanned and every page
    compared, with a state of its own that is thrown away; the pages found
    there that a build would not write count as extra.
    """
    state_dir = options.out / STATE_DIR
    if not state_dir.is_dir():
        with tempfile.TemporaryDirectory(prefix="docgen-check-") as scratch:
            with open_state(Path(scratch)):
                pass  # an empty state: nothing is taken from an earlier build
            with collector_paused():
                return compare_pages(options, progress, Path(scratch))
    with output_lock(state_dir, on_wait), collector_paused():
        report = compare_pages(options, progress)
        report.site = _stale_site(options)
        return report


def _stale_site(options: BuildOptions) -> list[str]:
    """The files of the site last published from OUT that a publish would change; none
    at once when it was published whole from the pages in place."""
    from docgen.site import published_whole

    with read_state(options.out) as state:
        if state is None or published_whole(state):
            return []
        site = state.meta("site")
    if not site or not Path(site).is_dir():
        return []
    from docgen.site.publish import stale_site

    return stale_site(options.out, Path(site), options.templates)


def compare_pages(
    options: BuildOptions,
    progress: Callable[[int], Progress] | None = None,
    state_out: Path | None = None,
) -> CheckReport:
    """`state_out`: where the state to compare with is, when not OUT's own."""
    started = time.perf_counter()
    stateless = state_out is not None
    state_out = options.out if state_out is None else state_out
    with page_check(state_out) as pages:  # checked in a child while the tree is walked
        discovery = discover_sources(options)
        project = project_for(options)
        with read_state(state_out) as state:
            if state is None:
                raise DocgenError(f"{missing_state(options.out)}: run `docgen build`")
            inputs = inputs_digest(options, discovery, project)
            fast = None if stateless else up_to_date(state, options.out, inputs, pages)
            if fast is not None:
                return CheckReport([], fast.unchanged, time.perf_counter() - started)
            # The facts, the index, the parser and the renderer load only when something
            # may have changed.
            from docgen.analyze.sites import sites_made_from
            from docgen.analyze.summary import FILES
            from docgen.index.repo import build_index
            from docgen.phases.scan import scan_settings

            settings = scan_settings(state, options, discovery)
            key = facts_key()
            cache = state.facts(key, FILES, keys_for(key, settings))
            reused, fresh = cache.split(discovery.files)
            known, previous = state.pages_as_left(options.out, pages.stale())
            if stateless:
                known = {page.path: page.sha256 for page in docgen_pages(options.out)}
            stored = state.stored_sites(sites_made_from(cache.digests))
    from docgen.render.keyword_sites import KeywordSites
    from docgen.render.produce import make_pages, plan_pages
    from docgen.scan.workers import scan_files

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
