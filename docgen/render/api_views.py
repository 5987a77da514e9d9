"""The Public API section of a package's `doc.md`: each name of its `__init__.py`'s
`__all__`, traced through re-exports to the file that defines it."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from docgen.analyze.summary import is_top_level
from docgen.index.repo import FolderEntry
from docgen.index.top_bindings import FileBindings, star_binds
from docgen.model.anchors import anchored_definitions
from docgen.model.facts import Definition
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.listing_views import ApiName, PublicApiView
from docgen.render.lookup import RepoLookup
from docgen.render.view_refs import LinkView

INIT_FILE = "__init__.py"
API_SHOWN = 50  # names of `__all__` listed before "N more"
REEXPORT_DEPTH = 8  # re-exports followed from `__init__.py` before giving up


@dataclass(frozen=True)
class _Site:
    """Where a name is defined: a top-level class or function, or a whole module."""

    path: str
    kind: str  # class / function / module
    name: str | None  # the top-level definition's name; None for a module


class ExportResolver:
    """Traces a name a file exports to the file that defines it, through re-exports.

    It follows `from m import name` (aliases too), `import a.b as name` and
    `from m import *` into the repository's own files, and records every file
    and module name it consulted: a folder page that shows the result depends
    on exactly those.
    """

    def __init__(self, lookup: RepoLookup) -> None:
        self._lookup = lookup
        self._anchors: dict[str, dict[Definition, str]] = {}
        self.files: set[str] = set()  # files whose facts were read
        self.modules: dict[str, str] = {}  # module names looked up -> file ("" when none)

    def _module(self, name: str) -> str:
        path = self._lookup.index.graph.modules.get(name, "")
        self.modules[name] = path
        return path

    def _of(self, path: str) -> FileBindings | None:
        self.files.add(path)
        return self._lookup.bindings(path)

    def definition(self, path: str, name: str) -> tuple[Definition, str]:
        """A top-level definition the trace found, and its heading anchor on its docs page."""
        python = self._lookup.index.files[path].facts.python
        definitions = python.definitions if python is not None else ()
        anchors = self._anchors.get(path)
        if anchors is None:
            anchors = self._anchors[path] = {}
            for item in anchored_definitions(path, definitions):
                anchors.setdefault(item.definition, item.anchor)
        first = next(d for d in definitions if is_top_level(d) and d.name == name)
        return first, anchors[first]

    def resolve(self, path: str, name: str) -> tuple[_Site | None, str]:
        """Where `name`, as `path` binds it, is defined; else the module it was last seen
        imported from ("" when it was not seen imported)."""
        return self._resolve(path, name, set(), 0)

    def resolve_export(self, init: str, name: str) -> tuple[_Site | None, str]:
        """A name in a package's `__all__`: bound by `__init__.py`, or else the submodule
        that `from package import *` imports because `__all__` names it."""
        site, origin = self.resolve(init, name)
        if site is None and not origin:
            package = self._lookup.index.graph.module_names.get(init, "")
            submodule = self._module(f"{package}.{name}") if package else ""
            if submodule:
                return _Site(submodule, "module", None), ""
        return site, origin

    def _resolve(
        self, path: str, name: str, seen: set[tuple[str, str]], depth: int
    ) -> tuple[_Site | None, str]:
        if (path, name) in seen or depth > REEXPORT_DEPTH:
            return None, ""
        seen.add((path, name))
        bindings = self._of(path)
        if bindings is None:
            return None, ""
        found = bindings.definitions.get(name)
        if found is not None:
            return _Site(path, found, name), ""
        origin = ""
        for module, original in bindings.imported.get(name, ()):
            site, deeper = self._from(module, original, seen, depth + 1)
            if site is not None:
                return site, ""
            origin = origin or deeper
        for module in bindings.modules.get(name, ()):
            target = self._module(module)
            if target:
                return _Site(target, "module", None), ""
        for module in bindings.stars:
            target = self._module(module)
            if not target or target == path:
                continue
            exported = self._of(target)
            if exported is None or not star_binds(exported, name):
                continue
            site, deeper = self._resolve(target, name, seen, depth + 1)
            if site is not None:
                return site, ""
            origin = origin or deeper
        return None, origin

    def _from(
        self, module: str, name: str, seen: set[tuple[str, str]], depth: int
    ) -> tuple[_Site | None, str]:
        """`from module import name`: the module's own binding of `name`, else its submodule."""
        target = self._module(module)
        origin = module
        if target:
            site, deeper = self._resolve(target, name, seen, depth)
            if site is not None:
                return site, ""
            origin = deeper or module
        submodule = self._module(f"{module}.{name}")
        if submodule:
            return _Site(submodule, "module", None), ""
        return None, origin


def _init_file(lookup: RepoLookup, entry: FolderEntry) -> str:
    path = posixpath.join(entry.path, INIT_FILE) if entry.path else INIT_FILE
    return path if path in lookup.index.files else ""


def _api_name(
    lookup: RepoLookup,
    resolver: ExportResolver,
    name: str,
    found: tuple[_Site | None, str],
    linker: Linker,
) -> ApiName:
    site, origin = found
    if site is None:
        origin_file = lookup.index.graph.modules.get(origin, "") if origin else ""
        return ApiName(
            name=name,
            kind="",
            href="",
            source=None,
            line=None,
            origin=LinkView(origin, linker.to_page(docs_page(origin_file)) if origin_file else "")
            if origin
            else None,
        )
    source = linker.page_link(site.path, docs_page(site.path))
    if site.name is None:
        return ApiName(name, site.kind, source.href, source, None, None)
    definition, anchor = resolver.definition(site.path, site.name)
    line_count = lookup.index.files[site.path].facts.line_count
    return ApiName(
        name=name,
        kind=site.kind,
        href=linker.to_page(docs_page(site.path), anchor),
        source=source,
        line=linker.line(site.path, definition.line, line_count),
        origin=None,
    )


def _exports(
    lookup: RepoLookup, init: str, resolver: ExportResolver
) -> list[tuple[str, tuple[_Site | None, str]]] | None:
    """Each name of `__all__` (a name listed twice once) and where it was traced to;
    None when `__init__.py` has no `__all__` that lists strings."""
    resolver.files.add(init)
    kept = lookup.index.files.summary(init)
    if kept is not None:
        exported = kept.exported
    else:
        python = lookup.index.files[init].facts.python
        exported = python.dunder_all if python is not None else None
    if exported is None:
        return None
    names = dict.fromkeys(exported)
    return [(name, resolver.resolve_export(init, name)) for name in names]


def public_api(lookup: RepoLookup, entry: FolderEntry, linker: Linker) -> PublicApiView | None:
    init = _init_file(lookup, entry)
    if not init:
        return None
    resolver = ExportResolver(lookup)
    exports = _exports(lookup, init, resolver)
    link = linker.page_link(init, docs_page(init))
    if exports is None:
        parsed = lookup.index.files[init].facts.python is not None
        return PublicApiView(link, parsed, False, 0, 0, (), 0)
    shown = tuple(
        _api_name(lookup, resolver, name, where, linker) for name, where in exports[:API_SHOWN]
    )
    return PublicApiView(
        init=link,
        parsed=True,
        listed=True,
        total=len(exports),
        resolved=sum(site is not None for _, (site, _) in exports),
        names=shown,
        more=len(exports) - len(shown),
    )


def api_inputs(lookup: RepoLookup, folder: str) -> tuple[list[str], list[tuple[str, str]]]:
    """What a folder's Public API section reads beyond the folder's own files (see
    docgen.render.incremental): the files its re-exports were traced through, and each module
    name looked up with the file it names ("" for none); both sorted."""
    init = _init_file(lookup, lookup.folder(folder))
    if not init:
        return [], []
    resolver = ExportResolver(lookup)
    _exports(lookup, init, resolver)
    return sorted(resolver.files), sorted(resolver.modules.items())
