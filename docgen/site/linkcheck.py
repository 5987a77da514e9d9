"""Check every relative link in the generated pages before anyone clicks it.

Pages link to each other and to the sources in the repository with relative,
percent-encoded paths and GitHub-style anchors.  A renamed heading, a wrong
`../` count or an off-by-one line number is invisible until a reader lands on
a 404, so this module parses each page once, resolves every link and image
against the file system and reports what does not land.  Anchors and line
counts are cached per file because the same few targets are linked thousands
of times.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from docgen.model.links import Slugger

#: suffixes GitHub renders as Markdown, so their anchors are heading slugs
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})

#: folder under the output that holds docgen's own state, never pages
STATE_FOLDER = ".docgen"

SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_A_TAG = re.compile(r"<a(?=[\s/>])[^>]*>", re.IGNORECASE)
_ANCHOR_ATTR = re.compile(
    r"""\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE
)
_LINE_FRAGMENT = re.compile(r"L([0-9]+)(?:-L([0-9]+))?")


@dataclass(frozen=True, order=True)
class BrokenLink:
    """A link that does not land; ordered by page, then line, for stable reports."""

    page: str  # POSIX path of the page relative to the output folder
    line: int  # 1-based line of the link in the page
    target: str  # the link destination as written
    why: str


def format_broken(b: BrokenLink) -> str:
    """One line in the `file:line:` shape editors and CI logs turn into a jump."""
    return f"{b.page}:{b.line}: {b.target} ({b.why})"


class _RawLinkParser(MarkdownIt):
    """Keeps destinations as written, so reports quote what the author typed."""

    def normalizeLink(self, url: str) -> str:
        return url


def _inline_where_needed(state: StateCore) -> None:
    """Markdown-it's inline rule, skipping runs that can hold no link, image or anchor.

    Inline parsing is half the cost of a page, and most prose has no `[` or `<`;
    headings are always parsed because their slug depends on the inline text.
    """
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        heading = i > 0 and tokens[i - 1].type == "heading_open"
        if heading or "[" in token.content or "<" in token.content:
            state.md.inline.parse(token.content, state.md, state.env, token.children)


def _parser() -> MarkdownIt:
    md = _RawLinkParser("commonmark").enable("table")
    md.core.ruler.at("inline", _inline_where_needed)
    return md


@dataclass(frozen=True)
class _Link:
    """A relative link of a page, to be checked."""

    line: int
    target: str


@dataclass(frozen=True)
class _Parsed:
    """What one page offers other pages' links (its anchors) and what it links to."""

    links: tuple[_Link, ...]
    anchors: frozenset[str]  # heading slugs and explicit HTML anchors


def heading_text(inline: Token) -> str:
    return "".join(
        child.content for child in inline.children or () if child.type in ("text", "code_inline")
    )


def _heading_slugs(tokens: Sequence[Token]) -> set[str]:
    slugger = Slugger()
    slugs: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            slugs.add(slugger.claim(heading_text(tokens[i + 1])))
    return slugs


def _html_anchors(html: str) -> set[str]:
    found: set[str] = set()
    for tag in _A_TAG.finditer(html):
        for match in _ANCHOR_ATTR.finditer(tag.group(0)):
            found.add(next(group for group in match.groups() if group is not None))
    return found


def heading_anchors(markdown_text: str) -> frozenset[str]:
    """Every heading's slug, with repeats numbered `-1`, `-2` as GitHub numbers them."""
    return frozenset(_heading_slugs(_parser().parse(markdown_text)))


def _inline_links(inline: Token, first_line: int) -> list[_Link]:
    """Links and images of one inline run; lines advance at each break inside it."""
    links: list[_Link] = []
    line = first_line
    for child in inline.children or ():
        if child.type == "link_open":
            links.append(_Link(line, str(child.attrs.get("href", ""))))
        elif child.type == "image":
            links.append(_Link(line, str(child.attrs.get("src", ""))))
        elif child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "html_inline":
            line += child.content.count("\n")
    return links


def _parse(md: MarkdownIt, text: str) -> _Parsed:
    tokens = md.parse(text)
    links: list[_Link] = []
    anchors = _heading_slugs(tokens)
    block_line = 1
    for token in tokens:
        if token.map is not None:
            block_line = token.map[0] + 1
        if token.type == "inline":
            links.extend(_inline_links(token, block_line))
            for child in token.children or ():
                if child.type == "html_inline":
                    anchors |= _html_anchors(child.content)
        elif token.type == "html_block":
            anchors |= _html_anchors(token.content)
    return _Parsed(tuple(links), frozenset(anchors))


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _line_count(data: bytes) -> int:
    """Lines as docgen's scanners number them: "\r\n", "\r" and "\n" each end one (see
    `docgen.scan.decode`), a last unterminated line counts."""
    if not data:
        return 0
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    return ends + (0 if data.endswith((b"\n", b"\r")) else 1)


class _Checker:
    """Resolves links for one `check_links` call; its caches die with the call."""

    def __init__(self, out: str, repo: str | None) -> None:
        self.out = out
        self.repo = repo
        self.md = _parser()
        self._parsed: dict[str, _Parsed | None] = {}
        self._kinds: dict[str, str] = {}
        self._lines: dict[str, int] = {}

    def parsed(self, path: str) -> _Parsed | None:
        if path not in self._parsed:
            try:
                with open(path, "rb") as handle:
                    text = handle.read().decode("utf-8-sig", errors="replace")
            except OSError:
                self._parsed[path] = None
            else:
                self._parsed[path] = _parse(self.md, text)
        return self._parsed[path]

    def _kind(self, path: str) -> str:
        kind = self._kinds.get(path)
        if kind is None:
            try:
                mode = os.stat(path).st_mode
            except (OSError, ValueError):
                kind = "missing"
            else:
                kind = "folder" if stat.S_ISDIR(mode) else "file"
            self._kinds[path] = kind
        return kind

    def _line_total(self, path: str) -> int:
        if path not in self._lines:
            try:
                with open(path, "rb") as handle:
                    self._lines[path] = _line_count(handle.read())
            except OSError:
                self._lines[path] = 0
        return self._lines[path]

    def _shown(self, path: str) -> str:
        root = self.out if _within(path, self.out) or self.repo is None else self.repo
        return Path(os.path.relpath(path, root)).as_posix()

    def why_broken(self, page: str, target: str) -> str | None:
        """The reason `target`, written on `page`, does not land; None when it does."""
        if target.startswith("//") or SCHEME.match(target):
            return None
        written_path, _, written_fragment = target.partition("#")
        path = unquote(written_path.partition("?")[0])
        fragment = unquote(written_fragment)
        if not path:
            resolved = page
        elif path.startswith("/"):
            return "absolute path; links must be relative"
        else:
            resolved = os.path.normpath(os.path.join(os.path.dirname(page), path))
        inside = _within(resolved, self.out) or (
            self.repo is not None and _within(resolved, self.repo)
        )
        if not inside:
            if self.repo is None:
                return "leaves the output folder"
            return "leaves the output and repository folders"
        kind = self._kind(resolved)
        if kind == "missing":
            return "no such file"
        if not fragment:
            return None
        if kind == "folder":
            return "anchor on a folder"
        if posixpath.splitext(resolved)[1].lower() in MARKDOWN_SUFFIXES:
            return self._why_heading(resolved, fragment)
        return self._why_line(resolved, fragment)

    def _why_heading(self, path: str, fragment: str) -> str | None:
        parsed = self.parsed(path)
        if parsed is not None and fragment in parsed.anchors:
            return None
        return f"no heading #{fragment} in {self._shown(path)}"

    def _why_line(self, path: str, fragment: str) -> str | None:
        match = _LINE_FRAGMENT.fullmatch(fragment)
        if match is None:
            return "anchor on a non-Markdown file"
        total = self._line_total(path)
        for number in (int(group) for group in match.groups() if group is not None):
            if number < 1:
                return f"no line {number}; lines start at 1"
            if number > total:
                return f"line {number} past end ({total} lines)"
        return None


def _all_pages(out: str) -> list[str]:
    pages: list[str] = []
    for folder, subfolders, files in os.walk(out):
        if folder == out:
            subfolders[:] = [name for name in subfolders if name != STATE_FOLDER]
        pages.extend(os.path.join(folder, name) for name in files if name.endswith(".md"))
    return sorted(pages)


def _chosen_pages(out: str, pages: Iterable[Path]) -> list[str]:
    chosen: set[str] = set()
    for page in pages:
        if page.is_absolute():
            full = os.path.join(str(page.parent.resolve()), page.name)
        else:
            full = os.path.normpath(os.path.join(out, page))
        if not _within(full, out) or full == out:
            raise ValueError(f"page {page} is not inside the output folder {out}")
        chosen.add(full)
    return sorted(chosen)


def check_links(
    out: Path, repo: Path | None = None, pages: Iterable[Path] | None = None
) -> list[BrokenLink]:
    """Every relative link or image on the pages that does not land, sorted.

    `pages` (absolute, or relative to `out`) limits which pages are read for
    links; targets anywhere in `out` and `repo` are still checked.  Without
    `repo`, a link that leaves `out` is broken.
    """
    out_root = str(out.resolve())
    repo_root = str(repo.resolve()) if repo is not None else None
    checker = _Checker(out_root, repo_root)
    page_paths = _all_pages(out_root) if pages is None else _chosen_pages(out_root, pages)
    broken: list[BrokenLink] = []
    for page in page_paths:
        name = Path(os.path.relpath(page, out_root)).as_posix()
        parsed = checker.parsed(page)
        if parsed is None:
            broken.append(BrokenLink(name, 0, "", "cannot read the page"))
            continue
        for link in parsed.links:
            why = checker.why_broken(page, link.target)
            if why is not None:
                broken.append(BrokenLink(name, link.line, link.target, why))
    return sorted(broken)
