"""Where a Python file's calls lead into C++, and which Python calls each binding of a
C-family file (see `docgen.index.native_calls`): `flash_attn_gpu.fwd(...)` of
`flash_attn/flash_attn_interface.py` is the `m.def("fwd", &mha_fwd)` of
`csrc/flash_attn/flash_api.cpp` (compiled into `flash_attn_2_cuda`, as `setup.py`
says), which binds `mha_fwd`; `torch.ops.flash_attn_3.fwd` is the `m.def` of a
`TORCH_LIBRARY(flash_attn_3, m)` block; `aten.add.Tensor` the `- func:` entry of
`add.Tensor`.  Resolved before the pages are digested, so that a page's digest
covers where its links lead."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.analyze.dotted_reads import OPS_PREFIX
from docgen.index.cfamily_relations import names_made
from docgen.index.native_calls import (
    BUILD_SCRIPT,
    CallRow,
    NativeEnd,
    call_key,
    extension_roots,
    native_ends,
    row_lines,
    target_sites,
)
from docgen.model.binding_names import binds_lambda, bound_binding
from docgen.model.sites import DefinitionSite

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.render.role_links import NamedSites

#: the most files a binding's file is read to include, directly or not
MAX_VISIBLE = 5000


@dataclass(frozen=True, order=True)
class NativeCall:
    """A dotted name a Python file reads that the tree makes in C++: as written, as
    Python resolves it, on which lines, and where it is made."""

    written: str
    name: str
    lines: tuple[int, ...]
    ends: tuple[BoundEnd, ...]

    def key(self) -> str:
        return f"{self.written}={self.name}@{self.lines}:{[e.key() for e in self.ends]}"


@dataclass(frozen=True, order=True)
class BoundEnd:
    """One place a name is made: the binding or operator site, the modules the file is
    compiled into (for a binding), and the C++ it binds with where the tree defines it."""

    end: NativeEnd
    modules: tuple[str, ...] = ()
    target: str = ""  # the C++ as the binding writes it, "" for a lambda or an op
    #: (path, line, anchor) of the definitions of `target` in the tree
    defined: tuple[tuple[str, int, str], ...] = ()
    lambda_bound: bool = False  # a callable bound with no C++ name: a lambda

    def key(self) -> str:
        return f"{self.end}:{self.modules}:{self.target}:{self.defined}:{self.lambda_bound}"


@dataclass(frozen=True, order=True)
class NativeCaller:
    """A Python file's use of a binding or an operator of a C-family file."""

    path: str
    lines: tuple[int, ...]
    written: str
    name: str

    def key(self) -> str:
        return f"{self.path}@{self.lines}:{self.written}={self.name}"


@dataclass(frozen=True)
class NativeLinks:
    """Each Python file's calls into C++, and each C-family file's callers by the line
    of its binding or `m.def`."""

    calls: Mapping[str, tuple[NativeCall, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    callers: Mapping[str, Mapping[int, tuple[NativeCaller, ...]]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: the modules each C-family file is compiled into, as the build scripts say
    roots: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    #: where the C++ each binding of a C-family file names is defined, by (line, target)
    #: as (path, anchor) (see `docgen.index.native_calls.target_sites`)
    targets: Mapping[str, Mapping[tuple[int, str], tuple[tuple[str, str], ...]]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def calls_of(self, path: str) -> tuple[NativeCall, ...]:
        return self.calls.get(path, ())

    def callers_of(self, path: str) -> Mapping[int, tuple[NativeCaller, ...]]:
        return self.callers.get(path, _NO_CALLERS)

    def inputs(self, path: str) -> list[str]:
        """What a file's page shows of other files through these links, for its digest."""
        return [
            *(c.key() for c in self.calls_of(path)),
            *(f"{line}<{c.key()}" for line, found in self.callers_of(path).items() for c in found),
            *(f"module:{m}" for m in self.roots.get(path, ())),
            *(f"target:{at}={found}" for at, found in self.targets.get(path, {}).items()),
        ]


_NO_CALLERS: Mapping[int, tuple[NativeCaller, ...]] = MappingProxyType({})


def build_scripts(index: RepoIndex) -> list[str]:
    """The tree's `setup.py` files: their extension modules name what C++ is compiled into."""
    kinds = index.files.kinds()
    return [
        p for p, kind in kinds.items() if kind == "python" and posixpath.basename(p) == BUILD_SCRIPT
    ]


def native_links(index: RepoIndex, named: NamedSites, paths: Iterable[str] | None) -> NativeLinks:
    """The links of the files among `paths` (None: every file)."""
    rows = index.native_rows
    if rows is None:
        return NativeLinks()
    kinds = index.files.kinds()
    scripts = [(p, index.files[p].facts.python) for p in build_scripts(index)]
    roots = extension_roots(scripts, (p for p, k in kinds.items() if k == "cfamily"))
    kinds_wanted = kinds.keys() if paths is None else set(paths) & kinds.keys()
    wanted = sorted(kinds_wanted)
    resolver = _Resolver(index, named, roots)
    calls: dict[str, tuple[NativeCall, ...]] = {}
    python_rows = rows.rows.rows_of([p for p in wanted if kinds[p] == "python"])
    for path, made in sorted(python_rows.items()):
        found = resolver.calls(made)
        if found:
            calls[path] = found
    callers: dict[str, dict[int, list[NativeCaller]]] = {}
    made_by = {p: resolver.names_made(p) for p in wanted if kinds[p] == "cfamily"}
    targets = {p for p, names in made_by.items() if names}
    if targets:
        keys = set().union(*(made_by[p] for p in targets))
        held = rows.rows.rows_of(sorted(rows.holding(keys)))
        for holder, made in sorted(held.items()):
            for row in made:
                if call_key(row) not in keys:
                    continue
                for end in resolver.ends(row[0]):
                    if end.path in targets:
                        caller = NativeCaller(holder, row_lines(row), row[1], row[0])
                        callers.setdefault(end.path, {}).setdefault(end.line, []).append(caller)
    return NativeLinks(
        MappingProxyType(calls),
        MappingProxyType(
            {
                p: MappingProxyType({line: tuple(sorted(set(c))) for line, c in sorted(by.items())})
                for p, by in sorted(callers.items())
            }
        ),
        MappingProxyType({p: r for p, r in roots.items() if paths is None or p in kinds_wanted}),
        MappingProxyType({p: resolver.targets(p) for p in targets}),
    )


class _Resolver:
    def __init__(
        self, index: RepoIndex, named: NamedSites, roots: Mapping[str, tuple[str, ...]]
    ) -> None:
        self.index, self.named, self.roots = index, named, roots
        self._ends: dict[str, tuple[NativeEnd, ...]] = {}
        self._bound: dict[NativeEnd, BoundEnd] = {}
        self._visible: dict[str, frozenset[str]] = {}
        self._defined: dict[tuple[str, str], tuple[tuple[str, int, str], ...]] = {}
        self._made: frozenset[str] | None = None

    def made_anywhere(self) -> frozenset[str]:
        """Every name a C-family file of the tree binds or registers (from the kept
        summaries where the facts stay encoded)."""
        if self._made is None:
            summaries = self.index.c_summaries
            made: set[str] = set()
            for path, kind in self.index.files.kinds().items():
                if kind != "cfamily":
                    continue
                summary = summaries.get(path)
                if summary is None:
                    made |= self.names_made(path)
                elif summary.made:  # most C-family files bind nothing
                    made.update(summary.made)
            self._made = frozenset(made)
        return self._made

    def ends(self, name: str) -> tuple[NativeEnd, ...]:
        found = self._ends.get(name)
        if found is None:
            found = self._ends[name] = native_ends(name, self.named, self.roots)
        return found

    def calls(self, rows: Iterable[CallRow]) -> tuple[NativeCall, ...]:
        found = []
        for row in rows:
            name, written, _ = row
            if not name.startswith(OPS_PREFIX) and call_key(row) not in self.made_anywhere():
                continue  # no C-family file of the tree binds a name so spelled
            ends = self.ends(name)
            if ends:
                bound = tuple(self.bound(e) for e in ends)
                found.append(NativeCall(written, name, row_lines(row), bound))
        return tuple(sorted(found, key=lambda c: (c.lines, c.written, c.name)))

    def bound(self, end: NativeEnd) -> BoundEnd:
        """The binding's modules and target, with the target's definitions."""
        known = self._bound.get(end)
        if known is not None:
            return known
        made = BoundEnd(end)
        if end.kind == "binding":
            c = self.index.files[end.path].facts.cfamily
            binding = bound_binding(c.bindings if c is not None else (), end.line, end.qualname)
            target = binding.target if binding is not None else ""
            defined = self.defined(end.path, target)
            lambda_bound = binds_lambda(binding)
            made = BoundEnd(end, self.roots.get(end.path, ()), target, defined, lambda_bound)
        self._bound[end] = made
        return made

    def targets(self, path: str) -> Mapping[tuple[int, str], tuple[tuple[str, str], ...]]:
        """Where the C++ of each binding of a C-family file is defined."""
        c = self.index.files[path].facts.cfamily
        found: dict[tuple[int, str], tuple[tuple[str, str], ...]] = {}
        for b in c.bindings if c is not None else ():
            if b.target and b.kind != "module":
                sites = self.defined(path, b.target)
                if sites:
                    found[(b.line, b.target)] = tuple((p, anchor) for p, _, anchor in sites)
        return MappingProxyType(dict(sorted(found.items())))

    def defined(self, path: str, target: str) -> tuple[tuple[str, int, str], ...]:
        """(path, line, anchor) of the definitions of a binding's C++ of a file, looked
        up once for the Python pages that call it and the file's own page."""
        key = (path, target)
        known = self._defined.get(key)
        if known is None:
            sites = target_sites(self.named, path, target, partial(self.visible, path))
            known = self._defined[key] = tuple((s.path, s.line, s.anchor) for s in sites)
        return known

    def visible(self, path: str) -> frozenset[str]:
        """The files a C-family file includes, directly or not (at most `MAX_VISIBLE`)."""
        known = self._visible.get(path)
        if known is None:
            includes = self.index.includes
            seen: set[str] = set()
            queue = [path]
            while queue and len(seen) < MAX_VISIBLE:
                for included in includes.includes_of(queue.pop()):
                    if included not in seen:
                        seen.add(included)
                        queue.append(included)
            known = self._visible[path] = frozenset(seen)
        return known

    def names_made(self, path: str) -> frozenset[str]:
        """The names a C-family file binds or registers with `m.def`, from its kept
        summary where its facts stay encoded."""
        summary = self.index.c_summaries.get(path)
        if summary is not None:
            return frozenset(summary.made)
        c = self.index.files[path].facts.cfamily
        return names_made(c) if c is not None else frozenset()


def native_callees(
    index: RepoIndex, named: NamedSites, edits: Mapping[str, object]
) -> set[str] | None:
    """The C-family files whose bindings or `m.def` operators an edit of these files can
    add or remove a caller of: those making a name whose rows came or went; None when a
    build script was edited or a file's rows before the edit are not known."""
    if any(posixpath.basename(p) == BUILD_SCRIPT for p in edits):
        return None
    kinds = index.files.kinds()
    return moved_definers(
        index,
        named,
        edits,
        lambda s: s.kind in ("binding", "op") and kinds.get(s.path) == "cfamily",
    )


def moved_definers(
    index: RepoIndex,
    named: NamedSites,
    edits: Mapping[str, object],
    wanted: Callable[[DefinitionSite], bool],
) -> set[str] | None:
    """The files of the `wanted` sites named by a key that an edit of these files moved
    a row of the dotted-reads relation to or from; None when a file's rows before the
    edit are not known."""
    rows = index.native_rows
    if rows is None:
        return set()
    keys = rows.moved(edits.keys())
    if keys is None:
        return None
    return {s.path for key in sorted(keys) for s in named(key) if wanted(s)}
