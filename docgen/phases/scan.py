"""The scan phase of a build: what changed is parsed in workers, the rest of the
facts come from the state database, and what the later phases need of the last
build (page inputs, keyword sites) is read while the state is open."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.analyze.summary import FileSummary, read_summary, summarize, summary_text
from docgen.discover.readfile import hash_source
from docgen.index.cfamily_patch import RelationsPatch, edited_names, patchable
from docgen.index.cfamily_relations import KeptRelations, relations_key
from docgen.index.cfamily_relations import decode as decode_relations
from docgen.index.import_rows import IMPORTS
from docgen.index.repo import KeptInputs
from docgen.model.digests import code_digest
from docgen.model.facts import ScannedFile
from docgen.model.languages import (
    CPP_SOURCE_SUFFIXES,
    defines_macros,
    is_cfamily,
)
from docgen.model.options import BuildOptions
from docgen.model.sites import DefinitionSite
from docgen.model.sources import Discovery, SourceFile
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.keys import facts_key, keys_for
from docgen.scan.learned_macros import learned_settings
from docgen.state import State
from docgen.state.codec import FileCodec
from docgen.write.page_check import PageCheck

if TYPE_CHECKING:
    import jinja2

    from docgen.scan.warm import WarmWorker
    from docgen.scan.workers import Progress
    from docgen.state.facts import FactsCache

#: How the state keeps each file beside its facts: its summary, and its bytes' digest.
FILES = FileCodec(summary_text, read_summary, hash_source)


@dataclass(frozen=True)
class ScanResult:
    """Every file's facts, and what the later phases take from the state database."""

    files: list[ScannedFile]
    scanned: int  # files parsed by this build
    reused: int  # files whose facts came from the cache
    facts_digests: Mapping[str, str]  # path -> digest of its facts' JSON
    previous_pages: Mapping[str, str]  # page -> the inputs digest it was last made from
    manifest: Mapping[str, str]  # every page docgen wrote -> the digest of its bytes
    sites: Mapping[str, list[DefinitionSite]]  # keyword sites the workers made, by path
    sites_made_from: Mapping[str, str]  # path -> what its keyword sites are made from
    environment: jinja2.Environment | None  # templates compiled while the workers parsed
    notices: tuple[str, ...] = ()  # about how the files were scanned
    #: what the last build kept that the index may reuse (see `docgen.index.repo.KeptInputs`)
    kept: KeptInputs = field(default_factory=KeptInputs)
    #: each file scanned, with its summary before and after (see `docgen.render.edit_scope`)
    edits: Mapping[str, tuple[FileSummary | None, FileSummary | None]] | None = None
    last_scope: str = ""  # the last build's `edit_scope.scope_key`, "" when it left none


def scan_sources(
    state: State,
    options: BuildOptions,
    discovery: Discovery,
    check: PageCheck,
    progress: Callable[[int], Progress] | None = None,
    warm: WarmWorker | None = None,
) -> ScanResult:
    """Parse what changed; decode the cached facts and compile the templates meanwhile.
    `warm`, a worker forked earlier, scans first (see `docgen.scan.warm`); `check` tells
    which pages written before changed (see `docgen.write.page_check`)."""
    # The parser, the renderer and the templates load only when there is work to do.
    from docgen.scan.workers import DEFAULT_FILE_TIMEOUT, scan_files

    last_scope = state.take_page_scope()
    settings = scan_settings(state, options, discovery)  # of the whole tree, shard or not
    key = facts_key()
    cache = state.facts(key, FILES, keys_for(key, settings))
    files = discovery.files
    if options.shard is not None:
        chosen = shard_share(files, *options.shard)
        files = tuple(s for s in files if s.path in chosen)
    unchanged, fresh = cache.partition(files)
    loaded: list[tuple[list[ScannedFile], list[SourceFile]]] = []
    environments: list[jinja2.Environment | None] = []
    kept: list[KeptRelations] = []
    edited: list[tuple[KeptRelations, dict[str, ScannedFile]]] = []
    summarized: list[tuple[Mapping[str, FileSummary], list[SourceFile]]] = []
    kept_rows: dict[str, dict[str, tuple[str, str]]] = {}
    paths = [s.path for s in files]

    def meanwhile() -> None:
        if options.shard is None:  # a shard makes no pages
            kept_rows[IMPORTS.name] = state.kept_per_file(IMPORTS.name)
        others = [s for s in unchanged if not is_cfamily(s.path)]
        summaries, reused, damaged = cache.summarized(others)
        roots = options.include_roots
        found, before = last_relations(state, cache, unchanged, fresh, paths, roots)
        if found is not None and before:  # patched after the scan, or made again
            edited.append((found, before))
        elif found is not None:
            kept.append(found)
        else:
            c_reused, c_damaged = cache.load([s for s in unchanged if is_cfamily(s.path)])
            reused, damaged = reused + c_reused, damaged + c_damaged
        # their facts stay encoded (after an edit, if the relations can be patched)
        encoded_c = found is not None and not before
        stay = [s for s in unchanged if s.path in summaries or (encoded_c and is_cfamily(s.path))]
        loaded.append((reused, damaged))
        summarized.append((summaries, stay))
        from docgen.render.produce import prepared_environment

        environments.append(prepared_environment(options))

    tick = progress(len(fresh)) if progress and fresh else None
    texts: dict[str, str] = {}
    summary_texts: dict[str, str] = {}  # the JSON of each scanned file's summary, by path
    made_sites: dict[str, list[DefinitionSite]] = {}
    notices: list[str] = []
    if options.cluster is not None and fresh:
        from docgen.scan.cluster.client import scan_on_cluster

        scanned_now, notices = scan_on_cluster(
            options.cluster,
            fresh,
            options.jobs,
            tick,
            DEFAULT_FILE_TIMEOUT,
            meanwhile,
            settings,
            texts,
            made_sites,
        )
    else:
        scanned_now = scan_files(
            fresh,
            options.jobs,
            tick,
            meanwhile=meanwhile,
            settings=settings,
            texts=texts,
            sites=made_sites,
            warm=warm,
            summaries=summary_texts,
        )
    reused, damaged = loaded[0]
    summaries, stay = summarized[0]
    patch = None
    if edited:  # patched, or made again from every C-family file's facts
        patch = relations_patch(state, edited[0], scanned_now, sites_made_from(cache.digests))
        c_unchanged = [s for s in unchanged if is_cfamily(s.path)]
        if patch is not None:
            stay += c_unchanged
        else:
            c_reused, c_damaged = cache.load(c_unchanged)
            reused, damaged = reused + c_reused, damaged + c_damaged
    encoded = cache.encoded(stay)  # their digests known before the keyword sites are read
    if damaged:
        fresh = fresh + damaged
        scanned_now += scan_files(
            damaged, options.jobs, settings=settings, texts=texts, summaries=summary_texts
        )
    before: dict[str, FileSummary] = {}  # the stored summaries of the files scanned now
    if last_scope:
        before = cache.summaries_of([s.path for s in fresh])
    edits = None  # needed only where the last build left a scope key
    if last_scope:
        edits = {
            s.facts.path: (
                before.get(s.facts.path),
                None if is_cfamily(s.facts.path) else summarize(s),
            )
            for s in scanned_now
        }
    cache.store(fresh, scanned_now, texts, summary_texts)
    cache.forget_all_but(s.path for s in files)
    made_from = sites_made_from(cache.digests)
    stale = check.stale()
    manifest, previous_pages = state.pages_as_left(options.out, stale)
    return ScanResult(
        files=reused + scanned_now,
        scanned=len(scanned_now),
        reused=len(reused) + len(encoded),
        facts_digests=cache.digests,
        previous_pages=previous_pages,
        manifest=manifest,
        sites=made_sites,
        sites_made_from=made_from,
        environment=environments[0],
        notices=tuple(notices),
        kept=KeptInputs(
            encoded=encoded,
            summaries=summaries,
            relations=kept[0] if kept else None,
            patch=patch,
            rows=kept_rows,
            digests=cache.digests,
        ),
        edits=edits,
        last_scope=last_scope,
    )


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


def shard_share(files: Sequence[SourceFile], index: int, count: int) -> frozenset[str]:
    """The paths shard `index` of `count` scans: the largest files first, each to the
    shard with the fewest bytes so far (the lowest number on a tie), so that every
    machine computes the same shares and they weigh about the same."""
    loads = [0] * count
    mine: set[str] = set()
    for source in sorted(files, key=lambda s: (-s.size, s.path)):
        lightest = min(range(count), key=lambda n: (loads[n], n))
        loads[lightest] += source.size
        if lightest == index - 1:
            mine.add(source.path)
    return frozenset(mine)


def sites_made_from(facts_digests: Mapping[str, str]) -> dict[str, str]:
    """What each file's keyword sites are made from: its facts and docgen's code."""
    code = code_digest()
    return {path: f"{digest}:{code}" for path, digest in facts_digests.items()}


def scan_settings(state: State, options: BuildOptions, discovery: Discovery) -> ScanSettings:
    """What the C-family scanner must know of the whole tree: the attribute macros its
    headers and header templates define (plus the configured ones) and whether `.h`
    files are C++."""
    if not any(is_cfamily(s.path) for s in discovery.files):
        return ScanSettings.of(attribute=options.cpp_macros)
    headers = [s for s in discovery.files if defines_macros(s.path)]
    cpp = any(s.path.lower().endswith(CPP_SOURCE_SUFFIXES) for s in discovery.files)
    return learned_settings(state, headers, "cpp" if cpp else "c", tuple(options.cpp_macros))
