"""The repo-wide keyword index: every class and function name, where it is defined.

The same rows feed the `keywords*.md` pages and the state database's table
behind `docgen find`, so a page and the command always agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from docgen.analyze.sites import sites_of
from docgen.model.sites import DefinitionSite, site_order

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex


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
