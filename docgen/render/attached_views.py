"""The docstrings attached at import, as pages show them: on the section of the
definition they document (the text whole, with the file and line that attach it),
and on the attaching file's page, one line per target with where it leads."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from docgen.index.role_rows import bindings, stands_for
from docgen.model.binding_facts import AttachedDoc
from docgen.model.facts import Import
from docgen.model.links import docs_page
from docgen.render.attached_links import AttachedText
from docgen.render.context import Linker
from docgen.render.docstring_views import DocstringView, docstring_view
from docgen.render.view_refs import LineRef, LinkView


@dataclass(frozen=True)
class AttachedDocView:
    """A docstring another file attaches to this definition."""

    call: str  # `add_docstr(torch.add, ...)`, as written
    source: LinkView  # the attaching file, linked to its page
    line: LineRef  # the attaching line, linked to the source
    fields: str  # the arguments of a `.format(...)` filling it at import, or ""
    made_by_code: bool  # its text is made by code docgen does not run
    docstring: DocstringView | None


@dataclass(frozen=True)
class AttachedTargetView:
    """One docstring a file attaches: its target as written, where it leads."""

    call: str
    line: LineRef
    target: LinkView  # linked to the definition it documents; href "" when none
    stands_for: str  # the target as the file's imports make it, "" when as written
    bound: str  # the module-level name the call's result is bound to, or ""
    made_by_code: bool


def attached_doc_views(
    attached: Mapping[str, tuple[AttachedText, ...]], linker: Linker
) -> dict[str, tuple[AttachedDocView, ...]]:
    """Each definition's attached docstrings, by the definition's anchor."""
    return {
        anchor: tuple(
            AttachedDocView(
                call=t.via or t.target,
                source=LinkView(t.source, linker.to_page(docs_page(t.source))),
                line=LineRef(t.line, linker.to_source(t.source, f"L{t.line}")),
                fields=t.fields,
                made_by_code=not t.text,
                docstring=docstring_view(t.text),
            )
            for t in texts
        )
        for anchor, texts in attached.items()
    }


def attached_target_views(
    path: str,
    line_count: int,
    attached: tuple[AttachedDoc, ...],
    imports: tuple[Import, ...],
    leads: Mapping[str, tuple[str, str]],
    linker: Linker,
) -> tuple[AttachedTargetView, ...]:
    """The docstrings a file attaches, each linked where its target leads (`leads`: the
    file's role links, which hold the attached targets)."""
    views = []
    bound = bindings(imports)
    for doc in attached:
        destination = leads.get(doc.target)
        href = linker.to_page(docs_page(destination[0]), destination[1]) if destination else ""
        views.append(
            AttachedTargetView(
                call=doc.via,
                line=linker.line(path, doc.line, line_count),
                target=LinkView(doc.target, href),
                stands_for=stands_for(doc.target, bound),
                bound=doc.bound,
                made_by_code=doc.text is None,
            )
        )
    return tuple(views)
