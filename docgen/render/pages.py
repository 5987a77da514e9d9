"""The renderer: one method per page kind, each returning the finished page text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import jinja2

from docgen.index.repo import RepoIndex
from docgen.render.context import RenderContext
from docgen.render.file_views import docs_view
from docgen.render.folder_views import folder_doc_view, folder_index_view
from docgen.render.keyword_views import KeywordPlan, PartSummary, keywords_view_jobs
from docgen.render.kw_views import kw_view
from docgen.render.listing_views import KeywordsView
from docgen.render.lookup import RepoLookup
from docgen.render.tidy import tidy

if TYPE_CHECKING:  # docgen.index.keywords imports docgen.model.anchors: no import cycle at run time
    from docgen.model.sites import DefinitionSite

#: page kind -> template name (looked up in user folders first, then the builtin ones)
TEMPLATES: dict[str, str] = {
    "docs": "docs.md.j2",
    "kw": "kw.md.j2",
    "folder_index": "folder_index.md.j2",
    "folder_doc": "folder_doc.md.j2",
    "keywords": "keywords.md.j2",
}


class Renderer:
    """Renders the pages of one build; holds no state beyond its inputs."""

    def __init__(
        self,
        env: jinja2.Environment,
        index: RepoIndex,
        context: RenderContext,
        read_source: Callable[[str], str | None],
        lookup: RepoLookup | None = None,
    ) -> None:
        """`lookup`: the build's `RepoLookup` of `index`, when it has one already."""
        self._env = env
        self._lookup = lookup if lookup is not None else RepoLookup(index)
        self._context = context
        self._read_source = read_source

    def _render(self, kind: str, page: object) -> str:
        return tidy(self._env.get_template(TEMPLATES[kind]).render(page=page))

    def docs_page(self, path: str) -> str:
        """Text of `OUT/<path>_docs.md`."""
        scanned = self._lookup.index.files[path]
        view = docs_view(self._lookup, scanned, self._context, self._read_source)
        return self._render("docs", view)

    def kw_page(self, path: str) -> str:
        """Text of `OUT/<path>_kw.md`."""
        view = kw_view(self._lookup.index.files[path], self._context, self._lookup)
        return self._render("kw", view)

    def folder_index(self, folder: str) -> str:
        """Text of `OUT/<folder>/index.md` ("" is the root)."""
        return self._render("folder_index", folder_index_view(self._lookup, folder, self._context))

    def folder_doc(self, folder: str) -> str:
        """Text of `OUT/<folder>/doc.md` ("" is the root)."""
        view = folder_doc_view(self._lookup, folder, self._context, self._read_source)
        return self._render("folder_doc", view)

    @property
    def lookup(self) -> RepoLookup:
        """The repository-wide lists the pages read (also used to digest their inputs)."""
        return self._lookup

    def keyword_plan(
        self,
        sites: Sequence[DefinitionSite],
        *,
        single_page_limit: int | None = None,
        letter_page_limit: int | None = None,
        kept: Mapping[str, Sequence[PartSummary]] | None = None,
    ) -> KeywordPlan:
        """The repository-wide keyword index as a plan (see `keywords_view_jobs`):
        `keywords.md`, and over `single_page_limit` distinct names letter pages
        (`keywords-a.md`, ...) cut into parts over `letter_page_limit` names; pages whose
        inputs are unchanged are not rendered, the others are rendered on every core."""
        return keywords_view_jobs(
            sites,
            self._lookup.line_counts,
            self._context,
            single_page_limit=single_page_limit,
            letter_page_limit=letter_page_limit,
            kept=kept,
        )

    def render_keywords(self, make: Callable[[], KeywordsView]) -> str:
        """A keyword page from the function that makes its view (a `KeywordJob`'s)."""
        return self._render("keywords", make())
