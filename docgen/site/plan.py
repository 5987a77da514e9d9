"""What a site should hold: every file with the digest of what it is made from and how
to make it.  Nothing is written here (see `publish`); `docgen check` plans a site
to see whether the one in place is stale."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import jinja2

from docgen import __version__
from docgen.model.digests import code_digest, file_digest, parts_digest
from docgen.model.errors import DocgenError
from docgen.model.links import docs_page, kw_page
from docgen.model.sites import DefinitionSite
from docgen.render.environment import make_environment
from docgen.render.use_counts import USE_COUNTS_META, Counts, read_counts
from docgen.site import SEARCH_FOLDER, STATIC_FOLDER, fulltext
from docgen.site.html import html_page, source_page
from docgen.site.pages import LAYOUT, STYLE, PageMaker, template_text
from docgen.site.search import search_index
from docgen.site.sources import VIEW_LIMIT, highlight_css, source_view
from docgen.state import SiteRecord, read_state
from docgen.system.nofollow import Tree

#: Files copied into `_static/` as they are (looked up by name like the templates):
#: the search, the diagram renderer (Mermaid, shipped: no network) and its start, the
#: full-text search page's script.
ASSETS = ("search.js", "vendor/mermaid.min.js", "diagrams.js", "fulltext.js")


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
            f"{STATIC_FOLDER}/{posixpath.basename(name)}": template_text(
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
        counted = state.meta(USE_COUNTS_META) or ""
        hashed = state.content_digests()  # the build hashed every source already
    repo = Path(os.path.normpath(out / source_root))
    sources = frozenset(path for path in hashed if docs_page(path) in manifest)
    made_from: dict[str, str] = {}
    work: dict[str, Callable[[], str]] = {}
    shown = _lines_shown(repo, sources)
    cut = {page: n for path, n in shown.items() for page in (docs_page(path), kw_page(path))}
    context = PageMaker(environment, project, source_root, sources, with_fulltext, shown)
    for page, digest in sorted(manifest.items()):
        target = html_page(page)
        made_from[target] = _digest(layout_key, "page", page, digest, str(cut.get(page)))
        work[target] = partial(context.page, out, page)
    indexed = tuple(sorted(made_from))
    if with_fulltext:
        made_from[fulltext.FULLTEXT_PAGE] = _digest(layout_key, "fulltext")
        work[fulltext.FULLTEXT_PAGE] = context.fulltext
    for path in sorted(sources):
        target = source_page(path)
        content = hashed.get(path) or file_digest(repo / path) or "unreadable"
        made_from[target] = _digest(layout_key, "source", path, content)
        work[target] = partial(context.source, repo, path)
    for name, text in sorted({f"{STATIC_FOLDER}/docgen.css": css, **assets}.items()):
        made_from[name] = _digest(text)
        work[name] = partial(str, text)
    plan = SitePlan(made_from, work, "", indexed)
    _plan_search(plan, sites, records, counted)
    if with_fulltext:
        plan.fulltext = _digest(*(f"{t}={made_from[t]}" for t in indexed))
    return plan


def _lines_shown(repo: Path, sources: frozenset[str]) -> dict[str, int]:
    """How many lines the view of each source too large to show whole shows (a link to
    a later line leads to the view's note instead)."""
    shown: dict[str, int] = {}
    for path in sorted(sources):
        try:
            large = os.stat(repo / path).st_size > VIEW_LIMIT
        except OSError:
            continue
        if large:
            shown[path] = source_view(repo / path).text.count("\n")
    return shown


def _plan_search(
    plan: SitePlan, sites: list[DefinitionSite], records: Mapping[str, SiteRecord], counted: str
) -> None:
    """The search shards: those recorded when the keyword index and the counts of uses
    (`counted`, as kept) are still what they were made from (the index is cut again
    only when a shard is missing), else cut anew."""
    searched = _digest(__version__, *(repr(s) for s in sites), counted, code_digest())
    counts = read_counts(counted)
    manifest_path = f"{SEARCH_FOLDER}/manifest.js"
    shards = {
        path: record.made_from
        for path, record in records.items()
        if path.startswith(f"{SEARCH_FOLDER}/") and path.endswith(".js")
    }
    # Reused only when every shard recorded is of this index (none half put in place).
    if manifest_path in shards and set(shards.values()) == {searched}:
        cut = _SearchCut(sites, counts)
        for path in sorted(shards):
            plan.made_from[path] = searched
            plan.work[path] = partial(cut.file, path)
        return
    index = search_index(sites, counts)
    plan.warnings.extend(index.warnings)
    for name, text in index.files.items():
        plan.made_from[name] = searched
        plan.work[name] = partial(str, text)


class _SearchCut:
    """The search shards cut only when one of them is asked for."""

    def __init__(self, sites: list[DefinitionSite], counts: Counts | None) -> None:
        self.sites = sites
        self.counts = counts
        self.files: dict[str, str] | None = None

    def file(self, path: str) -> str:
        if self.files is None:
            self.files = search_index(self.sites, self.counts).files
        return self.files.get(path, "")


def needs_making(
    target: str, plan: SitePlan, records: Mapping[str, SiteRecord], tree: Tree
) -> bool:
    record = records.get(target)
    return (
        record is None or record.made_from != plan.made_from[target] or tree.lstat(target) is None
    )


def fulltext_file(record: SiteRecord) -> bool:
    return record.made_from.startswith(FULLTEXT_MARK)


def _digest(*parts: str) -> str:
    return parts_digest(parts)


def _layout_key(environment: jinja2.Environment) -> str:
    """What every site page depends on beyond its own page: the layout's and the
    style's text, and docgen's code (the code that turns pages into HTML among it)."""
    layout = (template_text(environment, name) for name in (LAYOUT, STYLE))
    return _digest(__version__, *layout, code_digest())
