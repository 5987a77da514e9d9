"""The whole build: discover, scan, index, render, write."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from docgen.discover.project import project_name
from docgen.discover.tree import REASON_DOCGEN_PAGE, discover
from docgen.model.options import BuildOptions, site_folder
from docgen.model.sources import Discovery
from docgen.render.inputs import inputs_digest, source_root
from docgen.state import (
    STATE_DIR,
    STATE_FILE,
    State,
    StateDamaged,
    discard_state,
    open_state,
    state_trouble,
    sweep_temporary,
)
from docgen.system.collector import collector_paused
from docgen.write.lock import output_lock
from docgen.write.page_check import PageCheck, page_check

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.phases.scan import ScanResult
    from docgen.render.produce import PagePlan
    from docgen.scan.warm import WarmWorker
    from docgen.scan.workers import Progress
    from docgen.system.processes import StartedProcess
    from docgen.write.pages import WriteResult


@dataclass(frozen=True, order=True)
class BuildWarning:
    """Something the user should know about one file; the build still completed."""

    path: str
    line: int
    message: str
    severity: str = "warning"  # "error" when the file could not be read or parsed

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line > 0 else self.path
        return f"{where}: {self.message}"


@dataclass
class BuildReport:
    """What one build did, for the command's summary line and `--report`."""

    files: int = 0
    documented: int = 0
    scanned: int = 0  # files parsed by this build
    reused: int = 0  # files whose facts came from the cache
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    warnings: list[BuildWarning] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)  # phase -> seconds
    notices: list[str] = field(default_factory=list)  # about docgen's own state, not the files
    #: the build's own objects (facts, index, page plan): a command that exits as soon as
    #: it has reported (see `launch`) keeps them rather than free them one by one
    held: tuple[object, ...] = field(default=(), repr=False, compare=False)


def build(
    options: BuildOptions,
    progress: Callable[[int], Progress] | None = None,
    on_wait: Callable[[str], None] | None = None,
    early: StartedProcess | None = None,
    then: Callable[[BuildReport], None] | None = None,
) -> BuildReport:
    """Discover files, scan them in workers, index the repository, render and write pages.

    One build at a time per output folder; whatever an earlier build left behind
    (temporary files, a damaged or foreign state file) is cleared first, and
    the user is told in one line when the state had to be discarded.  `early` is a
    scan worker the `docgen` command forked as it began (see `launch`).  `then` runs
    with the report before the lock is released: publishing the site, which must not
    meet another build's pages or a `clean` half-way.
    """
    with output_lock(options.out / STATE_DIR, on_wait), collector_paused():
        sweep_temporary(options.out)
        notices: list[str] = []
        trouble = state_trouble(options.out)
        if trouble is not None:
            discard_state(options.out)
            notices.append(discarded(options.out, trouble))
        try:
            report = build_pages(options, progress, early)
        except StateDamaged as exc:  # damage deeper in the file than the check reads
            discard_state(options.out)
            notices.append(discarded(options.out, f"it is damaged: {exc}"))
            report = build_pages(options, progress)
        report.notices = notices + report.notices
        if then is not None:
            then(report)
    return report


def discarded(out: Path, why: str) -> str:
    state = out / STATE_DIR / STATE_FILE
    return f"docgen's cache {state} was discarded ({why}); this build starts afresh"


def build_pages(
    options: BuildOptions,
    progress: Callable[[int], Progress] | None = None,
    early: StartedProcess | None = None,
) -> BuildReport:
    """The build itself: discover, scan what changed, index, render, write."""
    clock = PhaseClock()
    # The pages written before are checked in a child while the tree is walked.
    with early_worker(options, early) as warm, page_check(options.out) as check:
        discovery = discover_sources(options)
        project = project_for(options)
        inputs = inputs_digest(options, discovery, project)
        clock.lap("discover")
        with open_state(options.out) as state:
            last_report = up_to_date(state, options.out, inputs, check)
            if last_report is not None:
                return clock.finish(last_report, "check")
            state.set_meta("inputs", "")  # until this build has finished, nothing is up to date
            # The scanners, the index and the renderer load only when there is work to
            # do (the renderer while the workers parse: see `scan_sources`).
            from docgen.phases.scan import scan_sources

            scan = scan_sources(state, options, discovery, check, progress, warm)
    clock.lap("scan")
    if options.shard is not None:  # a share of the facts, for a later build to import
        report = shard_report(discovery, scan.scanned, scan.reused, options)
        report.notices[:0] = scan.notices
        return clock.finish(report, "write")
    from docgen.index.repo import build_index
    from docgen.render.keyword_sites import read_keyword_sites, store_letters, store_sites
    from docgen.render.produce import make_pages, plan_pages
    from docgen.write.pages import PageWriter, prune_pages, record_outcomes

    index = build_index(project, scan.files, options.source_roots, options.include_roots, scan.kept)
    clock.lap("index")
    with open_state(options.out) as state:
        keyword_sites = partial(
            read_keyword_sites,
            state,
            index,
            scan.sites,
            scan.sites_made_from,
            scan.previous_pages,
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
        )
        written = prune_pages(options.out, plan.names, state, scan.manifest)
    # Made before the pages, whose digests read what it computes, and kept at the end.
    relations = kept_relations(scan, index, plan, options)

    def store_index_early() -> None:  # no page reads it: stored while the pages render
        with open_state(options.out) as state:
            store_sites(state, plan.sites.to_store, scan.sites_made_from, plan.sites.marks)

    with PageWriter(options.out, scan.manifest) as writer:
        made = make_pages(plan, writer.write, options.jobs, store_index_early)  # where rendered
    outcomes = {page: m.outcome for page, m in made.items() if m.outcome is not None}
    written.unchanged += len(made) - len(outcomes)
    clock.lap("render")
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
        if not unwritten:  # a page left as it was would be missed by a digest kept
            state.keep_page_scope(plan.scope_key)
    report.held = (discovery, scan, index, plan, made)
    return clock.finish(report, "write")


def kept_relations(
    scan: ScanResult, index: RepoIndex, plan: PagePlan, options: BuildOptions
) -> tuple[str, tuple[str, ...], str, dict[str, str]] | None:
    """This build's C-family relations for the next one to reuse, with their key,
    include names and large rows (see `docgen.index.cfamily_relations`): all empty when the
    tree has no C-family file, None when the ones kept are still those."""
    if scan.kept.relations is not None:
        return None
    from docgen.index.cfamily_patch import PatchedRelations
    from docgen.index.cfamily_relations import (
        encode,
        include_names,
        relations_key,
        relations_of,
    )
    from docgen.model.languages import is_cfamily
    from docgen.render.inputs import render_code_key

    if plan.inputs is None or not any(is_cfamily(p) for p in index.files):
        return "", (), "", {}
    code = render_code_key()
    if isinstance(index.c_family, PatchedRelations):  # the include graph as it was kept
        names = index.c_family.kept.kept.names
        key = relations_key(index.files, scan.facts_digests, options.include_roots, code, names)
        inputs = plan.inputs
        made = {p: inputs.c_summary(p) for p in index.c_family.affected if is_cfamily(p)}
        patched, rows = index.c_family.relations(key, made)
        return key, names, encode(patched), rows
    names = include_names(index.includes)
    key = relations_key(index.files, scan.facts_digests, options.include_roots, code, names)
    kept, rows = relations_of(
        key,
        index.includes,
        index.symbols,
        index.files,
        plan.inputs.c_summary,
        plan.inputs.include_weights(),
        names,
    )
    return key, names, encode(kept), rows


def keep_rows(state: State, index: RepoIndex) -> None:
    """Every relation's rows made again by this build, for the next one; the rows of
    files gone are forgotten."""
    rows = index.import_rows
    if rows is not None:
        state.keep_per_file(rows.relation.name, rows.to_keep(), rows.rows)


def early_worker(
    options: BuildOptions, early: StartedProcess | None
) -> contextlib.AbstractContextManager[WarmWorker | None]:
    """A scan worker forked before the tree is walked (`early`, or one forked now), for
    a build that scans here: a one-file edit waits on its worker loading libcst, and
    that overlaps the walk."""
    from docgen.scan.warm import WarmWorker
    from docgen.system.processes import kill

    if options.cluster is not None:
        if early is not None:
            kill(early)
        return contextlib.nullcontext()
    return WarmWorker(early)


class PhaseClock:
    """Seconds per phase of a build, for `--report`."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._started = self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.laps[phase] = round(now - self._last, 3)
        self._last = now

    def finish(self, report: BuildReport, phase: str) -> BuildReport:
        """The report with its last phase timed, every phase's seconds and the total."""
        self.lap(phase)
        report.seconds = time.perf_counter() - self._started
        report.timings = self.laps
        return report


def shard_report(
    discovery: Discovery, scanned: int, reused: int, options: BuildOptions
) -> BuildReport:
    assert options.shard is not None
    index, count = options.shard
    report = BuildReport(files=len(discovery.files), scanned=scanned, reused=reused)
    report.notices.append(
        f"shard {index}/{count}: facts of {scanned + reused} files kept in {options.out} "
        "(`docgen facts export` carries them); no pages written"
    )
    return report


def discover_sources(options: BuildOptions) -> Discovery:
    """The files this build documents: the repository minus the output folder and
    whatever the configuration leaves out."""
    return discover(
        options.repo,
        exclude_dirs=[options.out, site_folder(options.out)],
        include=options.include,
        exclude=options.exclude,
        committed_only=options.committed_only,
    )


def project_for(options: BuildOptions) -> str:
    """The name used in page text: the configuration's, else the repository's own."""
    return options.project or project_name(options.repo)


def up_to_date(state: State, out: Path, inputs: str, check: PageCheck) -> BuildReport | None:
    """The last build's report when nothing it depends on has changed since; `check`
    tells which pages changed (see `page_check`)."""
    if state.meta("inputs") != inputs:
        return None
    stale = check.stale()
    if stale is not None:  # the child's answer: the count, unless a page changed
        pages = None if stale else state.page_count()
    else:
        pages = state.pages_intact(out)
    stored = state.meta("report")
    if pages is None or stored is None:
        return None
    try:
        last = json.loads(stored)
        warnings = [BuildWarning(str(p), int(n), str(m), str(s)) for p, n, m, s in last["warnings"]]
        files, documented = int(last["files"]), int(last["documented"])
    except (ValueError, KeyError, TypeError):
        return None
    return BuildReport(
        files=files, documented=documented, reused=files, unchanged=pages, warnings=warnings
    )


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
