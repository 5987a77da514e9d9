"""Which operators a Python name of PyTorch's C extension runs: the stubs torchgen
writes for the names it binds (`torch/_C/_VariableFunctions.pyi` for `torch.add`,
`torch/_C/_nn.pyi` for an op with `python_module: nn`, the methods of `TensorBase` in
`torch/_C/__init__.pyi` for `Tensor.add_`) matched to the `- func:` entries of the
tree's operator files by name and variant, as torchgen makes the bindings.  Each
use names the operator's section and its dispatch table, so that a Python page tells
which kernels run the name on which dispatch keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.model.anchors import anchored_yaml, operator_qualname
from docgen.model.kernel_names import generated_kernels, is_structured, kernel_qualname

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.model.yaml_facts import OperatorEntry

#: the module torchgen binds an op's function variant in, without `python_module`
FUNCTIONS_MODULE = "torch._C._VariableFunctions"
#: the class whose methods are the ops' method variants, and its module
METHODS_MODULE, METHODS_CLASS = "torch._C", "TensorBase"


@dataclass(frozen=True, order=True)
class OperatorUse:
    """An operator a Python name runs: where its section is, and its dispatch table
    (each line's keys and the C++ name of its kernel)."""

    qualname: str
    path: str
    line: int
    anchor: str
    dispatch: tuple[tuple[tuple[str, ...], str], ...]
    delegate: str  # the op a structured op's kernels are those of (`add.out`), or ""

    def key(self) -> str:
        """What a page shows of it, for the page's digest."""
        return (
            f"{self.qualname}={self.path}:{self.line}#{self.anchor}:{self.dispatch}:{self.delegate}"
        )


#: each stub file's Python names (`add`, `TensorBase.add_`) and the operators they run
StubOperators = Mapping[str, Mapping[str, tuple[OperatorUse, ...]]]

_EMPTY: StubOperators = MappingProxyType({})


def _variants(operator: OperatorEntry) -> tuple[str, set[str]]:
    """The op's `python_module` ("" for none) and variants (torchgen's default: function)."""
    fields = dict(operator.fields)
    variants = {v.strip() for v in fields.get("variants", "function").split(",") if v.strip()}
    return fields.get("python_module", "").strip(), variants


def stub_operators(index: RepoIndex, paths: Iterable[str] | None) -> StubOperators:
    """The operators of the stub files among `paths` (None: every file); nothing when
    none of them is a module of `torch._C` or the tree has no operator file."""
    names = index.graph.module_names
    chosen = names.keys() if paths is None else set(paths) & names.keys()
    stubs = {p for p in chosen if p.endswith(".pyi") and _extension(names[p])}
    if not stubs:
        return _EMPTY
    modules = {names[p]: p for p in sorted(stubs)}  # a module made in C has its stub only
    found: dict[str, dict[str, list[OperatorUse]]] = {}
    for path, kind in index.files.kinds().items():
        yaml = index.files[path].facts.yaml if kind == "yaml" else None
        if yaml is None or not yaml.operators:
            continue
        for operator, anchor in anchored_yaml(path, yaml).operators:
            use = _use(path, anchor, yaml.namespace, operator)
            for module, name in _bound_as(operator):
                stub = modules.get(module)
                if stub in stubs:
                    found.setdefault(stub, {}).setdefault(name, []).append(use)
    return MappingProxyType(
        {
            stub: MappingProxyType({n: tuple(sorted(u)) for n, u in sorted(uses.items())})
            for stub, uses in sorted(found.items())
        }
    )


def _extension(module: str) -> bool:
    """Whether a module is PyTorch's C extension or one of its submodules."""
    return module == METHODS_MODULE or module.startswith(f"{METHODS_MODULE}.")


def _bound_as(operator: OperatorEntry) -> list[tuple[str, str]]:
    """(module, Python name) of each binding torchgen makes of an op: its function in
    `torch._C._VariableFunctions` (or `torch._C._<python_module>`), its method of
    `TensorBase`."""
    python_module, variants = _variants(operator)
    base = operator.name.split(".", 1)[0]
    bound = []
    if "function" in variants:
        module = f"{METHODS_MODULE}._{python_module}" if python_module else FUNCTIONS_MODULE
        bound.append((module, base))
    if "method" in variants:
        bound.append((METHODS_MODULE, f"{METHODS_CLASS}.{base}"))
    return bound


def _use(path: str, anchor: str, namespace: str, operator: OperatorEntry) -> OperatorUse:
    structured = is_structured(operator)
    dispatch = (
        *generated_kernels(operator),
        *((d.keys, kernel_qualname(d.kernel, structured, d.keys)) for d in operator.dispatch),
    )
    delegate = dict(operator.fields).get("structured_delegate", "")
    return OperatorUse(
        operator_qualname(namespace, operator.name), path, operator.line, anchor, dispatch, delegate
    )
