"""View-model of a file's keyword page: its names in groups, each linked into the docs
page and to its source line."""

from __future__ import annotations

from collections import defaultdict

from docgen.analyze.summary import page_tags
from docgen.model.anchors import (
    DOCS_SECTIONS,
    DOCS_SUBSECTIONS,
    KW_GROUPS,
    KW_SECTIONS,
    anchored_definitions,
    kw_group_anchor,
    section_anchor,
    subsection_anchor,
)
from docgen.model.facts import FileFacts, ScannedFile
from docgen.model.links import docs_page, folder_index, folder_of, kw_page
from docgen.render.context import Linker, RenderContext, heading_anchors
from docgen.render.entries import keyword_entries
from docgen.render.file_views import front_matter, problem_views
from docgen.render.import_text import import_label, module_as_written
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.render.listing_views import (
    KeywordEntry,
    KeywordGroup,
    KeywordTarget,
    KwView,
    SectionMapItem,
)
from docgen.render.lookup import RepoLookup


def _python_groups(path: str, facts: FileFacts, linker: Linker) -> list[KeywordGroup]:
    python = facts.python
    if python is None:
        return []
    docs = docs_page(path)
    by_group: dict[str, dict[str, list[KeywordTarget]]] = {
        "classes": defaultdict(list),
        "functions": defaultdict(list),
        "imports": defaultdict(list),
    }
    for item in anchored_definitions(path, python.definitions):
        d = item.definition
        group = "classes" if d.kind == "class" else "functions"
        by_group[group][d.name].append(
            KeywordTarget(
                d.qualname,
                linker.to_page(docs, item.anchor),
                linker.line(path, d.line, facts.line_count),
            )
        )
    dependencies = section_anchor("dependencies")
    for imp in sorted(python.imports, key=lambda i: (i.line, module_as_written(i))):
        href = linker.to_page(docs, dependencies)
        line = linker.line(path, imp.line, facts.line_count)
        keys = [n for n in imp.names if n != "*"]
        if imp.module is not None:
            keys.append(module_as_written(imp))
        keys += [bound for bound, _ in imp.aliases]  # `FSDP` in `import ... as FSDP`
        for key in dict.fromkeys(keys):
            by_group["imports"][key].append(KeywordTarget(import_label(imp, key), href, line))
    return [
        KeywordGroup(
            key,
            KW_GROUPS[key],
            keyword_entries(entries),
        )
        for key, entries in by_group.items()
        if entries
    ]


def _markdown_groups(path: str, facts: FileFacts, linker: Linker) -> list[KeywordGroup]:
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


def _no_keywords(facts: FileFacts) -> str:
    if facts.kind == "python":
        if facts.python is None or not facts.parsed:
            return "No keywords were extracted: the file could not be parsed."
        return "This Python file defines no classes or functions and imports nothing."
    if facts.kind == "markdown":
        return "This Markdown file has no headings and no code identifiers."
    if facts.kind == "cfamily":
        return "This file defines, declares and includes nothing that docgen indexes."
    language = facts.language or "plain"
    return (
        "Keywords are extracted from Python, C, C++, CUDA and Markdown files only,"
        f" not from {language} text files."
    )


def covering_section(facts: FileFacts, group: str) -> tuple[str, str] | None:
    """(title, anchor) of the docs page section that covers a keyword group, if it exists.

    Mirrors when `docs_view` emits those sections, from the facts alone, so a
    keyword page never has to build its docs page to know.
    """
    python = facts.python if facts.kind == "python" else None
    md = facts.markdown if facts.kind == "markdown" else None
    if group in ("classes", "functions") and python and python.definitions:
        return DOCS_SECTIONS["detailed"], section_anchor("detailed")
    if group == "imports" and python and python.imports:
        return DOCS_SECTIONS["dependencies"], section_anchor("dependencies")
    if group == "headings" and md and md.headings:
        return DOCS_SUBSECTIONS["outline"], subsection_anchor("outline")
    if group == "code_identifiers" and md and md.code_blocks:
        return DOCS_SUBSECTIONS["code_blocks"], subsection_anchor("code_blocks")
    c = facts.cfamily if facts.kind == "cfamily" else None
    if c is not None:
        from docgen.render import cfamily_kw_views

        if group == "includes" and c.includes:
            return DOCS_SECTIONS["dependencies"], section_anchor("dependencies")
        if group == "registrations" and c.registrations:
            return DOCS_SUBSECTIONS["registrations"], subsection_anchor("registrations")
        if group in cfamily_kw_views.GROUP_ORDER and c.definitions:
            return DOCS_SECTIONS["detailed"], section_anchor("detailed")
    return None


def _section_map(
    facts: FileFacts, groups: list[KeywordGroup], linker: Linker
) -> tuple[SectionMapItem, ...]:
    items = []
    for group in groups:
        covered = covering_section(facts, group.key)
        if covered:
            title, anchor = covered
            items.append(
                SectionMapItem(
                    group.title,
                    linker.here(kw_group_anchor(group.key)),
                    title,
                    linker.to_page(docs_page(facts.path), anchor),
                )
            )
    return tuple(items)


def kw_view(scanned: ScannedFile, context: RenderContext, lookup: RepoLookup) -> KwView:
    facts = scanned.facts
    path = facts.path
    page = kw_page(path)
    linker = Linker(page, context.source_root)
    folder = folder_of(path)
    if facts.kind == "python":
        groups = _python_groups(path, facts, linker)
    elif facts.kind == "cfamily":
        from docgen.render import cfamily_kw_views

        groups = cfamily_kw_views.keyword_groups(facts, lookup.c_items(path), linker)
    elif facts.kind == "markdown":
        groups = _markdown_groups(path, facts, linker)
    else:
        groups = []
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
        no_keywords="" if groups else _no_keywords(facts),
        problems=problem_views(facts, linker) if not facts.parsed else (),
        section_map=_section_map(facts, groups, linker),
    )
