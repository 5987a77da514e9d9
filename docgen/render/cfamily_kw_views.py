"""The keyword page of a C, C++ or CUDA file: its names grouped by kind, with the
registrations' op names and the includes, each linked to where the docs page shows it."""

from __future__ import annotations

from collections import defaultdict

from docgen.model.anchors import KW_GROUPS, AnchoredCDefinition, section_anchor, subsection_anchor
from docgen.model.cfamily_facts import CDefinition
from docgen.model.facts import FileFacts
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.entries import keyword_entries
from docgen.render.listing_views import KeywordGroup, KeywordTarget
from docgen.render.view_refs import LineRef

#: keyword-page group of each kind
KW_GROUP_OF: dict[str, str] = {
    "namespace": "namespaces",
    "class": "types",
    "struct": "types",
    "union": "types",
    "enum": "types",
    "function": "c_functions",
    "kernel": "kernels",
    "method": "methods",
    "constructor": "methods",
    "destructor": "methods",
    "operator": "methods",
    "field": "fields",
    "enumerator": "enumerators",
    "flag": "flags",
    "typedef": "aliases",
    "alias": "aliases",
    "macro": "macros",
}
GROUP_ORDER = (
    "namespaces",
    "types",
    "c_functions",
    "methods",
    "fields",
    "enumerators",
    "flags",
    "aliases",
    "kernels",
    "registrations",
    "macros",
    "includes",
)


def keyword_groups(
    facts: FileFacts, items: tuple[AnchoredCDefinition, ...], linker: Linker
) -> list[KeywordGroup]:
    c = facts.cfamily
    if c is None:
        return []
    docs = docs_page(facts.path)
    groups: dict[str, dict[str, list[KeywordTarget]]] = {
        key: defaultdict(list) for key in GROUP_ORDER
    }
    for item in items:
        d = item.definition
        groups[KW_GROUP_OF[d.kind]][d.name].append(
            KeywordTarget(d.qualname, linker.to_page(docs, item.anchor), _line(facts, d, linker))
        )
    registrations = linker.to_page(docs, subsection_anchor("registrations"))
    for r in c.registrations:
        groups["registrations"][r.name].append(
            KeywordTarget(r.macro, registrations, linker.line(facts.path, r.line, facts.line_count))
        )
        for op in r.ops:
            groups["registrations"][op.name].append(
                KeywordTarget(
                    f"m.{op.verb}",
                    registrations,
                    linker.line(facts.path, op.line, facts.line_count),
                )
            )
    dependencies = linker.to_page(docs, section_anchor("dependencies"))
    for inc in c.includes:
        groups["includes"][inc.target].append(
            KeywordTarget(
                f"<{inc.target}>" if inc.system else f'"{inc.target}"',
                dependencies,
                linker.line(facts.path, inc.line, facts.line_count),
            )
        )
    return [
        KeywordGroup(key, KW_GROUPS[key], keyword_entries(groups[key]))
        for key in GROUP_ORDER
        if groups[key]
    ]


def _line(facts: FileFacts, d: CDefinition, linker: Linker) -> LineRef:
    return linker.line(facts.path, d.line, facts.line_count)
