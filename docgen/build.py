"""The whole build: discover, scan, index, render, write."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from docgen.discover.project import project_name
from docgen.discover.tree import discover
from docgen.model.options import BuildOptions, site_folder
from docgen.model.report import BuildReport, BuildWarning
from docgen.model.sources import Discovery
from docgen.render.inputs import inputs_digest
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
    from docgen.scan.warm import WarmWorker
    from docgen.scan.workers import Progress
    from docgen.system.processes import StartedProcess


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
        except BaseException:
            # Ctrl-C: the page workers are gone (a pool joins them as it stops), and the
            # pages they were writing are left in the temporary folder
            sweep_temporary(options.out)
            raise
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
    from docgen.phases.pages import keep_for_next, plan_and_write

    index = build_index(project, scan.files, options.source_roots, options.include_roots, scan.kept)
    clock.lap("index")
    pages, relations = plan_and_write(index, options, discovery, scan)
    clock.lap("render")
    report = keep_for_next(options, discovery, scan, index, pages, relations, inputs, project)
    report.held = (discovery, scan, index, pages.plan, pages.made)
    return clock.finish(report, "write")


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
