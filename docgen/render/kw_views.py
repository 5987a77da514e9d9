"""View-model of a file's keyword page: its names in groups, each linked into the docs
page and to its source line."""

from __future__ import annotations

from docgen.analyze.summary import page_tags
from docgen.model.anchors import (
    KW_SECTIONS,
)
from docgen.model.facts import ScannedFile
from docgen.model.links import docs_page, folder_index, folder_of, kw_page
from docgen.render.context import Linker, RenderContext
from docgen.render.file_views import front_matter
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.render.kind_views import FilePage, anchored_of, views_of
from docgen.render.listing_views import (
    KwView,
)
from docgen.render.lookup import RepoLookup
from docgen.render.problem_views import problem_views
from docgen.render.use_views import every_use


def kw_view(scanned: ScannedFile, context: RenderContext, lookup: RepoLookup) -> KwView:
    facts = scanned.facts
    path = facts.path
    page = kw_page(path)
    linker = Linker(page, context.source_root)
    folder = folder_of(path)
    kind = views_of(facts.kind)
    page_of = FilePage(lookup, facts, linker, (), (), context, folder, None)
    groups = kind.keyword_groups(page_of)
    used = context.use_links.of(path)
    anchored = (anchored_of(facts) or lookup.c_items(path)) if used else ()
    return KwView(
        page=page,
        path=path,
        front=front_matter(facts, page_tags(scanned), context),
        sections=KW_SECTIONS,
        source=linker.source_link(path, path),
        docs_page=linker.page_link(docs_page(path), docs_page(path)),
        folder_index=linker.page_link(folder_index(folder), folder_index(folder)),
        keywords=linker.page_link(KEYWORDS_PAGE, KEYWORDS_PAGE),
        groups=tuple(groups),
        no_keywords="" if groups else kind.no_keywords(facts),
        problems=problem_views(facts, linker) if not facts.parsed else (),
        uses=every_use(path, anchored, used, lookup.line_counts, linker),
    )
