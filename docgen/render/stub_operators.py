"""Which operators a Python name of PyTorch's C extension runs: the stubs torchgen
writes for the names it binds (`torch/_C/_VariableFunctions.pyi` for `torch.add`,
`torch/_C/_nn.pyi` for an op with `python_module: nn`, the methods of `TensorBase` in
`torch/_C/__init__.pyi` for `Tensor.add_`) matched to the `- func:` entries of the
tree's operator files by name and variant, as torchgen makes the bindings.  Each
use names the operator's section and its dispatch table, so that a Python page tells
which kernels run the name on which dispatch keys."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.model.anchors import anchored_definitions, subsection_anchor
from docgen.model.kernel_names import (
    FUNCTIONS_MODULE,
    METHODS_MODULE,
    bound_as,
    dispatch_kernels,
    operator_qualname,
)

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.model.yaml_facts import OperatorEntry
    from docgen.render.operator_files import OperatorFile


@dataclass(frozen=True, order=True)
class OperatorUse:
    """An operator a Python name runs: where its section is, and its dispatch table
    (each line's keys and the C++ name of its kernel)."""

    qualname: str
    path: str
    line: int
    anchor: str
    dispatch: tuple[tuple[tuple[str, ...], str], ...]
    delegate: str  # the op whose kernels a structured op's are (`aten::add.out`), or ""

    def key(self) -> str:
        """What a page shows of it, for the page's digest."""
        return (
            f"{self.qualname}={self.path}:{self.line}#{self.anchor}:{self.dispatch}:{self.delegate}"
        )


#: each stub file's Python names (`add`, `TensorBase.add_`) and the operators they run
StubOperators = Mapping[str, Mapping[str, tuple[OperatorUse, ...]]]

_EMPTY: StubOperators = MappingProxyType({})


def stub_operators(
    index: RepoIndex, paths: Iterable[str] | None, files: Callable[[], Iterable[OperatorFile]]
) -> StubOperators:
    """The operators of the stub files among `paths` (None: every file), from the
    tree's operator `files` (read only when one of `paths` is a stub of `torch._C`)."""
    names = index.graph.module_names
    chosen = names.keys() if paths is None else set(paths) & names.keys()
    stubs = {p for p in chosen if is_extension_stub(p, names[p])}
    if not stubs:
        return _EMPTY
    modules = {names[p]: p for p in sorted(stubs)}  # a module made in C has its stub only
    found: dict[str, dict[str, list[OperatorUse]]] = {}
    for path, yaml, anchored in files():
        for operator, anchor in anchored.operators:
            use = _use(path, anchor, yaml.namespace, operator)
            for module, name in bound_as(operator):
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


def _use(path: str, anchor: str, namespace: str, operator: OperatorEntry) -> OperatorUse:
    delegate = dict(operator.fields).get("structured_delegate", "")
    return OperatorUse(
        operator_qualname(namespace, operator.name),
        path,
        operator.line,
        anchor,
        dispatch_kernels(operator),
        operator_qualname(namespace, delegate) if delegate else "",
    )


def is_extension_stub(path: str, module: str) -> bool:
    """Whether a file is a stub of PyTorch's C extension, whose names torchgen binds."""
    return path.endswith(".pyi") and _extension(module)


def bound_names(
    index: RepoIndex, operator_files: Iterable[str]
) -> dict[str, dict[str, tuple[tuple[str, str, int, str], ...]]]:
    """For each of these operator files, each operator's Python bindings in the tree's
    stubs: op name -> (qualified Python name, stub path, line, anchor), the first
    overload of each name.  A module with no stub (`torch._C._linalg`) is known by the
    names a Python file binds to its functions with their docstrings (`cross =
    _add_docstr(_linalg.linalg_cross, ...)` of `torch/linalg/__init__.py` is
    `torch.linalg.cross`; see `docgen.index.attached_rows`)."""
    names = index.graph.module_names
    stubs = {names[p]: p for p in sorted(names) if is_extension_stub(p, names[p])}
    anchors: dict[str, dict[str, tuple[int, str]]] = {}
    found: dict[str, dict[str, tuple[tuple[str, str, int, str], ...]]] = {}
    exposed: Callable[[str], tuple[tuple[str, str, int, str], ...]] | None = None
    for path in sorted(operator_files):
        yaml = index.files[path].facts.yaml
        if yaml is None or not yaml.operators:
            continue
        made: dict[str, tuple[tuple[str, str, int, str], ...]] = {}
        for operator in yaml.operators:
            bound: list[tuple[str, str, int, str]] = []
            for module, name in bound_as(operator):
                stub = stubs.get(module)
                if stub is None:
                    if module != FUNCTIONS_MODULE:
                        exposed = exposed or _exposed_names(index, yaml.operators)
                        bound.extend(exposed(f"{module}.{name}"))
                    continue
                if stub not in anchors:
                    anchors[stub] = _first_anchors(index, stub)
                place = anchors[stub].get(name)
                if place is not None:
                    bound.append((f"{module}.{name}", stub, *place))
            if bound:
                made[operator.name] = tuple(bound)
        if made:
            found[path] = made
    return found


def _exposed_names(
    index: RepoIndex, operators: Iterable[OperatorEntry]
) -> Callable[[str], tuple[tuple[str, str, int, str], ...]]:
    """The module-level names Python files bind to functions of a module without a
    stub, by what they stand for: (`torch.linalg.cross`, path, line, anchor)."""
    relation = index.attached_rows
    if relation is None:
        return lambda name: ()
    keys = {o.name.split(".", 1)[0] for o in operators}
    by_name: dict[str, set[tuple[str, str, int, str]]] = {}
    names = index.graph.module_names
    anchor = subsection_anchor("module_attributes")
    for source, rows in sorted(relation.rows.rows_of(sorted(relation.holding(keys))).items()):
        module = names.get(source, "")
        python = index.files[source].facts.python
        attributes = {a.qualname for a in python.attributes} if python else set()
        for row in rows:
            bound = row[6]
            if not row[1] or not bound or bound not in attributes or "." in bound:
                continue
            label = f"{module}.{bound}" if module else bound
            place = (label, source, row[2], anchor)
            by_name.setdefault(row[1], set()).add(place)
    return lambda name: tuple(sorted(by_name.get(name, ())))


def _first_anchors(index: RepoIndex, stub: str) -> dict[str, tuple[int, str]]:
    """A stub's definitions by qualified name: the line and anchor of the first."""
    python = index.files[stub].facts.python
    if python is None:
        return {}
    first: dict[str, tuple[int, str]] = {}
    for item in anchored_definitions(stub, python.definitions):
        first.setdefault(item.definition.qualname, (item.definition.line, item.anchor))
    return first
