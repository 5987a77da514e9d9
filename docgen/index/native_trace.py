"""The Python side of `docgen find NAME --trace`: a Python function's reads of names
made in C++ (`flash_attn_gpu.fwd` in `_flash_attn_forward`), and a name made by a
binding (`flash_attn_2_cuda.fwd`), each to the binding and the C++ it binds; an
operator read through `torch.ops` continues as the operator's own chain does (see
`docgen.index.operator_trace`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from docgen.index.native_calls import NativeEnd, extension_roots, native_ends, target_sites
from docgen.index.trace_line import TraceLine
from docgen.model.binding_names import binds_lambda, bound_binding
from docgen.model.facts import FileFacts
from docgen.model.languages import language_for
from docgen.model.sites import DefinitionSite

Named = Callable[[str], Sequence[DefinitionSite]]
FactsOf = Callable[[str], FileFacts | None]


def roots_for(name: str, named: Named, facts_of: FactsOf) -> dict[str, tuple[str, ...]]:
    """The modules C-family files are compiled into, from the build scripts that declare
    a module named by a prefix of `name` (`flash_attn_2_cuda` of `flash_attn_2_cuda.fwd`)."""
    parts = name.split(".")
    scripts = {
        site.path
        for depth in range(1, len(parts))
        for site in named(parts[depth - 1])
        if site.kind == "extension" and site.qualname == ".".join(parts[:depth])
    }
    found = [(p, facts.python if (facts := facts_of(p)) else None) for p in sorted(scripts)]
    return extension_roots(found)


def binding_lines(
    name: str, named: Named, facts_of: FactsOf, operator: Callable[[str], list[TraceLine]]
) -> list[TraceLine]:
    """Where `name` is made in C++ and what that runs: a binding and its target, or an
    operator's chain (`operator`, given the `torch.ops` name)."""
    lines: list[TraceLine] = []
    if "." in name:
        ends = native_ends(name, named, roots_for(name, named, facts_of))
    else:  # a bare name: every binding of it
        ends = tuple(
            sorted(
                NativeEnd(s.path, s.line, s.kind, s.qualname, s.anchor)
                for s in named(name)
                if s.kind == "binding"
            )
        )
    traced: set[str] = set()  # an operator's chain covers every file defining it
    for end in ends:
        if end.kind != "op":
            lines.extend(_binding(end, named, facts_of))
        elif end.qualname not in traced:
            traced.add(end.qualname)
            lines.extend(operator(f"torch.ops.{end.qualname.replace('::', '.')}"))
    return lines


def _binding(end: NativeEnd, named: Named, facts_of: FactsOf) -> list[TraceLine]:
    facts = facts_of(end.path)
    c = facts.cfamily if facts is not None else None
    binding = bound_binding(c.bindings if c is not None else (), end.line, end.qualname)
    target = binding.target if binding is not None else ""
    made = f" → {target}" if target else " → a lambda" if binds_lambda(binding) else ""
    what = f"binding {end.qualname}{made}"
    lines = [TraceLine(end.path, end.line, what)]
    lines.extend(
        TraceLine(s.path, s.line, f"{s.kind} {s.qualname}")
        for s in target_sites(named, end.path, target)
    )
    return lines


def python_lines(
    name: str, named: Named, facts_of: FactsOf, operator: Callable[[str], list[TraceLine]]
) -> list[TraceLine]:
    """A Python function's or method's reads of names made in C++ (`name`: its
    qualified name in its file, or ending with it), each with where it leads."""
    short = name.rsplit(".", 1)[-1]
    lines: list[TraceLine] = []
    for site in named(short):
        stub = site.path.endswith(".pyi")
        if site.kind not in ("function", "method") or stub or language_for(site.path) != "python":
            continue  # a C++ function of that name, a stub: no Python code reads there
        if site.qualname != name and not name.endswith(f".{site.qualname}"):
            continue
        facts = facts_of(site.path)
        python = facts.python if facts is not None else None
        if python is None:
            continue
        definition = next(
            (d for d in python.definitions if d.line == site.line and d.qualname == site.qualname),
            None,
        )
        if definition is None:
            continue
        inner = [
            (d.line, d.end_line)
            for d in python.definitions
            if d.line > definition.line and d.end_line <= definition.end_line
        ]
        found: list[TraceLine] = []
        for read in python.reads:
            at = [
                n
                for n in read.lines
                if definition.line <= n <= definition.end_line
                and not any(a <= n <= b for a, b in inner)
            ]
            chain = binding_lines(read.name, named, facts_of, operator) if at else []
            if chain:
                found.append(TraceLine(site.path, at[0], f"reads {read.written} ({read.name})"))
                found.extend(chain)
        if found:
            lines.append(TraceLine(site.path, site.line, f"{site.kind} {site.qualname}"))
            lines.extend(found)
    return lines
