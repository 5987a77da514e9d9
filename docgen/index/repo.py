"""The repository seen as a whole: folders, files and what links them.

Built once per build from every file's facts; the renderer reads it and never
scans anything itself.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from docgen.analyze.summary import FileSummary
from docgen.index.attached_rows import ATTACHED_DOCS, AttachedRow, attached_rows
from docgen.index.cfamily_keyed import Includes, Pairs
from docgen.index.cfamily_relations import CFamilyRelations, CFileSummary, dispatch_stubs
from docgen.index.cfamily_rows import RELATIONS, CFamilyRows, affected_by, kept_side, made_side
from docgen.index.cfamily_use_rows import CFAMILY_USES, CUseRow, use_rows
from docgen.index.file_table import FileTable
from docgen.index.folder_edges import FolderWeights, edge_weights
from docgen.index.graph import SOURCE_ROOTS as DEFAULT_SOURCE_ROOTS
from docgen.index.graph import ImportGraph, ModuleImports
from docgen.index.import_rows import IMPORTS, ImportRow, import_graph
from docgen.index.native_calls import NATIVE_CALLS, CallRow, call_rows
from docgen.index.relations import Kept, Relation, RelationRows, Row, made_from
from docgen.index.role_rows import ROLES, RoleRow, role_rows
from docgen.index.suites import CollectedClass, resolve_suites
from docgen.model.digests import code_digest
from docgen.model.facts import Problem, PythonFacts, ScannedFile
from docgen.model.languages import is_cfamily
from docgen.model.links import folder_chain, folder_of

#: the relations whose kept rows a build reads only when it asks for them (the import
#: rows, which every build reads, are read at once)
READ_LAZILY: tuple[Relation[Any], ...] = (
    *RELATIONS,
    ROLES,
    NATIVE_CALLS,
    ATTACHED_DOCS,
    CFAMILY_USES,
)


@dataclass(frozen=True)
class FolderEntry:
    """One folder that holds documented files at some depth."""

    path: str  # "" for the repository root
    subfolders: tuple[str, ...]  # repo-relative paths, sorted
    files: tuple[str, ...]  # repo-relative paths of files directly inside, sorted


@dataclass(frozen=True)
class RepoIndex:
    """What pages need to know of the whole repository: a page is a function of it and a file."""

    project: str
    files: FileTable  # by repo-relative path, in sorted order
    folders: Mapping[str, FolderEntry]  # by repo-relative folder, in sorted order
    graph: ImportGraph  # who imports whom
    #: the C-family relations' rows, kept or made again, of which the include graph and
    #: the declaration pairs are made (see `includes`, `symbols`)
    c_family: CFamilyRows
    #: every file some C-family file includes: known without the include graph
    c_included: frozenset[str]
    #: what the index added to a file's analysis from other files (test evidence through
    #: bases defined elsewhere), by path: part of the inputs of every page showing its tags
    derived: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: each test file's classes with whether a runner collects them, and through which bases
    test_classes: Mapping[str, tuple[CollectedClass, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: what the build reads of the C-family files whose facts stay encoded (see
    #: `docgen.index.cfamily_relations`), by path
    c_summaries: Mapping[str, CFileSummary] = field(default_factory=lambda: MappingProxyType({}))
    #: the folders' diagram edges made by includes, as kept with the relations (None:
    #: made from `includes` when first needed)
    include_weights: dict[str, Counter[tuple[str, str]]] | None = None
    #: the folders' diagram edges made by imports, from the import rows where some were
    #: kept (None: made from `graph` when first needed)
    import_weights: dict[str, Counter[tuple[str, str]]] | None = None
    #: each Python file's import rows, kept or made again (see `docgen.index.import_rows`)
    import_rows: RelationRows[ImportRow] | None = None
    #: the C-family files whose kept summaries no longer hold after an edit of C-family
    #: files (their pages show a pair or a stub of an edited name)
    c_affected: frozenset[str] = frozenset()
    #: the include names of the include graph (see `docgen.index.cfamily_rows.include_names`)
    include_names: tuple[str, ...] = ()
    #: what each Python file's docstring roles name (see `docgen.index.role_rows`)
    role_rows: RelationRows[RoleRow] | None = None
    #: the dotted names each Python file's code reads (see `docgen.index.native_calls`)
    native_rows: RelationRows[CallRow] | None = None
    #: the docstrings each Python file attaches to names made elsewhere (see
    #: `docgen.index.attached_rows`)
    attached_rows: RelationRows[AttachedRow] | None = None
    #: the names each C-family file's code writes (see `docgen.index.cfamily_use_rows`)
    c_use_rows: RelationRows[CUseRow] | None = None
    #: what the C-family files edited since the last build declared then (see
    #: `declarations_of`)
    c_edited_before: frozenset[tuple[str, str, int]] = frozenset()

    def relation_rows(self) -> list[RelationRows[Any]]:
        """Every relation's rows of this build, for the next one to keep."""
        found: list[RelationRows[Any]] = list(self.c_family.every())
        kept = (
            self.import_rows,
            self.role_rows,
            self.native_rows,
            self.attached_rows,
            self.c_use_rows,
        )
        python = [r for r in kept if r is not None]
        return [*python, *found]

    @cached_property
    def includes(self) -> Includes:
        """Which C-family file includes which."""
        return self.c_family.include_graph()

    @cached_property
    def symbols(self) -> Pairs:
        """C++ declarations and definitions by qualified name and signature."""
        return self.c_family.symbols()

    def in_include_graph(self, path: str) -> bool:
        """Whether an include can lead to or from the file: if not, nothing about it is
        read from the include graph (which an edit may then never decode)."""
        return path in self.c_included or is_cfamily(path)

    def documented(self) -> list[ScannedFile]:
        """Files that get their own pages (binary files are only listed)."""
        return [self.files[p] for p in self.documented_paths()]

    def documented_paths(self) -> list[str]:
        """The paths of `documented()`, in order, read without decoding any facts."""
        return [p for p, kind in self.files.kinds().items() if kind != "binary"]

    def problems(self, path: str) -> tuple[Problem, ...]:
        """What went wrong reading or scanning the file, read without decoding it."""
        summary = self.c_summaries.get(path)
        if summary is not None:
            return summary.problems
        kept = self.files.summary(path)
        return kept.problems if kept is not None else self.files[path].facts.problems


@dataclass(frozen=True)
class KeptInputs:
    """What the last build kept that this index may reuse; all empty for an index made
    from the facts alone (see `build_index`)."""

    #: facts left in the state database (path -> JSON), decoded when first read
    encoded: Mapping[str, str] = field(default_factory=dict)
    #: what is read of the encoded files that are not C-family (see `docgen.analyze.summary`)
    summaries: Mapping[str, FileSummary] = field(default_factory=dict)
    #: what the C-family side of the last build's index kept as a whole, when it still
    #: holds (after an edit of C-family files that kept their includes, see `before`)
    relations: CFamilyRelations | None = None
    #: the facts the C-family files edited since had then (none: no C-family file changed)
    before: Mapping[str, ScannedFile] = field(default_factory=dict)
    #: each relation's rows as kept, by relation name
    rows: Mapping[str, Kept] = field(default_factory=dict)
    #: every file's facts digest, which the kept rows were made from
    digests: Mapping[str, str] = field(default_factory=dict)


def build_index(
    project: str,
    scanned: Iterable[ScannedFile],
    source_roots: Sequence[str] = DEFAULT_SOURCE_ROOTS,
    include_roots: Sequence[str] = (),
    kept: KeptInputs = KeptInputs(),
) -> RepoIndex:
    """The index of these files and of the encoded ones `kept` holds, which stay encoded
    until a page reads them: files that are not C-family are then read through their
    summaries, and C-family ones through the relations the last build kept, or those
    brought up to date by its patch (see `docgen.index.cfamily_patch`).  Each relation's
    rows are kept where they were made from the same facts (`docgen.index.relations`)."""
    decoded = {f.facts.path: f for f in sorted(scanned, key=lambda f: f.facts.path)}
    summaries = kept.summaries
    relations = kept.relations
    c_summaries = relations.summaries() if relations is not None else {}
    kinds = {path: s.kind for path, s in c_summaries.items() if path not in decoded}
    kinds.update((path, s.kind) for path, s in summaries.items())
    files = FileTable(decoded, kept.encoded, kinds, summaries)
    # Python's imports and test suites never involve a C-family file.
    modules = [
        *(module_imports(f) for f in decoded.values()),
        *(ModuleImports(path, s.kind, s.imports) for path, s in summaries.items()),
    ]
    code = code_digest()
    graph, import_rows, import_weights = import_graph(
        modules, source_roots, kept.rows.get(IMPORTS.name, {}), kept.digests, code, list(files)
    )
    python = [path for path, kind in files.kinds().items() if kind == "python"]
    roles = _python_rows(ROLES, role_rows, files, python, kept, code)
    suite_paths = [p for p, f in decoded.items() if f.analysis.suite is not None]
    suite_paths += [p for p, s in summaries.items() if s.suite]
    suites = resolve_suites(files, suite_paths, graph)
    files.replace(suites.files)
    affected = frozenset[str]()
    if relations is not None:
        c_family = kept_side(
            relations.names,
            relations.roots,
            relations.guessed,
            frozenset(relations.specialized),
            files,
            kept.rows,
            kept.digests,
            code,
            files,
            sorted(kept.before),
        )
        included, names = relations.included_paths(), relations.names
        if kept.before:
            affected = frozenset(
                affected_by(c_family, kept.before) | _sharers(relations, kept.before, files)
            )
            c_summaries = {p: s for p, s in c_summaries.items() if p not in affected}
    else:
        c_files = [files[p] for p in files if is_cfamily(p)]
        c_family, names = made_side(c_files, files, include_roots, kept.rows, kept.digests, code)
        included = frozenset(c_family.include_graph().included_by)
    return RepoIndex(
        project=project,
        files=files,
        folders=MappingProxyType(_folders(files)),
        graph=graph,
        c_family=c_family,
        c_included=included,
        derived=MappingProxyType(suites.derived),
        test_classes=MappingProxyType(suites.classes),
        c_summaries=MappingProxyType(c_summaries),
        include_weights=relations.include_weights() if relations is not None else None,
        import_weights=import_weights,
        import_rows=import_rows,
        c_affected=affected,
        include_names=names,
        role_rows=roles,
        native_rows=_python_rows(NATIVE_CALLS, call_rows, files, python, kept, code),
        attached_rows=_python_rows(ATTACHED_DOCS, attached_rows, files, python, kept, code),
        c_use_rows=_c_use_rows(files, kept, code),
        c_edited_before=declarations_of(kept.before.values()),
    )


def _python_rows(
    relation: Relation[Row],
    rows_of: Callable[[PythonFacts | None], tuple[Row, ...]],
    files: FileTable,
    python: list[str],
    kept: KeptInputs,
    code: str,
) -> RelationRows[Row]:
    """Every Python file's rows (`python`: their paths) of a relation made from its
    Python facts alone (its docstring roles, its dotted reads): the kept ones where its
    facts are as they were."""
    sources = made_from(relation.context(code), kept.digests, python)

    def make(path: str) -> tuple[Row, ...]:
        return rows_of(files[path].facts.python)

    return RelationRows(relation, kept.rows.get(relation.name, {}), sources, make)


def declarations_of(files: Iterable[ScannedFile]) -> frozenset[tuple[str, str, int]]:
    """(qualified name, kind, line) of what C-family files declare or register: an edit
    that keeps them leaves every other file's lookups, and what the keyword index says
    of them, as they were."""
    found: set[tuple[str, str, int]] = set()
    for scanned in files:
        c = scanned.facts.cfamily
        if c is not None:
            found.update((d.qualname, d.kind, d.line) for d in c.definitions)
            found.update((r.name, r.macro, r.line) for r in c.registrations)
    return frozenset(found)


def _c_use_rows(files: FileTable, kept: KeptInputs, code: str) -> RelationRows[CUseRow]:
    """Every C-family file's names as its code writes them: the kept rows where its facts
    are as they were."""
    paths = [p for p in files if is_cfamily(p)]
    sources = made_from(CFAMILY_USES.context(code), kept.digests, paths)

    def make(path: str) -> tuple[CUseRow, ...]:
        return use_rows(files[path].facts.cfamily)

    return RelationRows(CFAMILY_USES, kept.rows.get(CFAMILY_USES.name, {}), sources, make)


def _sharers(
    relations: CFamilyRelations, before: Mapping[str, ScannedFile], files: Mapping[str, ScannedFile]
) -> set[str]:
    """The C-family files that declare, define or register a dispatch stub the edited
    files did, before or after their edit (their pages list one another)."""
    stubs: set[str] = set()
    for path, then in before.items():
        for scanned in (then, files[path]):
            c = scanned.facts.cfamily
            stubs |= dispatch_stubs(c) if c is not None else set()
    return {s.path for s in relations.files if any(row[0] in stubs for row in s.stubs)}


def module_imports(scanned: ScannedFile) -> ModuleImports:
    """What the import graph reads of a file's facts."""
    python = scanned.facts.python
    return ModuleImports(scanned.facts.path, scanned.facts.kind, python.imports if python else None)


def _folders(paths: Iterable[str]) -> dict[str, FolderEntry]:
    """Every folder that holds a file at some depth (the root always), by path, sorted."""
    direct: dict[str, list[str]] = {"": []}
    for path in paths:
        direct.setdefault(folder_of(path), []).append(path)
    children: dict[str, set[str]] = {}
    for folder in list(direct):  # each folder once, not once per file in it
        chain = folder_chain(folder)
        for above in chain:
            direct.setdefault(above, [])
            children.setdefault(above, set())
        for parent, child in itertools.pairwise(chain):
            children[parent].add(child)
    return {
        folder: FolderEntry(
            path=folder,
            subfolders=tuple(sorted(children.get(folder, ()))),
            files=tuple(sorted(direct[folder])),
        )
        for folder in sorted(direct)
    }


def import_weights(index: RepoIndex) -> FolderWeights:
    """Every folder's diagram edges made by Python's imports (see `edge_weights`): from the
    import rows where some were kept (see `docgen.index.import_rows`)."""
    if index.import_weights is not None:
        return index.import_weights
    files = index.files
    return edge_weights(((path, index.graph.imports_of(path)) for path in files), files)


def include_weights(index: RepoIndex) -> FolderWeights:
    """Every folder's diagram edges made by includes (kept with the C-family relations)."""
    files = index.files
    return edge_weights(((path, index.includes.includes_of(path)) for path in files), files)
