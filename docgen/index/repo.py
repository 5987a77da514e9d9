"""The repository seen as a whole: folders, files and what links them.

Built once per build from every file's facts; the renderer reads it and never
scans anything itself.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Protocol

from docgen.analyze.summary import FileSummary
from docgen.index.cfamily_patch import PatchedRelations, RelationsPatch, patched
from docgen.index.cfamily_relations import CFileSummary, KeptRelations
from docgen.index.file_table import FileTable
from docgen.index.graph import SOURCE_ROOTS as DEFAULT_SOURCE_ROOTS
from docgen.index.graph import ImportGraph, ModuleImports, build_graph
from docgen.index.graph_kept import GraphEdit, KeptGraph, patched_graph
from docgen.index.includes import IncludeGraph, build_include_graph
from docgen.index.suites import CollectedClass, resolve_suites
from docgen.index.symbols import CppSymbols
from docgen.model.facts import Problem, ScannedFile
from docgen.model.languages import is_cfamily
from docgen.model.links import folder_chain, folder_of


@dataclass(frozen=True)
class FolderEntry:
    """One folder that holds documented files at some depth."""

    path: str  # "" for the repository root
    subfolders: tuple[str, ...]  # repo-relative paths, sorted
    files: tuple[str, ...]  # repo-relative paths of files directly inside, sorted


class CFamilySide(Protocol):
    """The C-family relations of a build, made or kept (see `docgen.index.cfamily_relations`)."""

    def include_graph(self) -> IncludeGraph: ...

    def symbols(self) -> CppSymbols: ...


@dataclass(frozen=True)
class MadeRelations:
    """Relations this build made from the C-family files' facts."""

    graph: IncludeGraph
    made_symbols: CppSymbols

    def include_graph(self) -> IncludeGraph:
        return self.graph

    def symbols(self) -> CppSymbols:
        return self.made_symbols


@dataclass(frozen=True)
class RepoIndex:
    """What pages need to know of the whole repository: a page is a function of it and a file."""

    project: str
    files: FileTable  # by repo-relative path, in sorted order
    folders: Mapping[str, FolderEntry]  # by repo-relative folder, in sorted order
    graph: ImportGraph  # who imports whom
    #: where the include graph and the declaration pairs come from: made by this build, or
    #: kept by the last one and decoded when first needed (see `includes`, `symbols`)
    c_family: CFamilySide
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
    #: the folders' diagram edges made by imports, as kept by the last build and brought
    #: up to date (None: made from `graph` when first needed)
    import_weights: dict[str, Counter[tuple[str, str]]] | None = None

    @cached_property
    def includes(self) -> IncludeGraph:
        """Which C-family file includes which."""
        return self.c_family.include_graph()

    @cached_property
    def symbols(self) -> CppSymbols:
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


def build_index(
    project: str,
    scanned: Iterable[ScannedFile],
    source_roots: Sequence[str] = DEFAULT_SOURCE_ROOTS,
    include_roots: Sequence[str] = (),
    encoded: Mapping[str, str] | None = None,
    relations: KeptRelations | None = None,
    summaries: Mapping[str, FileSummary] | None = None,
    patch: RelationsPatch | None = None,
    kept_graph: KeptGraph | None = None,
    graph_edits: Mapping[str, GraphEdit] | None = None,
) -> RepoIndex:
    """The index of these files and of the `encoded` ones (path -> JSON), which stay
    encoded until a page reads them: files that are not C-family are then read through
    their `summaries`, and C-family ones through the `relations` the last build kept,
    or those brought up to date by `patch` (see `docgen.index.cfamily_patch`).  The import
    graph the last build kept (`kept_graph`) is brought up to date from `graph_edits`,
    the Python files scanned now as they were (see `docgen.index.graph_kept`)."""
    decoded = {f.facts.path: f for f in sorted(scanned, key=lambda f: f.facts.path)}
    kept = summaries or {}
    c_summaries = relations.summaries() if relations is not None else {}
    before_edit = patch.kept.summaries() if patch is not None else {}
    kinds = {path: s.kind for path, s in before_edit.items() if path not in decoded}
    kinds.update((path, s.kind) for path, s in c_summaries.items())
    kinds.update((path, s.kind) for path, s in kept.items())
    files = FileTable(decoded, encoded, kinds, kept)
    # Python's imports and test suites never involve a C-family file.
    modules = [
        *(module_imports(f) for f in decoded.values()),
        *(ModuleImports(path, s.kind, s.imports) for path, s in kept.items()),
    ]
    patched_imports = None
    if kept_graph is not None and graph_edits is not None:
        patched_imports = patched_graph(kept_graph, modules, graph_edits, source_roots, files)
    if patched_imports is not None:
        graph, import_weights = patched_imports
    else:
        graph, import_weights = build_graph(modules, source_roots), None
    suite_paths = [p for p, f in decoded.items() if f.analysis.suite is not None]
    suite_paths += [p for p, s in kept.items() if s.suite]
    suites = resolve_suites(files, suite_paths, graph)
    files.replace(suites.files)
    c_family: CFamilySide
    patched_side = patched(patch, files) if patch is not None else None
    if relations is not None:
        c_family, included = relations, relations.included_paths()
    elif patched_side is not None:
        c_family, included = patched_side, patched_side.kept.included_paths()
        c_summaries = patched_side.summaries()
    else:
        c_files = [files[p] for p in files if is_cfamily(p)]
        includes = build_include_graph(c_files, files.keys(), include_roots)
        c_family = MadeRelations(includes, CppSymbols.of(c_files))
        included = frozenset(includes.included_by)
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
        include_weights=_kept_weights(relations, patched_side),
        import_weights=import_weights,
    )


def _kept_weights(
    relations: KeptRelations | None, patched_side: PatchedRelations | None
) -> dict[str, Counter[tuple[str, str]]] | None:
    """The folders' diagram edges kept with the relations (None: made when first needed)."""
    if relations is not None:
        return relations.include_weights()
    return patched_side.kept.include_weights() if patched_side is not None else None


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
