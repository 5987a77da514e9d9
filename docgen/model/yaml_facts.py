"""What a YAML file holds: its top-level keys, the entries of a list of mappings, and
PyTorch's operator files read as what they declare (`native_functions.yaml`: one
operator per `- func:` entry; `derivatives.yaml`: one backward formula set per op)."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.model.construct import pickled_by_fields


@dataclass(frozen=True, slots=True)
class YamlKey:
    """A top-level key of a mapping document."""

    name: str
    line: int
    holds: str  # "mapping", "list" or "value"


@dataclass(frozen=True, slots=True)
class YamlEntry:
    """One item of a top-level list of mappings, named by its first key's value
    (`- tag: core` in `tags.yaml`)."""

    key: str
    value: str
    line: int
    fields: tuple[tuple[str, str], ...] = ()  # its other keys and their values, in order


@dataclass(frozen=True, slots=True)
class DispatchKernel:
    """One line of an operator's `dispatch:` block: the dispatch keys and the kernel."""

    keys: tuple[str, ...]  # "CPU", "CUDA", "CompositeExplicitAutograd", ...
    kernel: str  # the C++ function's name in `at::native`
    line: int


@dataclass(frozen=True, slots=True)
class OperatorEntry:
    """One `- func:` entry of an operator file."""

    name: str  # "add.Tensor": the base name and the overload, as the schema writes them
    line: int
    end_line: int
    schema: str  # the text after `func:`
    dispatch: tuple[DispatchKernel, ...]
    fields: tuple[tuple[str, str], ...]  # every other key and its value as written, in order


@dataclass(frozen=True, slots=True)
class Formula:
    """What one key of a `derivatives.yaml` entry says: the gradient of these inputs
    (`self`, `self, other`, `result`, `output_differentiability`, ...)."""

    key: str  # as written; a nested block's keys are joined with " / "
    formula: str
    line: int


@dataclass(frozen=True, slots=True)
class DerivativeEntry:
    """One `- name:` entry of `derivatives.yaml`: the op's schema and its formulas."""

    name: str  # "add.Tensor", as in `native_functions.yaml`
    line: int
    end_line: int
    schema: str
    formulas: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class YamlFacts:
    """The facts of one YAML file (every document of it)."""

    documents: int
    keys: tuple[YamlKey, ...] = ()
    entries: tuple[YamlEntry, ...] = ()
    operators: tuple[OperatorEntry, ...] = ()
    derivatives: tuple[DerivativeEntry, ...] = ()
    namespace: str = ""  # "aten" in `native_functions.yaml` and `derivatives.yaml`


#: facts cross from the scan workers
for _fact in (
    YamlKey,
    YamlEntry,
    DispatchKernel,
    OperatorEntry,
    Formula,
    DerivativeEntry,
    YamlFacts,
):
    pickled_by_fields(_fact)
