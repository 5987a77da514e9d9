"""What the C-family side of the index keeps as a whole between builds, beside its
relations' rows (`docgen.index.cfamily_rows`): what the build reads of each C-family
file beyond its own pages (`CFileSummary`), the include names, the folders' diagram
edges made by includes, every file some C-family file includes, the tree's class
specializations.  They follow from the C-family files' facts, the paths an include
can name, the include roots and docgen's code alone (see `relations_key`).  An edit
that changes none of them (a Python module, a Markdown page) reuses them as the last
build left them, and the C-family files' facts are then decoded only for the pages
rendered.  Stored as JSON like the facts, never pickled.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.index.cfamily_rows import CFamilyRows
from docgen.index.folder_edges import weight_rows, weights_of
from docgen.model.binding_names import UNNAMED_KINDS
from docgen.model.cfamily_facts import CFacts
from docgen.model.facts import Problem, ScannedFile
from docgen.model.languages import is_cfamily
from docgen.model.serialize import dumps, loads

#: Changes whenever what is stored here, or how it is read, changes.
RELATIONS_FORMAT = "9"


@dataclass(frozen=True, slots=True)
class FolderEdge:
    """A diagram edge made by includes, in the folder that draws it (see
    `docgen.render.diagram_views.edge_weights`)."""

    folder: str
    source: str
    target: str
    count: int


#: (stub, line, macro, the arguments after the stub's name, the file's macro it comes
#: through or ""): one dispatch-stub macro call
StubRow = tuple[str, int, str, str, str]


@dataclass(frozen=True, order=True, slots=True)
class StubSite:
    """A file's dispatch-stub macro call, as the pages of the files naming the same stub
    list it (see `docgen.model.stub_devices`)."""

    path: str
    line: int
    macro: str
    target: str  # the arguments after the stub's name, as written
    through: str = ""  # the file's own macro whose use makes the call (see `Registration`)


@dataclass(frozen=True, slots=True)
class CFileSummary:
    """What a build reads of a C-family file beyond its own two pages."""

    path: str
    kind: str
    tags: tuple[str, ...]  # the names of its page tags
    line_count: int
    problems: tuple[Problem, ...]
    #: the dispatch-stub macro calls it makes, as `stub_sites` gives them
    stubs: tuple[StubRow, ...]
    shown: str  # the digest of what its docs page shows of other files
    language: str = ""  # its grammar, as its folder's index lists it
    size: int = 0  # in bytes
    #: the Python names it binds and the operators its `m.def` calls make (see `names_made`)
    made: tuple[str, ...] = ()


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


def dispatch_stubs(c: CFacts) -> set[str]:
    """The dispatch stubs a C-family file declares, defines or registers."""
    return {row[0] for row in stub_rows(c)}


def stub_rows(c: CFacts) -> tuple[StubRow, ...]:
    """A C-family file's dispatch-stub macro calls, by stub and line."""
    found = {
        (r.name, r.line, r.macro, r.target, r.through)
        for r in c.registrations
        if r.is_dispatch_stub
    }
    return tuple(sorted(found))


def names_made(c: CFacts) -> frozenset[str]:
    """The names Python reaches a C-family file's code by: those its pybind11 or nanobind
    calls bind, and the operators its `m.def` calls define (their base names)."""
    names = {b.name for b in c.bindings if b.kind not in UNNAMED_KINDS}
    for r in c.registrations:
        names.update(
            op.name.rsplit("::", 1)[-1].split(".", 1)[0] for op in r.ops if op.verb == "def"
        )
    return frozenset(names)


def summary_of(scanned: ScannedFile, tags: Iterable[str], shown: str) -> CFileSummary:
    c = scanned.facts.cfamily
    return CFileSummary(
        path=scanned.facts.path,
        kind=scanned.facts.kind,
        tags=tuple(tags),
        line_count=scanned.facts.line_count,
        problems=scanned.facts.problems,
        stubs=stub_rows(c) if c is not None else (),
        shown=shown,
        language=scanned.facts.language,
        size=scanned.facts.size,
        made=tuple(sorted(names_made(c))) if c is not None else (),
    )


def relations_of(
    key: str,
    c_side: CFamilyRows,
    paths: Iterable[str],
    summary: Callable[[str], CFileSummary],
    weights: Mapping[str, Counter[tuple[str, str]]],
    names: tuple[str, ...],
) -> CFamilyRelations:
    """What this build keeps as a whole under `key`, made with `names` (the
    `include_names` of its include graph): `summary` makes each C-family file's;
    `weights` are the folders' diagram edges made by includes."""
    includes = c_side.include_graph()
    return CFamilyRelations(
        key=key,
        names=names,
        roots=c_side.roots,
        guessed=c_side.guessed,
        files=tuple(summary(p) for p in paths if is_cfamily(p)),
        diagram=tuple(FolderEdge(*row) for row in weight_rows(weights)),
        included=tuple(sorted(includes.included_by)),
        specialized=tuple(sorted(c_side.specialized)),
    )


def encode(relations: CFamilyRelations) -> str:
    return dumps(relations)


def decode(text: str | None, key: str) -> CFamilyRelations | None:
    """What the last build kept, when it was made from what `key` says; None otherwise,
    or when it cannot be read (it is then made afresh)."""
    if not text:
        return None
    try:
        relations = loads(CFamilyRelations, text)
    except (ValueError, TypeError, KeyError):
        return None
    return relations if relations.key == key else None
