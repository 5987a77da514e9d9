"""The chain from a name to the C++ that runs it, for `docgen find NAME --trace`: the
stubs of PyTorch's C extension that bind it (`torch/_C/_VariableFunctions.pyi`'s
`add`, `TensorBase.add_`), each operator of that name in the tree's operator files,
each `dispatch:` line with the dispatch keys and the C++ kernel (and its
declarations and definitions in the tree), the op a structured op delegates to, and
the `derivatives.yaml` entry.  Where the chain stops, the line says why."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from docgen.index.attached_trace import AttachedOf, attached_lines
from docgen.index.native_trace import binding_lines, python_lines
from docgen.index.stub_trace import stub_lines
from docgen.index.trace_line import TraceLine
from docgen.model.facts import FileFacts
from docgen.model.kernel_names import (
    KERNEL_KINDS,
    bound_variants,
    generated_kernels,
    is_structured,
    kernel_qualname,
    operator_qualname,
)
from docgen.model.languages import language_for
from docgen.model.sites import DefinitionSite
from docgen.model.yaml_facts import OperatorEntry

#: what a kernel registered in Python with no dispatch key is for, by its call
KEYLESS = {
    "register_fake": "fake tensors (`register_fake`)",
    "register_autograd": "autograd (`register_autograd`)",
}
#: the prefixes a name of an operator may be written with (`torch.add`, `Tensor.add_`)
FUNCTION_PREFIXES = ("torch.",)
METHOD_PREFIXES = ("Tensor.", "TensorBase.", "torch.Tensor.")


@dataclass(frozen=True)
class Wanted:
    """What a name asks for: the operator base name, an overload, methods or functions."""

    base: str
    overload: str  # "Tensor" of `add.Tensor`, "" for every overload
    method: bool | None  # True: `Tensor.add_`; False: `torch.add`; None: either
    namespace: str = ""  # "flash_attn_3" of `torch.ops.flash_attn_3.fwd`; "": any


def wanted(name: str) -> Wanted:
    """`torch.add`, `Tensor.add_`, `aten::add.Tensor`, `torch.ops.aten.add.Tensor`,
    `add` read as what they ask for."""
    method: bool | None = None
    namespace, text = "", name
    if text.startswith("torch.ops."):
        namespace, _, text = text.removeprefix("torch.ops.").partition(".")
    elif "::" in text:
        namespace, _, text = text.rpartition("::")
    if namespace:
        base, _, overload = text.partition(".")
        return Wanted(base, overload, None, namespace)
    for prefix in METHOD_PREFIXES:
        if text.startswith(prefix):
            text, method = text[len(prefix) :], True
    for prefix in FUNCTION_PREFIXES:
        if method is None and text.startswith(prefix):
            text, method = text[len(prefix) :], False
    base, _, overload = text.partition(".")
    return Wanted(base, overload, method)


#: the operator entry of a YAML file at a line, None when it has none there
OperatorAt = Callable[[str, int], OperatorEntry | None]


def trace(
    name: str,
    named: Callable[[str], Sequence[DefinitionSite]],
    facts_of: Callable[[str], FileFacts | None],
    operator_at: OperatorAt | None = None,
    attached_of: AttachedOf | None = None,
) -> list[TraceLine]:
    """The chain of `name`: `named(short)` gives the sites of a name, `facts_of(path)`
    a file's stored facts, `operator_at(path, line)` one entry of an operator file
    (without the rest of its facts; by default from `facts_of`), `attached_of(key)`
    the kept rows of the docstrings attached at import to names of that last name.  Empty when no
    operator, dispatch stub, binding or Python function of the tree that calls into
    C++ has that name."""
    if operator_at is None:
        operator_at = _from_facts(facts_of)
    lines = _operator_chain(name, named, facts_of, operator_at)
    if "." not in name and "::" not in name:
        lines.extend(stub_lines(name, named, facts_of))
    if "::" in name or name.startswith("torch.ops."):
        return lines
    if attached_of is not None:  # after the stubs the docstrings document
        want = wanted(name)
        stubs = next((i for i, t in enumerate(lines) if not t.what.endswith("(stub)")), len(lines))
        docs = attached_lines(name, want.base, want.method, attached_of)
        lines[stubs:stubs] = docs

    at = operator_at  # as narrowed, for the function below

    def operator(spelled: str) -> list[TraceLine]:
        return _operator_chain(spelled, named, facts_of, at)

    return [
        *lines,
        *python_lines(name, named, facts_of, operator),
        *binding_lines(name, named, facts_of, operator),
    ]


def is_yaml(path: str) -> bool:
    return language_for(path) == "yaml"


def _from_facts(facts_of: Callable[[str], FileFacts | None]) -> OperatorAt:
    def operator_at(path: str, line: int) -> OperatorEntry | None:
        facts = facts_of(path)
        yaml = facts.yaml if facts is not None else None
        return next((o for o in yaml.operators if o.line == line), None) if yaml else None

    return operator_at


def _operator_chain(
    name: str,
    named: Callable[[str], Sequence[DefinitionSite]],
    facts_of: Callable[[str], FileFacts | None],
    operator_at: OperatorAt,
) -> list[TraceLine]:
    want = wanted(name)
    sites = named(want.base)
    lines: list[TraceLine] = []
    for site in sites:
        is_method = site.kind == "method" and site.qualname.endswith(f"TensorBase.{want.base}")
        is_function = site.kind == "function" and site.qualname == want.base
        stub = site.path.endswith(".pyi") and "_C/" in site.path
        if stub and ((is_method and want.method is not False) or (is_function and not want.method)):
            lines.append(TraceLine(site.path, site.line, f"{site.kind} {site.qualname} (stub)"))
    ops = [s for s in sites if s.kind == "op"]
    if want.namespace:
        ops = [s for s in ops if s.qualname.startswith(f"{want.namespace}::")]
    if want.overload:
        ops = [s for s in ops if _overload_of(s) == want.overload]
    queue: list[tuple[DefinitionSite, bool]] = [(op, True) for op in ops]
    seen: set[tuple[str, int]] = set()
    while queue:
        op, asked = queue.pop(0)
        if (op.path, op.line) in seen:
            continue
        # an operator file's entry, read alone; else a C-family or Python registration
        entry = operator_at(op.path, op.line) if is_yaml(op.path) else None
        facts = facts_of(op.path) if entry is None else None
        if facts is not None and facts.cfamily is not None:  # an `m.def` of a library block
            seen.add((op.path, op.line))
            lines.append(TraceLine(op.path, op.line, f"op {op.qualname} (m.def)"))
            lines.extend(_impls(op, sites, named, facts_of))
            continue
        if facts is not None and facts.python is not None:  # `torch.library` in Python
            seen.add((op.path, op.line))
            lines.append(TraceLine(op.path, op.line, f"op {op.qualname} (torch.library)"))
            lines.extend(_impls(op, sites, named, facts_of))
            continue
        if entry is None or (asked and not _binds(entry, want.method)):
            continue
        seen.add((op.path, op.line))
        lines.append(TraceLine(op.path, op.line, f"op {op.qualname}"))
        lines.extend(_impls(op, sites, named, facts_of))
        lines.extend(_kernels(op, entry, named))
        delegate = dict(entry.fields).get("structured_delegate", "")
        if delegate:
            qualname = operator_qualname(op.qualname.rpartition("::")[0], delegate)
            lines.append(TraceLine(op.path, op.line, f"delegates to the kernels of {qualname}"))
            queue.extend(
                (s, False)
                for s in named(delegate.split(".", 1)[0])
                if s.kind == "op" and s.qualname == qualname
            )
        for site in sites:
            if site.kind == "derivative" and site.qualname == op.qualname:
                lines.append(TraceLine(site.path, site.line, f"derivative {site.qualname}"))
    return lines


def _impls(
    op: DefinitionSite,
    sites: Sequence[DefinitionSite],
    named: Callable[[str], Sequence[DefinitionSite]],
    facts_of: Callable[[str], FileFacts | None],
) -> list[TraceLine]:
    """Each `m.impl` of the op in a `TORCH_LIBRARY_IMPL` block, with its dispatch key,
    the function it registers and where that function is (in the same file, or by its
    qualified name)."""
    lines = []
    for site in sites:
        if site.kind != "impl" or site.qualname != op.qualname:
            continue
        facts = facts_of(site.path)
        c = facts.cfamily if facts is not None else None
        py = facts.python if facts is not None else None
        registrations = c.registrations if c is not None else py.registrations if py else ()
        found = [
            (r, o) for r in registrations for o in r.ops if o.line == site.line and o.verb == "impl"
        ]
        for registration, registered in found:
            key = registration.dispatch_key or KEYLESS.get(
                registration.macro, "the key its block gives"
            )
            target = f" → {registered.target}" if registered.target else ""
            lines.append(TraceLine(site.path, site.line, f"impl {site.qualname} for {key}{target}"))
            if registered.target:
                short = registered.target.rsplit("::", 1)[-1]
                places = [s for s in named(short) if s.kind in KERNEL_KINDS]
                # the function of the block's own file; elsewhere only by its whole name
                here = [s for s in places if s.path == site.path]
                chosen = here or [s for s in places if s.qualname == registered.target]
                lines.extend(TraceLine(s.path, s.line, f"{s.kind} {s.qualname}") for s in chosen)
    return lines


def _binds(entry: OperatorEntry, method: bool | None) -> bool:
    """Whether torchgen binds the op as asked: a method, a function, or either."""
    if method is None:
        return True
    return ("method" if method else "function") in bound_variants(entry)[1]


def _overload_of(site: DefinitionSite) -> str:
    short = site.qualname.rsplit("::", 1)[-1]
    return short.partition(".")[2]


def _kernels(
    op: DefinitionSite, entry: OperatorEntry, named: Callable[[str], Sequence[DefinitionSite]]
) -> list[TraceLine]:
    """Each kernel of an op with the keys it runs for, and where the tree has it."""
    structured = is_structured(entry)
    found = [
        (op.line, keys, qualname, " (torchgen writes it from `ufunc_inner_loop`)")
        for keys, qualname in generated_kernels(entry)
    ]
    found += [
        (d.line, d.keys, kernel_qualname(d.kernel, structured, d.keys), "") for d in entry.dispatch
    ]
    lines = []
    for line, keys, qualname, note in found:
        lines.append(TraceLine(op.path, line, f"dispatch {', '.join(keys)} → {qualname}{note}"))
        places = [
            s
            for s in named(qualname.rsplit("::", 1)[-1])
            if s.qualname == qualname and s.kind in KERNEL_KINDS
        ]
        lines.extend(TraceLine(s.path, s.line, f"{s.kind} {s.qualname}") for s in places)
        if not places:
            lines.append(TraceLine(op.path, line, f"{qualname}: declared nowhere in this tree"))
    if (
        not entry.dispatch
        and not found
        and not structured
        and "structured_delegate" not in dict(entry.fields)
    ):
        lines.append(
            TraceLine(op.path, op.line, "no `dispatch:` block: a CompositeImplicitAutograd kernel")
        )
    return lines
