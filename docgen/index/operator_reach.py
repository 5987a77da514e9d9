"""How a change of a kernel reaches Python, for `docgen affected`: the C-family files a
change reaches define kernels, an operator file's `dispatch:` lines name them
(`CPU, CUDA: lerp_Scalar` is `at::native::structured_lerp_Scalar`, whose
`TORCH_IMPL_FUNC(lerp_Scalar)` defines `...::impl`), the ops that delegate to those
(`structured_delegate:`) run them too, and torchgen binds each op's function variant
as a name of a stub of `torch._C` (`lerp` of `torch/_C/_VariableFunctions.pyi`), whose
readers are Python's.  The operator file is a hop past the kernel, the stub a hop
past the operator file; a method variant (`Tensor.lerp`) is called through an object
whose type no static reading knows, and is not followed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.index.affected import Reach
from docgen.model.kernel_names import (
    FUNCTIONS_MODULE,
    METHODS_MODULE,
    bound_as,
    dispatch_kernels,
    operator_qualname,
)
from docgen.model.yaml_facts import OperatorEntry, YamlFacts


@dataclass(frozen=True)
class Entry:
    """A file a change reaches that Python's hops go on from: the names of it reached."""

    reach: Reach
    names: frozenset[str]


def operator_entries(
    reached: Sequence[Reach],
    definitions: Callable[[str], Iterable[str]],
    operator_files: Iterable[tuple[str, YamlFacts]],
    modules: Mapping[str, str],
    stub_line: Callable[[str, str], int | None],
) -> list[Entry]:
    """The operator files and the stubs the kernels of the `reached` C-family files lead
    to (`definitions`: the qualified names a file defines; `modules`: the tree's module
    names, stubs included; `stub_line`: where a stub defines a name), each a hop
    further than the nearest file that reaches it."""
    nearest = {r.path: r.distance for r in reached}
    kernels: dict[str, list[tuple[str, OperatorEntry]]] = {}
    delegates: dict[tuple[str, str], list[tuple[str, OperatorEntry]]] = {}
    for path, yaml in operator_files:
        for operator in yaml.operators:
            for _, kernel in dispatch_kernels(operator):
                kernels.setdefault(kernel, []).append((path, operator))
            delegate = dict(operator.fields).get("structured_delegate", "").strip()
            if delegate:
                key = (path, operator_qualname(yaml.namespace, delegate))
                delegates.setdefault(key, []).append((path, operator))
    if not kernels:
        return []
    namespaces = {path: yaml.namespace for path, yaml in operator_files}
    ops: dict[tuple[str, int], tuple[int, str, OperatorEntry]] = {}  # (file, line) -> ...
    for path, distance in sorted(nearest.items(), key=lambda item: (item[1], item[0])):
        for qualname in definitions(path):
            parts = qualname.split("::")
            for n in range(len(parts), 1, -1):  # the kernel, or the struct holding it
                for yaml_path, operator in kernels.get("::".join(parts[:n]), ()):
                    ops.setdefault((yaml_path, operator.line), (distance + 1, path, operator))
    for (yaml_path, _), (distance, via, operator) in list(ops.items()):
        name = operator_qualname(namespaces.get(yaml_path, ""), operator.name)
        for _, delegating in delegates.get((yaml_path, name), ()):
            ops.setdefault((yaml_path, delegating.line), (distance, via, delegating))
    return _entries(ops, modules, stub_line)


def _entries(
    ops: Mapping[tuple[str, int], tuple[int, str, OperatorEntry]],
    modules: Mapping[str, str],
    stub_line: Callable[[str, str], int | None],
) -> list[Entry]:
    """The operator files' and stubs' entries of the reached `ops`: each at its nearest
    distance, via the files a hop nearer at that distance, on its lines there."""
    files: dict[str, list[tuple[int, str, int, str]]] = {}  # distance, via, line, name
    stubs: dict[str, list[tuple[int, str, int, str]]] = {}
    for (yaml_path, line), (distance, via, operator) in sorted(ops.items()):
        files.setdefault(yaml_path, []).append((distance, via, line, ""))
        for module, name in bound_as(operator):
            if module == METHODS_MODULE or not (
                module == FUNCTIONS_MODULE or module.startswith(f"{METHODS_MODULE}.")
            ):
                continue  # a method variant, called through an object of unknown type
            stub = modules.get(module)
            where = stub_line(stub, name) if stub is not None else None
            if stub is not None and where is not None:
                stubs.setdefault(stub, []).append((distance + 1, yaml_path, where, name))
    return [*_nearest(files), *_nearest(stubs)]


def _nearest(found: Mapping[str, list[tuple[int, str, int, str]]]) -> list[Entry]:
    entries = []
    for path, reached in sorted(found.items()):
        distance = min(r[0] for r in reached)
        near = [r for r in reached if r[0] == distance]
        entries.append(
            Entry(
                Reach(
                    distance,
                    path,
                    tuple(sorted({r[1] for r in near})),
                    tuple(sorted({r[2] for r in near})),
                ),
                frozenset(r[3] for r in reached if r[3]),
            )
        )
    return entries
