"""Publishing a build's pages as a static HTML site.

Every Markdown page the build wrote becomes an HTML page at the same path, and
every documented source file a highlighted source view under `_source/`.  A
page is rendered again only when what it is made from changed (its Markdown
page's digest or the source's bytes, and the layout), written only when its
bytes change, and removed with its Markdown page.  Pages are rendered on every
core, each written by the process that renders it.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import jinja2
from markupsafe import Markup

from docgen import __version__
from docgen.errors import DocgenError
from docgen.keywords import DefinitionSite
from docgen.links import DOCS_SUFFIX, href
from docgen.nofollow import Tree
from docgen.parallel_render import render_all
from docgen.render.environment import make_environment
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.site import FULLTEXT_FOLDER, SEARCH_FOLDER, STATIC_FOLDER, fulltext
from docgen.site.files import STAGING, SiteFiles, Staged, sha_of, staged_files
from docgen.site.html import Heading, SiteLinks, convert, html_page, make_parser, source_page
from docgen.site.search import search_index
from docgen.site.sources import highlight_css, numbered, source_lines
from docgen.state import SiteRecord, open_state, read_state

#: The layout every site page is rendered with (overridable by name, like the pages).
LAYOUT = "site/page.html.j2"
#: The style sheet, a template too, so that a theme can replace it.
STYLE = "site/docgen.css"
#: Files copied into `_static/` as they are (looked up by name like the templates):
#: the search, the diagram renderer (Mermaid, shipped: no network) and its start, the
#: full-text search page's script.
ASSETS = ("search.js", "vendor/mermaid.min.js", "diagrams.js", "fulltext.js")
_SITE_CODE = ("html.py", "sources.py", "fulltext.py", "publish.py")


@dataclass(frozen=True)
class Crumb:
    """One step of a site page's breadcrumbs."""

    label: str
    href: str  # "" for the page itself


@dataclass(frozen=True)
class SitePage:
    """What the layout shows; `body` is HTML docgen made, the rest plain text."""

    title: str
    project: str
    generator: str
    body: Markup
    outline: tuple[Heading, ...]
    crumbs: tuple[Crumb, ...]
    home: str
    keywords: str
    static: str
    root: str  # the site's root, relative to this page
    diagrams: bool = False  # whether the page loads the diagram renderer
    fulltext: str = ""  # the full-text search page, "" when Pagefind is not installed
    indexed: bool = False  # whether full-text search indexes this page's text


@dataclass
class SiteReport:
    """What publishing the site did, for the command's summary line."""

    pages: int = 0
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # the user's files docgen left alone


@dataclass
class SitePlan:
    """Every file the site should hold, with the digest of what it is made from and how
    to make it, and what the full-text index is made from."""

    made_from: dict[str, str]
    work: dict[str, Callable[[], str]]
    fulltext: str  # "" when Pagefind is not installed
    indexed: tuple[str, ...]  # the pages Pagefind reads
    warnings: list[str] = field(default_factory=list)


#: What the records of the full-text index's files are made from begins with this.
FULLTEXT_MARK = "fulltext:"
#: meta key: what the full-text index in place was made from
FULLTEXT_META = "site_fulltext"


def plan_site(
    out: Path, site: Path, records: Mapping[str, SiteRecord], templates: Sequence[Path] = ()
) -> SitePlan:
    """What the site of the build in `out` should hold; nothing is written."""
    environment = make_environment(templates).overlay(autoescape=True)
    try:
        with_fulltext = fulltext.available()
        layout_key = _digest(_layout_key(environment), str(site), str(with_fulltext))
        css = environment.get_template(STYLE).render() + "\n" + highlight_css() + "\n"
        assets = {
            f"{STATIC_FOLDER}/{posixpath.basename(name)}": _template_text(
                environment, f"site/{name}"
            )
            for name in ASSETS
        }
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {exc}") from exc
    with read_state(out) as state:
        if state is None or state.meta("source_root") is None:
            raise DocgenError(f"no docgen build in {out}: run `docgen build` first")
        manifest = state.manifest()
        source_root = state.meta("source_root") or ""
        project = state.meta("project") or ""
        sites = state.all_sites()
        hashed = state.content_digests()  # the build hashed every source already
    repo = Path(os.path.normpath(out / source_root))
    sources = frozenset(
        page.removesuffix(DOCS_SUFFIX) for page in manifest if page.endswith(DOCS_SUFFIX)
    )
    made_from: dict[str, str] = {}
    work: dict[str, Callable[[], str]] = {}
    context = _Context(environment, project, source_root, sources, with_fulltext)
    for page, digest in sorted(manifest.items()):
        target = html_page(page)
        made_from[target] = _digest(layout_key, "page", page, digest)
        work[target] = partial(context.page, out, page)
    indexed = tuple(sorted(made_from))
    if with_fulltext:
        made_from[fulltext.FULLTEXT_PAGE] = _digest(layout_key, "fulltext")
        work[fulltext.FULLTEXT_PAGE] = context.fulltext
    for path in sorted(sources):
        target = source_page(path)
        content = hashed.get(path) or _file_digest(repo / path)
        made_from[target] = _digest(layout_key, "source", path, content)
        work[target] = partial(context.source, repo, path)
    for name, text in sorted({f"{STATIC_FOLDER}/docgen.css": css, **assets}.items()):
        made_from[name] = _digest(text)
        work[name] = partial(str, text)
    plan = SitePlan(made_from, work, "", indexed)
    _plan_search(plan, sites, records)
    if with_fulltext:
        plan.fulltext = _digest(*(f"{t}={made_from[t]}" for t in indexed))
    return plan


def _plan_search(
    plan: SitePlan, sites: list[DefinitionSite], records: Mapping[str, SiteRecord]
) -> None:
    """The search shards: those recorded when the keyword index is still what they were
    made from (the index is cut again only when a shard is missing), else cut anew."""
    searched = _digest(__version__, *(repr(s) for s in sites), _code_digest("search.py"))
    manifest_path = f"{SEARCH_FOLDER}/manifest.js"
    shards = {
        path: record.made_from
        for path, record in records.items()
        if path.startswith(f"{SEARCH_FOLDER}/") and path.endswith(".js")
    }
    # Reused only when every shard recorded is of this index (none half put in place).
    if manifest_path in shards and set(shards.values()) == {searched}:
        cut = _SearchCut(sites)
        for path in sorted(shards):
            plan.made_from[path] = searched
            plan.work[path] = partial(cut.file, path)
        return
    index = search_index(sites)
    plan.warnings.extend(index.warnings)
    for name, text in index.files.items():
        plan.made_from[name] = searched
        plan.work[name] = partial(str, text)


class _SearchCut:
    """The search shards cut only when one of them is asked for."""

    def __init__(self, sites: list[DefinitionSite]) -> None:
        self.sites = sites
        self.files: dict[str, str] | None = None

    def file(self, path: str) -> str:
        if self.files is None:
            self.files = search_index(self.sites).files
        return self.files.get(path, "")


def publish_site(
    out: Path, site: Path, templates: Sequence[Path] = (), jobs: int = 1
) -> SiteReport:
    """Bring `site` in line with the pages of the build in `out`.  The caller holds the
    output folder's lock (see `docgen.build.build`), so no build changes the pages and
    no `clean` removes the records meanwhile."""
    with read_state(out) as state:
        records = {} if state is None else state.site_files()
    plan = plan_site(out, site, records, templates)
    files = SiteFiles(site, records)
    try:
        files.check_folders()
        files.sweep()
        report = _publish_files(out, plan, files, jobs)
        _publish_fulltext(out, plan, files, report)
        files.sweep()
    finally:
        files.close()
    report.kept = sorted(set(files.kept))
    report.warnings = plan.warnings + report.warnings
    return report


def stale_site(out: Path, site: Path, templates: Sequence[Path] = ()) -> list[str]:
    """The files of the site published from `out` that a publish would make again or
    remove (a full-text index not made from the pages in place counts as one)."""
    with read_state(out) as state:
        if state is None:
            return []
        records = state.site_files()
        indexed_from = state.meta(FULLTEXT_META) or ""
    plan = plan_site(out, site, records, templates)
    with Tree(site, create=False) as tree:
        stale = [
            target
            for target in sorted(plan.made_from)
            if _needs_making(target, plan, records, tree)
        ]
    stale.extend(
        sorted(p for p in records if p not in plan.made_from and not _fulltext_file(records[p]))
    )
    if plan.fulltext and indexed_from != plan.fulltext:
        stale.append(f"{FULLTEXT_FOLDER}/ (the full-text index)")
    return stale


def _needs_making(
    target: str, plan: SitePlan, records: Mapping[str, SiteRecord], tree: Tree
) -> bool:
    record = records.get(target)
    return (
        record is None or record.made_from != plan.made_from[target] or tree.lstat(target) is None
    )


def _fulltext_file(record: SiteRecord) -> bool:
    return record.made_from.startswith(FULLTEXT_MARK)


def _publish_files(out: Path, plan: SitePlan, files: SiteFiles, jobs: int) -> SiteReport:
    """Every file but the full-text index: made where its inputs changed or it is gone,
    staged, recorded as on its way, moved into place, then recorded as made."""
    records = files.records
    report = SiteReport(pages=len(plan.made_from))
    todo = [t for t in sorted(plan.made_from) if _needs_making(t, plan, records, files.tree)]
    jobs_ = [partial(_stage, files, n, t, plan.work[t]) for n, t in enumerate(todo)]
    try:
        results = render_all(jobs_, jobs)
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {exc}") from exc
    made = list(zip(todo, results, strict=True))
    staged = [(n, t, r) for n, (t, r) in enumerate(made) if r.status == "staged"]
    files.kept.extend(t for t, r in made if r.status == "kept")
    gone = sorted(
        p for p, r in records.items() if p not in plan.made_from and not _fulltext_file(r)
    )
    with open_state(out) as state:  # before anything moves: a kill leaves these docgen's
        state.record_site_files(SiteRecord(t, "", r.sha256, r.before) for _, t, r in staged)
        state.record_site_files(
            SiteRecord(t, plan.made_from[t], r.sha256) for t, r in made if r.status == "unchanged"
        )
        state.set_meta("site", str(files.site))  # for `docgen clean`
    for n, target, _ in staged:
        files.place(n, target)
        report.written.append(target)
    report.pruned = files.remove(gone)
    with open_state(out) as state:
        state.record_site_files(SiteRecord(t, plan.made_from[t], r.sha256) for _, t, r in staged)
        state.forget_site_files(gone)
    report.unchanged = report.pages - len(report.written)
    return report


def _stage(files: SiteFiles, number: int, target: str, make: Callable[[], str]) -> Staged:
    return files.stage(number, target, make().encode("utf-8"))


def _publish_fulltext(out: Path, plan: SitePlan, files: SiteFiles, report: SiteReport) -> None:
    """The full-text index, made again when the pages it reads changed (or it is gone):
    Pagefind writes it into the staging folder, and its files go in as the others do."""
    records = files.records
    with read_state(out) as state:
        indexed_from = "" if state is None else state.meta(FULLTEXT_META) or ""
    old = sorted(p for p, r in records.items() if _fulltext_file(r))
    entry = f"{FULLTEXT_FOLDER}/pagefind.js"
    if plan.fulltext and indexed_from == plan.fulltext and files.tree.lstat(entry) is not None:
        return
    with open_state(out) as state:
        state.set_meta(FULLTEXT_META, "")  # until the new index is in place
    made: list[str] = []
    if plan.fulltext:
        failed = fulltext.index_pages(files, plan.indexed)
        if failed:
            report.warnings.append(failed)
            return
        made = staged_files(files, fulltext.STAGED_INDEX)
    pending, done = [], []
    for rel in made:
        target = f"{FULLTEXT_FOLDER}/{rel}"
        before = files.owner_digest(target)
        if before is None:
            files.kept.append(target)
            continue
        sha = sha_of(files.tree, f"{STAGING}/{fulltext.STAGED_INDEX}/{rel}")
        pending.append(SiteRecord(target, FULLTEXT_MARK, sha, before))
        done.append(SiteRecord(target, FULLTEXT_MARK + plan.fulltext, sha))
    with open_state(out) as state:
        state.record_site_files(pending)
    for record in pending:
        rel = record.path.removeprefix(f"{FULLTEXT_FOLDER}/")
        files.tree.move_in(files.tree, f"{STAGING}/{fulltext.STAGED_INDEX}/{rel}", record.path)
    wanted = {record.path for record in done}
    gone = [p for p in old if p not in wanted]
    files.remove(gone)
    with open_state(out) as state:
        state.record_site_files(done)
        state.forget_site_files(gone)
        state.set_meta(FULLTEXT_META, plan.fulltext)


class _Context:
    """What every page of one site shares; inherited by the render workers."""

    def __init__(
        self,
        environment: jinja2.Environment,
        project: str,
        source_root: str,
        sources: frozenset[str],
        with_fulltext: bool = False,
    ) -> None:
        self.layout = environment.get_template(LAYOUT)
        self.with_fulltext = with_fulltext
        self.project = project
        self.source_root = source_root
        self.sources = sources
        self.parser = make_parser()

    def page(self, out: Path, page: str) -> str:
        text = (out / page).read_text(encoding="utf-8", errors="replace")
        converted = convert(text, SiteLinks(page, self.source_root, self.sources), self.parser)
        title = converted.title or posixpath.basename(page)
        return self._render(
            html_page(page),
            title,
            Markup(converted.body),
            converted.outline,
            converted.diagrams,
            indexed=True,
        )

    def fulltext(self) -> str:
        body = Markup(fulltext.search_body(_relative(fulltext.FULLTEXT_PAGE, STATIC_FOLDER)))
        return self._render(fulltext.FULLTEXT_PAGE, "Full-text search", body, ())

    def source(self, repo: Path, path: str) -> str:
        try:
            text = (repo / path).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            text = ""
        text = text.replace("\r\n", "\n")
        docs = _relative(source_page(path), html_page(path + DOCS_SUFFIX))
        body = Markup(
            f"<h1>Source: <code>{Markup.escape(path)}</code></h1>\n"
            f'<p><a href="{Markup.escape(docs)}">Documentation page</a></p>\n'
            + numbered(source_lines(path, text))
        )
        return self._render(source_page(path), path, body, (), source_of=path)

    def _render(
        self,
        target: str,
        title: str,
        body: Markup,
        outline: tuple[Heading, ...],
        diagrams: bool = False,
        indexed: bool = False,
        source_of: str | None = None,
    ) -> str:
        """`source_of`: the repository path a source view shows."""
        return self.layout.render(
            page=SitePage(
                title=title,
                project=self.project,
                generator=f"docgen {__version__}",
                body=body,
                outline=outline,
                crumbs=_crumbs(target, source_of),
                home=_relative(target, "index.html"),
                keywords=_relative(target, html_page(KEYWORDS_PAGE)),
                static=_relative(target, STATIC_FOLDER),
                root=_relative(target, "."),
                diagrams=diagrams,
                fulltext=_relative(target, fulltext.FULLTEXT_PAGE) if self.with_fulltext else "",
                indexed=indexed and self.with_fulltext,
            )
        )


def _crumbs(target: str, source_of: str | None = None) -> tuple[Crumb, ...]:
    """The site's root, each folder above the page (by its index page), then the page;
    for a source view, the folders above the file it shows (a repository folder named
    like the source views' folder holds pages too)."""
    parts = (source_of if source_of is not None else target).split("/")[:-1]
    crumbs = [Crumb("(root)", _relative(target, "index.html"))]
    for i in range(len(parts)):
        folder = "/".join(parts[: i + 1])
        crumbs.append(Crumb(parts[i], _relative(target, f"{folder}/index.html")))
    crumbs.append(Crumb(posixpath.basename(target).removesuffix(".html"), ""))
    return tuple(crumbs)


def _relative(from_page: str, to_path: str) -> str:
    """A link destination in the site, from one of its pages (encoded)."""
    return href(from_page, to_path)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def _template_text(environment: jinja2.Environment, name: str) -> str:
    """A template's (or asset's) text as the search path finds it, user folders first."""
    loader = environment.loader
    assert loader is not None
    return loader.get_source(environment, name)[0]


def _code_digest(name: str) -> str:
    return _digest((Path(__file__).parent / name).read_text(encoding="utf-8"))


def _layout_key(environment: jinja2.Environment) -> str:
    """What every site page depends on beyond its own page: the layout's and the
    style's text, and the code that turns pages into HTML."""
    parts = [__version__, *(_template_text(environment, name) for name in (LAYOUT, STYLE))]
    here = Path(__file__).parent
    parts.extend((here / name).read_text(encoding="utf-8") for name in _SITE_CODE)
    return _digest(*parts)
