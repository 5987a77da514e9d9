"""Where a docstring's role that names another file's object leads: the definition's
anchor on that file's docs page, through the keyword index.

A target is read as Python would read the name in the file that writes it: through
the file's own imports (`nn.Module` with `import torch.nn as nn`), else as an
absolute dotted name.  The longest part of it that is a module of the tree names the
file; what follows is a definition of that file (`Linear.forward`), or a name the
file imports, followed to the file it comes from (`torch.nn.Linear` through
`torch/nn/__init__.py` and `torch/nn/modules/__init__.py` to `linear.py`).  Nothing
is guessed: a class's member it inherits is looked up on its bases (`torch.Tensor.add_`
on `torch._C.TensorBase`, declared by `torch/_C/__init__.pyi`), and a name defined
nowhere in the tree stays code.  Each file's links are resolved before its pages are
digested, so a page's digest covers where its links lead (see
`docgen.render.incremental`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.index.graph import ImportGraph, package_of
from docgen.model.sites import DefinitionSite

if TYPE_CHECKING:
    from docgen.analyze.summary import FileSummary
    from docgen.index.repo import RepoIndex
    from docgen.index.role_rows import RoleRow

#: sites by name: every site of the tree with this name
NamedSites = Callable[[str], Sequence[DefinitionSite]]

#: A link's destination: the file whose docs page holds it, and the anchor ("" for
#: the module's page itself).
Destination = tuple[str, str]

#: the longest chain of re-exports followed (a cycle ends the walk sooner)
MAX_HOPS = 16


@dataclass(frozen=True)
class RoleLinks:
    """Each file's role targets that lead to a definition of the tree, by path."""

    by_file: Mapping[str, Mapping[str, Destination]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def of(self, path: str) -> Mapping[str, Destination]:
        return self.by_file.get(path, _NONE)

    def inputs(self, path: str) -> list[str]:
        """What a file's page shows of other files through its roles, for its digest."""
        return [f"{t}={p}#{a}" for t, (p, a) in sorted(self.of(path).items())]


_NONE: Mapping[str, Destination] = MappingProxyType({})


def role_links(index: RepoIndex, named: NamedSites, paths: Iterable[str] | None) -> RoleLinks:
    """The links of the roles of `paths` (None: every Python file's)."""
    rows = index.role_rows
    if rows is None:
        return RoleLinks()
    wanted = sorted(rows.rows) if paths is None else sorted(p for p in paths if p in rows.rows)
    resolver = resolver_of(index, named)
    found: dict[str, Mapping[str, Destination]] = {}
    for path, file_rows in sorted(rows.rows.rows_of(wanted).items()):
        links = resolver.links(path, file_rows)
        if links:
            found[path] = MappingProxyType(links)
    return RoleLinks(MappingProxyType(found))


def resolver_of(index: RepoIndex, named: NamedSites) -> Resolver:
    """The resolver of a build: its import graph, its sites, its modules' `__all__` and
    its classes' bases."""
    return Resolver(index.graph, named, partial(exported_names, index), partial(class_bases, index))


class Resolver:
    """Targets resolved over one graph and one keyword index, each absolute name once."""

    def __init__(
        self,
        graph: ImportGraph,
        named: NamedSites,
        exported: Callable[[str], Sequence[str] | None] = lambda path: None,
        bases: Callable[[str, str], Sequence[str]] = lambda path, qualname: (),
    ) -> None:
        """`exported`: a module's `__all__` (None without one), for `*` imports;
        `bases`: a class's bases as its file writes them, for a member it inherits."""
        self._graph = graph
        self._named = named
        self._exported = exported
        self._bases = bases
        # A module made in C (`torch._C`) is known by its stub alone.
        stubs: dict[str, str] = {}
        for path, name in sorted(graph.module_names.items()):
            if path.endswith(".pyi") and name not in graph.modules:
                stubs.setdefault(name, path)
        self._stubs = stubs
        self._absolute: dict[str, Destination | None] = {}

    def links(self, path: str, rows: Iterable[RoleRow]) -> dict[str, Destination]:
        """Where each of a file's targets leads, for those that lead somewhere."""
        found: dict[str, Destination] = {}
        for target, stands_for in sorted({(r[0], r[1]) for r in rows}):
            if target in found:
                continue
            destination = self.target(path, target, stands_for)
            if destination is not None:
                found[target] = destination
        return found

    def target(self, path: str, target: str, stands_for: str) -> Destination | None:
        """A target of `path`'s docstrings: what its imports make of it, else itself."""
        if stands_for:
            absolute = self._absolute_name(path, stands_for)
            return self.absolute(absolute) if absolute else None
        return self.absolute(target)

    def _absolute_name(self, path: str, written: str) -> str:
        """A name as an import of `path` writes it (`..modules.Linear`), made absolute."""
        level = len(written) - len(written.lstrip("."))
        if not level:
            return written
        own = self._graph.module_names.get(path)
        if own is None:
            return ""
        parts = package_of(path, own).split(".") if own else []
        if level - 1 > len(parts):
            return ""
        base = parts[: len(parts) - (level - 1)]
        rest = written[level:]
        return ".".join([*base, rest] if rest else base)

    def absolute(self, dotted: str) -> Destination | None:
        """An absolute dotted name's destination, or None."""
        if dotted not in self._absolute:
            self._absolute[dotted] = self._lookup(dotted, MAX_HOPS)
        return self._absolute[dotted]

    def _lookup(self, dotted: str, hops: int) -> Destination | None:
        """`absolute` with `hops` re-exports left to follow (the same for every call
        from outside, so what it finds never depends on what was asked before)."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            module = self._module(".".join(parts[:end]))
            if module is not None:
                return self._walk(module, parts[end:], hops)
        return None

    def _walk(self, path: str, rest: list[str], hops: int) -> Destination | None:
        """`rest` in the module of `path`: defined there, or imported and followed."""
        if not rest:
            return path, ""
        qualname = ".".join(rest)
        sites = sorted((s for s in self._named(rest[-1]) if s.path == path), key=_by_line)
        for site in sites:
            if site.qualname == qualname and site.kind != "import":
                return path, site.anchor
        if hops == 0:
            return None
        if len(rest) > 1 and any(
            s.path == path and s.kind == "class" and s.qualname == rest[0]
            for s in self._named(rest[0])
        ):
            # a member the class inherits: `Tensor.add_` from `torch._C.TensorBase`
            for base in self._bases(path, rest[0]):
                found = self._walk(path, [*base.split("."), *rest[1:]], hops - 1)
                absolute = self._imported_name(path, base) if found is None else None
                if absolute:
                    found = self._lookup(".".join([absolute, *rest[1:]]), hops - 1)
                if found is not None:
                    return found
            return None
        # a name bound under a name of its own: `import a.b as c`, `from x import y as c`
        first = sites if len(rest) == 1 else self._named(rest[0])
        for site in sorted((s for s in first if s.path == path), key=_by_line):
            if site.kind == "import" and site.name == rest[0]:
                absolute = self._absolute_name(path, site.qualname)
                whole = ".".join([absolute, *rest[1:]])
                return self._lookup(whole, hops - 1) if absolute else None
        source = self._source(path, rest[0])
        if source is not None:
            file, used = source
            return self._walk(file, rest[used:], hops - 1) if file and file != path else None
        for module in self._starred(path, rest[0]):  # `from x import *`, in line order
            found = self._walk(module, rest, hops - 1)
            if found is not None:
                return found
        return None

    def _imported_name(self, path: str, written: str) -> str:
        """A dotted name as `path`'s plain imports make it absolute: `torch._C.TensorBase`
        with `import torch`, `_C.TensorBase` with `from torch import _C`; "" when no
        such import binds its first name."""
        first = written.partition(".")[0]
        for target in self._graph.imports.get(path, ()):
            if first in target.renamed:
                continue
            if target.names and first in target.names and target.absolute:
                return f"{target.absolute}.{written}"
            if not target.names and not target.star and target.absolute.split(".")[0] == first:
                return written
        return ""

    def _module(self, name: str) -> str | None:
        """The file of a dotted module: its source, else its stub."""
        return self._graph.modules.get(name) or self._stubs.get(name)

    def _source(self, path: str, name: str) -> tuple[str, int] | None:
        """The file `path` imports `name` from ("" when it is not in the tree), and how
        many names of the target that uses up: 1 for a submodule (`from . import nn`), 0
        for a name of the module; None when no import of it names it."""
        for target in self._graph.imports.get(path, ()):
            if name in target.names and name not in target.renamed:
                submodule = self._module(f"{target.absolute}.{name}")
                if submodule is not None:
                    return submodule, 1
                return self._module(target.absolute) or "", 0
        return None

    def _starred(self, path: str, name: str) -> list[str]:
        """The files whose names `path` imports with `*` and that give `name` so: in
        their `__all__`, or, without one, when it is public."""
        found = []
        for target in self._graph.imports.get(path, ()):
            module = self._module(target.absolute) if target.star else None
            if module is None or module == path:
                continue
            exported = self._exported(module)
            if name in exported if exported is not None else not name.startswith("_"):
                found.append(module)
        return found


def exported_names(index: RepoIndex, path: str) -> Sequence[str] | None:
    """A Python file's `__all__` as its summary or facts hold it (None without one)."""
    summary = index.files.summary(path)
    if summary is not None:
        return summary.exported
    python = index.files[path].facts.python if path in index.files else None
    return python.dunder_all if python is not None else None


def class_bases(index: RepoIndex, path: str, qualname: str) -> Sequence[str]:
    """The bases of a class of a Python file as written, where each is a dotted name."""
    python = index.files[path].facts.python if path in index.files else None
    for definition in python.definitions if python is not None else ():
        if definition.kind == "class" and definition.qualname == qualname:
            return [b for b in definition.bases if _DOTTED.fullmatch(b)]
    return ()


_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _by_line(site: DefinitionSite) -> tuple[int, str, str]:
    return site.line, site.kind, site.qualname


def sites_in_memory(sites: Iterable[DefinitionSite]) -> NamedSites:
    """Sites by name from every site of the tree (a build that read them all)."""
    by_name: dict[str, list[DefinitionSite]] = {}
    for site in sites:
        by_name.setdefault(site.name, []).append(site)

    def named(name: str) -> Sequence[DefinitionSite]:
        return by_name.get(name, ())

    return named


def sites_of_tree(
    stored: Callable[[str], Sequence[DefinitionSite]],
    current: Callable[[str], bool],
    fresh: Mapping[str, Sequence[DefinitionSite]],
) -> NamedSites:
    """Sites by name from the stored index (`stored`), of the files whose stored sites
    are still theirs (`current`), and this build's `fresh` sites of the others."""
    made_now = sites_in_memory(s for sites in fresh.values() for s in sites)
    known: dict[str, Sequence[DefinitionSite]] = {}

    def named(name: str) -> Sequence[DefinitionSite]:
        found = known.get(name)
        if found is None:
            kept = [s for s in stored(name) if s.path not in fresh and current(s.path)]
            found = known[name] = [*kept, *made_now(name)]
        return found

    return named


@dataclass(frozen=True)
class RoleSites:
    """The keyword index roles are resolved through: as the last build stored it, for
    the files whose stored sites are still theirs, and as this build made the sites of
    the others (`KeywordSites.changed`, or every site where the build read them all)."""

    stored: Callable[[str], Sequence[DefinitionSite]]  # the stored sites of a name
    stored_of: Callable[[Iterable[str]], Sequence[DefinitionSite]]  # ... of these files
    current: Callable[[str], bool]  # whether a file's stored sites are still its own

    def named(
        self, sites: Sequence[DefinitionSite], changed: Sequence[DefinitionSite] | None
    ) -> NamedSites:
        """Every site of the tree by name: `sites` when they are every site (`changed`
        None), else the stored ones and `changed`, every site of the files whose sites
        changed."""
        if changed is None:
            return sites_in_memory(sites)
        return sites_of_tree(self.stored, self.current, _by_path(changed))

    def linked(
        self,
        index: RepoIndex,
        edits: Mapping[str, tuple[FileSummary | None, FileSummary | None]],
        sites: Sequence[DefinitionSite],
        changed: Sequence[DefinitionSite] | None,
    ) -> set[str] | None:
        """The files whose roles may lead elsewhere after these edits: those whose role
        rows name a name whose sites or imports the edits changed; None when that cannot
        be told (a `*` import came or went).  `sites`, `changed`: as for `named`."""
        names = imported_names_moved(edits.values())
        if names is None:
            return None
        after = [site for site in (sites if changed is None else changed) if site.path in edits]
        names |= moved_names(self.stored_of(sorted(edits)), after)
        rows = index.role_rows
        return rows.holding(names) if rows is not None and names else set()


def _by_path(sites: Iterable[DefinitionSite]) -> dict[str, list[DefinitionSite]]:
    found: dict[str, list[DefinitionSite]] = {}
    for site in sites:
        found.setdefault(site.path, []).append(site)
    return found


def imported_names_moved(
    edits: Iterable[tuple[FileSummary | None, FileSummary | None]],
) -> set[str] | None:
    """Every name an import that came or went binds or names, and every name that came
    into or went out of an `__all__`; None when that cannot be told (a `*` import came
    or went, an `__all__` came or went)."""
    names: set[str] = set()
    for before, after in edits:
        old = set(before.imports or ()) if before is not None else set()
        new = set(after.imports or ()) if after is not None else set()
        for imp in old ^ new:
            if imp.star:
                return None
            names.update(imp.names)
            names.update(bound for bound, _ in imp.aliases)
            names.update((imp.module or "").lstrip(".").split("."))
        exported = [s.exported if s is not None else None for s in (before, after)]
        if exported[0] != exported[1]:
            if exported[0] is None or exported[1] is None:
                return None
            names.update(set(exported[0]) ^ set(exported[1]))
    return names - {""}


def moved_names(before: Iterable[DefinitionSite], after: Iterable[DefinitionSite]) -> set[str]:
    """The names whose sites came, went or changed anchor (a line that moved alone
    changes no link)."""

    def placed(sites: Iterable[DefinitionSite]) -> set[tuple[str, str, str, str, str]]:
        return {(s.name, s.path, s.kind, s.qualname, s.anchor) for s in sites}

    return {site[0] for site in placed(before) ^ placed(after)}
