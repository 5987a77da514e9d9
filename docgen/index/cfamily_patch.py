"""The kept C-family relations brought up to date after an edit of a few C-family files.

An edit of a header (the common case under a pre-commit hook) changes its own facts
only.  Where it leaves its includes and its class specializations as they were, and
no path of the tree changed, the include graph the last build kept still holds, and
of the declaration pairs only those of the qualified names it declares or defines,
before or after, can change: they are made again from the files that hold those
names (found in the keyword index), the rest are kept.  So are the summaries of every
C-family file whose page shows nothing that changed (see `affected`).  The facts of
the thousands of other files stay encoded.  Anything else makes the relations afresh.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from docgen.index.cfamily_relations import (
    COUNTERPARTS,
    INCLUDES,
    CFamilyRelations,
    CFileSummary,
    Counterparts,
    KeptRelations,
    dispatch_stubs,
)
from docgen.index.includes import IncludeGraph
from docgen.index.symbols import CppSymbols, specializations
from docgen.model.facts import ScannedFile
from docgen.model.kinds import CALLABLE_KINDS
from docgen.model.serialize import dumps


@dataclass(frozen=True)
class RelationsPatch:
    """What an edit of C-family files needs to bring the kept relations up to date: the
    relations (kept under the key they had before the edit), the changed files' facts
    before it, the qualified names those files declare or define before or after it,
    and the other files that hold any of those names.  Made only where `patchable`
    holds for every changed file."""

    kept: KeptRelations
    before: Mapping[str, ScannedFile]
    qualnames: frozenset[str]
    holders: frozenset[str]


@dataclass(frozen=True)
class PatchedRelations:
    """The relations kept by the last build, with the pairs of the edited names made
    again: a `CFamilySide` of the index."""

    kept: KeptRelations
    patched_symbols: CppSymbols
    #: the C-family files whose summaries are made again (see `patched`)
    affected: frozenset[str]

    def include_graph(self) -> IncludeGraph:
        return self.kept.include_graph()

    def symbols(self) -> CppSymbols:
        return self.patched_symbols

    def summaries(self) -> dict[str, CFileSummary]:
        """The kept summaries that still hold."""
        return {p: s for p, s in self.kept.summaries().items() if p not in self.affected}

    def relations(
        self, key: str, summary: Mapping[str, CFileSummary]
    ) -> tuple[CFamilyRelations, dict[str, str]]:
        """The relations to keep under `key`, with `summary`, the summaries made again of
        the `affected` files, and their two large rows."""
        kept = self.kept.kept
        files = tuple(summary.get(s.path, s) for s in kept.files)
        pairs = sorted(self.patched_symbols.counterparts_of.items())
        rows = {
            INCLUDES: self.kept.rows(INCLUDES),  # the include graph as it was
            COUNTERPARTS: dumps(tuple(Counterparts(*where, sites) for where, sites in pairs)),
        }
        made = CFamilyRelations(
            key=key,
            names=kept.names,
            roots=kept.roots,
            guessed=kept.guessed,
            files=files,
            diagram=kept.diagram,
            included=kept.included,
            specialized=kept.specialized,
        )
        return made, rows


def patchable(before: ScannedFile, after: ScannedFile) -> bool:
    """Whether an edit leaves what the patch keeps of a file: its includes (and so the
    include graph) and its class specializations (which pairs in other files read)."""
    old, new = before.facts.cfamily, after.facts.cfamily
    if old is None or new is None or old.includes != new.includes:
        return False
    return specializations(old.definitions) == specializations(new.definitions)


def patched(patch: RelationsPatch, files: Mapping[str, ScannedFile]) -> PatchedRelations:
    """The kept relations brought up to date with the changed files' facts (in `files`,
    which decodes the others it is asked for)."""
    stubs: set[str] = set()
    for path, before in patch.before.items():
        for scanned in (before, files[path]):
            c = scanned.facts.cfamily
            stubs |= dispatch_stubs(c) if c is not None else set()
    kept = patch.kept.symbols()
    holders = sorted(patch.holders | patch.before.keys())
    made = CppSymbols.of((files[p] for p in holders if p in files), kept.specialized)
    names = patch.qualnames
    pairs = {k: v for k, v in kept.counterparts_of.items() if k[2] not in names}
    pairs.update((k, v) for k, v in made.counterparts_of.items() if k[2] in names)
    sharers = (s.path for s in patch.kept.kept.files if stubs.intersection(s.stubs))
    return PatchedRelations(
        kept=patch.kept,
        patched_symbols=CppSymbols(MappingProxyType(pairs), kept.specialized),
        affected=frozenset((*holders, *sharers)),
    )


def edited_names(
    before: Iterable[ScannedFile], after: Iterable[ScannedFile]
) -> frozenset[tuple[str, str]]:
    """The (name, qualified name) of every function, method and the like the changed
    files declare or define, before or after."""
    found: set[tuple[str, str]] = set()
    for scanned in (*before, *after):
        c = scanned.facts.cfamily
        if c is not None:
            found.update((d.name, d.qualname) for d in c.definitions if d.kind in CALLABLE_KINDS)
    return frozenset(found)
