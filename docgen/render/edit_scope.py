"""Which pages an edit can change, so that only their inputs are digested.

A file's docs and keyword pages are digested (see `docgen.render.incremental`) from its
own facts and from what the index says of it: its importers, its tests, its
folder's listing, its suite's classes, its links.  After an edit that adds,
removes or renames no file, changes no C-family file, YAML file or stub of
`torch._C` (operators and their kernels and bindings link to each other) and leaves every changed
file's kind, tags and test suite as they were, those can differ only for:

- the changed files themselves;
- the files they import, now or before the edit, on lines that came, went or moved
  (an "Imported by" entry shows an importer's lines of its imports of the file);
- the files an edited file's imported names come from, through re-exports, where the
  edit changed that (the tests that reach them);
- files with a test suite (a class's chain of bases may lead through a changed file);
- Markdown files (a link's state follows the file it leads to);
- the files whose docstring roles name a name whose sites or imports the edit changed
  (a role's link follows the definition it leads to, see `docgen.render.role_links`);
- the C-family files that bind or register a name an edited file's code reads, now or
  before the edit (their bindings list their callers, see `docgen.render.native_links`),
  unless a build script (`setup.py`) changed: it tells which module C++ is compiled into;
- the files defining a name that an edited file attaches a docstring to (`add_docstr`),
  now or before the edit, or that a file whose roles lead elsewhere now attaches one
  to (see `docgen.render.attached_links`);
- the Python files defining a name an edited file's code reads, now or before the
  edit, on lines that came, went or moved (their definitions list their uses, see
  `docgen.render.use_links`; a re-export the edit changed is one of the above);

and the pages of the folders above a changed file or a file it imports (their
listings, diagrams, most imported files), and of those whose Public API is traced
through a changed file.  Every other file's or folder's page keeps the digest it
was last written with (the keyword pages are always digested).  The
last build leaves a `scope_key` of what this rests on (every page's common inputs,
the paths of the tree, its test files) only when it finished and wrote every
page: else, and whenever one of the conditions fails, every page is digested.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from docgen.analyze.summary import FileSummary
from docgen.model.links import folder_chain, folder_of
from docgen.render.api_views import api_inputs
from docgen.render.lookup import RepoLookup
from docgen.render.stub_operators import is_extension_stub


def scope_key(common: str, paths: Iterable[str], tests: Iterable[str]) -> str:
    """What the pages outside an edit's scope rest on: every page's common inputs, the
    tree's paths and its test files."""
    text = json.dumps([common, sorted(paths), sorted(tests)])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class EditScope:
    """The pages an edit can change: the docs and keyword pages of `files`, the folder
    pages of `folders`; every other one keeps the digest it was last written with."""

    files: frozenset[str]
    folders: frozenset[str]


def edit_scope(
    lookup: RepoLookup,
    edits: Mapping[str, tuple[FileSummary | None, FileSummary | None]],
    last_key: str,
    key: str,
    linked: Callable[[], set[str] | None] = lambda: None,
    called: Callable[[], set[str] | None] = lambda: None,
    documented: Callable[[set[str]], set[str] | None] = lambda linked: None,
    used: Callable[[], set[str] | None] = lambda: None,
) -> EditScope | None:
    """The scope of these `edits` (path -> its summary before and after; None for a
    C-family file or one unknown before), given the last build's scope key and this
    one's, `linked`, the files whose roles may lead elsewhere now, and `called`, the
    C-family files whose bindings the edits' calls into C++ reached or now reach (None:
    unknown), and `documented(linked)`, the Python files whose definitions an edited or
    a linked file's attached docstrings document or documented (None: unknown), and
    `used`, the Python files defining a name whose uses the edits' rows moved (None:
    unknown); None when every page must be digested (see the module's docstring)."""
    index = lookup.index
    if not last_key or last_key != key:
        return None
    kinds = index.files.kinds()
    if any(p in index.c_included or kinds.get(p) == "cfamily" for p in edits):
        return None
    if any(kinds.get(p) == "yaml" for p in edits):
        return None  # derivative entries link to operators: before an edit, and after
    names = index.graph.module_names
    if any(is_extension_stub(p, names.get(p, "")) for p in edits):
        return None  # operators link to the stubs that bind them
    if not index.c_summaries and "cfamily" in kinds.values():
        return None  # the C-family relations were made again: their digests may differ
    for before, after in edits.values():
        if before is None or after is None or not _same_standing(before, after):
            return None
    # An imported file's pages show an importer's lines of its imports of it: only the
    # files whose such lines came, went or moved (the import rows that moved).
    rows = index.import_rows
    imported = rows.moved(edits.keys()) if rows is not None else None
    if imported is None:
        return None
    roles = linked()
    if roles is None:
        return None
    callees = called()
    if callees is None:
        return None  # a build script's modules, or rows not known before the edit
    attached = documented(roles)
    if attached is None:
        return None
    definers = used()
    if definers is None:
        return None
    changed = {*edits, *index.test_classes, *index.derived}  # facts, or evidence from others
    imported |= _reached_through(lookup, edits)
    markdown = {p for p, kind in kinds.items() if kind == "markdown"}
    return EditScope(
        files=frozenset(changed | imported | markdown | roles | callees | attached | definers),
        folders=frozenset(_folders_shown(lookup, changed, imported)),
    )


def _reached_through(
    lookup: RepoLookup, edits: Mapping[str, tuple[FileSummary | None, FileSummary | None]]
) -> set[str]:
    """The files an edited file's imported names came from or come from, where the edit
    changed that: their pages list the tests that reach them through re-exports (an
    import row shows only the first module), and an edited test or re-exporting module
    changes which those are."""
    found: set[str] = set()
    graph = lookup.index.graph
    for path, (before, _) in edits.items():
        if before is None or before.imports is None:
            found.update(lookup.reached_by(path))
            continue
        now = lookup.origins.pairs(graph.imports.get(path, ()))
        earlier = lookup.origins.pairs(graph.resolve(path, before.imports))
        found.update(origin for _, origin in now ^ earlier)  # where a name comes from changed
    return found


def _folders_shown(lookup: RepoLookup, changed: set[str], imported: set[str]) -> set[str]:
    """The folders whose pages show what changed: those above a changed file (its facts,
    its imports in the diagram), above a file it imports (the most imported), and those
    whose Public API was traced through a changed file."""
    found = {a for p in changed | imported for a in folder_chain(folder_of(p))}
    for folder in lookup.index.folders:
        if folder not in found and not changed.isdisjoint(api_inputs(lookup, folder)[0]):
            found.add(folder)
    return found


def _same_standing(before: FileSummary, after: FileSummary) -> bool:
    """Whether a changed file stands as before for the other files' pages: the same kind,
    tags and test suite (its test files, its folder's listing)."""
    return (before.kind, before.tags, before.suite) == (after.kind, after.tags, after.suite)
