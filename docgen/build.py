"""The whole build: discover, scan, index, render, write."""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from docgen.cache import FactsCache, facts_key, keys_for, learned_macro_defs
from docgen.discover import REASON_DOCGEN_PAGE, Discovery, SourceFile, discover
from docgen.facts import ScannedFile
from docgen.index import build_index
from docgen.keywords import DefinitionSite, definition_sites, store_sites
from docgen.lock import output_lock
from docgen.options import BuildOptions
from docgen.project import project_name
from docgen.recover import discard_state, state_trouble, sweep_temporary
from docgen.scan.cpp_macros import attribute_macros, namespace_macros
from docgen.scan.languages import C_FAMILY, CPP_SOURCE_SUFFIXES, language_for
from docgen.scan.settings import ScanSettings
from docgen.template_files import builtin_templates_dir
from docgen.write import (
    STATE_DIR,
    STATE_FILE,
    WriteResult,
    get_meta,
    open_state,
    page_inputs,
    pages_intact,
    set_meta,
    write_pages,
)

if TYPE_CHECKING:
    import jinja2

    from docgen.index import RepoIndex
    from docgen.workers import Progress


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


def build(
    options: BuildOptions,
    progress: Callable[[int], Progress] | None = None,
    on_wait: Callable[[str], None] | None = None,
) -> BuildReport:
    """Discover files, scan them in workers, index the repository, render and write pages.

    One build at a time per output folder; whatever an earlier build left behind
    (temporary files, a damaged or foreign state file) is cleared first, and
    the user is told in one line when the state had to be discarded.
    """
    with output_lock(options.out / STATE_DIR, on_wait):
        sweep_temporary(options.out)
        notices: list[str] = []
        trouble = state_trouble(options.out)
        if trouble is not None:
            discard_state(options.out)
            notices.append(discarded(options.out, trouble))
        try:
            report = build_pages(options, progress)
        except sqlite3.DatabaseError as exc:  # damage deeper in the file than the check reads
            discard_state(options.out)
            notices.append(discarded(options.out, f"it is damaged: {exc}"))
            report = build_pages(options, progress)
    report.notices = notices
    return report


def discarded(out: Path, why: str) -> str:
    state = out / STATE_DIR / STATE_FILE
    return f"docgen's cache {state} was discarded ({why}); this build starts afresh"


def build_pages(
    options: BuildOptions, progress: Callable[[int], Progress] | None = None
) -> BuildReport:
    """The build itself: discover, scan what changed, index, render, write."""
    started = time.perf_counter()
    clock = PhaseClock()
    discovery = discover_sources(options)
    project = project_for(options)
    inputs = inputs_digest(options, discovery, project)
    clock.lap("discover")
    with open_state(options.out) as conn:
        last_report = up_to_date(conn, options.out, inputs)
        if last_report is not None:
            clock.lap("check")
            last_report.seconds = time.perf_counter() - started
            last_report.timings = clock.laps
            return last_report
        set_meta(conn, "inputs", "")  # until this build has finished, nothing is up to date
        # The parser, the renderer and the templates load only when there is work to do.
        from docgen.workers import scan_files

        settings = scan_settings(conn, options, discovery)
        key = facts_key()
        cache = FactsCache(conn, key, language_keys=keys_for(key, settings))
        unchanged, fresh = cache.partition(discovery.files)
        loaded: list[tuple[list[ScannedFile], list[SourceFile]]] = []
        environments: list[jinja2.Environment | None] = []

        def meanwhile() -> None:
            """While the workers parse what changed: decode cached facts, compile templates."""
            loaded.append(cache.load(unchanged))
            from docgen.produce import prepared_environment

            environments.append(prepared_environment(options))

        tick = progress(len(fresh)) if progress and fresh else None
        texts: dict[str, str] = {}
        scanned_now = scan_files(
            fresh, options.jobs, tick, meanwhile=meanwhile, settings=settings, texts=texts
        )
        reused, damaged = loaded[0]
        if damaged:
            fresh = fresh + damaged
            scanned_now += scan_files(damaged, options.jobs, settings=settings, texts=texts)
        cache.store(fresh, scanned_now, texts)
        cache.forget_all_but(s.path for s in discovery.files)
        previous = page_inputs(conn, options.out)
    clock.lap("scan")
    from docgen.produce import render_pages

    scanned = reused + scanned_now
    index = build_index(project, scanned, options.source_roots, options.include_roots)
    sites = definition_sites(index)
    clock.lap("index")
    pages, inputs_of_pages, conflicts = render_pages(
        index, options, discovery, sites, cache.digests, previous, environments[0]
    )
    clock.lap("render")
    written = write_pages(options.out, pages, inputs_of_pages)
    report = make_report(discovery, index, written, conflicts, 0.0)
    report.scanned, report.reused = len(scanned_now), len(reused)
    store_index(options, sites, report, inputs)
    clock.lap("write")
    report.seconds = time.perf_counter() - started
    report.timings = clock.laps
    return report


class PhaseClock:
    """Seconds per phase of a build, for `--report`."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.laps[phase] = round(now - self._last, 3)
        self._last = now


def discover_sources(options: BuildOptions) -> Discovery:
    """The files this build documents: the repository minus the output folder and
    whatever the configuration leaves out."""
    return discover(
        options.repo, exclude_dirs=[options.out], include=options.include, exclude=options.exclude
    )


def scan_settings(
    conn: sqlite3.Connection, options: BuildOptions, discovery: Discovery, readonly: bool = False
) -> ScanSettings:
    """What the C-family scanner must know of the whole tree: the attribute macros its
    headers define (plus the configured ones) and whether `.h` files are C++."""
    sources = [s for s in discovery.files if language_for(s.path) in C_FAMILY]
    if not sources:
        return ScanSettings(frozenset(options.cpp_macros))
    defs = learned_macro_defs(conn, sources, readonly)
    learned = attribute_macros(defs)
    cpp = any(s.path.lower().endswith(CPP_SOURCE_SUFFIXES) for s in discovery.files)
    return ScanSettings(
        learned | frozenset(options.cpp_macros), "cpp" if cpp else "c", namespace_macros(defs)
    )


def project_for(options: BuildOptions) -> str:
    """The name used in page text: the configuration's, else the repository's own."""
    return options.project or project_name(options.repo)


def inputs_digest(options: BuildOptions, discovery: Discovery, project: str) -> str:
    """Everything a build's pages depend on, as one digest: when it is unchanged and the
    pages are as docgen left them, there is nothing to do."""
    digest = hashlib.sha256(common_inputs(options, project).encode())
    for source in discovery.files:
        digest.update(f"{source.path}\0{source.stamp}\0".encode())
    for skipped in discovery.skipped:
        digest.update(f"{skipped.path}\0{skipped.reason}\0".encode())
    return digest.hexdigest()


def up_to_date(conn: sqlite3.Connection, out: Path, inputs: str) -> BuildReport | None:
    """The last build's report when nothing it depends on has changed since."""
    if get_meta(conn, "inputs") != inputs:
        return None
    pages = pages_intact(conn, out)
    stored = get_meta(conn, "report")
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
    options: BuildOptions, sites: list[DefinitionSite], report: BuildReport, inputs: str
) -> None:
    """Keep the keyword index for `docgen find`, where the sources are for `check-links`,
    and what this build saw, so that an unchanged tree needs no work next time."""
    summary = {
        "files": report.files,
        "documented": report.documented,
        "warnings": [[w.path, w.line, w.message, w.severity] for w in report.warnings],
    }
    with open_state(options.out) as conn:
        store_sites(conn, sites)
        set_meta(conn, "source_root", source_root(options))
        set_meta(conn, "report", json.dumps(summary, ensure_ascii=False))
        set_meta(conn, "inputs", inputs)


def source_root(options: BuildOptions) -> str:
    """The repository root as seen from the output folder, with "/" separators."""
    return posixpath.normpath(os.path.relpath(options.repo, options.out).replace(os.sep, "/"))


def render_code_key() -> str:
    """A digest of docgen's own code (the renderer's included): pages made by other code
    are made again, even when docgen's version number did not change."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for file in sorted(package.rglob("*.py")):
        digest.update(file.relative_to(package).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def common_inputs(options: BuildOptions, project: str) -> str:
    """What every page depends on: docgen's code, the templates, the project and paths."""
    digest = hashlib.sha256()
    parts = (
        facts_key(),
        render_code_key(),
        project,
        source_root(options),
        str(options.max_embed_bytes),
        json.dumps(
            [
                options.include,
                options.exclude,
                options.source_roots,
                options.include_roots,
                options.cpp_macros,
            ]
        ),
    )
    for part in parts:
        digest.update(part.encode() + b"\0")
    for folder in (builtin_templates_dir(), *options.templates):
        for template in sorted(folder.rglob("*")):
            if template.is_file():
                digest.update(template.relative_to(folder).as_posix().encode() + b"\0")
                digest.update(template.read_bytes())
    return digest.hexdigest()


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
    for scanned in index.files.values():
        for problem in scanned.facts.problems:
            warnings.append(
                BuildWarning(scanned.facts.path, problem.line, problem.message, problem.severity)
            )
    for page in conflicts:
        warnings.append(BuildWarning(page, 0, "page not written: a folder has the same name"))
    for page, why in written.failed:
        warnings.append(BuildWarning(page, 0, f"page not written: {why}"))
    for page in written.refused:
        warnings.append(BuildWarning(page, 0, "not overwritten: a file docgen did not write"))
    return BuildReport(
        files=len(discovery.files),
        documented=len(index.documented()),
        written=written.written,
        unchanged=written.unchanged,
        pruned=written.pruned,
        warnings=sorted(warnings),
        seconds=seconds,
    )
