"""The repository seen as a whole: folders, files and what links them.

Built once per build from every file's facts; the renderer reads it and never
scans anything itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from docgen.facts import ScannedFile
from docgen.graph import SOURCE_ROOTS as DEFAULT_SOURCE_ROOTS
from docgen.graph import ImportGraph, build_graph
from docgen.includes import IncludeGraph, build_include_graph
from docgen.links import folder_of, parent_folders
from docgen.suites import CollectedClass, resolve_suites
from docgen.symbols import CppSymbols


@dataclass(frozen=True)
class FolderEntry:
    """One folder that holds documented files at some depth."""

    path: str  # "" for the repository root
    subfolders: tuple[str, ...]  # repo-relative paths, sorted
    files: tuple[str, ...]  # repo-relative paths of files directly inside, sorted


@dataclass(frozen=True)
class RepoIndex:
    project: str
    files: Mapping[str, ScannedFile]  # by repo-relative path, in sorted order
    folders: Mapping[str, FolderEntry]  # by repo-relative folder, in sorted order
    graph: ImportGraph  # who imports whom
    includes: IncludeGraph  # which C-family file includes which
    symbols: CppSymbols  # C++ declarations and definitions by qualified name and signature
    #: what the index added to a file's analysis from other files (test evidence through
    #: bases defined elsewhere), by path: part of the inputs of every page showing its tags
    derived: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: each test file's classes with whether a runner collects them, and through which bases
    test_classes: Mapping[str, tuple[CollectedClass, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def documented(self) -> list[ScannedFile]:
        """Files that get their own pages (binary files are only listed)."""
        return [f for f in self.files.values() if f.facts.kind != "binary"]


def build_index(
    project: str,
    scanned: Iterable[ScannedFile],
    source_roots: Sequence[str] = DEFAULT_SOURCE_ROOTS,
    include_roots: Sequence[str] = (),
) -> RepoIndex:
    files = {f.facts.path: f for f in sorted(scanned, key=lambda f: f.facts.path)}
    direct: dict[str, list[str]] = {}
    children: dict[str, set[str]] = {}
    for path in files:
        direct.setdefault(folder_of(path), []).append(path)
        chain = parent_folders(path)
        for folder in chain:
            direct.setdefault(folder, [])
            children.setdefault(folder, set())
        for parent, child in itertools.pairwise(chain):
            children[parent].add(child)
    if not files:
        direct[""] = []
    folders = {
        folder: FolderEntry(
            path=folder,
            subfolders=tuple(sorted(children.get(folder, ()))),
            files=tuple(sorted(direct[folder])),
        )
        for folder in sorted(direct)
    }
    graph = build_graph(files.values(), source_roots)
    suites = resolve_suites(files, graph)
    files = suites.files
    return RepoIndex(
        project=project,
        files=MappingProxyType(files),
        folders=MappingProxyType(folders),
        graph=graph,
        includes=build_include_graph(files.values(), files.keys(), include_roots),
        symbols=CppSymbols.of(files.values()),
        derived=MappingProxyType(suites.derived),
        test_classes=MappingProxyType(suites.classes),
    )
