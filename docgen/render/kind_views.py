"""What each kind of file shows on its pages: one row per kind (`KINDS`: Python,
C-family, Markdown, YAML; `TEXT` for every other), the renderer's side of the scanner table
(`docgen.scan.table`).  A new kind of file is a row here: the sections of its docs
page that depend on its kind, its keyword groups, and what its keyword page says when
it has none."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from docgen.model.anchors import (
    AnchoredDefinition,
    anchored_definitions,
    definition_anchors,
)
from docgen.model.facts import FileFacts
from docgen.model.links import folder_index
from docgen.render.attached_views import attached_doc_views, attached_target_views
from docgen.render.attribute_views import attribute_views
from docgen.render.context import Linker, RenderContext
from docgen.render.counts import definition_counts
from docgen.render.dependency_views import DependenciesView, dependencies_view
from docgen.render.listing_views import KeywordGroup
from docgen.render.lookup import RepoLookup
from docgen.render.markdown_views import markdown_detailed, markdown_groups, markdown_overview
from docgen.render.native_views import (
    extension_views,
    native_call_views,
    native_caller_views,
)
from docgen.render.problem_views import problem_views
from docgen.render.python_kw_views import python_groups
from docgen.render.python_views import (
    architecture_view,
    definition_views,
    first_paragraph,
    first_sentence,
    patterns_view,
    python_overview,
    same_file_names,
)
from docgen.render.registration_views import registration_views
from docgen.render.stub_views import operator_use_views
from docgen.render.use_views import c_section_uses, section_uses
from docgen.render.view_refs import UsesView
from docgen.render.views import (
    ArchitectureView,
    DetailedView,
    OverviewView,
    PatternsView,
    TextOverview,
)
from docgen.render.yaml_kw_views import yaml_groups
from docgen.render.yaml_views import yaml_detailed, yaml_overview, yaml_summary

if TYPE_CHECKING:
    from docgen.render.include_views import IncludesView


@dataclass(frozen=True)
class FilePage:
    """What a kind's sections of one file's pages are made from."""

    lookup: RepoLookup
    facts: FileFacts
    linker: Linker
    tags: tuple[str, ...]  # the names of the file's page tags
    anchored: tuple[AnchoredDefinition, ...]  # a Python file's definitions with their anchors
    context: RenderContext
    folder: str
    source_lines: list[str] | None  # the file's text by line, when it is shown


@dataclass(frozen=True)
class KindSections:
    """The sections of a docs page that depend on the file's kind (None: left out)."""

    overview: OverviewView | None = None
    detailed: DetailedView | None = None
    architecture: ArchitectureView | None = None
    dependencies: DependenciesView | None = None
    patterns: PatternsView | None = None
    includes: IncludesView | None = None


@dataclass(frozen=True)
class KindViews:
    """The renderer's row of one kind of file."""

    sections: Callable[[FilePage], KindSections]
    keyword_groups: Callable[[FilePage], list[KeywordGroup]]
    no_keywords: Callable[[FileFacts], str]  # said on a keyword page with no group
    #: one line saying what a file is, from its facts only, for its folder's listing
    #: (None: its lines and language)
    summary: Callable[[FileFacts], str | None] = lambda facts: None


def anchored_of(facts: FileFacts) -> tuple[AnchoredDefinition, ...]:
    """A Python file's definitions with their anchors (none for other kinds)."""
    python = facts.python if facts.kind == "python" else None
    return anchored_definitions(facts.path, python.definitions) if python else ()


def views_of(kind: str) -> KindViews:
    """The row of a kind of file (`TEXT` for a kind with no row)."""
    return KINDS.get(kind, TEXT)


# --------------------------------------------------------------------- Python


def _uses(page: FilePage) -> dict[str, UsesView] | None:
    """Where other files use the page's definitions; None when not looked for, and for
    a test file (a runner, not other files, uses its tests)."""
    path, links, python = page.facts.path, page.context.use_links, page.facts.python
    if python is None or not links.looked_for(path) or path in page.lookup.test_files:
        return None
    found = links.of(path)
    return section_uses(path, page.anchored, found, python, page.lookup.line_counts, page.linker)


def _python_sections(page: FilePage) -> KindSections:
    facts, linker, lookup = page.facts, page.linker, page.lookup
    python, path = facts.python, facts.path
    module = lookup.index.graph.module_names.get(path, "")
    overview = None
    anchors = definition_anchors(page.anchored)
    elsewhere = page.context.role_links.of(path)
    if python is not None and facts.parsed:
        importers = len(lookup.index.graph.imported_by.get(path, ()))
        names = same_file_names(module, anchors, linker, None, elsewhere)
        overview = OverviewView(python=python_overview(python, page.tags, importers, names))
    module_attributes, class_attributes = attribute_views(
        facts, linker, lambda parent: same_file_names(module, anchors, linker, parent, elsewhere)
    )
    uses = page.context.operator_links.used_by(path)
    operators = operator_use_views(uses, linker) if uses else None
    calls = page.context.native_links.calls_of(path)
    native = (
        native_call_views(path, facts.line_count, calls, page.anchored, linker) if calls else {}
    )
    documented = page.context.attached_links.of(path)
    definitions = definition_views(
        path,
        facts,
        page.anchored,
        linker,
        module,
        class_attributes,
        elsewhere,
        operators,
        native,
        attached_doc_views(documented, linker) if documented else None,
        _uses(page),
    )
    attaches = (
        attached_target_views(
            path, facts.line_count, python.attached, python.imports, elsewhere, linker
        )
        if python is not None
        else ()
    )
    in_tree = lookup.index.files.__contains__
    extensions = (
        extension_views(path, facts.line_count, python.extensions, in_tree, linker)
        if python is not None
        else ()
    )
    detailed = None
    registered = (
        registration_views(facts, python.registrations, linker, {}) if python is not None else ()
    )
    shown = definitions or module_attributes or native or extensions or attaches or registered
    if shown or not facts.parsed:
        detailed = DetailedView(
            definitions=definitions,
            module_attributes=module_attributes,
            native_calls=native.get("", ()),
            extensions=extensions,
            attached=attaches,
            registrations=registered,
            parse_failed=not facts.parsed,
            problems=problem_views(facts, linker) if not facts.parsed else (),
        )
    return KindSections(
        overview=overview,
        detailed=detailed,
        architecture=architecture_view(page.anchored, linker) if python else None,
        dependencies=dependencies_view(
            path, facts, lookup.index.graph, lookup.packages, lookup.line_counts, linker
        ),
        patterns=patterns_view(path, facts, page.anchored, linker, page.source_lines)
        if python
        else None,
    )


def _python_keywords(page: FilePage) -> list[KeywordGroup]:
    path = page.facts.path
    return python_groups(path, page.facts, page.linker, page.context.use_links.of(path))


def _python_no_keywords(facts: FileFacts) -> str:
    if facts.python is None or not facts.parsed:
        return "No keywords were extracted: the file could not be parsed."
    return "This Python file defines no classes or functions and imports nothing."


def _python_summary(facts: FileFacts) -> str | None:
    if facts.python is None:
        return None
    sentence = first_sentence(first_paragraph(facts.python.module_docstring))
    if sentence:
        return sentence
    defines = definition_counts(facts.python.definitions).phrase()
    return "Python module" + (f" defining {defines}" if defines else "")


# --------------------------------------------------------------------- C, C++, CUDA
# The C-family views load for C-family pages only: a Python edit needs none.


def _cfamily_sections(page: FilePage) -> KindSections:
    from docgen.render import cfamily_views, include_views

    facts, linker, lookup = page.facts, page.linker, page.lookup
    includes = include_views.includes_view(facts, lookup.index.includes, linker)
    if facts.cfamily is None:  # shown as any text file, with its includes
        return replace(_text_sections(page), includes=includes)
    overview = OverviewView(
        cfamily=cfamily_views.overview(facts, lookup.index.includes, page.tags, linker)
    )
    c_items = lookup.c_items(facts.path)
    native = page.context.native_links
    found = native.callers_of(facts.path)
    callers = native_caller_views(found, lookup.line_counts, linker) if found else {}
    links = page.context.use_links
    used = (
        c_section_uses(facts.path, c_items, links.of(facts.path), lookup.line_counts, linker)
        if links.looked_for(facts.path)
        else None
    )
    detailed = DetailedView(
        c_definitions=cfamily_views.definition_views(
            facts,
            c_items,
            linker,
            lookup,
            page.context.operator_links.kernels_in(facts.path),
            used,
        ),
        registrations=registration_views(
            facts,
            facts.cfamily.registrations,
            linker,
            lookup.stubs,
            callers,
            c_items,
            lookup.line_counts,
        ),
        launches=cfamily_views.launch_views(facts, c_items, linker),
        bindings=cfamily_views.binding_views(
            facts,
            linker,
            callers,
            native.roots.get(facts.path, ()),
            native.targets.get(facts.path),
        ),
    )
    # nothing to detail: the section is left out, as for Python
    shown = (
        detailed.c_definitions or detailed.registrations or detailed.launches or detailed.bindings
    )
    return KindSections(overview=overview, detailed=detailed if shown else None, includes=includes)


def _cfamily_keywords(page: FilePage) -> list[KeywordGroup]:
    from docgen.render import cfamily_kw_views

    facts = page.facts
    return cfamily_kw_views.keyword_groups(facts, page.lookup.c_items(facts.path), page.linker)


def _markdown_sections(page: FilePage) -> KindSections:
    facts = page.facts
    md_overview = markdown_overview(facts.markdown) if facts.markdown else None
    return KindSections(
        overview=OverviewView(markdown=md_overview) if md_overview else None,
        detailed=markdown_detailed(facts, page.linker, page.lookup),
    )


def _markdown_keywords(page: FilePage) -> list[KeywordGroup]:
    return markdown_groups(page.facts.path, page.facts, page.linker)


def _markdown_summary(facts: FileFacts) -> str | None:
    md = facts.markdown
    return md.headings[0].text if md is not None and md.headings else None


# --------------------------------------------------------------------- YAML


def _yaml_sections(page: FilePage) -> KindSections:
    facts = page.facts
    overview = OverviewView(yaml=yaml_overview(facts.yaml)) if facts.yaml else None
    return KindSections(overview=overview, detailed=_yaml_detailed(page))


def _yaml_detailed(page: FilePage) -> DetailedView | None:
    elsewhere = page.context.operator_links.of(page.facts.path)
    detailed = yaml_detailed(page.facts, page.linker, elsewhere)
    if detailed is None and page.facts.parsed:
        return None
    return DetailedView(
        yaml=detailed,
        parse_failed=not page.facts.parsed,
        problems=problem_views(page.facts, page.linker) if not page.facts.parsed else (),
    )


# --------------------------------------------------------------------- any other text


def _text_sections(page: FilePage) -> KindSections:
    facts, folder = page.facts, page.folder
    return KindSections(
        overview=OverviewView(
            text=TextOverview(
                size=facts.size,
                line_count=facts.line_count,
                language=facts.language,
                folder=page.linker.page_link(folder or page.context.project, folder_index(folder)),
            )
        )
    )


def _text_no_keywords(facts: FileFacts) -> str:
    language = facts.language or "plain"
    return (
        "Keywords are extracted from Python, C, C++, CUDA and Markdown files only,"
        f" not from {language} text files."
    )


KINDS: dict[str, KindViews] = {
    "python": KindViews(
        _python_sections,
        _python_keywords,
        _python_no_keywords,
        _python_summary,
    ),
    "cfamily": KindViews(
        _cfamily_sections,
        _cfamily_keywords,
        lambda facts: "This file defines, declares and includes nothing that docgen indexes.",
    ),
    "markdown": KindViews(
        _markdown_sections,
        _markdown_keywords,
        lambda facts: "This Markdown file has no headings and no code identifiers.",
        _markdown_summary,
    ),
    "yaml": KindViews(
        _yaml_sections,
        lambda page: yaml_groups(page.facts, page.linker),
        lambda facts: "This YAML file has no top-level keys, list entries or operators.",
        yaml_summary,
    ),
}
TEXT = KindViews(_text_sections, lambda page: [], _text_no_keywords)
