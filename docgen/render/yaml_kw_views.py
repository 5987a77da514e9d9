"""A YAML file's keyword groups: operators and derivative entries by qualified name
(`aten::add.Tensor`), then its top-level keys and list entries."""

from __future__ import annotations

from docgen.model.anchors import KW_GROUPS, anchored_yaml, subsection_anchor
from docgen.model.facts import FileFacts
from docgen.model.kernel_names import operator_qualname
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.listing_views import KeywordEntry, KeywordGroup, KeywordTarget


def yaml_groups(facts: FileFacts, linker: Linker) -> list[KeywordGroup]:
    """Operators and derivative entries by qualified name, then keys and entries."""
    yaml = facts.yaml
    if yaml is None:
        return []
    path, count = facts.path, facts.line_count
    anchored = anchored_yaml(path, yaml)
    page = docs_page(path)
    groups = []
    for key, kind, items in (
        ("operators", "op", anchored.operators),
        ("derivatives", "derivative", anchored.derivatives),
    ):
        named: dict[str, list[KeywordTarget]] = {}
        for item, anchor in items:
            qualname = operator_qualname(yaml.namespace, item.name)
            target = KeywordTarget(
                kind, linker.to_page(page, anchor), linker.line(path, item.line, count)
            )
            named.setdefault(qualname, []).append(target)
        if named:
            entries = tuple(KeywordEntry(n, tuple(named[n])) for n in sorted(named))
            groups.append(KeywordGroup(key, KW_GROUPS[key], entries))
    for key, listed in (
        ("yaml_keys", [(k.name, k.line) for k in yaml.keys]),
        ("yaml_entries", [(f"{e.key}: {e.value}", e.line) for e in yaml.entries]),
    ):
        href = linker.to_page(page, subsection_anchor(key))
        found: dict[str, list[KeywordTarget]] = {}
        for name, line in listed:
            found.setdefault(name, []).append(
                KeywordTarget(KW_GROUPS[key].lower(), href, linker.line(path, line, count))
            )
        if found:
            entries = tuple(KeywordEntry(n, tuple(found[n])) for n in sorted(found))
            groups.append(KeywordGroup(key, KW_GROUPS[key], entries))
    return groups
