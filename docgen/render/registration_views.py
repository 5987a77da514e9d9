"""The operators a file registers with PyTorch's dispatcher, as its page shows them: a
C-family file's `TORCH_LIBRARY` blocks and dispatch stubs, a Python file's
`torch.library` calls (see `docgen.scan.python.library_ops`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from docgen.index.cfamily_relations import StubSite
from docgen.model.anchors import AnchoredCDefinition
from docgen.model.cfamily_facts import Registration
from docgen.model.facts import FileFacts
from docgen.model.kinds import CALLABLE_KINDS
from docgen.model.links import docs_page
from docgen.model.stub_devices import stub_role
from docgen.render.context import Linker
from docgen.render.native_views import NativeCallerView
from docgen.render.view_refs import LineRef, LinkView


@dataclass(frozen=True)
class OpView:
    """One operator of a registration block, with its schema when given."""

    verb: str
    name: str
    line: LineRef
    schema: str
    target: str = ""  # the C++ function registered with it, when named
    callers: tuple[NativeCallerView, ...] = ()  # Python's `torch.ops.ns.name` uses of an `m.def`


@dataclass(frozen=True)
class StubSiteView:
    """A dispatch-stub macro call of another file (`docgen.model.stub_devices`)."""

    page: LinkView  # the file, linked to its docs page
    line: LineRef  # the call's line in that file's source
    macro: str
    verb: str  # "declares", "defines", "registers"
    kernel: str  # the kernel a registration gives, "" when none is named
    devices: str  # where that kernel runs, "" when not told
    through: str = ""  # the file's own macro whose use makes the call


@dataclass(frozen=True)
class RegistrationView:
    """One operator registration or dispatch stub, with the other files' calls of the
    same stub."""

    macro: str
    name: str
    line: LineRef
    dispatch_key: str
    target: str
    ops: tuple[OpView, ...]
    related: tuple[StubSiteView, ...]  # the same dispatch stub's calls in other files
    verb: str = ""  # a dispatch stub's: "declares", "defines", "registers"
    kernel: LinkView | None = None  # a stub registration's kernel, linked where defined here
    devices: str = ""  # where that kernel runs
    through: str = ""  # the file's own macro whose use at `line` makes the call
    defines_kernel: bool = False  # whether that macro defines the kernel too
    #: a stub defined or given a kernel here that no file of the tree declares
    undeclared: bool = False


def stub_site_views(
    path: str, sites: Iterable[StubSite], linker: Linker, line_counts: Mapping[str, int]
) -> tuple[StubSiteView, ...]:
    """The calls of a stub in files other than `path`, as its page lists them."""
    found = []
    for s in sites:
        if s.path == path:
            continue
        role = stub_role(s.macro, s.target, s.path)
        line = linker.line(s.path, s.line, line_counts.get(s.path, 0))
        page = linker.page_link(s.path, docs_page(s.path))
        view = StubSiteView(page, line, s.macro, role.verb, role.kernel, role.devices, s.through)
        found.append(((_VERB_ORDER.get(role.verb, 3), s.path, s.line), view))
    return tuple(view for _, view in sorted(found, key=lambda pair: pair[0]))


def _undeclared(name: str, related: Iterable[StubSiteView]) -> bool:
    """Whether none of the stub's other calls declares it (this file's own do not)."""
    return not any(x.verb == "declares" for x in related)


#: the order a stub's calls are listed in: where it is declared, defined, given kernels
_VERB_ORDER = {"declares": 0, "defines": 1, "registers": 2}


def _kernel_link(
    kernel: str, items: Iterable[AnchoredCDefinition], linker: Linker, path: str
) -> LinkView:
    """A registered kernel, linked to its definition on this page when the file has one
    of that name (the last one written: a definition after its declaration)."""
    short = kernel.rsplit("::", 1)[-1]
    anchors = [
        i.anchor
        for i in items
        if i.definition.name == short
        and i.definition.kind in CALLABLE_KINDS
        and i.definition.qualname.endswith(kernel)
    ]
    return LinkView(kernel, linker.to_page(docs_page(path), anchors[-1]) if anchors else "")


def registration_views(
    facts: FileFacts,
    registrations: Iterable[Registration],
    linker: Linker,
    stubs: Mapping[str, tuple[StubSite, ...]],
    callers: Mapping[int, tuple[NativeCallerView, ...]] | None = None,
    items: tuple[AnchoredCDefinition, ...] = (),
    line_counts: Mapping[str, int] | None = None,
) -> tuple[RegistrationView, ...]:
    """A file's registrations (a C-family file's library blocks and dispatch stubs, a
    Python file's `torch.library` calls); `callers`: the Python uses of each `m.def`
    by its line; `items`: the file's C-family definitions, where a stub's kernel is
    looked for."""
    views = []
    registrations = tuple(registrations)
    declared_here = {r.name for r in registrations if r.macro == "DECLARE_DISPATCH"}
    for r in registrations:
        related: tuple[StubSiteView, ...] = ()
        verb, devices, kernel = "", "", None
        if r.is_dispatch_stub:
            sites = stubs.get(r.name, ())
            related = stub_site_views(facts.path, sites, linker, line_counts or {})
            role = stub_role(r.macro, r.target, facts.path)
            verb, devices = role.verb, role.devices
            if role.kernel:
                kernel = _kernel_link(role.kernel, items, linker, facts.path)
        views.append(
            RegistrationView(
                macro=r.macro,
                name=r.name,
                line=linker.line(facts.path, r.line, facts.line_count),
                dispatch_key=r.dispatch_key,
                target=r.target,
                ops=tuple(
                    OpView(
                        o.verb,
                        o.name,
                        linker.line(facts.path, o.line, facts.line_count),
                        o.schema,
                        o.target,
                        (callers or {}).get(o.line, ()) if o.verb == "def" else (),
                    )
                    for o in r.ops
                ),
                related=related,
                verb=verb,
                kernel=kernel,
                devices=devices,
                through=r.through,
                defines_kernel=r.defines_kernel,
                undeclared=bool(verb)
                and r.name not in declared_here
                and _undeclared(r.name, related),
            )
        )
    return tuple(views)
