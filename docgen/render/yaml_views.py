"""What a YAML file's docs page shows: its documents' top-level keys and list entries,
and for an operator file a section per operator (schema, every key, the dispatch table
with the C++ of each kernel) and per `derivatives.yaml` entry (schema, formulas, the
operator).  Its keyword groups are in `yaml_kw_views`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from docgen.model.anchors import anchored_yaml
from docgen.model.facts import FileFacts
from docgen.model.kernel_names import (
    generated_kernels,
    is_structured,
    kernel_qualname,
    operator_qualname,
)
from docgen.model.links import docs_page
from docgen.model.yaml_facts import DispatchKernel, OperatorEntry, YamlFacts
from docgen.render.context import Linker
from docgen.render.operator_links import (
    Place,
    derivative_key,
    kernel_key,
    operator_key,
    python_key,
)
from docgen.render.view_refs import LineRef, LinkView

#: keys whose value names other operators of the same file (`structured_delegate: add.out`)
OPERATOR_VALUED = frozenset({"structured_delegate", "structured_inherits"})


@dataclass(frozen=True)
class YamlOverview:
    """The counts of a YAML file, and for an operator file its dispatch keys."""

    documents: int
    keys: int
    entries: int
    operators: int
    dispatched: int  # operators with a `dispatch:` block
    kernels: int  # (dispatch key, kernel) bindings, each key of a line counted
    dispatch_keys: tuple[tuple[str, int], ...]  # most bound first, then by name
    derivatives: int
    formulas: int


@dataclass(frozen=True)
class YamlKeyView:
    name: str
    holds: str
    line: LineRef


@dataclass(frozen=True)
class YamlEntryView:
    key: str
    value: str
    line: LineRef
    fields: tuple[tuple[str, str], ...]  # the entry's other keys, as written


@dataclass(frozen=True)
class FieldView:
    """One key of an operator entry: its value, linked when it names an operator here."""

    key: str
    value: str
    href: str


@dataclass(frozen=True)
class DispatchView:
    keys: tuple[str, ...]
    kernel: str
    line: LineRef
    qualname: str  # the C++ name torchgen declares it under
    places: tuple[LinkView, ...]  # where the tree declares and defines it


@dataclass(frozen=True)
class OperatorView:
    """One operator's section, headed `op aten::add.Tensor`."""

    qualname: str
    schema: str
    line: LineRef
    end_line: int
    fields: tuple[FieldView, ...]
    dispatch: tuple[DispatchView, ...]
    #: its Python bindings in the stubs of `torch._C`, linked to their sections
    bound: tuple[LinkView, ...] = ()
    #: its entries in `derivatives.yaml`, linked to their sections
    derivatives: tuple[LinkView, ...] = ()
    #: kernels torchgen writes itself (from `ufunc_inner_loop`): keys, C++ name, places
    generated: tuple[tuple[tuple[str, ...], str, tuple[LinkView, ...]], ...] = ()


@dataclass(frozen=True)
class FormulaView:
    key: str
    formula: str
    line: LineRef


@dataclass(frozen=True)
class DerivativeView:
    """One `derivatives.yaml` entry's section, headed `derivative aten::add.Tensor`."""

    qualname: str
    schema: str
    line: LineRef
    end_line: int
    formulas: tuple[FormulaView, ...]
    operator: tuple[LinkView, ...]  # the operator's section in the operator file


@dataclass(frozen=True)
class YamlDetailed:
    keys: tuple[YamlKeyView, ...]
    entries: tuple[YamlEntryView, ...]
    operators: tuple[OperatorView, ...]
    derivatives: tuple[DerivativeView, ...]


def yaml_overview(yaml: YamlFacts) -> YamlOverview:
    bound: Counter[str] = Counter(k for o in yaml.operators for d in o.dispatch for k in d.keys)
    return YamlOverview(
        documents=yaml.documents,
        keys=len(yaml.keys),
        entries=len(yaml.entries),
        operators=len(yaml.operators),
        dispatched=sum(1 for o in yaml.operators if o.dispatch),
        kernels=sum(bound.values()),
        dispatch_keys=tuple(sorted(bound.items(), key=lambda p: (-p[1], p[0]))),
        derivatives=len(yaml.derivatives),
        formulas=sum(len(d.formulas) for d in yaml.derivatives),
    )


def yaml_detailed(
    facts: FileFacts, linker: Linker, elsewhere: Mapping[str, tuple[Place, ...]]
) -> YamlDetailed | None:
    """The Detailed Analysis of a YAML file (`elsewhere`: where its kernels and
    operators lead in other files); None when it holds nothing to detail."""
    yaml = facts.yaml
    if yaml is None:
        return None
    path, count = facts.path, facts.line_count
    anchored = anchored_yaml(path, yaml)
    by_name = {o.name: anchor for o, anchor in anchored.operators}

    def places(key: str) -> tuple[LinkView, ...]:
        return tuple(
            LinkView(f"{p.path}:{p.line}", linker.to_page(docs_page(p.path), p.anchor))
            for p in elsewhere.get(key, ())
        )

    def dispatch(o: OperatorEntry, d: DispatchKernel) -> DispatchView:
        qualname = kernel_qualname(d.kernel, is_structured(o), d.keys)
        line = linker.line(path, d.line, count)
        return DispatchView(d.keys, d.kernel, line, qualname, places(kernel_key(qualname)))

    def field(key: str, value: str) -> FieldView:
        anchor = by_name.get(value) if key in OPERATOR_VALUED else None
        return FieldView(key, value, linker.here(anchor) if anchor else "")

    operators = tuple(
        OperatorView(
            qualname=operator_qualname(yaml.namespace, o.name),
            schema=o.schema,
            line=linker.line(path, o.line, count),
            end_line=o.end_line,
            fields=tuple(field(k, v) for k, v in o.fields),
            dispatch=tuple(dispatch(o, d) for d in o.dispatch),
            bound=tuple(
                LinkView(p.qualname, linker.to_page(docs_page(p.path), p.anchor))
                for p in elsewhere.get(python_key(o.name), ())
            ),
            derivatives=places(derivative_key(o.name)),
            generated=tuple(
                (keys, qualname, places(kernel_key(qualname)))
                for keys, qualname in generated_kernels(o)
            ),
        )
        for o, _ in anchored.operators
    )
    derivatives = tuple(
        DerivativeView(
            qualname=operator_qualname(yaml.namespace, d.name),
            schema=d.schema,
            line=linker.line(path, d.line, count),
            end_line=d.end_line,
            formulas=tuple(
                FormulaView(f.key, f.formula, linker.line(path, f.line, count)) for f in d.formulas
            ),
            operator=places(operator_key(d.name)),
        )
        for d, _ in anchored.derivatives
    )
    keys = tuple(YamlKeyView(k.name, k.holds, linker.line(path, k.line, count)) for k in yaml.keys)
    entries = tuple(
        YamlEntryView(e.key, e.value, linker.line(path, e.line, count), e.fields)
        for e in yaml.entries
    )
    if not (keys or entries or operators or derivatives):
        return None
    return YamlDetailed(keys, entries, operators, derivatives)


def yaml_summary(facts: FileFacts) -> str | None:
    """One line for the folder listing."""
    yaml = facts.yaml
    if yaml is None:
        return None
    if yaml.operators:
        return f"{len(yaml.operators):,} operators"
    if yaml.derivatives:
        return f"derivative formulas of {len(yaml.derivatives):,} operators"
    return None
