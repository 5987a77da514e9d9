"""The includes of a C, C++ or CUDA file's docs page: each include with the file it
resolves to and how, and the files that include it."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.index.cfamily_keyed import Includes
from docgen.model.facts import FileFacts
from docgen.model.links import docs_page
from docgen.model.std_headers import is_standard_header
from docgen.render.context import Linker
from docgen.render.dependency_views import Importer
from docgen.render.view_refs import LineRef, LinkView


@dataclass(frozen=True)
class IncludeView:
    """One include line as shown, with the page of the file it resolves to."""

    line: LineRef
    target: str
    system: bool
    resolved: LinkView | None
    how: str  # "folder", "root", "suffix", "nearest", "" (unresolved)
    others: tuple[LinkView, ...] = ()  # for "nearest": the other files whose paths end so
    standard: bool = False  # a header of the C or C++ standard library


@dataclass(frozen=True)
class IncludesView:
    """Dependencies and Included By of a C-family page, and how includes were resolved."""

    includes: tuple[IncludeView, ...]
    included_by: tuple[Importer, ...]
    roots: tuple[str, ...]
    guessed: bool


def includes_view(facts: FileFacts, graph: Includes, linker: Linker) -> IncludesView:
    rows = tuple(
        IncludeView(
            linker.line(facts.path, r.line, facts.line_count),
            r.target,
            r.system,
            linker.page_link(r.path, docs_page(r.path)) if r.path else None,
            r.how,
            tuple(linker.page_link(o, docs_page(o)) for o in r.others),
            not r.path and is_standard_header(r.target),
        )
        for r in graph.includes.get(facts.path, ())
    )
    included_by = []
    for other in graph.included_by.get(facts.path, ()):
        lines = tuple(LineRef(n, "") for n in graph.lines_including(other, facts.path))
        included_by.append(Importer(other, linker.to_page(docs_page(other)), lines))
    return IncludesView(rows, tuple(included_by), graph.roots, graph.guessed)
