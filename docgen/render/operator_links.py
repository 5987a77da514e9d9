"""Where an operator file's names lead in other files, through the keyword index: each
`dispatch:` kernel to the C++ that declares and defines it (`CPU: add_out` is
`at::native::add_out`; a `structured: True` op's kernel is the struct
`at::native::structured_add_out` that torchgen declares in `ATen/ops/add_native.h`), and
each `derivatives.yaml` entry to its operator's section.  Nothing is guessed: a kernel
the tree declares nowhere stays code, and the page says so.  Each file's links are
resolved before its pages are digested, so a page's digest covers where they lead
(see `docgen.render.incremental`); an edit of a YAML file digests every page (see
`docgen.render.edit_scope`), as does any C-family edit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.model.kernel_names import KERNEL_KINDS, dispatch_kernels, operator_qualname
from docgen.model.yaml_facts import YamlFacts
from docgen.render.operator_files import OperatorFile, operator_files
from docgen.render.stub_operators import (
    OperatorUse,
    StubOperators,
    bound_names,
    stub_operators,
)

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.render.role_links import NamedSites


@dataclass(frozen=True, order=True)
class Place:
    """A definition of another file: its path, line, anchor and qualified name."""

    path: str
    line: int
    anchor: str
    qualname: str


@dataclass(frozen=True)
class OperatorLinks:
    """Each YAML file's kernels (`kernel:add_out`) and operators (`op:add.Tensor`) that
    lead to definitions of the tree, by path."""

    by_file: Mapping[str, Mapping[str, tuple[Place, ...]]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: each stub file's Python names and the operators they run (see `stub_operators`)
    uses: StubOperators = field(default_factory=lambda: MappingProxyType({}))
    #: each C-family file's kernels (by qualified name) and the operators they run for
    kernels: Mapping[str, Mapping[str, tuple[KernelUse, ...]]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def of(self, path: str) -> Mapping[str, tuple[Place, ...]]:
        return self.by_file.get(path, _NONE)

    def used_by(self, path: str) -> Mapping[str, tuple[OperatorUse, ...]]:
        """A stub file's Python names (`add`, `TensorBase.add_`) and their operators."""
        return self.uses.get(path, _NO_USES)

    def kernels_in(self, path: str) -> Mapping[str, tuple[KernelUse, ...]]:
        """A C-family file's kernels and the operator dispatch lines that name them."""
        return self.kernels.get(path, _NO_KERNELS)

    def inputs(self, path: str) -> list[str]:
        """What a file's page shows of other files through these links, for its digest."""
        return [
            *(f"{q}<{u}" for q, uses in sorted(self.kernels_in(path).items()) for u in uses),
            *(
                f"{name}={p.path}:{p.line}#{p.anchor}={p.qualname}"
                for name, places in sorted(self.of(path).items())
                for p in places
            ),
            *(f"{name}:{u.key()}" for name, uses in self.used_by(path).items() for u in uses),
        ]


_NONE: Mapping[str, tuple[Place, ...]] = MappingProxyType({})
_NO_USES: Mapping[str, tuple[OperatorUse, ...]] = MappingProxyType({})


@dataclass(frozen=True, order=True)
class KernelUse:
    """A dispatch line that names a kernel: its operator, the line's keys and where the
    operator's section is."""

    operator: str  # `aten::add.Tensor`
    keys: tuple[str, ...]
    path: str
    line: int
    anchor: str  # the operator's section
    shared: int = 1  # the most declarations of the kernel's name in one file: its overloads


_NO_KERNELS: Mapping[str, tuple[KernelUse, ...]] = MappingProxyType({})


def kernel_key(qualname: str) -> str:
    """`kernel:at::native::add_out`: a kernel's key among a file's links."""
    return f"kernel:{qualname}"


def derivative_key(name: str) -> str:
    """`grad:add.Tensor`: an operator's `derivatives.yaml` entries among a file's links."""
    return f"grad:{name}"


def python_key(name: str) -> str:
    """`py:add.Tensor`: the Python bindings of an operator among a file's links."""
    return f"py:{name}"


def operator_key(name: str) -> str:
    """`op:add.Tensor`: an operator's key among a file's links."""
    return f"op:{name}"


def operator_links(
    index: RepoIndex, named: NamedSites, paths: Iterable[str] | None
) -> OperatorLinks:
    """The links of the YAML files among `paths` (None: every one) that declare
    operators or derivative formulas."""
    kinds = index.files.kinds()
    wanted = sorted(kinds if paths is None else set(paths) & kinds.keys())
    yaml_wanted = [p for p in wanted if kinds.get(p) == "yaml"]
    found: dict[str, dict[str, tuple[Place, ...]]] = {}
    for path in yaml_wanted:
        yaml = index.files[path].facts.yaml
        if yaml is not None and (yaml.operators or yaml.derivatives):
            found[path] = _links_of(yaml, named)
    for path, bound in bound_names(index, yaml_wanted).items():
        links = found.setdefault(path, {})
        for name, places in bound.items():
            links[python_key(name)] = tuple(Place(p, line, a, q) for q, p, line, a in places)
    every_file = cache(partial(operator_files, index))  # read once, by whichever asks first
    c_wanted = {p for p in wanted if kinds.get(p) == "cfamily"}
    kernels = _kernel_uses(every_file(), named, c_wanted) if c_wanted else {}
    return OperatorLinks(
        MappingProxyType({p: MappingProxyType(links) for p, links in found.items() if links}),
        stub_operators(index, paths, every_file),
        kernels,
    )


def _places(named: NamedSites, qualname: str, kinds: Iterable[str]) -> tuple[Place, ...]:
    """The sites of the tree with this qualified name and one of these kinds, sorted;
    looked up by the short name (`add` of `aten::add.Tensor`, `add_out` of
    `at::native::add_out`)."""
    short = qualname.rsplit("::", 1)[-1].split(".", 1)[0]
    wanted = frozenset(kinds)
    return tuple(
        sorted(
            {
                Place(s.path, s.line, s.anchor, s.qualname)
                for s in named(short)
                if s.qualname == qualname and s.kind in wanted
            }
        )
    )


def _add(links: dict[str, tuple[Place, ...]], key: str, places: tuple[Place, ...]) -> None:
    if places and key not in links:
        links[key] = places


def _kernel_uses(
    files: Iterable[OperatorFile], named: NamedSites, paths: set[str]
) -> Mapping[str, Mapping[str, tuple[KernelUse, ...]]]:
    """Each kernel declared or defined in `paths` that a dispatch line of an operator
    file names, with the operators it runs for."""
    found: dict[str, dict[str, set[KernelUse]]] = {}
    for path, yaml, anchored in files:
        for operator, anchor in anchored.operators:
            qualname = operator_qualname(yaml.namespace, operator.name)
            for keys, kernel in dispatch_kernels(operator):
                same = _places(named, kernel, KERNEL_KINDS)
                overloads = max(Counter(s.path for s in same).values(), default=1)
                use = KernelUse(qualname, keys, path, operator.line, anchor, overloads)
                for site in same:
                    if site.path in paths:
                        found.setdefault(site.path, {}).setdefault(kernel, set()).add(use)
    return MappingProxyType(
        {
            p: MappingProxyType({k: tuple(sorted(u)) for k, u in sorted(kernels.items())})
            for p, kernels in sorted(found.items())
        }
    )


def _links_of(yaml: YamlFacts, named: NamedSites) -> dict[str, tuple[Place, ...]]:
    links: dict[str, tuple[Place, ...]] = {}
    for operator in yaml.operators:
        for _, wanted in dispatch_kernels(operator):
            _add(links, kernel_key(wanted), _places(named, wanted, KERNEL_KINDS))
        wanted = operator_qualname(yaml.namespace, operator.name)
        _add(links, derivative_key(operator.name), _places(named, wanted, {"derivative"}))
    for derivative in yaml.derivatives:
        wanted = operator_qualname(yaml.namespace, derivative.name)
        _add(links, operator_key(derivative.name), _places(named, wanted, {"op"}))
    return links
