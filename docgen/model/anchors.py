"""Section titles and definition anchors, shared by the docs and keyword pages.

A keyword page links into the docs page by anchor, so both must compute the
anchors the same way: this module is that one place.  Anchors are GitHub
heading slugs, numbered in page order by `links.Slugger`; the slugs of every
fixed heading a docs page can have are reserved first, so a definition
heading can never take a section's anchor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from docgen.model.cfamily_facts import CDefinition
from docgen.model.facts import Attribute, Definition
from docgen.model.kernel_names import operator_qualname
from docgen.model.links import Slugger, slug
from docgen.model.yaml_facts import DerivativeEntry, OperatorEntry, YamlFacts

#: Docs page sections in page order: key -> heading text (level 2).
DOCS_SECTIONS: dict[str, str] = {
    "metadata": "File Metadata",
    "purpose": "File Purpose",
    "overview": "High-Level Overview",
    "detailed": "Detailed Analysis",
    "architecture": "Architecture & Design",
    "dependencies": "Dependencies",
    "patterns": "Code Patterns & Idioms",
    "performance": "Performance Considerations",
    "security": "Security & Safety",
    "testing": "Testing & Usage",
    "related": "Related Files",
    "source": "Original Source",
    "crossrefs": "Cross-References",
}

#: Level-3 headings a docs page may use inside its sections.
DOCS_SUBSECTIONS: dict[str, str] = {
    "module_attributes": "Module attributes",
    "outline": "Outline",
    "code_blocks": "Code Blocks",
    "links": "Links",
    "imports": "Imports",
    "internal_imports": "Internal imports",
    "external_imports": "External imports",
    "imported_by": "Imported by",
    "includes": "Includes",
    "included_by": "Included by",
    "registrations": "Registrations",
    "launches": "Kernel launches",
    "bindings": "Python bindings",
    "native_calls": "Calls into C++ at module level",
    "extensions": "Extension modules",
    "attached": "Docstrings attached at import",
    "yaml_keys": "Top-level keys",
    "yaml_entries": "Entries",
}

#: Keyword page sections: key -> heading text.
KW_SECTIONS: dict[str, str] = {
    "info": "File Information",
    "keywords": "Keywords Extracted",
    "uses": "Where Other Files Use Them",
}

#: Keyword groups on a keyword page: key -> heading text (level 3).
KW_GROUPS: dict[str, str] = {
    "classes": "Classes",
    "functions": "Functions",
    "attributes": "Attributes",
    "imports": "Imports",
    "headings": "Headings",
    "code_identifiers": "Code Identifiers",
    "namespaces": "Namespaces",
    "types": "Classes and Structs",
    "c_functions": "Functions",
    "methods": "Methods",
    "fields": "Fields",
    "enumerators": "Enumerators",
    "flags": "Flags",
    "aliases": "Type Aliases",
    "kernels": "Kernels",
    "registrations": "Registrations",
    "macros": "Macros",
    "includes": "Includes",
    "operators": "Operators",
    "derivatives": "Derivatives",
    "yaml_keys": "Top-level keys",
    "yaml_entries": "Entries",
}

MAX_HEADING_LEVEL = 6
DEFINITION_LEVEL = 3  # a top-level definition's heading level


def docs_title(path: str) -> str:
    """The plain text of a docs page's level-1 heading (the path is shown as code)."""
    return f"Documentation: {path}"


def kw_title(path: str) -> str:
    """The plain text of a keyword page's level-1 heading."""
    return f"Keyword Index: {path}"


def kw_use_anchors(path: str, headings: Iterable[str]) -> list[str]:
    """The anchors of a keyword page's headings of uses (`definition_heading` text, one
    per definition other files use, in page order), after its title and fixed headings."""
    slugger = Slugger([kw_title(path)])
    for text in (*KW_SECTIONS.values(), *KW_GROUPS.values()):
        slugger.claim(text)
    return [slugger.claim(text) for text in headings]


def section_anchor(key: str) -> str:
    """The anchor of a docs page section; no definition heading can take it."""
    return slug(DOCS_SECTIONS[key])


def subsection_anchor(key: str) -> str:
    return slug(DOCS_SUBSECTIONS[key])


def kw_group_anchor(key: str) -> str:
    return slug(KW_GROUPS[key])


def definition_depth(definition: Definition) -> int:
    """How many definitions enclose this one (0 at module level)."""
    return definition.qualname.count(".")


def definition_heading_level(definition: Definition) -> int:
    return min(DEFINITION_LEVEL + definition_depth(definition), MAX_HEADING_LEVEL)


def definition_heading(definition: Definition) -> str:
    """The plain text the definition's heading renders to: `class Foo`, `method Foo.bar`."""
    return f"{definition.kind} {definition.qualname}"


def definition_anchors(anchored: Iterable[AnchoredDefinition]) -> dict[str, str]:
    """qualname -> anchor of its first definition."""
    result: dict[str, str] = {}
    for item in anchored:
        result.setdefault(item.definition.qualname, item.anchor)
    return result


def attribute_anchor(attribute: Attribute, class_anchors: Mapping[str, str]) -> str:
    """Where an attribute is told: its class's section (`class_anchors`: qualname ->
    anchor), or the module attributes' heading."""
    if attribute.parent is not None:
        found = class_anchors.get(attribute.parent)
        if found:
            return found
    return subsection_anchor("module_attributes")


@dataclass(frozen=True)
class AnchoredDefinition:
    """A Python definition with the anchor its heading gets, unique on its page."""

    definition: Definition
    anchor: str


def definitions_in_page_order(definitions: tuple[Definition, ...]) -> list[Definition]:
    """Source order: by line, ties kept as the scanner listed them."""
    return [d for _, d in sorted(enumerate(definitions), key=lambda p: (p[1].line, p[0]))]


@cache
def _fixed_slugs() -> tuple[str, ...]:
    return tuple(slug(text) for text in (*DOCS_SECTIONS.values(), *DOCS_SUBSECTIONS.values()))


def docs_slugger(path: str) -> Slugger:
    """A docs page's slugger with its title and every fixed heading claimed, in that
    order (the fixed headings' slugs are made once: every file's anchors need them)."""
    slugger = Slugger([docs_title(path)])
    for fixed in _fixed_slugs():
        slugger.claim_slug(fixed)
    return slugger


def anchored_definitions(
    path: str, definitions: tuple[Definition, ...]
) -> tuple[AnchoredDefinition, ...]:
    """Every definition with its unique heading anchor on the docs page, in page order."""
    slugger = docs_slugger(path)
    return tuple(
        AnchoredDefinition(d, slugger.claim(definition_heading(d)))
        for d in definitions_in_page_order(definitions)
    )


@dataclass(frozen=True)
class AnchoredCDefinition:
    """A C-family definition with the anchor its heading gets, unique on its page."""

    definition: CDefinition
    anchor: str


def c_definition_heading(definition: CDefinition) -> str:
    """`class torch::autograd::DetectAnomalyGuard`, `function at::native::add_out`."""
    return f"{definition.kind} {definition.qualname}"


def anchored_c_definitions(
    path: str, definitions: tuple[CDefinition, ...]
) -> tuple[AnchoredCDefinition, ...]:
    """Every C-family definition with its unique heading anchor, in page (line) order."""
    slugger = docs_slugger(path)
    ordered = sorted(enumerate(definitions), key=lambda p: (p[1].line, p[0]))
    return tuple(AnchoredCDefinition(d, slugger.claim(c_definition_heading(d))) for _, d in ordered)


@dataclass(frozen=True)
class AnchoredYaml:
    """A YAML file's operators and derivative entries with their heading anchors."""

    operators: tuple[tuple[OperatorEntry, str], ...]
    derivatives: tuple[tuple[DerivativeEntry, str], ...]


def anchored_yaml(path: str, facts: YamlFacts) -> AnchoredYaml:
    """Every operator (`op aten::add.Tensor`), then every derivative entry
    (`derivative aten::add.Tensor`), with its unique heading anchor, in line order."""
    slugger = docs_slugger(path)
    operators = tuple(
        (o, slugger.claim(f"op {operator_qualname(facts.namespace, o.name)}"))
        for o in facts.operators
    )
    derivatives = tuple(
        (d, slugger.claim(f"derivative {operator_qualname(facts.namespace, d.name)}"))
        for d in facts.derivatives
    )
    return AnchoredYaml(operators, derivatives)
