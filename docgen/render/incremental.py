"""What each page is made from, as a digest: a page whose inputs are unchanged is not
rendered again.

A page's digest covers the facts of every file its view reads and every
repository-wide relation it shows (importers, tests, the folder's listing), plus
what all pages share (templates, docgen's code, the project name, where the
sources are).  Two builds that agree on a page's digest render the same bytes,
so skipping it cannot make an incremental build differ from a clean one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from docgen.index.cfamily_relations import CFileSummary, summary_of
from docgen.index.repo import RepoIndex
from docgen.model.digests import parts_digest
from docgen.model.links import folder_of
from docgen.render.api_views import api_inputs
from docgen.render.attached_links import AttachedLinks
from docgen.render.markdown_links import link_state_key
from docgen.render.native_links import NativeLinks
from docgen.render.operator_links import OperatorLinks
from docgen.render.role_links import RoleLinks
from docgen.render.use_counts import UseCounts
from docgen.render.use_links import UseLinks

if TYPE_CHECKING:
    from docgen.render.lookup import RepoLookup


def shared_inputs(common: str, lookup: RepoLookup) -> str:
    """The digest of what every page shares: `common` (see `common_inputs`) and the
    tree's packages, which every page's imports are told by."""
    return parts_digest([common, *sorted(lookup.packages)])


class PageInputs:
    """Digests of each page's inputs for one build."""

    def __init__(
        self,
        common: str,
        index: RepoIndex,
        lookup: RepoLookup,
        facts_digests: Mapping[str, str],
        role_links: RoleLinks | None = None,
        operator_links: OperatorLinks | None = None,
        native_links: NativeLinks | None = None,
        attached_links: AttachedLinks | None = None,
        use_links: UseLinks | None = None,
        use_counts: UseCounts | None = None,
    ) -> None:
        """`common`: see `shared_inputs`; `role_links`: where each file's roles lead;
        `operator_links`: where each YAML file's kernels and operators lead;
        `native_links`: where Python's calls into C++ lead, and back;
        `attached_links`: the docstrings other files attach to a file's definitions;
        `use_links`: the other files that use a file's definitions; `use_counts`: their
        counts with the digests of their uses, which a C-family file's pages are digested
        by (kept from the last build for the files whose uses it did not look for)."""
        self._index = index
        self._lookup = lookup
        self._facts = facts_digests
        self._common = common
        self._roles = role_links or RoleLinks()
        self._operators = operator_links or OperatorLinks()
        self._native = native_links or NativeLinks()
        self._attached = attached_links or AttachedLinks()
        self._uses = use_links or UseLinks()
        self._counts = use_counts
        self._kinds = index.files.kinds()
        self._trees: dict[str, str] = {}
        self._shown: dict[str, str] = {}
        self._listings: dict[str, str] = {}

    @property
    def common(self) -> str:
        """The digest of what every page shares: a page kept from the last build is as
        this build would make it only when this is the same."""
        return self._common

    def _fact(self, path: str) -> str:
        derived = self._index.derived.get(path, "")
        return f"{path}={self._facts.get(path, '?')}{'+' + derived if derived else ''}"

    def docs(self, path: str) -> str:
        graph = self._index.graph
        importers = graph.imported_by.get(path, ())
        resolved = [
            f"{t.line}:{t.absolute}:{','.join(t.targets)}" for t in graph.imports.get(path, ())
        ]
        return parts_digest(
            [
                self._common,
                "docs",
                self._fact(path),
                graph.module_names.get(path, ""),
                *resolved,
                "importers",
                *(self._import_lines(p, path) for p in importers),
                "tests",
                *self._lookup.tests_of(path),
                "imports",
                *graph.imports_of(path),
                "reached",
                *self._lookup.reached_by(path),
                "folder",
                self._listing(folder_of(path)),
                "links",
                *self._link_states(path),
                "cfamily",
                self.shown(path),
                "suite",
                *self._suite(path),
                "roles",
                *self._roles.inputs(path),
                "operators",
                *self._operators.inputs(path),
                "native",
                *self._native.inputs(path),
                "attached",
                *self._attached.inputs(path),
                "uses",
                *self._use_inputs(path),
            ]
        )

    def _suite(self, path: str) -> list[str]:
        """What the tests table shows of other files: each test class's chain of bases."""
        parts = []
        for info in self._index.test_classes.get(path, ()):
            chain = [f"{b.name}:{b.path}:{b.line}:{b.summary}" for b in info.chain]
            parts.append(f"{info.suite_class.name}:{info.collected}:{chain}")
        return parts

    def shown(self, path: str) -> str:
        """The digest of what a C-family file's docs page shows of other files ("" for a
        file that is neither C-family nor included by one): kept from the last build where
        its relations were (see `RepoIndex.files`)."""
        kept = self._index.c_summaries.get(path)
        if kept is not None:
            return kept.shown
        found = self._shown.get(path)
        if found is None and not self._index.in_include_graph(path):
            found = self._shown[path] = ""
        if found is None:
            parts = self._cfamily(path)
            found = self._shown[path] = parts_digest(parts) if parts is not None else ""
        return found

    def include_weights(self) -> dict[str, Counter[tuple[str, str]]]:
        """The folders' diagram edges made by includes (kept with the relations)."""
        return self._lookup.include_weights()

    def c_summary(self, path: str) -> CFileSummary:
        """What a later build reads of a C-family file instead of its facts."""
        return summary_of(self._index.files[path], self._lookup.tag_names(path), self.shown(path))

    def _cfamily(self, path: str) -> list[str] | None:
        """What a C-family page shows of other files: where its includes lead, who includes
        it (and on which lines), where its declarations are defined, its dispatch stubs.
        A file of another kind that C-family files include lists them among its related
        files: for it, only who includes it (None when nobody does)."""
        graph = self._index.includes
        includers = [
            f"{other}:{graph.lines_including(other, path)}"
            for other in graph.included_by.get(path, ())
        ]
        scanned = self._index.files.get(path)
        c = scanned.facts.cfamily if scanned is not None else None
        if c is None:
            return ["included-by", *includers] if includers else None
        parts = [
            f"{r.line}:{r.path}:{r.how}:{','.join(r.others)}" for r in graph.includes.get(path, ())
        ]
        parts.append("included-by")
        parts.extend(includers)
        parts.append("symbols")
        for d in c.definitions:
            for site in self._index.symbols.counterparts(path, d):
                anchor = self._lookup.c_anchor(site.path, site.line, site.qualname)
                parts.append(f"{d.line}:{site.path}:{site.line}:{anchor}")
        parts.append("stubs")
        for r in c.registrations:
            stubs = self._lookup.stubs.get(r.name, ()) if r.is_dispatch_stub else ()
            parts.extend(f"{s.path}:{s.line}:{s.macro}:{s.target}:{s.through}" for s in stubs)
        return parts

    def _link_states(self, path: str) -> list[str]:
        """Where a Markdown file's links lead (other files' existence and headings)."""
        if path not in self._index.files or self._index.files.kind(path) != "markdown":
            return []
        kept = self._index.files.summary(path)
        if kept is not None:
            targets = kept.links
        else:
            markdown = self._index.files[path].facts.markdown
            targets = tuple(link.target for link in markdown.links) if markdown else ()
        return [link_state_key(path, target, self._lookup) for target in targets]

    def _listing(self, folder: str) -> str:
        """A digest of the names of the documented files in a folder, once per folder:
        every docs page of a folder of thousands of files depends on it."""
        found = self._listings.get(folder)
        if found is None:
            found = self._listings[folder] = parts_digest(self._lookup.documented_in(folder))
        return found

    def _import_lines(self, importer: str, target: str) -> str:
        """What an "Imported by" entry shows of an importer: its path and the lines of
        its imports of `target` (not the rest of its facts, which the entry never shows)."""
        imports = self._index.graph.imports.get(importer, ())
        lines = sorted({t.line for t in imports if target in t.targets})
        return f"{importer}:{lines}"

    def kw(self, path: str) -> str:
        return parts_digest([self._common, "kw", self._fact(path), *self._use_inputs(path)])

    def _use_inputs(self, path: str) -> list[str]:
        """What a file's pages show of the files that use it."""
        if self._counts is not None and self._kinds.get(path) == "cfamily":
            return self._counts.inputs(path)
        return self._uses.inputs(path)

    def folder_index(self, folder: str) -> str:
        entry = self._lookup.folder(folder)
        return parts_digest(
            [
                self._common,
                "index",
                *(self._fact(p) for p in entry.files),
                "folders",
                *entry.subfolders,
            ]
        )

    def folder_doc(self, folder: str) -> str:
        entry = self._lookup.folder(folder)
        most = [f"{p}:{n}" for p, n in self._lookup.most_imported(folder)]
        files, modules = api_inputs(self._lookup, folder)  # re-exports can lead out of it
        return parts_digest(
            [
                self._common,
                "doc",
                *(self._fact(p) for p in entry.files),
                "tree",
                self._tree(folder),
                *entry.subfolders,
                "most",
                *most,
                "api",
                *(self._fact(p) for p in files),
                *(f"{name}:{path}" for name, path in modules),
                "diagram",
                diagram.mermaid if (diagram := self._lookup.diagram(folder)) else "",
            ]
        )

    def _tree(self, folder: str) -> str:
        """A digest of what a folder page shows of the files below it (see `_outline`):
        an edit deep in the tree remakes the folder pages above it only where it
        changes what they show."""
        found = self._trees.get(folder)
        if found is None:
            entry = self._lookup.folder(folder)
            found = parts_digest(
                [
                    *(self._outline(p) for p in entry.files),
                    *(f"{sub}/{self._tree(sub)}" for sub in entry.subfolders),
                ]
            )
            self._trees[folder] = found
        return found

    def _outline(self, path: str) -> str:
        """What a folder page shows of a file of its subtree: its kind and tags (counts,
        files by tag), and all the facts of a test file (its run commands)."""
        if path in self._lookup.test_files:
            return self._fact(path)
        tags = ",".join(self._lookup.tag_names(path))
        return f"{path}:{self._index.files.kind(path)}:{tags}"

    def keyword_page(self, page: str, shown: Callable[[], Sequence[str]]) -> str:
        """A keyword page: what it shows of the index (see `KeywordJob.inputs`), made
        here, so on the core that renders the page."""
        return parts_digest([self._common, "keywords", page, *shown()])
