"""The scan phase of a build: what changed is parsed in workers, the rest of the
facts come from the state database, and what the later phases need of the last
build (page inputs, keyword sites) is read while the state is open."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.analyze.sites import sites_made_from
from docgen.analyze.summary import FILES, FileSummary, summarize
from docgen.index.repo import KeptInputs
from docgen.model.facts import ScannedFile
from docgen.model.languages import (
    CPP_SOURCE_SUFFIXES,
    defines_macros,
    is_cfamily,
)
from docgen.model.options import BuildOptions
from docgen.model.sites import DefinitionSite
from docgen.model.sources import Discovery, SourceFile
from docgen.phases.cache_read import CacheRead, read_cache, settle_relations
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.keys import facts_key, keys_for
from docgen.scan.learned_macros import learned_settings
from docgen.state import State
from docgen.write.page_check import PageCheck

if TYPE_CHECKING:
    import jinja2

    from docgen.scan.warm import WarmWorker
    from docgen.scan.workers import Progress
    from docgen.state.facts import FactsCache


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
    """Parse what changed; read the cached facts, the kept relations and compile the
    templates meanwhile.  `warm`, a worker forked earlier, scans first (see
    `docgen.scan.warm`); `check` tells which pages written before changed (see
    `docgen.write.page_check`)."""
    last_scope = state.take_page_scope()
    settings = scan_settings(state, options, discovery)  # of the whole tree, shard or not
    key = facts_key()
    cache = state.facts(key, FILES, keys_for(key, settings))
    files = discovery.files
    if options.shard is not None:
        chosen = shard_share(files, *options.shard)
        files = tuple(s for s in files if s.path in chosen)
    unchanged, fresh = cache.partition(files)
    reads: list[CacheRead] = []  # made by the one call of `meanwhile`

    def meanwhile() -> None:
        reads.append(read_cache(state, cache, options, unchanged, fresh, files))

    made = parse(fresh, options, settings, progress, warm, meanwhile)
    read = reads[0]
    kept = settle_relations(cache, read, made.files, unchanged)
    if kept.damaged:  # rows that could not be read: those files are parsed again
        fresh = fresh + kept.damaged
        made.files += parse(kept.damaged, options, settings, into=made).files
    encoded = cache.encoded(kept.stay)  # their digests known before the keyword sites are read
    edits = changed_summaries(cache, fresh, made.files) if last_scope else None
    cache.store(fresh, made.files, made.texts, made.summaries)
    cache.forget_all_but(s.path for s in files)
    manifest, previous_pages = state.pages_as_left(options.out, check.stale())
    return ScanResult(
        files=kept.reused + made.files,
        scanned=len(made.files),
        reused=len(kept.reused) + len(encoded),
        facts_digests=cache.digests,
        previous_pages=previous_pages,
        manifest=manifest,
        sites=made.sites,
        sites_made_from=sites_made_from(cache.digests),
        environment=read.environment,
        notices=tuple(made.notices),
        kept=KeptInputs(
            encoded=encoded,
            summaries=read.summaries,
            relations=kept.relations,
            before=kept.before,
            rows=kept.rows,
            digests=cache.digests,
        ),
        edits=edits,
        last_scope=last_scope,
    )


@dataclass
class Parsed:
    """What the workers made of the files parsed now: their facts, with the JSON of the
    facts and of their summaries where the workers made it, and their keyword sites."""

    files: list[ScannedFile] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    summaries: dict[str, str] = field(default_factory=dict)
    sites: dict[str, list[DefinitionSite]] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)


def parse(
    fresh: Sequence[SourceFile],
    options: BuildOptions,
    settings: ScanSettings,
    progress: Callable[[int], Progress] | None = None,
    warm: WarmWorker | None = None,
    meanwhile: Callable[[], None] | None = None,
    into: Parsed | None = None,
) -> Parsed:
    """Parse `fresh` in workers (on the cluster when the build has one), `meanwhile`
    called once while they work; `into`: add the JSON and sites to what was made."""
    # The parser, the renderer and the templates load only when there is work to do.
    from docgen.scan.workers import DEFAULT_FILE_TIMEOUT, scan_files

    made = into if into is not None else Parsed()
    tick = progress(len(fresh)) if progress and fresh else None
    if options.cluster is not None and fresh and into is None:
        from docgen.scan.cluster.client import scan_on_cluster

        files, notices = scan_on_cluster(
            options.cluster,
            fresh,
            options.jobs,
            tick,
            DEFAULT_FILE_TIMEOUT,
            meanwhile,
            settings,
            made.texts,
            made.sites,
        )
        made.notices.extend(notices)
    else:
        files = scan_files(
            fresh,
            options.jobs,
            tick,
            meanwhile=meanwhile,
            settings=settings,
            texts=made.texts,
            sites=None if into is not None else made.sites,
            warm=warm,
            summaries=made.summaries,
        )
    return Parsed(files, made.texts, made.summaries, made.sites, made.notices)


def changed_summaries(
    cache: FactsCache[FileSummary], fresh: Sequence[SourceFile], scanned: Sequence[ScannedFile]
) -> dict[str, tuple[FileSummary | None, FileSummary | None]]:
    """Each file scanned now with its summary before (as stored) and after (None for a
    C-family file): what the edit scope reads (see `docgen.render.edit_scope`)."""
    before = cache.summaries_of([s.path for s in fresh])
    return {
        s.facts.path: (before.get(s.facts.path), None if is_cfamily(s.facts.path) else summarize(s))
        for s in scanned
    }


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


def scan_settings(state: State, options: BuildOptions, discovery: Discovery) -> ScanSettings:
    """What the C-family scanner must know of the whole tree: the attribute macros its
    headers and header templates define (plus the configured ones) and whether `.h`
    files are C++."""
    if not any(is_cfamily(s.path) for s in discovery.files):
        return ScanSettings.of(attribute=options.cpp_macros)
    headers = [s for s in discovery.files if defines_macros(s.path)]
    cpp = any(s.path.lower().endswith(CPP_SOURCE_SUFFIXES) for s in discovery.files)
    return learned_settings(state, headers, "cpp" if cpp else "c", tuple(options.cpp_macros))
