"""Every link of the HTML site lands on a page of the site and on an id of that page,
and nothing a page loads comes from outside the site."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from docgen.site.linkcheck import SCHEME


@dataclass(frozen=True, order=True)
class BrokenSiteLink:
    """A link of the published site that leads nowhere."""

    page: str  # site-relative path of the HTML page
    target: str  # the link as written
    why: str

    def __str__(self) -> str:
        return f"{self.page}: {self.target} ({self.why})"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.loads: list[str] = []  # what the browser fetches with the page

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        if "src" in values:
            self.loads.append(values["src"])
        if tag == "link" and "href" in values:
            self.loads.append(values["href"])


def check_site(site: Path) -> list[BrokenSiteLink]:
    """Relative links that do not land, and loads from outside the site, page by page."""
    pages: dict[str, _Page] = {}
    for path in sorted(site.rglob("*.html")):
        parsed = _Page()
        parsed.feed(path.read_text(encoding="utf-8"))
        pages[path.relative_to(site).as_posix()] = parsed
    broken = []
    for name, page in pages.items():
        for load in page.loads:
            if load.startswith("data:"):
                continue  # inline: nothing is requested
            if SCHEME.match(load) or load.startswith("//"):
                broken.append(BrokenSiteLink(name, load, "loaded from outside the site"))
            elif not (site / posixpath.dirname(name) / unquote(load)).exists():
                broken.append(BrokenSiteLink(name, load, "no such file in the site"))
        for link in page.links:
            if SCHEME.match(link) or link.startswith("//"):
                continue
            where, _, anchor = link.partition("#")
            if where:
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), unquote(where)))
            else:
                target = name
            if target.startswith(".."):
                broken.append(BrokenSiteLink(name, link, "leads outside the site"))
            elif target not in pages:
                if not (site / target).is_file():
                    broken.append(BrokenSiteLink(name, link, "no such page in the site"))
            elif anchor and unquote(anchor) not in pages[target].ids:
                broken.append(BrokenSiteLink(name, link, "no such id on that page"))
    return sorted(broken)
