"""A place that defines a name: the row the keyword index, its pages and `docgen find`
share, made per file from its facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from docgen.model.construct import pickled_by_fields

MatchMode = Literal["exact", "prefix", "glob"]


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


def site_order(site: DefinitionSite) -> tuple[str, str, int, str, str, str]:
    """The dataclass's own order, as a key: sorting hundreds of thousands of sites by
    key is several times faster than by generated comparisons."""
    return (site.name, site.path, site.line, site.kind, site.qualname, site.anchor)
