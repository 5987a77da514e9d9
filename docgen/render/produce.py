"""A build's pages from its index: the plan (every page with the digest of its inputs,
and which of them an edit can change), then rendering those whose inputs changed, on
every core, each handed to the writer where it is rendered.  The scan is done before
(see `docgen.phases.scan`).

Separate from `docgen.build` so that a build with nothing to do never loads the
templates.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Generic, NamedTuple, Protocol, TypeVar

import jinja2

from docgen import __version__
from docgen.analyze.summary import FileSummary
from docgen.discover.readfile import read_source
from docgen.index.repo import RepoIndex
from docgen.model.errors import DocgenError
from docgen.model.facts import ScannedFile
from docgen.model.letters import letter_of
from docgen.model.links import docs_page, folder_doc, folder_index, folder_of, kw_page
from docgen.model.options import BuildOptions
from docgen.model.sources import Discovery, SourceFile
from docgen.render.attached_links import attached_links, attached_targets
from docgen.render.context import RenderContext
from docgen.render.edit_scope import EditScope, edit_scope, scope_key
from docgen.render.environment import make_environment
from docgen.render.incremental import PageInputs, shared_inputs
from docgen.render.inputs import common_inputs, source_root
from docgen.render.keyword_sites import KeywordSites
from docgen.render.keyword_views import KeywordPlan
from docgen.render.lookup import RepoLookup
from docgen.render.native_links import native_callees, native_links
from docgen.render.operator_links import operator_links
from docgen.render.pages import TEMPLATES, Renderer
from docgen.render.parallel import render_all
from docgen.render.role_links import NamedSites, RoleSites, role_links, sites_in_memory
from docgen.render.use_counts import Stored, UseCounts, use_counts
from docgen.render.use_links import UseLinks, c_use_scope, use_links, used_definers
from docgen.scan.decode import decode_python, decode_text

T = TypeVar("T")


@contextmanager
def template_errors() -> Iterator[None]:
    """A template's mistake, wherever it shows, as one clear DocgenError."""
    try:
        yield
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {describe_template_error(exc)}") from exc


class PageJob(NamedTuple):
    """One page of a build: the digest of its inputs and its text, each made on demand
    from the page's `key` by functions that pages of one kind share (a tuple, and no
    callable of its own: a build plans one per page, tens of thousands)."""

    name: str
    digest: Callable[[str], str]  # the digest of the inputs of the page with this key
    text: Callable[[str], str]  # the text of the page with this key
    key: str  # the file, folder or keyword page the page is made for
    source: str = ""  # the file whose docs or keyword page this is ("" for other pages)
    folder: str | None = None  # the folder whose page this is (None for other pages)

    def inputs(self) -> str:
        return self.digest(self.key)

    def render(self) -> str:
        return self.text(self.key)


@dataclass(frozen=True)
class PagePlan:
    """Every page of a build, and the digests of the inputs of the pages already written:
    a page is rendered only where its inputs' digest differs from theirs."""

    pages: list[PageJob]  # pages that cannot be written left out
    previous: Mapping[str, str]  # page -> inputs digest of the page already written
    conflicts: list[str]  # pages whose path is a folder of other pages: never written
    #: the keyword pages, those kept from the last build included
    keywords: KeywordPlan = field(default_factory=lambda: KeywordPlan([], (), {}))
    sites: KeywordSites = field(default_factory=lambda: KeywordSites([]))  # the sites read
    common: str = ""  # the digest of what every page shares
    inputs: PageInputs | None = None  # how the pages' inputs were digested
    #: the pages an edit can change, None for every page: the others keep their last
    #: digest (see `docgen.render.edit_scope`)
    scope: EditScope | None = None
    scope_key: str = ""  # what the scope of the next build's edit rests on
    #: every Python definition's count of uses, kept for the next build
    counts: UseCounts = field(default_factory=UseCounts)

    def must_digest(self, job: PageJob) -> bool:
        """Whether the page's inputs must be digested (or else are those it was last
        written with)."""
        if self.scope is None:
            return True
        if job.folder is not None:
            return job.folder in self.scope.folders
        return not job.source or job.source in self.scope.files

    @property
    def names(self) -> list[str]:
        """Every page of the build: those it makes and those it keeps as they are."""
        kept = [page for page in self.keywords.kept if page not in self.conflicts]
        return [job.name for job in self.pages] + kept


@dataclass(frozen=True)
class PageMade(Generic[T]):
    """What became of one page: its inputs' digest, and what `finish` returned for its
    text (None when its inputs were those of the page already written)."""

    inputs: str
    outcome: T | None


def make_pages(
    plan: PagePlan,
    finish: Callable[[str, str, str], T],
    jobs: int,
    meanwhile: Callable[[], None] | None = None,
) -> dict[str, PageMade[T]]:
    """Each page's inputs digested and, where they changed, the page rendered and handed
    to `finish(page, text, inputs)` in the same worker process: page texts never travel
    between processes, only what `finish` returns.  An incremental build digests every
    page here (about 15 microseconds a page): most then render a few pages, in this
    process, and forking workers would cost more.  A first build makes the digests in
    the workers, each beside its page.  `meanwhile` runs here while they render (see
    `render_all`)."""
    if plan.previous:
        made: dict[str, PageMade[T]] = {}
        changed: list[tuple[PageJob, str]] = []
        for job in plan.pages:
            last = plan.previous.get(job.name)
            inputs = job.inputs() if last is None or plan.must_digest(job) else last
            if inputs == last:
                made[job.name] = PageMade(inputs, None)
            else:
                changed.append((job, inputs))
        work = [partial(_render, finish, job, inputs) for job, inputs in changed]
        with template_errors():
            results = render_all(work, jobs, meanwhile)
        made.update((job.name, done) for (job, _), done in zip(changed, results, strict=True))
        return {job.name: made[job.name] for job in plan.pages}
    work = [partial(_make, finish, job, plan.previous.get(job.name)) for job in plan.pages]
    with template_errors():  # a file's docs and keyword pages, planned side by side
        results = render_all(work, jobs, meanwhile, together=2)
    return {job.name: done for job, done in zip(plan.pages, results, strict=True)}


def _make(finish: Callable[[str, str, str], T], job: PageJob, previous: str | None) -> PageMade[T]:
    inputs = job.inputs()
    if inputs == previous:
        return PageMade(inputs, None)
    return _render(finish, job, inputs)


def _render(finish: Callable[[str, str, str], T], job: PageJob, inputs: str) -> PageMade[T]:
    return PageMade(inputs, finish(job.name, job.render(), inputs))


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
    keyword_sites: Callable[[str], KeywordSites],
    facts_digests: Mapping[str, str],
    previous: Mapping[str, str],
    environment: jinja2.Environment | None = None,
    edits: Mapping[str, tuple[FileSummary | None, FileSummary | None]] | None = None,
    last_scope: str = "",
    roles: RoleSites | None = None,
    kept_counts: KeptCounts | None = None,
) -> PagePlan:
    """Every page of the build, with how to digest its inputs and how to render it; pages
    whose inputs' digest is that of the page already written (`previous`) are not
    rendered (see `make_pages`).  `keyword_sites(common)`: the sites for the keyword
    pages, given the digest of what all pages share.  `environment`: one
    `prepared_environment` made earlier.  `edits` (each file scanned, with its summary
    before and after) and `last_scope` (the last build's scope key) tell the pages an
    edit can change (see `docgen.render.edit_scope`); `roles`: the keyword index the
    docstrings' roles are resolved through, as stored and as scanned now (None: the
    keyword pages' sites, when they are every site); `kept_counts`: the last build's
    counts of uses, for the keyword index (None: counted whole)."""
    sources = {source.path: source for source in discovery.files}
    lookup = RepoLookup(index)
    common = shared_inputs(common_inputs(options, index.project), lookup)
    keyword = keyword_sites(common)
    key = scope_key(common, index.files, lookup.test_files)
    scope = None
    named = _named(roles, keyword)
    if edits is not None and roles is not None:
        linked = partial(roles.linked, index, edits, keyword.sites, keyword.changed)
        called = partial(native_callees, index, named, edits)
        documented = partial(attached_targets, index, named, edits)
        used = partial(used_definers, index, named, edits)
        scope = edit_scope(lookup, edits, last_scope, key, linked, called, documented, used)
    links = role_links(index, named, scope.files if scope else None)
    operators = operator_links(index, named, scope.files if scope else None)
    native = native_links(index, named, scope.files if scope else None)
    attached = attached_links(index, named, scope.files if scope else None)
    uses = use_links(index, lookup, named, _use_scope(index, named, scope, edits))
    counts, keyword = _counted(index, lookup, named, uses, scope is not None, keyword, kept_counts)
    context = RenderContext(
        project=index.project,
        generator=f"docgen {__version__}",
        source_root=source_root(options),
        max_embed_bytes=options.max_embed_bytes,
        role_links=links,
        operator_links=operators,
        native_links=native,
        attached_links=attached,
        use_links=uses,
        use_counts=counts,
    )
    renderer = Renderer(
        environment or make_environment(options.templates),
        index,
        context,
        lambda path: source_text(sources.get(path), index.files[path]),
        lookup,
    )
    digests = PageInputs(
        common, index, lookup, facts_digests, links, operators, native, attached, uses, counts
    )
    pages: list[PageJob] = []
    add = pages.append
    docs_inputs, docs_text = digests.docs, renderer.docs_page
    kw_inputs, kw_text = digests.kw, renderer.kw_page
    for path in index.documented_paths():
        add(PageJob(docs_page(path), docs_inputs, docs_text, path, path))
        add(PageJob(kw_page(path), kw_inputs, kw_text, path, path))
    index_inputs, index_text = digests.folder_index, renderer.folder_index
    doc_inputs, doc_text = digests.folder_doc, renderer.folder_doc
    for folder in index.folders:
        add(PageJob(folder_index(folder), index_inputs, index_text, folder, folder=folder))
        add(PageJob(folder_doc(folder), doc_inputs, doc_text, folder, folder=folder))
    with template_errors():
        keywords = renderer.keyword_plan(keyword.sites, kept=keyword.kept)
        jobs = {job.page: job for job in keywords.jobs}

        def keyword_inputs(page: str) -> str:
            return digests.keyword_page(page, jobs[page].inputs)

        def keyword_text(page: str) -> str:
            return renderer.render_keywords(jobs[page].make)

        for job in keywords.jobs:
            add(PageJob(job.page, keyword_inputs, keyword_text, job.page))
    conflicts = set(page_conflicts([*(job.name for job in pages), *keywords.kept]))
    writable = [job for job in pages if job.name not in conflicts]
    return PagePlan(
        writable,
        previous,
        sorted(conflicts),
        keywords,
        keyword,
        digests.common,
        digests,
        scope,
        key,
        counts,
    )


class KeptCounts(Protocol):
    """What a build reads of the last build's counts of uses, and how it makes the
    keyword letters whose counts changed again (both from the state)."""

    def stored(self) -> Stored | None: ...

    def with_letters(self, keyword: KeywordSites, letters: set[str]) -> KeywordSites: ...


def _counted(
    index: RepoIndex,
    lookup: RepoLookup,
    named: NamedSites,
    uses: UseLinks,
    scoped: bool,
    keyword: KeywordSites,
    kept: KeptCounts | None,
) -> tuple[UseCounts, KeywordSites]:
    """The counts of uses of every Python definition (see `docgen.render.use_counts`),
    and the keyword sites with the letters whose counts changed made again."""
    kinds = index.files.kinds()
    counted = [p for p, kind in kinds.items() if kind in ("python", "cfamily")]
    stored = kept.stored() if kept is not None else None
    if stored is None and (scoped or not uses.known.issuperset(counted)):
        uses = use_links(index, lookup, named, None)  # an edit, with no counts kept
    counts = use_counts(stored, uses, counted)
    if kept is not None and counts.changed:  # only the letters still kept are made again
        keyword = kept.with_letters(keyword, {letter_of(name) for name in counts.changed})
    return counts, keyword


def _use_scope(
    index: RepoIndex,
    named: NamedSites,
    scope: EditScope | None,
    edits: Mapping[str, tuple[FileSummary | None, FileSummary | None]] | None,
) -> Collection[str] | None:
    """The files whose uses this build looks for before the pages (None: every file):
    an edit's scope, or, where an edit digests every page, every file but the C-family
    ones whose uses it cannot have changed (see `use_links.c_use_scope`)."""
    if scope is not None:
        return scope.files
    if edits is None:
        return None
    c_files = c_use_scope(index, named, edits)
    if c_files is None:
        return None
    kinds = index.files.kinds()
    return sorted({p for p, kind in kinds.items() if kind != "cfamily"} | c_files)


def _named(roles: RoleSites | None, keyword: KeywordSites) -> NamedSites:
    """The sites roles are resolved through: every site of the tree (without `roles`,
    the keyword pages' sites, which `docgen check` reads whole)."""
    if roles is None:
        return sites_in_memory(keyword.sites)
    return roles.named(keyword.sites, keyword.changed)


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
    folders = {folder_of(p) for p in paths}
    expanded: set[str] = set()
    for folder in folders:
        while folder and folder not in expanded:  # the folders above it are in already
            expanded.add(folder)
            folder = folder_of(folder)
    return sorted(paths & expanded)


def describe_template_error(exc: jinja2.TemplateError) -> str:
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = exc.filename or exc.name or "template"
        return f"{where}:{exc.lineno}: {exc.message}"
    if isinstance(exc, jinja2.TemplateNotFound):
        return f"template not found: {exc.name}"
    return f"{type(exc).__name__}: {exc}"
