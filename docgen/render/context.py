"""What a build tells the renderer, and how one page links to anything else."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote

from docgen.model.facts import Heading
from docgen.model.links import Slugger, encode_path, href, page_folder, relative_from
from docgen.render.attached_links import AttachedLinks
from docgen.render.native_links import NativeLinks
from docgen.render.operator_links import OperatorLinks
from docgen.render.role_links import RoleLinks
from docgen.render.use_counts import UseCounts
from docgen.render.use_links import UseLinks
from docgen.render.view_refs import LineRef, LinkView

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})

#: The build's reader: repo-relative path -> decoded text ("\n" newlines), None if unreadable.
ReadSource = Callable[[str], "str | None"]


@dataclass(frozen=True)
class RenderContext:
    """What every page shares and no file decides: project name, generator, paths, limits."""

    project: str  # project name for page text (never hard-coded)
    generator: str  # e.g. "docgen 0.1.0", written to every page's front matter
    source_root: str  # POSIX relative path from the output root to the repository root
    max_embed_bytes: int = 1_000_000  # larger sources are not embedded; the page says so
    #: where each file's docstring roles lead in other files (see `docgen.render.role_links`)
    role_links: RoleLinks = field(default_factory=RoleLinks)
    #: where each YAML file's kernels and operators lead (see `docgen.render.operator_links`)
    operator_links: OperatorLinks = field(default_factory=OperatorLinks)
    #: where Python's calls lead into C++, and back (see `docgen.render.native_links`)
    native_links: NativeLinks = field(default_factory=NativeLinks)
    #: the docstrings other files attach to each file's definitions at import (see
    #: `docgen.render.attached_links`)
    attached_links: AttachedLinks = field(default_factory=AttachedLinks)
    #: the other files that use each Python definition (see `docgen.render.use_links`)
    use_links: UseLinks = field(default_factory=UseLinks)
    #: every Python definition's count of uses (see `docgen.render.use_counts`)
    use_counts: UseCounts = field(default_factory=UseCounts)


#: Kept under this name for the renderer's callers; `docgen.model.links` holds the logic.
make_href = href


#: Anchors made only of characters that need no percent-encoding.
_PLAIN_ANCHOR = re.compile(r"[A-Za-z0-9_-]+")


class Linker:
    """Link destinations from one output page (`page`, relative to the output root).

    One linker serves one page, so it remembers the encoded path of every
    target it has seen: a docs page links the same source file once per line.
    """

    def __init__(self, page: str, source_root: str) -> None:
        self.page = page
        self.source_root = source_root
        self._folder = page_folder(page)
        self._paths: dict[str, str] = {}
        self._sources: dict[str, str] = {}
        # path -> the href of its lines up to the number, and whether the number follows
        self._line_hrefs: dict[str, tuple[str, bool]] = {}

    def _path(self, target: str) -> str:
        encoded = self._paths.get(target)
        if encoded is None:
            encoded = self._paths[target] = encoded_relative(self._folder, target)
        return encoded

    def to_page(self, target: str, anchor: str = "") -> str:
        """Another output page (or folder of pages)."""
        return self._path(target) + (self.here(anchor) if anchor else "")

    def here(self, anchor: str) -> str:
        """An anchor on this same page."""
        if _PLAIN_ANCHOR.fullmatch(anchor):  # most anchors: nothing to encode
            return "#" + anchor
        return "#" + quote(anchor, safe="-_")

    def to_source(self, path: str, anchor: str = "") -> str:
        """A repository path ("" for the repository root)."""
        encoded = self._sources.get(path)
        if encoded is None:
            encoded = self._sources[path] = self._path(posixpath.join(self.source_root, path))
        return encoded + (self.here(anchor) if anchor else "")

    def line(self, path: str, line: int, line_count: int) -> LineRef:
        """A source line, linked only when it exists in the file.

        Rendered Markdown has no line anchors, so a line of a Markdown file
        links to the file itself.
        """
        if 1 <= line <= line_count:
            known = self._line_hrefs.get(path)
            if known is None:
                numbered = not is_markdown(path)
                known = (self.to_source(path) + ("#L" if numbered else ""), numbered)
                self._line_hrefs[path] = known
            prefix, numbered = known
            return LineRef(line, prefix + str(line) if numbered else prefix)
        return LineRef(line, "")

    def heading(self, path: str, line: int, anchor: str) -> LineRef:
        """A heading of a Markdown source, linked by its own anchor."""
        return LineRef(line, self.to_source(path, anchor))

    def page_link(self, label: str, target: str, anchor: str = "") -> LinkView:
        return LinkView(label, self.to_page(target, anchor))

    def source_link(self, label: str, path: str) -> LinkView:
        return LinkView(label, self.to_source(path))


@lru_cache(maxsize=1 << 16)
def encoded_relative(folder: tuple[str, ...], target: str) -> str:
    """The link from a page folder (split) to an output path, encoded.  Pages are
    rendered a folder at a time, and a folder's pages link to the same pages and
    sources: each such link is made once per folder, not once per page."""
    return encode_path(relative_from(folder, target))


def is_markdown(path: str) -> bool:
    return posixpath.splitext(path)[1].lower() in MARKDOWN_SUFFIXES


def heading_anchors(headings: Iterable[Heading]) -> dict[int, str]:
    """Line -> the anchor a Markdown renderer gives each heading, repeats numbered in order."""
    slugger = Slugger()
    return {h.line: slugger.claim(h.text) for h in sorted(headings, key=lambda h: h.line)}
