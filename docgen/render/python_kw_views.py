"""The keyword groups of a Python file's keyword page: its classes, functions,
attributes and the names its imports bind, each linked to its section and line."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace

from docgen.model.anchors import (
    KW_GROUPS,
    anchored_definitions,
    attribute_anchor,
    definition_anchors,
    section_anchor,
)
from docgen.model.facts import Definition, FileFacts
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.entries import keyword_entries
from docgen.render.import_text import import_label, module_as_written
from docgen.render.listing_views import KeywordGroup, KeywordTarget
from docgen.render.use_links import FileUses


def python_groups(
    path: str,
    facts: FileFacts,
    linker: Linker,
    used: Mapping[str, tuple[FileUses, ...]] | None = None,
) -> list[KeywordGroup]:
    """The groups, each class's and function's entry with how many other files use
    the definitions of its name and on how many lines (`used`: by qualified name)."""
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
    counted = _use_counts(python.definitions, used or {})
    return [
        KeywordGroup(
            key,
            KW_GROUPS[key],
            tuple(
                replace(e, use_files=counted[e.name][0], uses=counted[e.name][1])
                if key in ("classes", "functions") and e.name in counted
                else e
                for e in keyword_entries(entries)
            ),
        )
        for key, entries in by_group.items()
        if entries
    ]


def _use_counts(
    definitions: Iterable[Definition], used: Mapping[str, tuple[FileUses, ...]]
) -> dict[str, tuple[int, int]]:
    """Each name's (other files, lines) over the uses of its definitions."""
    files: dict[str, set[str]] = {}
    lines: dict[str, int] = {}
    seen: set[str] = set()  # a qualified name defined twice is used once
    for d in definitions:
        if d.qualname in seen:
            continue
        seen.add(d.qualname)
        for u in used.get(d.qualname, ()):
            files.setdefault(d.name, set()).add(u.path)
            lines[d.name] = lines.get(d.name, 0) + len(u.lines)
    return {name: (len(files[name]), lines[name]) for name in files}
