"""The operators a Python name of PyTorch's C extension runs, as its section shows them:
each overload linked to its `- func:` section, with the kernels of its dispatch keys."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.stub_operators import OperatorUse
from docgen.render.view_refs import LinkView


@dataclass(frozen=True)
class OperatorUseView:
    """One operator a name runs: its section, its dispatch lines, its delegate."""

    operator: LinkView  # `aten::add.Tensor`, linked to its section
    source: str  # `path:line` of its `- func:` entry
    dispatch: tuple[tuple[tuple[str, ...], str], ...]  # each line's keys and C++ kernel
    delegate: LinkView | None  # the op whose kernels a structured op's are


def operator_use_views(
    uses: Mapping[str, tuple[OperatorUse, ...]], linker: Linker
) -> dict[str, tuple[OperatorUseView, ...]]:
    """Each Python name's operators, by the name's qualified name in the stub."""
    hrefs = {
        u.qualname: linker.to_page(docs_page(u.path), u.anchor)
        for found in uses.values()
        for u in found
    }
    views: dict[str, tuple[OperatorUseView, ...]] = {}
    for name, found in uses.items():
        made = []
        for u in found:
            made.append(
                OperatorUseView(
                    LinkView(u.qualname, hrefs[u.qualname]),
                    f"{u.path}:{u.line}",
                    u.dispatch,
                    LinkView(u.delegate, hrefs.get(u.delegate, "")) if u.delegate else None,
                )
            )
        views[name] = tuple(made)
    return views
