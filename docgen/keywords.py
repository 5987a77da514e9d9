"""The repo-wide keyword index: every class and function name, where it is defined.

The same rows feed the `keywords*.md` pages and the state database's table
behind `docgen find`, so a page and the command always agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from docgen.construct import pickled_by_fields

if TYPE_CHECKING:
    from docgen.facts import ScannedFile
    from docgen.index import RepoIndex

MatchMode = Literal["exact", "prefix", "glob"]

#: C-family kinds left out of the repository index: a namespace is reopened in every
#: file that uses it, so listing each opening would bury the definitions.
UNINDEXED_C_KINDS = frozenset({"namespace"})


@dataclass(frozen=True, order=True, slots=True)
class DefinitionSite:
    """One place that defines a name (sorted by name, then path and line)."""

    name: str
    path: str
    line: int
    kind: str
    qualname: str
    anchor: str  # the definition's anchor on the file's docs page

    def __str__(self) -> str:
        if self.kind == "import":
            return f"{self.path}:{self.line}: import {self.qualname} as {self.name}"
        return f"{self.path}:{self.line}: {self.kind} {self.qualname}"


pickled_by_fields(DefinitionSite)  # sites cross from the scan workers, one list per file


def definition_sites(
    index: RepoIndex, stored: Mapping[str, Sequence[DefinitionSite]] | None = None
) -> list[DefinitionSite]:
    """Every site of the repository, sorted; a file's sites depend on its own facts
    alone, so those of unchanged files can come from the last build (`stored`)."""
    stored = stored or {}
    sites: list[DefinitionSite] = []
    for path in index.documented_paths():
        found = stored.get(path)
        sites.extend(found if found is not None else sites_of(index.files[path]))
    sites.sort(key=site_order)
    return sites


def site_order(site: DefinitionSite) -> tuple[str, str, int, str, str, str]:
    """The dataclass's own order, as a key: sorting hundreds of thousands of sites by
    key is several times faster than by generated comparisons."""
    return (site.name, site.path, site.line, site.kind, site.qualname, site.anchor)


def preload_sites() -> None:
    """Load what `sites_of` needs now, e.g. once before forking workers that call it."""
    import docgen.render.anchors  # noqa: F401


def sites_of(scanned: ScannedFile) -> list[DefinitionSite]:
    """The names one file defines (and binds of its own by import), with their anchors."""
    # Imported here so that `docgen find` never loads the renderer.
    from docgen.render.anchors import (
        anchored_c_definitions,
        anchored_definitions,
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
    for anchored in anchored_definitions(path, py.definitions):
        d = anchored.definition
        sites.append(DefinitionSite(d.name, path, d.line, d.kind, d.qualname, anchored.anchor))
    return sites


def is_alias(bound: str, target: str, is_from: bool) -> bool:
    """Whether an import binds a name of its own that code uses for the target:
    `as FSDP`, `import torch.nn.functional as F`, `import torch.distributed as dist`
    (not `import os` nor `from x import y`, whose names are the target's own)."""
    if is_from:
        return bound != target.rsplit(".", 1)[-1]
    return bound != target
