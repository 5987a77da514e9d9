"""The hops of a dispatch stub for `docgen find NAME --trace`: where it is declared and
defined, and each kernel registered for it with the devices it runs on (the CPU
capabilities for a CPU kernel, see `docgen.model.stub_devices`), followed to the
kernel's definition: in the registering file, else by its whole name, or to the
file's own macro that defines it where the registration comes through one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import get_args

from docgen.index.trace_line import TraceLine
from docgen.model.facts import FileFacts
from docgen.model.kernel_names import KERNEL_KINDS
from docgen.model.kinds import StubKind
from docgen.model.sites import DefinitionSite
from docgen.model.stub_devices import stub_role

#: the order the hops come in: declared, defined, then the kernels
_ORDER: dict[str, int] = {kind: i for i, kind in enumerate(get_args(StubKind))}


def stub_lines(
    name: str,
    named: Callable[[str], Sequence[DefinitionSite]],
    facts_of: Callable[[str], FileFacts | None],
) -> list[TraceLine]:
    """The chain of the dispatch stub `name`; empty when no file names such a stub."""
    sites = sorted(
        (s for s in named(name) if s.kind in _ORDER and s.qualname == name),
        key=lambda s: (_ORDER[s.kind], s.path, s.line),
    )
    lines: list[TraceLine] = []
    if sites and sites[0].kind != "dispatch stub":  # where the chain stops, and why
        first = sites[0]
        what = f"{name}: declared nowhere in this tree (no DECLARE_DISPATCH)"
        lines.append(TraceLine(first.path, first.line, what))
    for site in sites:
        facts = facts_of(site.path)
        c = facts.cfamily if facts is not None else None
        found = [r for r in c.registrations if r.line == site.line and r.name == name] if c else []
        for r in found:
            role = stub_role(r.macro, r.target, site.path)
            if role.verb != "registers":
                lines.append(TraceLine(site.path, site.line, f"{site.kind} {name} ({r.macro})"))
                continue
            devices = f" for {role.devices}" if role.devices else ""
            given = role.kernel or r.target or "no kernel"
            through = f", through the macro {r.through}" if r.through else ""
            what = f"kernel of {name}{devices} → {given} ({r.macro}{through})"
            lines.append(TraceLine(site.path, site.line, what))
            if role.kernel:
                made = r.through if r.defines_kernel else ""
                lines.extend(_kernel_sites(role.kernel, site, named, made))
    return lines


def _kernel_sites(
    kernel: str,
    registered: DefinitionSite,
    named: Callable[[str], Sequence[DefinitionSite]],
    made_by: str = "",
) -> list[TraceLine]:
    """Where a registered kernel is: its definitions in the registering file (where
    PyTorch keeps them, often file-local), else the tree's of that whole name."""
    places = [s for s in named(kernel.rsplit("::", 1)[-1]) if s.kind in KERNEL_KINDS]
    here = [s for s in places if s.path == registered.path and s.qualname.endswith(kernel)]
    chosen = here or [s for s in places if s.qualname == kernel]
    if not chosen and made_by:  # `IMPLEMENT_FLOAT_KERNEL(FLOATING, ceil)` defines it
        what = f"{kernel}: defined by the macro {made_by}, used here"
        return [TraceLine(registered.path, registered.line, what)]
    if not chosen:
        what = f"{kernel}: defined nowhere in this tree"
        return [TraceLine(registered.path, registered.line, what)]
    return [TraceLine(s.path, s.line, f"{s.kind} {s.qualname}") for s in chosen]
