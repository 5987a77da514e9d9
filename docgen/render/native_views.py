"""Python's calls into C++ as a page shows them: on a Python definition's section (and
for the module's own top-level code), each name read that the tree makes in C++ with
where it is made and the C++ it binds; on a C-family page, each binding's and each
`m.def`'s callers in Python."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from docgen.model.anchors import AnchoredDefinition
from docgen.model.binding_facts import ExtensionModule
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.native_links import BoundEnd, NativeCall, NativeCaller
from docgen.render.view_refs import LineRef, LinkView


@dataclass(frozen=True)
class NativeEndView:
    """Where a name is made: a binding of a module, or an operator's schema."""

    kind: str  # "binding" or "op"
    name: LinkView  # `flash_attn_2_cuda.fwd`, `flash_attn_3::fwd`, linked to its section
    source: str  # `path:line` of the binding or the schema
    target: LinkView | None  # the C++ a binding binds, linked to its heading
    lambda_bound: bool  # a binding whose C++ is a lambda


@dataclass(frozen=True)
class NativeCallView:
    """A name read on some lines of a definition (or of the module's top level)."""

    written: str
    name: str  # as Python resolves it ("" when as written)
    lines: tuple[LineRef, ...]
    ends: tuple[NativeEndView, ...]


@dataclass(frozen=True)
class NativeCallerView:
    """A Python use of a binding or an operator, on a C-family page."""

    written: str
    name: str
    page: LinkView  # the Python file, linked to its page
    lines: tuple[LineRef, ...]


def _end_view(bound: BoundEnd, linker: Linker) -> NativeEndView:
    end = bound.end
    href = linker.to_page(docs_page(end.path), end.anchor)
    if end.kind == "binding":
        names = [f"{m}.{end.qualname}" for m in bound.modules] or [end.qualname]
        label = ", ".join(names)
    else:
        label = end.qualname
    target = None
    if bound.target:
        defined = bound.defined[0] if bound.defined else None
        target_href = linker.to_page(docs_page(defined[0]), defined[2]) if defined else ""
        target = LinkView(bound.target, target_href)
    lambda_bound = bound.lambda_bound
    source = f"{end.path}:{end.line}"
    return NativeEndView(end.kind, LinkView(label, href), source, target, lambda_bound)


def native_call_views(
    path: str,
    line_count: int,
    calls: Iterable[NativeCall],
    anchored: tuple[AnchoredDefinition, ...],
    linker: Linker,
) -> dict[str, tuple[NativeCallView, ...]]:
    """Each call by the qualified name of the innermost definition holding its lines
    ("" for the module's top level); a name read in several definitions is listed in
    each, with its lines there."""
    spans = sorted(
        ((a.definition.line, a.definition.end_line, a.definition.qualname) for a in anchored),
        key=lambda s: (s[0], -s[1]),
    )
    found: dict[str, list[NativeCallView]] = {}
    for call in calls:
        by_owner: dict[str, list[int]] = {}
        for line in call.lines:
            owner = ""
            for start, end, qualname in spans:
                if start <= line <= end:
                    owner = qualname  # the innermost: spans sorted outer first
            by_owner.setdefault(owner, []).append(line)
        ends = tuple(_end_view(b, linker) for b in call.ends)
        shown = call.name if call.name != call.written else ""
        for owner, lines in by_owner.items():
            refs = tuple(linker.line(path, n, line_count) for n in lines)
            found.setdefault(owner, []).append(NativeCallView(call.written, shown, refs, ends))
    return {owner: tuple(views) for owner, views in found.items()}


def native_caller_views(
    callers: Mapping[int, tuple[NativeCaller, ...]],
    line_counts: Mapping[str, int],
    linker: Linker,
) -> dict[int, tuple[NativeCallerView, ...]]:
    """Each binding's or `m.def`'s callers, by its line."""
    views: dict[int, tuple[NativeCallerView, ...]] = {}
    for line, found in callers.items():
        views[line] = tuple(
            NativeCallerView(
                c.written,
                c.name if c.name != c.written else "",
                LinkView(c.path, linker.to_page(docs_page(c.path))),
                tuple(linker.line(c.path, n, line_counts.get(c.path, 0)) for n in c.lines),
            )
            for c in found
        )
    return views


@dataclass(frozen=True)
class ExtensionView:
    """A compiled module a build script declares, with its source files (each linked to
    its page where the tree holds it)."""

    name: str
    maker: str
    line: LineRef
    sources: tuple[LinkView, ...]
    complete: bool  # False: some of its sources are not plain strings


def extension_views(
    path: str,
    line_count: int,
    extensions: Iterable[ExtensionModule],
    documented: Callable[[str], bool],
    linker: Linker,
) -> tuple[ExtensionView, ...]:
    """A build script's extension modules; `documented(path)`: whether a source has a page."""
    folder = posixpath.dirname(path)
    views = []
    for e in extensions:
        sources = []
        for source in e.sources:
            target = posixpath.normpath(posixpath.join(folder, source))
            href = linker.to_page(docs_page(target)) if documented(target) else ""
            sources.append(LinkView(source, href))
        views.append(
            ExtensionView(
                e.name, e.maker, linker.line(path, e.line, line_count), tuple(sources), e.complete
            )
        )
    return tuple(views)
