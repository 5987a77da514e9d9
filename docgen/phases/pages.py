"""The build's phases after the index: plan the pages (each with the digest of its
inputs), prune those of files gone, render and write the ones whose inputs changed,
and keep what the next build reuses (the report, the keyword index, every relation's
rows, the C-family relations, the edit scope)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, partial

from docgen.discover.tree import REASON_DOCGEN_PAGE
from docgen.index.python_uses import MODULES_META, modules_text
from docgen.index.repo import RepoIndex
from docgen.model.options import BuildOptions
from docgen.model.report import BuildReport, BuildWarning
from docgen.model.sources import Discovery
from docgen.phases.scan import ScanResult
from docgen.render.inputs import source_root
from docgen.render.keyword_sites import KeywordSites
from docgen.render.produce import PageMade, PagePlan, make_pages, plan_pages
from docgen.render.use_counts import USE_COUNTS_META, Stored, UseCounts, read_stored
from docgen.state import State, open_state
from docgen.state.facts import StoredFacts
from docgen.write.pages import PageOutcome, WriteResult


@dataclass(frozen=True)
class Pages:
    """A build's pages: the plan, and what became of each page."""

    plan: PagePlan
    made: dict[str, PageMade[PageOutcome]]
    written: WriteResult


def plan_and_write(
    index: RepoIndex, options: BuildOptions, discovery: Discovery, scan: ScanResult
) -> tuple[Pages, tuple[str, tuple[str, ...], str] | None]:
    """Plan every page, prune those of files gone, render and write those whose inputs
    changed; with this build's C-family relations to keep (made before the pages, whose
    digests read what it computes)."""
    from docgen.render.keyword_sites import read_keyword_sites, store_sites
    from docgen.render.role_links import RoleSites
    from docgen.write.pages import PageWriter, prune_pages

    with open_state(options.out) as state:
        keyword_sites = partial(
            read_keyword_sites,
            state,
            index,
            scan.sites,
            scan.sites_made_from,
            scan.previous_pages,
        )
        marks = cache(state.site_marks)  # read only when a role needs a stored site
        made_from = scan.sites_made_from
        roles = RoleSites(
            stored=state.find_sites,
            stored_of=state.sites_of_files,
            current=lambda path: path in marks() and marks()[path] == made_from.get(path),
        )
        plan = plan_pages(
            index,
            options,
            discovery,
            keyword_sites,
            scan.facts_digests,
            scan.previous_pages,
            scan.environment,
            scan.edits,
            scan.last_scope,
            roles,
            StateCounts(state),
        )
        written = prune_pages(options.out, plan.names, state, scan.manifest)
    relations = kept_relations(scan, index, plan, options)

    def store_index_early() -> None:  # no page reads it: stored while the pages render
        with open_state(options.out) as state:
            store_sites(state, plan.sites.to_store, scan.sites_made_from, plan.sites.marks)

    with PageWriter(options.out, scan.manifest) as writer:
        made = make_pages(plan, writer.write, options.jobs, store_index_early)  # where rendered
    return Pages(plan, made, written), relations


def keep_for_next(
    options: BuildOptions,
    discovery: Discovery,
    scan: ScanResult,
    index: RepoIndex,
    pages: Pages,
    relations: tuple[str, tuple[str, ...], str] | None,
    inputs: str,
    project: str,
) -> BuildReport:
    """Record what became of each page and keep what the next build reuses; the build's
    report."""
    from docgen.render.keyword_sites import store_letters
    from docgen.write.pages import record_outcomes

    plan, made, written = pages.plan, pages.made, pages.written
    outcomes = {page: m.outcome for page, m in made.items() if m.outcome is not None}
    written.unchanged += len(made) - len(outcomes)
    with open_state(options.out) as state:
        record_outcomes(outcomes, state, written)
        report = make_report(discovery, index, written, plan.conflicts, 0.0)
        report.scanned, report.reused = scan.scanned, scan.reused
        report.notices.extend(scan.notices)
        store_index(state, options, report, inputs, project)
        unwritten = {page for page, _ in written.failed} | set(written.refused)
        store_letters(state, plan.keywords, plan.common, unwritten)
        if relations is not None:
            state.keep_relations(*relations)
        keep_rows(state, index)
        keep_modules(state, index)
        keep_counts(state, plan.counts)
        close_readers(scan)
        if not unwritten:  # a page left as it was would be missed by a digest kept
            state.keep_page_scope(plan.scope_key)
    return report


def kept_relations(
    scan: ScanResult, index: RepoIndex, plan: PagePlan, options: BuildOptions
) -> tuple[str, tuple[str, ...], str] | None:
    """What this build's C-family side keeps as a whole for the next one, with its key and
    include names (see `docgen.index.cfamily_relations`): all empty when the tree has no
    C-family file, None when the one kept still holds as it was."""
    kept = scan.kept.relations
    if kept is not None and not scan.kept.before:
        return None
    from dataclasses import replace

    from docgen.index.cfamily_relations import encode, relations_key, relations_of
    from docgen.model.languages import is_cfamily
    from docgen.render.inputs import render_code_key

    if plan.inputs is None or not any(is_cfamily(p) for p in index.files):
        return "", (), ""
    inputs, names = plan.inputs, index.include_names
    key = relations_key(
        index.files, scan.facts_digests, options.include_roots, render_code_key(), names
    )
    if kept is not None:  # after an edit that kept the includes: the summaries it affected
        made = {p: inputs.c_summary(p) for p in index.c_affected if is_cfamily(p)}
        files = tuple(made.get(s.path, s) for s in kept.files)
        return key, names, encode(replace(kept, key=key, files=files))
    made_now = relations_of(
        key, index.c_family, index.files, inputs.c_summary, inputs.include_weights(), names
    )
    return key, names, encode(made_now)


def close_readers(scan: ScanResult) -> None:
    """Close what read the last build's facts and rows lazily until now: a process may
    run many builds (a pre-commit hook, a test run)."""
    for kept in scan.kept.rows.values():
        if not isinstance(kept, Mapping):
            kept.close()
    if isinstance(scan.kept.encoded, StoredFacts):
        scan.kept.encoded.close()


def keep_rows(state: State, index: RepoIndex) -> None:
    """Every relation's rows made again by this build, for the next one; the rows of
    files gone are forgotten."""
    for rows in index.relation_rows():
        state.keep_per_file(rows.relation.name, rows.to_keep(), rows.gone, rows.keys_to_keep())


class StateCounts:
    """The last build's counts of uses and its keyword letters, from the state (see
    `docgen.render.produce.KeptCounts`)."""

    def __init__(self, state: State) -> None:
        self._state = state

    def stored(self) -> Stored | None:
        return read_stored(self._state.meta(USE_COUNTS_META))

    def with_letters(self, keyword: KeywordSites, letters: set[str]) -> KeywordSites:
        from docgen.render.keyword_sites import with_letters

        return with_letters(self._state, keyword, letters)


def keep_counts(state: State, counts: UseCounts) -> None:
    """Keep the counts of uses for the next build, where they changed."""
    if not counts.as_kept:
        state.set_meta(USE_COUNTS_META, counts.text())


def keep_modules(state: State, index: RepoIndex) -> None:
    """The tree's module names, for `docgen find NAME --uses` (see
    `docgen.index.python_uses`), written only when they changed."""
    text = modules_text(index.graph)
    if state.meta(MODULES_META) != text:
        state.set_meta(MODULES_META, text)


def store_index(
    state: State, options: BuildOptions, report: BuildReport, inputs: str, project: str = ""
) -> None:
    """Keep where the sources are for `check-links`, and what this build saw, so that an
    unchanged tree needs no work next time (the keyword index behind `docgen find` is
    stored while the pages render)."""
    summary = {
        "files": report.files,
        "documented": report.documented,
        "warnings": [[w.path, w.line, w.message, w.severity] for w in report.warnings],
    }
    state.set_meta("source_root", source_root(options))
    state.set_meta("project", project)
    state.set_meta("report", json.dumps(summary, ensure_ascii=False))
    state.set_meta("inputs", inputs)


def make_report(
    discovery: Discovery,
    index: RepoIndex,
    written: WriteResult,
    conflicts: list[str],
    seconds: float,
) -> BuildReport:
    # docgen's own pages found in the tree are left out on purpose: no warning.
    warnings = [
        BuildWarning(s.path, 0, f"skipped: {s.reason}")
        for s in discovery.skipped
        if s.reason != REASON_DOCGEN_PAGE
    ]
    for path in index.files:
        for problem in index.problems(path):
            warnings.append(BuildWarning(path, problem.line, problem.message, problem.severity))
    for page in conflicts:
        warnings.append(BuildWarning(page, 0, "page not written: a folder has the same name"))
    for page, why in written.failed:
        warnings.append(BuildWarning(page, 0, f"page not written: {why}"))
    for page in written.refused:
        warnings.append(BuildWarning(page, 0, "not overwritten: a file docgen did not write"))
    return BuildReport(
        files=len(discovery.files),
        documented=len(index.documented_paths()),
        written=written.written,
        unchanged=written.unchanged,
        pruned=written.pruned,
        warnings=sorted(warnings),
        seconds=seconds,
    )
