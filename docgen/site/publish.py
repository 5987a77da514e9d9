"""Publishing a build's pages as a static HTML site.

Every Markdown page the build wrote becomes an HTML page at the same path, and
every documented source file a highlighted source view under `_source/`.  A
page is rendered again only when what it is made from changed (its Markdown
page's digest or the source's bytes, and the layout), written only when its
bytes change, and removed with its Markdown page.  Pages are rendered on every
core, each written by the process that renders it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import jinja2
from markupsafe import Markup

from docgen import __version__
from docgen.atomic import atomic_write, page_mode
from docgen.errors import DocgenError
from docgen.links import DOCS_SUFFIX, href
from docgen.parallel_render import render_all
from docgen.render.environment import make_environment
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.site import FULLTEXT_FOLDER, SEARCH_FOLDER, STATIC_FOLDER, fulltext
from docgen.site.html import Heading, SiteLinks, convert, html_page, make_parser, source_page
from docgen.site.search import search_index
from docgen.site.sources import highlight_css, numbered, source_lines
from docgen.state import open_state

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


def publish_site(
    out: Path, site: Path, templates: Sequence[Path] = (), jobs: int = 1
) -> SiteReport:
    """Bring `site` in line with the pages of the build in `out`."""
    environment = make_environment(templates).overlay(autoescape=True)
    try:
        with_fulltext = fulltext.available()
        layout_key = _digest(_layout_key(environment), str(site.resolve()), str(with_fulltext))
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {exc}") from exc
    with open_state(out) as state:
        manifest = state.manifest()
        source_root = state.meta("source_root")
        project = state.meta("project") or ""
        previous = state.site_pages()
        sites = state.all_sites()
        hashed = state.content_digests()  # the build hashed every source already
    if source_root is None:
        raise DocgenError(f"no docgen build in {out}: run `docgen build` first")
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
    if with_fulltext:
        made_from[fulltext.FULLTEXT_PAGE] = _digest(layout_key, "fulltext")
        work[fulltext.FULLTEXT_PAGE] = context.fulltext
    for path in sorted(sources):
        target = source_page(path)
        content = hashed.get(path) or _file_digest(repo / path)
        made_from[target] = _digest(layout_key, "source", path, content)
        work[target] = partial(context.source, repo, path)
    css = environment.get_template(STYLE).render() + "\n" + highlight_css() + "\n"
    report = SiteReport(pages=len(made_from))
    _write(site / STATIC_FOLDER / "docgen.css", css)
    for name in ASSETS:
        asset = _template_text(environment, f"site/{name}")
        _write(site / STATIC_FOLDER / posixpath.basename(name), asset)
    # The search is made again only when the keyword index changed (or is gone).
    searched = _digest(__version__, *(repr(s) for s in sites), _code_digest("search.py"))
    manifest_path = f"{SEARCH_FOLDER}/manifest.js"
    search_records: dict[str, str] = {}
    if previous.get(manifest_path) != searched or not (site / manifest_path).is_file():
        index = search_index(sites)
        report.warnings.extend(index.warnings)
        for name, text in index.files.items():
            _write(site / name, text)
        # Shards only: a repository folder of the same name publishes its pages here.
        for stale in sorted((site / SEARCH_FOLDER).glob("*.js")):
            if stale.is_file() and f"{SEARCH_FOLDER}/{stale.name}" not in index.files:
                stale.unlink()
        search_records[manifest_path] = searched
    # A page is made again when its inputs changed, or when it is gone from the site
    # (the records are those of the last site published from OUT, wherever it was).
    todo = [
        target
        for target in sorted(work)
        if previous.get(target) != made_from[target] or not (site / target).is_file()
    ]
    try:
        results = render_all([partial(_render_and_write, site, t, work[t]) for t in todo], jobs)
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {exc}") from exc
    for target, written in zip(todo, results, strict=True):
        if written:
            report.written.append(target)
    report.unchanged = report.pages - len(report.written)
    gone = sorted(set(previous) - set(made_from) - {manifest_path})
    for target in gone:
        with contextlib.suppress(FileNotFoundError):
            (site / target).unlink()
        report.pruned.append(target)
    if not with_fulltext:
        fulltext.clear_index(site)
    elif todo or gone or not (site / FULLTEXT_FOLDER / "pagefind.js").is_file():
        failed = fulltext.index_site(site)
        if failed:
            report.warnings.append(failed)
    with open_state(out) as state:
        state.record_site_pages({**{t: made_from[t] for t in todo}, **search_records}, gone)
        state.set_meta("site", str(site.resolve()))  # for `docgen clean`
    return report


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


def _render_and_write(site: Path, target: str, render: Callable[[], str]) -> bool:
    return _write(site / target, render())


def _write(path: Path, text: str) -> bool:
    """Write `text` unless the file already holds it; whether it was written."""
    data = text.encode("utf-8")
    with contextlib.suppress(OSError):
        if path.read_bytes() == data:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data, page_mode())
    return True


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
