"""Where a Markdown file's links lead: a file or folder of the repository, a heading,
the web, or nowhere.

Relative links are resolved as GitHub does on a repository page: against the
file's folder, or the repository root for a leading `/`; `%20` and friends are
decoded; a `#fragment` must name a heading of the target (GitHub's anchors).
Web links are not fetched: a page says so rather than guess.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

from docgen.model.links import folder_of
from docgen.render.context import heading_anchors
from docgen.render.lookup import RepoLookup

LinkState = Literal["file", "folder", "heading", "external", "missing", "outside", "no-heading"]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class LinkTarget:
    """Where a Markdown link leads in this repository, so that its page links there too."""

    state: LinkState
    path: str  # the repository path it resolves to ("" when none; the file itself for "#x")
    fragment: str  # the heading anchor asked for, "" when none

    @property
    def resolves(self) -> bool:
        return self.state in ("file", "folder", "heading", "external")


def resolve_link(source: str, target: str, lookup: RepoLookup) -> LinkTarget:
    """What `target`, written in the Markdown file `source`, points at."""
    target = target.strip()
    if _SCHEME.match(target) or target.startswith("//"):
        return LinkTarget("external", "", "")
    raw_path, _, fragment = target.partition("#")
    raw_path = raw_path.split("?", 1)[0]
    fragment = unquote(fragment)
    if not raw_path:
        return _heading(source, fragment, lookup, "heading")
    decoded = unquote(raw_path)
    base = "" if decoded.startswith("/") else folder_of(source)
    joined = posixpath.normpath(posixpath.join(base, decoded.lstrip("/")))
    if joined == ".":
        joined = ""
    if joined == ".." or joined.startswith("../"):
        return LinkTarget("outside", "", fragment)
    if joined in lookup.index.files:
        if fragment and lookup.index.files[joined].facts.kind == "markdown":
            return _heading(joined, fragment, lookup, "file")
        return LinkTarget("file", joined, fragment)
    if joined in lookup.index.folders:
        return LinkTarget("folder", joined, fragment)
    return LinkTarget("missing", joined, fragment)


def _heading(path: str, fragment: str, lookup: RepoLookup, found: LinkState) -> LinkTarget:
    scanned = lookup.index.files.get(path)
    markdown = scanned.facts.markdown if scanned is not None else None
    if not fragment:
        return LinkTarget(found, path, "")
    anchors = set(heading_anchors(markdown.headings).values()) if markdown else set()
    state: LinkState = found if fragment.lower() in anchors else "no-heading"
    return LinkTarget(state, path, fragment)


def link_state_key(source: str, target: str, lookup: RepoLookup) -> str:
    """What a page shows about one link, for the page's input digest."""
    resolved = resolve_link(source, target, lookup)
    return f"{target}->{resolved.state}:{resolved.path}#{resolved.fragment}"
