"""PyTorch's operator files read as what they declare.

`native_functions.yaml` is a list of `- func: add.Tensor(Tensor self, ...) -> Tensor`
entries with `variants`, `structured`, `dispatch: {CPU, CUDA: add_out}`, `tags`, ...;
torchgen reads any such list, so an entry is an operator wherever its `func:` is a
schema.  `derivatives.yaml` is a list of `- name: <schema>` entries whose other keys
are the gradient formulas of the inputs they name."""

from __future__ import annotations

import re

import yaml

from docgen.model.yaml_facts import DerivativeEntry, DispatchKernel, Formula, OperatorEntry
from docgen.scan.yaml.nodes import MAX_DEPTH, as_text, first_line, last_line, pairs, scalar

#: `name.overload(` at the head of a schema
SCHEMA_HEAD = re.compile(r"\s*([A-Za-z_][\w]*(?:\.[\w]+)?)\s*\(")
#: the file whose operators are `aten::` ones, as torchgen names it
ATEN_FILE = "native_functions.yaml"
#: the file whose entries are derivative formulas (of `aten::` ops), as torchgen names it
DERIVATIVES_FILE = "derivatives.yaml"


def schema_name(schema: str) -> str | None:
    """`add.Tensor` of `add.Tensor(Tensor self) -> Tensor`; None when it is no schema."""
    match = SCHEMA_HEAD.match(schema)
    return match.group(1) if match and "->" in schema else None


def operator_entry(item: yaml.Node) -> OperatorEntry | None:
    """One `- func:` entry, or None when the item is no operator."""
    found = pairs(item)
    func = next((value for key, value, _ in found if key == "func"), None)
    schema = scalar(func) if func is not None else None
    name = schema_name(schema) if schema is not None else None
    if schema is None or name is None:
        return None
    dispatch: list[DispatchKernel] = []
    fields: list[tuple[str, str]] = []
    for key, value, _line in found:
        if key == "func":
            continue
        if key == "dispatch" and isinstance(value, yaml.MappingNode):
            for keys, kernel, line in pairs(value):
                written = scalar(kernel)
                if written is not None:
                    names = tuple(k.strip() for k in keys.split(",") if k.strip())
                    dispatch.append(DispatchKernel(names, written.strip(), line))
            continue
        fields.append((key, as_text(value)))
    return OperatorEntry(
        name, first_line(item), last_line(item), schema.strip(), tuple(dispatch), tuple(fields)
    )


def derivative_entry(item: yaml.Node) -> DerivativeEntry | None:
    """One `- name: <schema>` entry of `derivatives.yaml`, or None when it is not one."""
    found = pairs(item)
    if not found or found[0][0] != "name":
        return None
    schema = scalar(found[0][1])
    name = schema_name(schema) if schema is not None else None
    if schema is None or name is None:
        return None
    formulas: list[Formula] = []
    for key, value, line in found[1:]:
        formulas.extend(_formulas(key, value, line, 1))
    return DerivativeEntry(name, first_line(item), last_line(item), schema.strip(), tuple(formulas))


def _formulas(key: str, value: yaml.Node, line: int, depth: int) -> list[Formula]:
    """A key's formula, or a nested block's (`dispatch: {Default: {self: ...}}`) each
    with its keys joined."""
    if isinstance(value, yaml.MappingNode) and depth < MAX_DEPTH:
        return [
            f
            for inner, nested, inner_line in pairs(value)
            for f in _formulas(f"{key} / {inner}", nested, inner_line, depth + 1)
        ]
    return [Formula(key, as_text(value), line)]
