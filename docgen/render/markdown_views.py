"""The sections of a Markdown file's pages: its overview, outline, code blocks and
links on the docs page, its headings and code identifiers on the keyword page."""

from __future__ import annotations

from collections import defaultdict

from docgen.model.anchors import KW_GROUPS, subsection_anchor
from docgen.model.facts import FileFacts, MarkdownFacts
from docgen.model.links import docs_page, folder_index
from docgen.render.context import Linker, heading_anchors
from docgen.render.listing_views import KeywordEntry, KeywordGroup, KeywordTarget
from docgen.render.lookup import RepoLookup
from docgen.render.markdown_links import resolve_link
from docgen.render.problem_views import problem_views
from docgen.render.view_refs import LineRef, LinkView
from docgen.render.views import (
    CodeBlockView,
    DetailedView,
    MarkdownLinkView,
    MarkdownOverview,
    OutlineItem,
)

TOP_HEADINGS_SHOWN = 12


def markdown_overview(md: MarkdownFacts) -> MarkdownOverview | None:
    if not (md.headings or md.code_blocks or md.links):
        return None
    title = next((h.text for h in md.headings if h.level == 1), "")
    if not title and md.headings:
        title = md.headings[0].text
    top: tuple[str, ...] = ()
    if md.headings:
        levels = sorted({h.level for h in md.headings})
        at_top = [h for h in md.headings if h.level == levels[0]]
        if len(at_top) == 1:  # a lone top heading is the title: show the level below
            at_top = [h for h in md.headings if len(levels) > 1 and h.level == levels[1]]
        top = tuple(h.text for h in at_top[:TOP_HEADINGS_SHOWN])
    return MarkdownOverview(
        title=title,
        headings=len(md.headings),
        top_headings=top,
        code_blocks=len(md.code_blocks),
        links=len(md.links),
    )


def _outline(facts: FileFacts, md: MarkdownFacts, linker: Linker) -> tuple[OutlineItem, ...]:
    items = []
    open_levels: list[int] = []
    anchors = heading_anchors(md.headings)
    for h in sorted(md.headings, key=lambda h: h.line):
        while open_levels and open_levels[-1] >= h.level:
            open_levels.pop()
        items.append(
            OutlineItem(
                len(open_levels),
                h.level,
                h.text,
                linker.heading(facts.path, h.line, anchors[h.line]),
            )
        )
        open_levels.append(h.level)
    return tuple(items)


def _link_view(
    source: str, target: str, text: str, line: LineRef, lookup: RepoLookup, linker: Linker
) -> MarkdownLinkView:
    resolved = resolve_link(source, target, lookup)
    page: LinkView | None = None
    if resolved.state in ("file", "no-heading") and resolved.path != source:
        scanned = lookup.index.files.get(resolved.path)
        if scanned is not None and scanned.facts.kind == "binary":
            page = linker.source_link(resolved.path, resolved.path)
        elif scanned is not None:
            page = linker.page_link(resolved.path, docs_page(resolved.path))
    elif resolved.state == "folder":
        page = linker.page_link(resolved.path or ".", folder_index(resolved.path))
    return MarkdownLinkView(target, text, line, resolved.state, page, resolved.resolves)


def markdown_detailed(facts: FileFacts, linker: Linker, lookup: RepoLookup) -> DetailedView | None:
    md = facts.markdown
    failed = not facts.parsed
    if md is None:
        return (
            DetailedView(parse_failed=True, problems=problem_views(facts, linker))
            if failed
            else None
        )

    def line(n: int) -> LineRef:
        return linker.line(facts.path, n, facts.line_count)

    view = DetailedView(
        outline=_outline(facts, md, linker),
        code_blocks=tuple(
            CodeBlockView(b.language, line(b.line))
            for b in sorted(md.code_blocks, key=lambda b: b.line)
        ),
        links=tuple(
            _link_view(facts.path, k.target, k.text, line(k.line), lookup, linker)
            for k in sorted(md.links, key=lambda k: (k.line, k.target))
        ),
        parse_failed=failed,
        problems=problem_views(facts, linker) if failed else (),
    )
    if not (view.outline or view.code_blocks or view.links or failed):
        return None
    return view


def markdown_groups(path: str, facts: FileFacts, linker: Linker) -> list[KeywordGroup]:
    md = facts.markdown
    if md is None:
        return []
    groups = []
    outline = linker.to_page(docs_page(path), subsection_anchor("outline"))
    headings: dict[str, list[KeywordTarget]] = defaultdict(list)
    anchors = heading_anchors(md.headings)
    for h in sorted(md.headings, key=lambda h: h.line):
        headings[h.text].append(
            KeywordTarget(f"H{h.level}", outline, linker.heading(path, h.line, anchors[h.line]))
        )
    if headings:
        entries = tuple(KeywordEntry(t, tuple(headings[t])) for t in sorted(headings))
        groups.append(KeywordGroup("headings", KW_GROUPS["headings"], entries))
    identifiers = sorted(set(md.code_identifiers))
    if identifiers:
        entries = tuple(KeywordEntry(name, ()) for name in identifiers)
        groups.append(KeywordGroup("code_identifiers", KW_GROUPS["code_identifiers"], entries))
    return groups
