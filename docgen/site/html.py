"""One Markdown page of the build as the body of an HTML page.

The Markdown pages stay the source of truth: this module only renders them, with
the heading ids GitHub would give (so every `#anchor` works in both), links
between pages turned into links between HTML pages, and links into the
repository turned into links to the site's own source views.  Raw HTML is
passed through only for the few tags docgen itself writes; anything else is
shown as text, so nothing from a source can reach a page as markup.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from docgen.model.links import Slugger, href, page_stem
from docgen.site import SOURCE_FOLDER
from docgen.site.linkcheck import SCHEME, heading_text

#: The only raw HTML a page may carry: what docgen's own templates write, the bare tags
#: that fold a block (`<details>`, `<summary>`), whatever stands between them as text.
_ALLOWED_TAG = re.compile(r"</?(?:details|summary)>", re.IGNORECASE)
_LINE_ANCHOR = re.compile(r"L[0-9]+")
#: The id of a source view's note that it shows only the first part of its file.
CUT_ANCHOR = "cut"


@dataclass(frozen=True)
class Heading:
    """A heading of an HTML page, for its table of contents."""

    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class HtmlPage:
    """What the layout needs of one converted page."""

    body: str  # HTML
    title: str  # the first heading's text, "" when there is none
    outline: tuple[Heading, ...]  # headings of levels 2 and 3, in page order
    diagrams: bool = False  # whether it holds a Mermaid diagram to draw


@dataclass(frozen=True)
class SiteLinks:
    """Where one page's links lead in the site.

    `page` is the Markdown page's path in the output folder; `source_root` the
    repository's place relative to the output folder, as the build recorded it;
    `sources` the repository files that have a source view."""

    page: str
    source_root: str
    sources: frozenset[str]
    shown: Mapping[str, int] = field(default_factory=dict)  # lines of views shown in part

    def rewrite(self, link: str) -> str:
        """The site's destination for a link written on the Markdown page."""
        if not link or link.startswith("#") or SCHEME.match(link) or link.startswith("//"):
            return link
        path, _, anchor = link.partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.page), unquote(path)))
        root = posixpath.normpath(self.source_root)
        if root == "." or target == root or target.startswith(root + "/"):
            repo_path = target if root == "." else posixpath.relpath(target, root)
            if repo_path in self.sources:  # a line of a source, or the source itself
                line = "#" + anchor if _LINE_ANCHOR.fullmatch(anchor) else ""
                if line and int(anchor[1:]) > self.shown.get(repo_path, int(anchor[1:])):
                    line = "#" + CUT_ANCHOR  # past the part of the file its view shows
                return self._to(source_page(repo_path), line)
            if root != ".":  # elsewhere in the repository: its folder's page
                folder = repo_path if path.endswith("/") else posixpath.dirname(repo_path)
                return self._to(_folder_index(folder), "")
        if target.endswith(".md"):
            return self._to(html_page(target), "#" + anchor if anchor else "")
        if path.endswith("/") or target == ".":
            return self._to(_folder_index(target), "")
        return link

    def _to(self, site_path: str, fragment: str) -> str:
        return href(html_page(self.page), site_path) + fragment


def _folder_index(folder: str) -> str:
    return "index.html" if folder in ("", ".") else f"{folder}/index.html"


def html_page(markdown_page: str) -> str:
    """`a/b.py_docs.md` -> `a/b.py_docs.html`."""
    return markdown_page.removesuffix(".md") + ".html"


def source_page(repo_path: str) -> str:
    """The site path of a repository file's source view."""
    return f"{SOURCE_FOLDER}/{page_stem(repo_path)}.html"


class _SiteRenderer(RendererHTML):
    """markdown-it's HTML renderer with ids on headings, rewritten links, and raw HTML
    kept inert unless it is one of docgen's own tags."""

    def heading_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        token = tokens[idx]
        anchor = token.meta.get("anchor")
        level = token.tag
        attr = f' id="{html.escape(anchor, quote=True)}"' if anchor else ""
        return f"<{level}{attr}>"

    def link_open(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        token = tokens[idx]
        links: SiteLinks = env["links"]
        token.attrSet("href", links.rewrite(str(token.attrGet("href") or "")))
        return self.renderToken(tokens, idx, options, env)

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if token.info.strip() == "mermaid":  # drawn in the browser by the shipped renderer
            env["diagrams"] = True
            return f'<pre class="mermaid">{html.escape(token.content)}</pre>\n'
        return super().fence(tokens, idx, options, env)

    def html_block(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _inert(tokens[idx].content)

    def html_inline(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        return _inert(tokens[idx].content)


def _inert(raw: str) -> str:
    """Raw HTML as text, but for the folding tags docgen's templates write: a block
    `<details>` + `<summary>The whole file (6,908 lines)</summary>` folds, its summary
    shown as text, and any other markup is shown as written."""
    parts: list[str] = []
    last = 0
    for tag in _ALLOWED_TAG.finditer(raw):
        parts.append(html.escape(raw[last : tag.start()]))
        parts.append(tag.group(0).lower())
        last = tag.end()
    parts.append(html.escape(raw[last:]))
    return "".join(parts)


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}, renderer_cls=_SiteRenderer).enable("table")


def convert(markdown_text: str, links: SiteLinks, parser: MarkdownIt | None = None) -> HtmlPage:
    """The page's HTML body, its title and its outline."""
    md = parser or _parser()
    env: EnvType = {"links": links}
    tokens = md.parse(without_front_matter(markdown_text), env)
    slugger = Slugger()
    title = ""
    outline = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            text = heading_text(tokens[i + 1])
            anchor = slugger.claim(text)
            token.meta["anchor"] = anchor
            level = int(token.tag[1:])
            if not title and level == 1:
                title = text
            if level in (2, 3):
                outline.append(Heading(level, text, anchor))
    body = md.renderer.render(tokens, md.options, env)
    return HtmlPage(body, title, tuple(outline), bool(env.get("diagrams")))


def without_front_matter(markdown_text: str) -> str:
    """The page without the YAML block docgen opens it with (GitHub shows it as a table;
    a Markdown renderer would read its last line as a heading)."""
    if markdown_text.startswith("---\n"):
        end = markdown_text.find("\n---\n", 3)
        if end >= 0:
            return markdown_text[end + 5 :]
    return markdown_text


def make_parser() -> MarkdownIt:
    """One parser, made once per process and used for every page."""
    return _parser()
