"""The "Used in" of a Python definition's section, and every use on the keyword page
(see `docgen.render.use_links`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from docgen.model.anchors import AnchoredCDefinition, AnchoredDefinition, kw_use_anchors
from docgen.model.facts import Definition, PythonFacts
from docgen.model.links import docs_page, kw_page
from docgen.render.context import Linker
from docgen.render.use_links import FileUses
from docgen.render.view_refs import DefinitionUses, LinkView, UsedInView, UsesView

FILES_SHOWN = 5  # files a section lists before linking to the keyword page's whole list
LINES_SHOWN = 3  # lines of each file a section lists

#: a definition of either language with its anchor
Anchored = AnchoredDefinition | AnchoredCDefinition


def used_anchored(
    anchored: Iterable[Anchored], used: Mapping[str, tuple[FileUses, ...]]
) -> list[Anchored]:
    """The definitions other files use, the first of each qualified name, in page order."""
    seen: set[str] = set()
    found = []
    for item in anchored:
        qualname = item.definition.qualname
        if qualname in used and qualname not in seen:
            seen.add(qualname)
            found.append(item)
    return found


def kw_anchors(path: str, items: list[Anchored]) -> dict[str, str]:
    """Where the keyword page lists every use of each of `items` (see `used_anchored`):
    each heading's text is `kind qualname`, in either language."""
    headings = (f"{i.definition.kind} {i.definition.qualname}" for i in items)
    anchors = kw_use_anchors(path, headings)
    return {i.definition.qualname: a for i, a in zip(items, anchors, strict=True)}


def uses_view(
    uses: tuple[FileUses, ...],
    line_counts: Mapping[str, int],
    linker: Linker,
    every_href: str,
    every: bool = False,
) -> UsesView:
    """A definition's uses: on its docs page the first files and lines (`every_href`:
    the keyword page's list of them all), on the keyword page (`every`) all of them."""
    shown = uses if every else uses[:FILES_SHOWN]
    views = tuple(
        UsedInView(
            LinkView(u.path, linker.to_page(docs_page(u.path))),
            len(u.lines),
            tuple(
                linker.line(u.path, n, line_counts.get(u.path, 0))
                for n in (u.lines if every else u.lines[:LINES_SHOWN])
            ),
        )
        for u in shown
    )
    whole = every or (len(uses) <= FILES_SHOWN and all(len(u.lines) <= LINES_SHOWN for u in uses))
    return UsesView(len(uses), sum(len(u.lines) for u in uses), views, "" if whole else every_href)


def section_uses(
    path: str,
    anchored: tuple[AnchoredDefinition, ...],
    used: Mapping[str, tuple[FileUses, ...]],
    python: PythonFacts,
    line_counts: Mapping[str, int],
    linker: Linker,
) -> dict[str, UsesView]:
    """Each definition's "Used in", by qualified name, for its docs page: those other
    files use, and each top-level class and function no other file uses."""
    items = used_anchored(anchored, used)
    anchors = kw_anchors(path, items)
    found = {
        q: uses_view(used[q], line_counts, linker, linker.to_page(kw_page(path), anchors[q]))
        for q in anchors
    }
    here = set(python.used_here)
    stub = path.endswith(".pyi")
    for item in anchored:
        d = item.definition
        if d.qualname in found:
            continue
        if d.parent is not None:  # a method: used here through `self`, or not said
            if d.qualname in here:
                found[d.qualname] = UsesView(0, 0, (), "", through_self=True)
            continue
        candidate = not stub and d.name not in here and _unexported(d, python)
        found[d.qualname] = UsesView(0, 0, (), "", d.name in here, candidate)
    return found


#: hooks a framework calls by their names (pytest's `pytest_configure`, Python's own)
_HOOK_PREFIXES = ("pytest_", "__")


def _unexported(definition: Definition, python: PythonFacts) -> bool:
    """Whether nothing says code outside the tree may use the definition: private (a
    leading underscore) or left out of its module's `__all__`, no decorator (one may
    register it), not a hook by its name."""
    name = definition.name
    if definition.decorators or name.startswith(_HOOK_PREFIXES):
        return False
    exported = python.dunder_all
    return name.startswith("_") if exported is None else name not in exported


def c_section_uses(
    path: str,
    items: tuple[AnchoredCDefinition, ...],
    used: Mapping[str, tuple[FileUses, ...]],
    line_counts: Mapping[str, int],
    linker: Linker,
) -> dict[str, UsesView]:
    """Each C-family definition's "Used in", by qualified name: those other files use."""
    used_items = used_anchored(items, used)
    anchors = kw_anchors(path, used_items)
    return {
        q: uses_view(used[q], line_counts, linker, linker.to_page(kw_page(path), anchors[q]))
        for q in anchors
    }


def every_use(
    path: str,
    anchored: Iterable[Anchored],
    used: Mapping[str, tuple[FileUses, ...]],
    line_counts: Mapping[str, int],
    linker: Linker,
) -> tuple[DefinitionUses, ...]:
    """Each used definition of the file with every use, for its keyword page."""
    items = used_anchored(anchored, used)
    anchors = kw_anchors(path, items)
    return tuple(
        DefinitionUses(
            i.definition.kind,
            i.definition.qualname,
            anchors[i.definition.qualname],
            LinkView(i.definition.qualname, linker.to_page(docs_page(path), i.anchor)),
            uses_view(used[i.definition.qualname], line_counts, linker, "", every=True),
        )
        for i in items
    )
