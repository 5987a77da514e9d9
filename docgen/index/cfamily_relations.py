"""The C-family side of the index, kept in the state database between builds.

Which file includes which, where each declaration is defined, and what a C-family
file's pages read of other files follow from the C-family files' facts, the paths
of the tree and the include roots alone (see `relations_key`).  An edit that changes
none of them (a Python module, a Markdown page) reuses them as the last build left
them, and the C-family files' facts are then decoded only for the pages rendered:
on a tree of thousands of headers, decoding and resolving them again was most of a
one-file edit.  Stored as JSON like the facts, never pickled.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from docgen.index.folder_edges import weight_rows, weights_of
from docgen.index.includes import IncludeGraph, ResolvedInclude, include_graph
from docgen.index.symbols import CppSymbols, Site
from docgen.model.facts import CFacts, Problem, ScannedFile
from docgen.model.languages import is_cfamily
from docgen.model.serialize import dumps, from_data, loads
from docgen.state import StateDamaged

#: Changes whenever what is stored here, or how it is read, changes.
RELATIONS_FORMAT = "6"


@dataclass(frozen=True, slots=True)
class IncludesOf:
    """One file's includes as resolved, kept so that an edit of a Python or Markdown file
    need not resolve them again."""

    path: str
    resolved: tuple[ResolvedInclude, ...]


@dataclass(frozen=True, slots=True)
class Counterparts:
    """The places that declare or define one name, kept for the next build's links between them."""

    path: str
    line: int
    qualname: str
    sites: tuple[Site, ...]


@dataclass(frozen=True, slots=True)
class FolderEdge:
    """A diagram edge made by includes, in the folder that draws it (see
    `docgen.render.diagram_views.edge_weights`)."""

    folder: str
    source: str
    target: str
    count: int


@dataclass(frozen=True, slots=True)
class CFileSummary:
    """What a build reads of a C-family file beyond its own two pages."""

    path: str
    kind: str
    tags: tuple[str, ...]  # the names of its page tags
    line_count: int
    problems: tuple[Problem, ...]
    stubs: tuple[str, ...]  # the dispatch stubs it declares, defines or registers
    shown: str  # the digest of what its docs page shows of other files
    language: str = ""  # its grammar, as its folder's index lists it
    size: int = 0  # in bytes


@dataclass(frozen=True, slots=True)
class CFamilyRelations:
    """The include graph and declaration pairs the last build made, reused while what they
    follow from is the same (see `relations_key`)."""

    key: str  # see `relations_key`
    names: tuple[str, ...]  # see `include_names`
    roots: tuple[str, ...]
    guessed: bool
    files: tuple[CFileSummary, ...]
    diagram: tuple[FolderEdge, ...]
    included: tuple[str, ...]  # every file some C-family file includes, sorted
    #: every class specialization of the tree (see `docgen.index.symbols.owner_specialization`)
    specialized: tuple[tuple[str, str], ...] = ()

    def included_paths(self) -> frozenset[str]:
        return frozenset(self.included)

    def summaries(self) -> dict[str, CFileSummary]:
        return {s.path: s for s in self.files}

    def include_weights(self) -> dict[str, Counter[tuple[str, str]]]:
        return weights_of((e.folder, e.source, e.target, e.count) for e in self.diagram)


#: The kept relations' two large rows, kept apart (see `KeptRelations`).
INCLUDES, COUNTERPARTS = "includes", "counterparts"


@dataclass(frozen=True)
class KeptRelations:
    """Relations the last build kept, with their two large rows (the JSON of the
    `IncludesOf` and `Counterparts`: most of the relations), which `rows` reads from the
    state database only when a page needs them (an edit of a Python module never does)."""

    kept: CFamilyRelations
    rows: Callable[[str], str]  # INCLUDES or COUNTERPARTS -> its JSON

    def include_graph(self) -> IncludeGraph:
        rows: tuple[IncludesOf, ...] = _rows(tuple[IncludesOf, ...], self.rows(INCLUDES))
        return include_graph({i.path: i.resolved for i in rows}, self.kept.roots, self.kept.guessed)

    def symbols(self) -> CppSymbols:
        rows: tuple[Counterparts, ...] = _rows(tuple[Counterparts, ...], self.rows(COUNTERPARTS))
        found = {(c.path, c.line, c.qualname): c.sites for c in rows}
        return CppSymbols(MappingProxyType(found), frozenset(self.kept.specialized))

    def included_paths(self) -> frozenset[str]:
        return self.kept.included_paths()

    def summaries(self) -> dict[str, CFileSummary]:
        return self.kept.summaries()

    def include_weights(self) -> dict[str, Counter[tuple[str, str]]]:
        return self.kept.include_weights()


def relations_key(
    paths: Iterable[str],
    digests: Mapping[str, str],
    include_roots: Sequence[str],
    code: str,
    names: Iterable[str],
) -> str:
    """What the relations follow from: each C-family file and its facts (by digest), the
    include roots, docgen's code, and the paths an include could name: those whose last
    part is the last part of some include's target (`names`, see `include_names`).  A
    file added or removed under any other name leaves every include as it resolved."""
    wanted = frozenset(names)
    ordered = sorted(paths)
    head = json.dumps([RELATIONS_FORMAT, code, list(include_roots), sorted(wanted)])
    # Thousands of paths joined by NUL, which no path holds, rather than encoded as JSON.
    cfamily = "".join(f"{p}\0{digests.get(p, '')}\0" for p in ordered if is_cfamily(p))
    named = "".join(f"{p}\0" for p in ordered if p.rpartition("/")[2] in wanted)  # basename
    text = f"{head}\0\0{cfamily}\0{named}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def include_names(includes: IncludeGraph) -> tuple[str, ...]:
    """The last part of every include's target, as written and as normalised: a file can
    resolve an include only when its own last part is one of these."""
    targets = {inc.target for resolved in includes.includes.values() for inc in resolved}
    found: set[str] = set()
    for target in targets:  # far fewer than the includes: headers are included many times
        found.add(posixpath.basename(target))
        found.add(posixpath.basename(posixpath.normpath(target or ".")))
    return tuple(sorted(found))


def dispatch_stubs(c: CFacts) -> set[str]:
    """The dispatch stubs a C-family file declares, defines or registers."""
    return {r.name for r in c.registrations if r.is_dispatch_stub}


def summary_of(scanned: ScannedFile, tags: Iterable[str], shown: str) -> CFileSummary:
    c = scanned.facts.cfamily
    stubs = dispatch_stubs(c) if c is not None else set()
    return CFileSummary(
        path=scanned.facts.path,
        kind=scanned.facts.kind,
        tags=tuple(tags),
        line_count=scanned.facts.line_count,
        problems=scanned.facts.problems,
        stubs=tuple(sorted(stubs)),
        shown=shown,
        language=scanned.facts.language,
        size=scanned.facts.size,
    )


def relations_of(
    key: str,
    includes: IncludeGraph,
    symbols: CppSymbols,
    paths: Iterable[str],
    summary: Callable[[str], CFileSummary],
    weights: Mapping[str, Counter[tuple[str, str]]],
    names: tuple[str, ...] | None = None,
) -> tuple[CFamilyRelations, dict[str, str]]:
    """The relations of this build, to keep under `key` (made with `names`, the
    `include_names` of `includes`, computed here when not given), and their two large
    rows (see `KeptRelations`): `summary` makes each C-family file's; `weights` are the
    folders' diagram edges made by includes."""
    pairs = sorted(symbols.counterparts_of.items())
    rows = {
        INCLUDES: dumps(tuple(IncludesOf(p, r) for p, r in includes.includes.items())),
        COUNTERPARTS: dumps(tuple(Counterparts(*where, sites) for where, sites in pairs)),
    }
    return CFamilyRelations(
        key=key,
        names=include_names(includes) if names is None else names,
        roots=includes.roots,
        guessed=includes.guessed,
        files=tuple(summary(p) for p in paths if is_cfamily(p)),
        diagram=tuple(FolderEdge(*row) for row in weight_rows(weights)),
        included=tuple(sorted(includes.included_by)),
        specialized=tuple(sorted(symbols.specialized)),
    ), rows


def _rows(kind: Any, text: str) -> Any:
    """Kept rows decoded when first needed: unreadable then, the state is damaged."""
    try:
        return from_data(kind, json.loads(text))
    except (ValueError, TypeError, KeyError) as exc:
        raise StateDamaged("the kept C-family relations cannot be read") from exc


def encode(relations: CFamilyRelations) -> str:
    return dumps(relations)


def decode(text: str | None, key: str, rows: Callable[[str], str]) -> KeptRelations | None:
    """The kept relations, with what reads their large `rows`, when they were made from
    what `key` says; None otherwise, or when they cannot be read (they are then made
    afresh)."""
    if not text:
        return None
    try:
        relations = loads(CFamilyRelations, text)
    except (ValueError, TypeError, KeyError):
        return None
    return KeptRelations(relations, rows) if relations.key == key else None
