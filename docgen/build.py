"""The whole build: discover, scan, index, render, write."""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import jinja2

from docgen import __version__
from docgen.cache import FactsCache, facts_key
from docgen.discover import REASON_DOCGEN_PAGE, Discovery, SourceFile, discover
from docgen.errors import DocgenError
from docgen.facts import ScannedFile
from docgen.incremental import PageInputs
from docgen.index import RepoIndex, build_index
from docgen.keywords import DefinitionSite, definition_sites, store_sites
from docgen.links import docs_page, folder_doc, folder_index, kw_page
from docgen.options import BuildOptions
from docgen.parallel_render import render_all
from docgen.project import project_name
from docgen.render import RenderContext, Renderer, builtin_templates_dir, make_environment
from docgen.scan.decode import decode_python, decode_text
from docgen.workers import Progress, read_source, scan_files
from docgen.write import (
    WriteResult,
    get_meta,
    open_state,
    page_inputs,
    pages_intact,
    set_meta,
    write_pages,
)


@dataclass(frozen=True, order=True)
class BuildWarning:
    """Something the user should know about one file; the build still completed."""

    path: str
    line: int
    message: str

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


def build(options: BuildOptions, progress: Callable[[int], Progress] | None = None) -> BuildReport:
    """Discover files, scan them in workers, index the repository, render and write pages."""
    started = time.perf_counter()
    discovery = discover(options.repo, exclude_dirs=[options.out])
    project = project_name(options.repo)
    inputs = inputs_digest(options, discovery, project)
    with open_state(options.out) as conn:
        unchanged = up_to_date(conn, options.out, inputs)
        if unchanged is not None:
            unchanged.seconds = time.perf_counter() - started
            return unchanged
        set_meta(conn, "inputs", "")  # until this build has finished, nothing is up to date
        cache = FactsCache(conn, facts_key())
        reused, fresh = cache.split(discovery.files)
        tick = progress(len(fresh)) if progress and fresh else None
        scanned_now = scan_files(fresh, options.jobs, tick)
        cache.store(fresh, scanned_now)
        cache.forget_all_but(s.path for s in discovery.files)
        previous = page_inputs(conn, options.out)
    scanned = reused + scanned_now
    index = build_index(project, scanned)
    sites = definition_sites(index)
    try:
        pages, inputs_of_pages, conflicts = render_pages(
            index, options, discovery, sites, cache.digests, previous
        )
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {describe_template_error(exc)}") from exc
    written = write_pages(options.out, pages, inputs_of_pages)
    report = make_report(discovery, index, written, conflicts, time.perf_counter() - started)
    report.scanned, report.reused = len(scanned_now), len(reused)
    store_index(options, sites, report, inputs)
    return report


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
        warnings = [BuildWarning(str(p), int(n), str(m)) for p, n, m in last["warnings"]]
        files, documented = int(last["files"]), int(last["documented"])
    except (ValueError, KeyError, TypeError):
        return None
    return BuildReport(
        files=files, documented=documented, reused=files, unchanged=pages, warnings=warnings
    )


def describe_template_error(exc: jinja2.TemplateError) -> str:
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = exc.filename or exc.name or "template"
        return f"{where}:{exc.lineno}: {exc.message}"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"template not found: {exc.name}"
    return f"{type(exc).__name__}: {exc}"


def store_index(
    options: BuildOptions, sites: list[DefinitionSite], report: BuildReport, inputs: str
) -> None:
    """Keep the keyword index for `docgen find`, where the sources are for `check-links`,
    and what this build saw, so that an unchanged tree needs no work next time."""
    summary = {
        "files": report.files,
        "documented": report.documented,
        "warnings": [[w.path, w.line, w.message] for w in report.warnings],
    }
    with open_state(options.out) as conn:
        store_sites(conn, sites)
        set_meta(conn, "source_root", source_root(options))
        set_meta(conn, "report", json.dumps(summary, ensure_ascii=False))
        set_meta(conn, "inputs", inputs)


def source_root(options: BuildOptions) -> str:
    """The repository root as seen from the output folder, with "/" separators."""
    return posixpath.normpath(os.path.relpath(options.repo, options.out).replace(os.sep, "/"))


def render_pages(
    index: RepoIndex,
    options: BuildOptions,
    discovery: Discovery,
    sites: list[DefinitionSite],
    facts_digests: Mapping[str, str],
    previous: Mapping[str, str],
) -> tuple[dict[str, str | None], dict[str, str], list[str]]:
    """Every page of the build by output-relative path: its text, or None when its inputs
    are those of the page already written (`previous`); the pages' input digests; and
    paths that could not be used."""
    sources = {source.path: source for source in discovery.files}
    context = RenderContext(
        project=index.project,
        generator=f"docgen {__version__}",
        source_root=source_root(options),
        max_embed_bytes=options.max_embed_bytes,
    )
    renderer = Renderer(
        make_environment(options.templates),
        index,
        context,
        lambda path: source_text(sources.get(path), index.files[path]),
    )
    digests = PageInputs(
        common_inputs(options, index.project), index, renderer.lookup, facts_digests
    )
    pages: dict[str, str | None] = {}
    inputs: dict[str, str] = {}
    to_render: list[tuple[str, Callable[[], str]]] = []

    def page(name: str, digest: str, render: Callable[[], str]) -> None:
        inputs[name] = digest
        pages[name] = None
        if previous.get(name) != digest:
            to_render.append((name, render))

    for scanned in index.documented():
        path = scanned.facts.path
        page(docs_page(path), digests.docs(path), partial(renderer.docs_page, path))
        page(kw_page(path), digests.kw(path), partial(renderer.kw_page, path))
    for folder in index.folders:
        index_digest = digests.folder_index(folder)
        page(folder_index(folder), index_digest, partial(renderer.folder_index, folder))
        page(folder_doc(folder), digests.folder_doc(folder), partial(renderer.folder_doc, folder))
    texts = render_all([render for _, render in to_render], options.jobs)
    pages.update((name, text) for (name, _), text in zip(to_render, texts, strict=True))
    keyword_digest = "keywords:" + digests.keyword_index(sites)
    kept = sorted(name for name, digest in previous.items() if digest == keyword_digest)
    if kept:
        pages.update(dict.fromkeys(kept))
    else:
        pages.update(renderer.keyword_pages(sites))
    inputs.update(dict.fromkeys(sorted(set(pages) - set(inputs)), keyword_digest))
    conflicts = page_conflicts(pages)
    for name in conflicts:
        del pages[name]
    return pages, inputs, conflicts


def common_inputs(options: BuildOptions, project: str) -> str:
    """What every page depends on: docgen's code, the templates, the project and paths."""
    digest = hashlib.sha256()
    for part in (facts_key(), project, source_root(options), str(options.max_embed_bytes)):
        digest.update(part.encode() + b"\0")
    for folder in (builtin_templates_dir(), *options.templates):
        for template in sorted(folder.rglob("*")):
            if template.is_file():
                digest.update(template.relative_to(folder).as_posix().encode() + b"\0")
                digest.update(template.read_bytes())
    return digest.hexdigest()


def source_text(source: SourceFile | None, scanned: ScannedFile) -> str | None:
    """The decoded text of a source file for embedding, as its scanner decoded it."""
    if source is None:
        return None
    try:
        data = read_source(source)
    except OSError:
        return None
    if scanned.facts.kind == "python":
        return decode_python(data).text
    return decode_text(data).text


def page_conflicts(pages: Iterable[str]) -> list[str]:
    """Pages whose path is also a folder of another page (e.g. a source folder named `index.md`)."""
    paths = set(pages)
    folders = {posixpath.dirname(p) for p in paths}
    expanded = set()
    for folder in folders:
        while folder:
            expanded.add(folder)
            folder = posixpath.dirname(folder)
    return sorted(paths & expanded)


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
            warnings.append(BuildWarning(scanned.facts.path, problem.line, problem.message))
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
