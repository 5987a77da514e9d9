"""The operators a file registers with PyTorch's dispatcher, as its page shows them: a
C-family file's `TORCH_LIBRARY` blocks and dispatch stubs, a Python file's
`torch.library` calls (see `docgen.scan.python.library_ops`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from docgen.model.cfamily_facts import Registration
from docgen.model.facts import FileFacts
from docgen.model.links import docs_page
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
class RegistrationView:
    """One operator registration or dispatch stub, linked to the files naming the same stub."""

    macro: str
    name: str
    line: LineRef
    dispatch_key: str
    target: str
    ops: tuple[OpView, ...]
    related: tuple[LinkView, ...]  # other files that name the same dispatch stub


def registration_views(
    facts: FileFacts,
    registrations: Iterable[Registration],
    linker: Linker,
    stubs: Mapping[str, tuple[str, ...]],
    callers: Mapping[int, tuple[NativeCallerView, ...]] | None = None,
) -> tuple[RegistrationView, ...]:
    """A file's registrations (a C-family file's library blocks and dispatch stubs, a
    Python file's `torch.library` calls); `callers`: the Python uses of each `m.def`
    by its line."""
    views = []
    for r in registrations:
        others = (
            tuple(p for p in stubs.get(r.name, ()) if p != facts.path) if r.is_dispatch_stub else ()
        )
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
                related=tuple(linker.page_link(p, docs_page(p)) for p in others),
            )
        )
    return tuple(views)
