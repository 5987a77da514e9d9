"""What the scan phase reads of the last build while the workers parse: the facts of
unchanged files (as summaries where an edit needs no more), the relations kept, each
relation's rows and the templates; and, once the parse is done, whether the kept
C-family relations still hold, can be patched or must be made again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.analyze.summary import FileSummary
from docgen.index.cfamily_relations import CFamilyRelations, relations_key
from docgen.index.cfamily_relations import decode as decode_relations
from docgen.index.cfamily_rows import keeps_includes
from docgen.index.import_rows import IMPORTS
from docgen.index.relations import Kept
from docgen.index.repo import READ_LAZILY
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
    #: what the C-family side of the index kept as a whole, when it still holds
    relations: CFamilyRelations | None
    #: the facts the C-family files scanned now had then, when only the contents of
    #: C-family files changed (whether `relations` still hold is decided after the parse)
    before: dict[str, ScannedFile] = field(default_factory=dict)
    rows: dict[str, Kept] = field(default_factory=dict)  # each relation's, by its name
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
    rows: dict[str, Kept] = {}
    if options.shard is None:
        rows[IMPORTS.name] = state.kept_per_file(IMPORTS.name)
        rows.update((r.name, state.kept_stamps(r.name)) for r in READ_LAZILY)
    others = [s for s in unchanged if not is_cfamily(s.path)]
    summaries, reused, damaged = cache.summarized(others)
    paths = [s.path for s in files]
    found, before = last_relations(state, cache, unchanged, fresh, paths, options.include_roots)
    if found is None:
        c_reused, c_damaged = cache.load([s for s in unchanged if is_cfamily(s.path)])
        reused, damaged = reused + c_reused, damaged + c_damaged
    # their facts stay encoded (after an edit, if the relations still hold)
    encoded_c = found is not None and not before
    stay = [s for s in unchanged if s.path in summaries or (encoded_c and is_cfamily(s.path))]
    from docgen.render.produce import prepared_environment

    return CacheRead(
        summaries=summaries,
        reused=reused,
        damaged=damaged,
        stay=stay,
        relations=found,
        before=before,
        rows=rows,
        environment=prepared_environment(options),
    )


def settle_relations(
    cache: FactsCache[FileSummary],
    read: CacheRead,
    scanned: Sequence[ScannedFile],
    unchanged: Sequence[SourceFile],
) -> CacheRead:
    """After the parse, when C-family files changed: the kept C-family side still holds
    when each kept its includes and class specializations (the other C-family files'
    facts then stay encoded); else every C-family file's facts are decoded to make it
    again."""
    if read.relations is None or not read.before:
        return read
    after = {s.facts.path: s for s in scanned if is_cfamily(s.facts.path)}
    before = read.before
    c_unchanged = [s for s in unchanged if is_cfamily(s.path)]
    if after.keys() == before.keys() and all(keeps_includes(before[p], after[p]) for p in after):
        read.stay = read.stay + c_unchanged
    else:
        read.relations, read.before = None, {}
        c_reused, c_damaged = cache.load(c_unchanged)
        read.reused, read.damaged = read.reused + c_reused, read.damaged + c_damaged
    return read


def last_relations(
    state: State,
    cache: FactsCache[FileSummary],
    unchanged: Sequence[SourceFile],
    fresh: Sequence[SourceFile],
    paths: Sequence[str],
    include_roots: Sequence[str],
) -> tuple[CFamilyRelations | None, dict[str, ScannedFile]]:
    """What the C-family side of the last build's index kept as a whole, when it still
    holds (see `docgen.index.cfamily_relations`), with the facts the changed C-family
    files had then (none when no C-family file changed): when only the contents of
    C-family files changed (no path an include can name, no root, no code), it still
    holds if they kept their includes (see `settle_relations`).  (None, {}) when it
    must be made again.  Read before the scan stores new facts."""
    cfamily = [s for s in unchanged if is_cfamily(s.path)]
    names = state.kept_relations_names() if cfamily else None
    edited = [s for s in fresh if is_cfamily(s.path)]
    stored = cache.stored(edited) if names is not None else None
    if names is None or stored is None:
        return None, {}
    digests = {**cache.note_digests(cfamily), **{p: d for p, (d, _) in stored.items()}}
    key = relations_key(paths, digests, include_roots, code_digest(), names)
    found = decode_relations(state.kept_relations(key), key)
    return found, ({p: f for p, (_, f) in stored.items()} if found is not None else {})
