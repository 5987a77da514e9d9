"""The names one file defines, as keyword sites: made from its facts alone, in the
scan workers, so that an unchanged file's sites come from the last build."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from docgen.model.digests import code_digest
from docgen.model.sites import DefinitionSite

if TYPE_CHECKING:
    from docgen.model.facts import ScannedFile

#: C-family kinds left out of the repository index: a namespace is reopened in every
#: file that uses it, so listing each opening would bury the definitions.
UNINDEXED_C_KINDS = frozenset({"namespace"})


def preload_sites() -> None:
    """Load what `sites_of` needs now, e.g. once before forking workers that call it."""
    import docgen.model.anchors  # noqa: F401


def sites_of(scanned: ScannedFile) -> list[DefinitionSite]:
    """The names one file defines (and binds of its own by import), with their anchors."""
    # Imported here so that `docgen find` never loads the anchors' slugger.
    from docgen.model.anchors import (
        anchored_c_definitions,
        anchored_definitions,
        attribute_anchor,
        definition_anchors,
        section_anchor,
    )

    path = scanned.facts.path
    sites = []
    c = scanned.facts.cfamily
    if c is not None:
        for item in anchored_c_definitions(path, c.definitions):
            cdef = item.definition
            if cdef.kind not in UNINDEXED_C_KINDS:
                site = (cdef.name, path, cdef.line, cdef.kind, cdef.qualname)
                sites.append(DefinitionSite(*site, item.anchor))
    py = scanned.facts.python
    if py is None:
        return sites
    dependencies = section_anchor("dependencies")
    for imp in py.imports:
        for bound, target in imp.aliases:
            if is_alias(bound, target, imp.is_from):
                sites.append(DefinitionSite(bound, path, imp.line, "import", target, dependencies))
    items = anchored_definitions(path, py.definitions)
    for anchored in items:
        d = anchored.definition
        sites.append(DefinitionSite(d.name, path, d.line, d.kind, d.qualname, anchored.anchor))
    anchors = definition_anchors(items)
    for a in py.attributes:
        anchor = attribute_anchor(a, anchors)
        sites.append(DefinitionSite(a.name, path, a.line, "attribute", a.qualname, anchor))
    return sites


def is_alias(bound: str, target: str, is_from: bool) -> bool:
    """Whether an import binds a name of its own that code uses for the target:
    `as FSDP`, `import torch.nn.functional as F`, `import torch.distributed as dist`
    (not `import os` nor `from x import y`, whose names are the target's own)."""
    if is_from:
        return bound != target.rsplit(".", 1)[-1]
    return bound != target


def sites_made_from(facts_digests: Mapping[str, str]) -> dict[str, str]:
    """What each file's keyword sites are made from: its facts and docgen's code."""
    code = code_digest()
    return {path: f"{digest}:{code}" for path, digest in facts_digests.items()}
