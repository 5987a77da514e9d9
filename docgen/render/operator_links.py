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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.model.anchors import operator_qualname
from docgen.model.kinds import CALLABLE_KINDS
from docgen.model.yaml_facts import OperatorEntry, YamlFacts

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.render.role_links import NamedSites

#: the C++ namespace torchgen declares the kernels of `native_functions.yaml` in
NATIVE = "at::native"
#: the dispatch keys whose kernels of a structured op are structs (torchgen's
#: `STRUCTURED_DISPATCH_KEYS`); a structured op's kernels for other keys are functions
STRUCTURED_KEYS = frozenset({"CPU", "CUDA", "MPS", "XPU", "MTIA"})
#: what a kernel can be: a function, or the struct of a structured kernel
KERNEL_KINDS = frozenset({*CALLABLE_KINDS, "struct", "class"})


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

    def of(self, path: str) -> Mapping[str, tuple[Place, ...]]:
        return self.by_file.get(path, _NONE)

    def inputs(self, path: str) -> list[str]:
        """What a file's page shows of other files through these links, for its digest."""
        return [
            f"{name}={p.path}:{p.line}#{p.anchor}"
            for name, places in sorted(self.of(path).items())
            for p in places
        ]


_NONE: Mapping[str, tuple[Place, ...]] = MappingProxyType({})


def is_structured(operator: OperatorEntry) -> bool:
    """Whether torchgen makes the op a structured kernel (`structured: True`)."""
    return any(k == "structured" and v.lower() == "true" for k, v in operator.fields)


def kernel_qualname(kernel: str, structured: bool, keys: tuple[str, ...]) -> str:
    """The C++ name torchgen declares a dispatch kernel under for these keys: a struct
    for a structured op's kernel on a structured key, else a function (a line that
    mixes both kinds of key is read as its first key)."""
    if structured and keys and keys[0] in STRUCTURED_KEYS:
        return f"{NATIVE}::structured_{kernel}"
    return f"{NATIVE}::{kernel}"


def kernel_key(qualname: str) -> str:
    """`kernel:at::native::add_out`: a kernel's key among a file's links."""
    return f"kernel:{qualname}"


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
    found: dict[str, Mapping[str, tuple[Place, ...]]] = {}
    for path in wanted:
        if kinds.get(path) != "yaml":
            continue
        yaml = index.files[path].facts.yaml
        if yaml is not None and (yaml.operators or yaml.derivatives):
            links = _links_of(yaml, named)
            if links:
                found[path] = MappingProxyType(links)
    return OperatorLinks(MappingProxyType(found))


def _links_of(yaml: YamlFacts, named: NamedSites) -> dict[str, tuple[Place, ...]]:
    links: dict[str, tuple[Place, ...]] = {}
    for operator in yaml.operators:
        structured = is_structured(operator)
        for d in operator.dispatch:
            wanted = kernel_qualname(d.kernel, structured, d.keys)
            key = kernel_key(wanted)
            if key in links:
                continue
            short = wanted.rsplit("::", 1)[-1]
            places = sorted(
                {
                    Place(s.path, s.line, s.anchor, s.qualname)
                    for s in named(short)
                    if s.qualname == wanted and s.kind in KERNEL_KINDS
                }
            )
            if places:
                links[key] = tuple(places)
    for derivative in yaml.derivatives:
        wanted = operator_qualname(yaml.namespace, derivative.name)
        places = sorted(
            {
                Place(s.path, s.line, s.anchor, s.qualname)
                for s in named(derivative.name.split(".", 1)[0])
                if s.kind == "op" and s.qualname == wanted
            }
        )
        if places:
            links[operator_key(derivative.name)] = tuple(places)
    return links
