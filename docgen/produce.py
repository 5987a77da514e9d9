"""Producing a build's pages: scanning what changed, then rendering what must be.

Separate from `docgen.build` so that a build with nothing to do never loads
the parser or the templates.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

import jinja2

from docgen import __version__
from docgen.discover import Discovery, SourceFile
from docgen.errors import DocgenError
from docgen.facts import ScannedFile
from docgen.incremental import PageInputs
from docgen.index import RepoIndex
from docgen.inputs import common_inputs, source_root
from docgen.keywords import DefinitionSite
from docgen.links import docs_page, folder_doc, folder_index, kw_page
from docgen.options import BuildOptions
from docgen.parallel_render import render_all
from docgen.readfile import read_source
from docgen.render import RenderContext, Renderer, make_environment
from docgen.render.pages import TEMPLATES
from docgen.scan.decode import decode_python, decode_text

T = TypeVar("T")


@contextmanager
def template_errors() -> Iterator[None]:
    """A template's mistake, wherever it shows, as one clear DocgenError."""
    try:
        yield
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {describe_template_error(exc)}") from exc


@dataclass(frozen=True)
class PagePlan:
    """Every page of a build with the digest of its inputs, and how to render those whose
    inputs differ from the page already written."""

    inputs: dict[str, str]  # page -> inputs digest (pages that cannot be written left out)
    to_render: list[tuple[str, Callable[[], str]]]
    conflicts: list[str]  # pages whose path is a folder of other pages: never written


def make_pages(plan: PagePlan, finish: Callable[[str, str], T], jobs: int) -> dict[str, T]:
    """Each page to render, rendered and handed to `finish(page, text)` in the same worker
    process: page texts never travel between processes, only what `finish` returns."""
    work = [partial(_finish, finish, name, render) for name, render in plan.to_render]
    with template_errors():
        results = render_all(work, jobs)
    return {name: result for (name, _), result in zip(plan.to_render, results, strict=True)}


def _finish(finish: Callable[[str, str], T], name: str, render: Callable[[], str]) -> T:
    return finish(name, render())


def prepared_environment(options: BuildOptions) -> jinja2.Environment | None:
    """The build's Jinja environment with every page template compiled, made while the
    workers parse; None when a template is broken (rendering then reports it)."""
    environment = make_environment(options.templates)
    try:
        for name in TEMPLATES.values():
            environment.get_template(name)
    except jinja2.TemplateError:
        return None
    return environment


def plan_pages(
    index: RepoIndex,
    options: BuildOptions,
    discovery: Discovery,
    sites: list[DefinitionSite],
    facts_digests: Mapping[str, str],
    previous: Mapping[str, str],
    environment: jinja2.Environment | None = None,
) -> PagePlan:
    """Every page of the build and how to render those whose inputs are not those of the
    page already written (`previous`).  `environment`: one `prepared_environment` made
    earlier."""
    sources = {source.path: source for source in discovery.files}
    context = RenderContext(
        project=index.project,
        generator=f"docgen {__version__}",
        source_root=source_root(options),
        max_embed_bytes=options.max_embed_bytes,
    )
    renderer = Renderer(
        environment or make_environment(options.templates),
        index,
        context,
        lambda path: source_text(sources.get(path), index.files[path]),
    )
    digests = PageInputs(
        common_inputs(options, index.project), index, renderer.lookup, facts_digests
    )
    inputs: dict[str, str] = {}
    renderers: dict[str, Callable[[], str]] = {}

    def page(name: str, digest: str, render: Callable[[], str]) -> None:
        inputs[name] = digest
        if previous.get(name) != digest:
            renderers[name] = render

    for scanned in index.documented():
        path = scanned.facts.path
        page(docs_page(path), digests.docs(path), partial(renderer.docs_page, path))
        page(kw_page(path), digests.kw(path), partial(renderer.kw_page, path))
    for folder in index.folders:
        index_digest = digests.folder_index(folder)
        page(folder_index(folder), index_digest, partial(renderer.folder_index, folder))
        page(folder_doc(folder), digests.folder_doc(folder), partial(renderer.folder_doc, folder))
    with template_errors():
        for name, shown, render in renderer.keyword_page_jobs(sites):
            page(name, digests.keyword_page(name, shown), render)
    conflicts = page_conflicts(inputs)
    for name in conflicts:
        del inputs[name]
        renderers.pop(name, None)
    return PagePlan(inputs, list(renderers.items()), conflicts)


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


def describe_template_error(exc: jinja2.TemplateError) -> str:
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = exc.filename or exc.name or "template"
        return f"{where}:{exc.lineno}: {exc.message}"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"template not found: {exc.name}"
    return f"{type(exc).__name__}: {exc}"
