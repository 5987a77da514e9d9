"""One page of the HTML site: a Markdown page, a source view or the full-text search
page, rendered into the layout with breadcrumbs and an outline."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup

from docgen import __version__
from docgen.model.links import docs_page, href
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.site import STATIC_FOLDER, fulltext
from docgen.site.html import (
    CUT_ANCHOR,
    Heading,
    SiteLinks,
    convert,
    html_page,
    make_parser,
    source_page,
)
from docgen.site.sources import numbered, source_lines, source_view

#: The layout every site page is rendered with (overridable by name, like the pages).
LAYOUT = "site/page.html.j2"
#: The style sheet, a template too, so that a theme can replace it.
STYLE = "site/docgen.css"


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


class PageMaker:
    """What every page of one site shares; inherited by the render workers."""

    def __init__(
        self,
        environment: jinja2.Environment,
        project: str,
        source_root: str,
        sources: frozenset[str],
        with_fulltext: bool = False,
        shown: Mapping[str, int] | None = None,
    ) -> None:
        """`shown`: the lines a source view shows, for the files it shows only in part."""
        self.layout = environment.get_template(LAYOUT)
        self.with_fulltext = with_fulltext
        self.project = project
        self.source_root = source_root
        self.sources = sources
        self.shown = dict(shown or {})
        self.parser = make_parser()

    def page(self, out: Path, page: str) -> str:
        text = (out / page).read_text(encoding="utf-8", errors="replace")
        converted = convert(
            text, SiteLinks(page, self.source_root, self.sources, self.shown), self.parser
        )
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
        view = source_view(repo / path)
        docs = _relative(source_page(path), html_page(docs_page(path)))
        body = Markup(
            f"<h1>Source: <code>{Markup.escape(path)}</code></h1>\n"
            f'<p><a href="{Markup.escape(docs)}">Documentation page</a></p>\n'
            + (
                f'<p class="note" id="{CUT_ANCHOR}">{Markup.escape(view.note)}</p>\n'
                if view.note
                else ""
            )
            + numbered(source_lines(path, view.text))
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


def template_text(environment: jinja2.Environment, name: str) -> str:
    """A template's (or asset's) text as the search path finds it, user folders first."""
    loader = environment.loader
    assert loader is not None
    return loader.get_source(environment, name)[0]
