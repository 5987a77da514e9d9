"""The keyword groups of a Python file's keyword page: its classes, functions,
attributes and the names its imports bind, each linked to its section and line."""

from __future__ import annotations

from collections import defaultdict

from docgen.model.anchors import (
    KW_GROUPS,
    anchored_definitions,
    attribute_anchor,
    definition_anchors,
    section_anchor,
)
from docgen.model.facts import FileFacts
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.entries import keyword_entries
from docgen.render.import_text import import_label, module_as_written
from docgen.render.listing_views import KeywordGroup, KeywordTarget


def python_groups(path: str, facts: FileFacts, linker: Linker) -> list[KeywordGroup]:
    python = facts.python
    if python is None:
        return []
    docs = docs_page(path)
    by_group: dict[str, dict[str, list[KeywordTarget]]] = {
        "classes": defaultdict(list),
        "functions": defaultdict(list),
        "attributes": defaultdict(list),
        "imports": defaultdict(list),
    }
    anchored = anchored_definitions(path, python.definitions)
    for item in anchored:
        d = item.definition
        group = "classes" if d.kind == "class" else "functions"
        by_group[group][d.name].append(
            KeywordTarget(
                d.qualname,
                linker.to_page(docs, item.anchor),
                linker.line(path, d.line, facts.line_count),
            )
        )
    anchors = definition_anchors(anchored)
    for attribute in python.attributes:
        anchor = attribute_anchor(attribute, anchors)
        by_group["attributes"][attribute.name].append(
            KeywordTarget(
                attribute.qualname,
                linker.to_page(docs, anchor),
                linker.line(path, attribute.line, facts.line_count),
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
