"""The Dependencies section: what a Python file imports, and who imports it.

The import graph (`docgen.index.graph`) decides which statements name files of the
repository; this module only sorts them into internal imports (linked to the
files' docs pages), external imports by top-level package, and importers.
An import whose top-level package is one of the repository's own, but which
names no file, is internal and unresolved: calling it external would send the
reader looking for a package that does not exist outside.  The section's view
classes live here too; `Importer` also serves a C-family page's Included By.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from docgen.index.graph import (
    ImportGraph,
    ImportTarget,
    is_stdlib,
    top_level,
)
from docgen.model.facts import FileFacts, Import
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.import_text import import_names, import_statement, module_as_written
from docgen.render.view_refs import LineRef, LinkView


@dataclass(frozen=True)
class ImportUse:
    """One import statement of a module: where, what it binds, in which block."""

    line: LineRef
    statement: str  # the import rebuilt from the facts: `from x import y as z`
    names: tuple[str, ...]  # names bound from the module ("y"); empty for `import a.b`
    context: tuple[str, ...]  # enclosing blocks, empty at top level


@dataclass(frozen=True)
class InternalImport:
    """An import statement that names a module of this repository."""

    module: str  # as written, relative dots included ("." for `from . import y`)
    use: ImportUse
    targets: tuple[LinkView, ...]  # docs pages of the files it imports; empty when unresolved
    itself: bool  # it names this very file (the graph has no edge from a file to itself)
    candidates: tuple[str, ...]  # unresolved: the absolute modules no file of the repository is
    unresolved: str  # no targets, not itself and no candidates: why it names no module


@dataclass(frozen=True)
class ExternalPackage:
    """The imports of one top-level package that resolve to no file of the repository."""

    package: str
    stdlib: bool
    uses: tuple[ImportUse, ...]  # in line order


@dataclass(frozen=True)
class Importer:
    """A file whose import statements resolve to this one."""

    path: str
    href: str  # its docs page
    lines: tuple[LineRef, ...]  # those statements in the importing file


@dataclass(frozen=True)
class DependenciesView:
    """What a file imports and what imports it, inside the repository and out."""

    internal: tuple[InternalImport, ...]  # in line order
    external: tuple[ExternalPackage, ...]  # by package name
    imported_by: tuple[Importer, ...]  # every importer, sorted by path, never cut
    imports_anything: bool  # False when the file has no import statement
    imports_known: bool = True  # False when the file could not be parsed


NO_MODULE_NAME = "this file has no importable module name, so a relative import names nothing"
CLIMBS_TOO_FAR = "it climbs above the top-level package"


def _use(path: str, facts: FileFacts, imp: Import, linker: Linker) -> ImportUse:
    return ImportUse(
        line=linker.line(path, imp.line, facts.line_count),
        statement=import_statement(imp),
        names=import_names(imp),
        context=imp.context,
    )


def _resolved(graph: ImportGraph, path: str, imports: tuple[Import, ...]) -> list[ImportTarget]:
    """Each import statement with what the graph made of it (one per statement, same order)."""
    resolved = graph.imports.get(path, ())
    if len(resolved) == len(imports):
        return list(resolved)
    # The graph was built from other facts: resolve these the way it would have.
    return list(graph.resolve(path, imports))


def candidates(imp: Import, absolute: str) -> tuple[str, ...]:
    """The modules an import could have named, as the graph looks them up (see
    docgen.index.graph)."""
    if not absolute:
        return ()
    if not imp.is_from:
        return (absolute,)
    names = [n for n in imp.names if n != "*"]
    return (*(f"{absolute}.{n}" for n in dict.fromkeys(names)), absolute)


def _importers(
    graph: ImportGraph, path: str, line_counts: Mapping[str, int], linker: Linker
) -> tuple[Importer, ...]:
    importers = []
    for other in graph.imported_by.get(path, ()):
        lines = sorted({t.line for t in graph.imports.get(other, ()) if path in t.targets})
        importers.append(
            Importer(
                path=other,
                href=linker.to_page(docs_page(other)),
                lines=tuple(linker.line(other, n, line_counts.get(other, 0)) for n in lines),
            )
        )
    return tuple(importers)


def dependencies_view(
    path: str,
    facts: FileFacts,
    graph: ImportGraph,
    packages: frozenset[str],
    line_counts: Mapping[str, int],
    linker: Linker,
) -> DependenciesView | None:
    """None when the file imports nothing and nothing imports it.

    `packages` are the repository's top-level module names; `line_counts`
    gives each file's line count, so that an importer's lines link only when
    they exist.
    """
    imports = facts.python.imports if facts.python is not None else ()
    importers = _importers(graph, path, line_counts, linker)
    if not imports and not importers:
        return None
    has_name = path in graph.module_names
    internal: list[tuple[int, str, InternalImport]] = []
    external: dict[str, list[tuple[int, str, ImportUse]]] = defaultdict(list)
    for imp, target in zip(imports, _resolved(graph, path, imports), strict=True):
        written = module_as_written(imp)
        use = _use(path, facts, imp, linker)
        package = top_level(target.absolute)
        if target.internal or (target.absolute and package in packages):
            links = tuple(linker.page_link(t, docs_page(t)) for t in target.targets)
            looked_for = () if links else candidates(imp, target.absolute)
            itself = any(c in graph.modules for c in looked_for)  # the graph drops self-imports
            reason = ""
            if itself:
                looked_for = ()
            elif not links and not looked_for:
                reason = CLIMBS_TOO_FAR if has_name else NO_MODULE_NAME
            item = InternalImport(written, use, links, itself, looked_for, reason)
            internal.append((imp.line, written, item))
        else:
            external[package or written].append((imp.line, use.statement, use))
    return DependenciesView(
        internal=tuple(item for _, _, item in sorted(internal, key=lambda x: x[:2])),
        external=tuple(
            ExternalPackage(
                package=name,
                stdlib=is_stdlib(name),
                uses=tuple(use for _, _, use in sorted(external[name], key=lambda x: x[:2])),
            )
            for name in sorted(external)
        ),
        imported_by=importers,
        imports_anything=bool(imports),
        imports_known=facts.parsed,
    )
