"""What the scan phase reads of the last build while the workers parse: the facts of
unchanged files (as summaries where an edit needs no more), the relations kept, each
relation's rows and the templates; and, once the parse is done, whether the kept
C-family relations still hold, can be patched or must be made again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.analyze.sites import sites_made_from
from docgen.analyze.summary import FileSummary
from docgen.index.cfamily_patch import RelationsPatch, edited_names, patchable
from docgen.index.cfamily_relations import KeptRelations, relations_key
from docgen.index.cfamily_relations import decode as decode_relations
from docgen.index.import_rows import IMPORTS
from docgen.model.digests import code_digest
from docgen.model.facts import ScannedFile
from docgen.model.languages import is_cfamily
from docgen.model.options import BuildOptions
from docgen.model.sources import SourceFile
from docgen.state import State

if TYPE_CHECKING:
    import jinja2

    from docgen.state.facts import FactsCache


@dataclass
class CacheRead:
    """What was read while the workers parsed."""

    summaries: Mapping[str, FileSummary]  # of unchanged files that are not C-family
    reused: list[ScannedFile]  # facts decoded: files with no summary, C-family ones unkept
    damaged: list[SourceFile]  # rows that could not be read: parsed again
    stay: list[SourceFile]  # files whose facts stay encoded until a page needs them
    relations: KeptRelations | None  # the C-family relations, kept as they were
    #: the kept relations and the facts the C-family files scanned now had then, when
    #: only the contents of C-family files changed (the patch is decided after the parse)
    edited: tuple[KeptRelations, dict[str, ScannedFile]] | None
    rows: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    environment: jinja2.Environment | None = None


def read_cache(
    state: State,
    cache: FactsCache[FileSummary],
    options: BuildOptions,
    unchanged: Sequence[SourceFile],
    fresh: Sequence[SourceFile],
    files: Sequence[SourceFile],
) -> CacheRead:
    """Read what the later phases take from the last build (called while the workers
    parse; read before the scan stores new facts)."""
    rows = {} if options.shard is not None else {IMPORTS.name: state.kept_per_file(IMPORTS.name)}
    others = [s for s in unchanged if not is_cfamily(s.path)]
    summaries, reused, damaged = cache.summarized(others)
    paths = [s.path for s in files]
    found, before = last_relations(state, cache, unchanged, fresh, paths, options.include_roots)
    if found is None:
        c_reused, c_damaged = cache.load([s for s in unchanged if is_cfamily(s.path)])
        reused, damaged = reused + c_reused, damaged + c_damaged
    # their facts stay encoded (after an edit, if the relations can be patched)
    encoded_c = found is not None and not before
    stay = [s for s in unchanged if s.path in summaries or (encoded_c and is_cfamily(s.path))]
    from docgen.render.produce import prepared_environment

    return CacheRead(
        summaries=summaries,
        reused=reused,
        damaged=damaged,
        stay=stay,
        relations=found if found is not None and not before else None,
        edited=(found, before) if found is not None and before else None,
        rows=rows,
        environment=prepared_environment(options),
    )


def settle_relations(
    state: State,
    cache: FactsCache[FileSummary],
    read: CacheRead,
    scanned: Sequence[ScannedFile],
    unchanged: Sequence[SourceFile],
) -> tuple[CacheRead, RelationsPatch | None]:
    """After the parse: the kept C-family relations patched for the C-family files
    scanned now (their files' facts then stay encoded), or, where they cannot be, every
    C-family file's facts decoded to make them again."""
    if read.edited is None:
        return read, None
    patch = relations_patch(state, read.edited, scanned, sites_made_from(cache.digests))
    c_unchanged = [s for s in unchanged if is_cfamily(s.path)]
    if patch is not None:
        read.stay = read.stay + c_unchanged
    else:
        c_reused, c_damaged = cache.load(c_unchanged)
        read.reused, read.damaged = read.reused + c_reused, read.damaged + c_damaged
    return read, patch


def last_relations(
    state: State,
    cache: FactsCache[FileSummary],
    unchanged: Sequence[SourceFile],
    fresh: Sequence[SourceFile],
    paths: Sequence[str],
    include_roots: Sequence[str],
) -> tuple[KeptRelations | None, dict[str, ScannedFile]]:
    """The C-family relations the last build kept, when they still hold (see
    `docgen.index.cfamily_relations`), with the facts the changed C-family files had then
    (none when no C-family file changed): when only the contents of C-family files
    changed (no path of the tree, no root, no code), `cfamily_patch` may bring them up
    to date.  (None, {}) when they must be made again.  Read before the scan stores new
    facts."""
    cfamily = [s for s in unchanged if is_cfamily(s.path)]
    names = state.kept_relations_names() if cfamily else None
    edited = [s for s in fresh if is_cfamily(s.path)]
    stored = cache.stored(edited) if names is not None else None
    if names is None or stored is None:
        return None, {}
    digests = {**cache.note_digests(cfamily), **{p: d for p, (d, _) in stored.items()}}
    key = relations_key(paths, digests, include_roots, code_digest(), names)
    found = decode_relations(state.kept_relations(key), key, state.relation_rows(key))
    return found, ({p: f for p, (_, f) in stored.items()} if found is not None else {})


def relations_patch(
    state: State,
    edited: tuple[KeptRelations, dict[str, ScannedFile]],
    scanned: Sequence[ScannedFile],
    made_from: Mapping[str, str],
) -> RelationsPatch | None:
    """The patch of the kept relations for the C-family files scanned now (see
    `docgen.index.cfamily_patch.patched`): None when one of them changed its includes or its
    class specializations, or when the keyword index behind `paths_defining` does not
    hold every other C-family file's names as its facts are now."""
    kept, before = edited
    after = [s for s in scanned if is_cfamily(s.facts.path)]
    if {s.facts.path for s in after} != before.keys():
        return None
    if not all(patchable(before[s.facts.path], s) for s in after):
        return None
    marks = state.site_marks()
    others = (p for p in made_from if is_cfamily(p) and p not in before)
    if any(marks.get(p) != made_from[p] for p in others):
        return None
    names = edited_names(before.values(), after)
    holders = state.paths_defining(names) - before.keys()
    return RelationsPatch(kept, before, frozenset(q for _, q in names), frozenset(holders))
