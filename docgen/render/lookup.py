"""Repository-wide lookups the pages need again and again, computed once per build.

A docs page lists its folder's files and its tests, a folder page counts its
subtree and ranks its most imported files; asking the index afresh for each
page would cost time quadratic in the size of the largest folder.
"""

from __future__ import annotations

import heapq
import posixpath
from collections import Counter

from docgen.analyze.summary import page_tags
from docgen.index.cfamily_relations import StubSite, stub_rows
from docgen.index.folder_edges import FolderWeights, merged_weights
from docgen.index.graph import PYTHON_SUFFIXES, is_module, top_level
from docgen.index.reexports import Origins
from docgen.index.repo import FolderEntry, RepoIndex, import_weights, include_weights
from docgen.index.top_bindings import FileBindings, file_bindings
from docgen.model.anchors import AnchoredCDefinition, anchored_c_definitions
from docgen.model.links import folder_chain, folder_of, parent_folders
from docgen.render.diagram_views import DiagramView, import_diagram

MOST_IMPORTED_LIMIT = 10
TEST_PREFIX = "test_"
TEST_SUFFIX = "_test"


def module_stem(path: str) -> str:
    """The name a test file would be named after: `core` for `pkg/core.py`, `pkg` for
    `pkg/__init__.py`; "" for anything that is not a Python file."""
    name = posixpath.basename(path)
    for suffix in PYTHON_SUFFIXES:
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            if stem == "__init__":
                stem = posixpath.basename(folder_of(path))
            return stem
    return ""


def stem_tested_by(path: str) -> str:
    """The stem a test file is named after (`core` for `test_core.py` or `core_test.py`)."""
    name = posixpath.basename(path)
    if not name.endswith(".py"):
        return ""
    stem = name[: -len(".py")]
    if stem.startswith(TEST_PREFIX) and len(stem) > len(TEST_PREFIX):
        return stem[len(TEST_PREFIX) :]
    if stem.endswith(TEST_SUFFIX) and len(stem) > len(TEST_SUFFIX):
        return stem[: -len(TEST_SUFFIX)]
    return ""


class RepoLookup:
    """The index plus per-folder lists and counts, made at construction or when first
    asked for."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        documented: dict[str, list[str]] = {}
        self._tree_kinds: dict[str, Counter[str]] = {}
        direct_kinds: dict[str, Counter[str]] = {}
        tests: set[str] = set()
        named: dict[str, list[str]] = {}
        stubs: dict[str, set[StubSite]] = {}
        self.line_counts: dict[str, int] = {}
        self._tag_names: dict[str, tuple[str, ...]] = {}
        c_summaries, summary_of = index.c_summaries, index.files.summary
        for path in index.files:
            folder = folder_of(path)
            summary = c_summaries.get(path)
            kept = summary_of(path) if summary is None else None
            if summary is not None:
                kind, tags, self.line_counts[path] = summary.kind, summary.tags, summary.line_count
                for name, line, macro, target, through in summary.stubs:
                    site = StubSite(path, line, macro, target, through)
                    stubs.setdefault(name, set()).add(site)
            elif kept is not None:
                kind, tags, self.line_counts[path] = kept.kind, kept.tags, kept.line_count
            else:
                scanned = index.files[path]
                kind, tags = scanned.facts.kind, tuple(t.name for t in page_tags(scanned))
                self.line_counts[path] = scanned.facts.line_count
                c = scanned.facts.cfamily
                for name, line, macro, target, through in stub_rows(c) if c else ():
                    site = StubSite(path, line, macro, target, through)
                    stubs.setdefault(name, set()).add(site)
            self._tag_names[path] = tags
            if kind != "binary":
                documented.setdefault(folder, []).append(path)
            kinds = direct_kinds.get(folder)
            if kinds is None:  # not `setdefault`, which would make a Counter for every file
                kinds = direct_kinds[folder] = Counter()
            kinds[kind] += 1
            if kind == "python" and "test" in tags:
                tests.add(path)
                stem = stem_tested_by(path)
                if stem:
                    named.setdefault(stem, []).append(path)
        self._documented = {folder: tuple(sorted(paths)) for folder, paths in documented.items()}
        # Counted per folder, then added to every folder above it: once per folder, not
        # once per file and folder above it.
        for folder, kinds in direct_kinds.items():
            for above in folder_chain(folder):
                tree = self._tree_kinds.get(above)
                if tree is None:
                    tree = self._tree_kinds[above] = Counter()
                tree.update(kinds)
        #: folder -> its import diagram, made once per build for its page and its digest
        self._diagrams: dict[str, DiagramView | None] = {}
        #: what each Python file's top level binds, read once for every folder's Public
        #: API trace (see `docgen.render.api_views.ExportResolver`)
        self._bindings: dict[str, FileBindings | None] = {}
        #: every folder's diagram edges, made in one pass when the first diagram is asked for
        self._weights: FolderWeights | None = None
        self._include_weights: FolderWeights | None = index.include_weights
        self._tests = frozenset(tests)
        self._tests_named = {stem: tuple(sorted(paths)) for stem, paths in named.items()}
        imported: dict[str, list[tuple[int, str]]] = {}
        for path, importers in index.graph.imported_by.items():
            for folder in parent_folders(path):
                imported.setdefault(folder, []).append((-len(importers), path))
        self._imported = imported
        #: the repository's own top-level module names
        self.packages = frozenset(top_level(name) for name in index.graph.modules)
        #: dispatch stub name -> where files declare, define or register it, by path and line
        self.stubs = {name: tuple(sorted(sites)) for name, sites in sorted(stubs.items())}
        self._c_items: dict[str, tuple[AnchoredCDefinition, ...]] = {}
        self._c_anchors: dict[str, dict[tuple[int, str], str]] = {}
        self.origins = Origins(index.graph)
        #: file -> the tests that reach it only through a re-export; made when first asked
        self._tested_through: dict[str, tuple[str, ...]] | None = None

    @property
    def test_files(self) -> frozenset[str]:
        """The Python files tagged `test`."""
        return self._tests

    def tag_names(self, path: str) -> tuple[str, ...]:
        """The names of a file's page tags (see `page_tags`), read without its facts."""
        return self._tag_names[path]

    def c_items(self, path: str) -> tuple[AnchoredCDefinition, ...]:
        """A C-family file's definitions with their anchors, made once per file (the docs
        page, the keyword page and every counterpart link need them)."""
        items = self._c_items.get(path)
        if items is None:
            scanned = self.index.files.get(path)
            c = scanned.facts.cfamily if scanned is not None else None
            items = anchored_c_definitions(path, c.definitions) if c is not None else ()
            self._c_items[path] = items
        return items

    def c_anchor(self, path: str, line: int, qualname: str) -> str:
        """The heading anchor of a C-family definition on its file's docs page ("" if none)."""
        anchors = self._c_anchors.get(path)
        if anchors is None:
            items = self.c_items(path)
            anchors = {(i.definition.line, i.definition.qualname): i.anchor for i in items}
            self._c_anchors[path] = anchors
        return anchors.get((line, qualname), "")

    def diagram(self, folder: str) -> DiagramView | None:
        """The folder's import diagram (see `diagram_views`), made once."""
        if folder not in self._diagrams:
            if self._weights is None:
                self._weights = merged_weights(import_weights(self.index), self.include_weights())
            self._diagrams[folder] = import_diagram(self._weights.get(folder))
        return self._diagrams[folder]

    def include_weights(self) -> FolderWeights:
        """Every folder's diagram edges made by includes: kept with the C-family
        relations when they were reused, else made once."""
        if self._include_weights is None:
            self._include_weights = include_weights(self.index)
        return self._include_weights

    def folder(self, folder: str) -> FolderEntry:
        return self.index.folders.get(folder) or FolderEntry(folder, (), ())

    def documented_in(self, folder: str) -> tuple[str, ...]:
        """Files directly in `folder` that have pages, sorted."""
        return self._documented.get(folder, ())

    def tree_kinds(self, folder: str) -> Counter[str]:
        """Files by kind in the folder and everything below it."""
        return self._tree_kinds.get(folder, Counter())

    def tests_of(self, path: str) -> tuple[str, ...]:
        """Test files that exercise `path`: named after it anywhere, importing it, or
        importing a name of it that another module re-exports; sorted."""
        stem = module_stem(path)
        named = self._tests_named.get(stem, ()) if stem else ()
        importing = (p for p in self.index.graph.imported_by.get(path, ()) if p in self._tests)
        through = self._through().get(path, ())
        return tuple(sorted({*named, *importing, *through} - {path}))

    def bindings(self, path: str) -> FileBindings | None:
        """What a Python file's top level binds (None without Python facts), read once
        for every folder's Public API trace that reaches it."""
        if path not in self._bindings:
            self._bindings[path] = file_bindings(self.index, path)
        return self._bindings[path]

    def reached_by(self, path: str) -> tuple[str, ...]:
        """The files `path`'s imports reach, each name followed through re-exports to the
        file it comes from (see `docgen.index.reexports`)."""
        if not is_module(path):
            return ()
        return self.origins.of_imports(self.index.graph.imports.get(path, ()))

    def _through(self) -> dict[str, tuple[str, ...]]:
        if self._tested_through is None:
            found: dict[str, set[str]] = {}
            for test in sorted(self._tests):
                for reached in set(self.reached_by(test)) - set(self.index.graph.imports_of(test)):
                    found.setdefault(reached, set()).add(test)
            self._tested_through = {p: tuple(sorted(t)) for p, t in found.items()}
        return self._tested_through

    def most_imported(self, folder: str, limit: int = MOST_IMPORTED_LIMIT) -> list[tuple[str, int]]:
        """(path, number of importers) of the most imported files in the folder's subtree."""
        best = heapq.nsmallest(limit, self._imported.get(folder, ()))
        return [(path, -negative) for negative, path in best]
