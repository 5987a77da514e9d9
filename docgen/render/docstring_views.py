"""Docstrings on a docs page, every word of them: the summary and the free text as
Markdown (reST markup converted, `docgen.render.docstring_markdown`), tables where a
convention parses its fields, every other section under its title (a Note or a
Warning as an alert) and the `>>>` examples whole as code, a long one folded."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from docgen.model.facts import Definition
from docgen.render.docstring_markdown import Resolve, alert, blocks_markdown, inline_markdown
from docgen.render.docstrings import DocField, ParsedDocstring, parse_docstring
from docgen.render.filters import folded, inert_inline

#: Other sections shown as GitHub alerts, by their title.
_ALERT_TITLES = {"note": "NOTE", "notes": "NOTE", "warning": "WARNING", "warnings": "WARNING"}


def _no_links(target: str) -> str:
    return ""


@dataclass(frozen=True)
class FieldRow:
    """One documented parameter, return value or exception."""

    name: str  # raw; shown as code
    type: str  # raw; shown as code, "" when none
    description: str  # Markdown on one line, made inert (see `docstring_markdown`)


@dataclass(frozen=True)
class FieldTable:
    """One section of a docstring shown as a table; columns without content are left out."""

    title: str  # "Parameters", "Attributes", "Returns", "Yields", "Raises"
    first_column: str  # "Name" or "Type" (raises: the exception)
    rows: tuple[FieldRow, ...]
    has_types: bool
    has_names: bool


@dataclass(frozen=True)
class DocstringView:
    """A docstring whole, as its convention structures it: `text` (its summary and free
    text), `tables`, then `sections` (the other sections and the examples), each Markdown
    made inert by `docstring_markdown`."""

    style: str  # google / numpy / rest / plain
    tables: tuple[FieldTable, ...]
    text: str
    sections: str = ""


@dataclass(frozen=True)
class ExampleView:
    """A usage example found in a docstring, linked to the definition it documents."""

    source: str  # "module docstring" or the qualname whose docstring holds it
    href: str  # "#anchor" of that definition, "" for the module
    code: str


def docstring_view(docstring: str | None, resolve: Resolve = _no_links) -> DocstringView | None:
    """The whole docstring; `resolve` links a role's target to its definition."""
    if not docstring or not docstring.strip():
        return None
    parsed = parse_docstring(docstring)
    text = "\n\n".join(
        part
        for part in (
            inline_markdown(parsed.summary, resolve),
            blocks_markdown(parsed.description, resolve),
        )
        if part
    )
    tables = tuple(t for t in _tables(parsed, resolve) if t.rows)
    return DocstringView(parsed.style, tables, text, _sections(parsed, resolve))


def _sections(parsed: ParsedDocstring, resolve: Resolve) -> str:
    """The sections no table shows, each under its title, then every example."""
    parts = []
    for title, body in parsed.other_sections:
        inner = blocks_markdown(body, resolve)
        kind = _ALERT_TITLES.get(title.strip().lower())
        if kind and inner:
            parts.append(alert(kind, inner))
        elif inner or title:
            parts.append(f"**{inert_inline(title.strip())}:**\n\n{inner}".rstrip())
    if parsed.examples:
        label = "Example:" if len(parsed.examples) == 1 else "Examples:"
        parts.append(label)
        parts.extend(folded(code, "pycon") for code in parsed.examples)
    return "\n\n".join(parts)


def _tables(parsed: ParsedDocstring, resolve: Resolve) -> Iterable[FieldTable]:
    yield _table("Parameters", "Name", parsed.params, resolve)
    yield _table("Attributes", "Name", parsed.attributes, resolve)
    yield _table("Returns", "Name", parsed.returns, resolve)
    yield _table("Yields", "Name", parsed.yields, resolve)
    yield _table("Raises", "Exception", parsed.raises, resolve)


def _table(title: str, first: str, fields: tuple[DocField, ...], resolve: Resolve) -> FieldTable:
    rows = tuple(FieldRow(f.name, f.type, _cell(f.description, resolve)) for f in fields)
    return FieldTable(title, first, rows, any(r.type for r in rows), any(r.name for r in rows))


def _cell(description: str, resolve: Resolve) -> str:
    """A field's description in one table cell, its paragraphs on one line."""
    paragraphs = [inline_markdown(p, resolve, in_table=True) for p in description.split("\n")]
    return " ".join(p for p in paragraphs if p) or " "


@dataclass(frozen=True)
class ExampleSource:
    """A docstring that holds usage examples, shown with its definition (or at the top,
    for the module's): where Testing & Usage points."""

    source: str  # "module docstring" or the qualname
    href: str  # "#anchor" of that definition, "" for the module
    count: int


def example_sources(examples: Iterable[ExampleView]) -> tuple[ExampleSource, ...]:
    """The docstrings the examples come from, in file order, with how many each holds."""
    counts: dict[tuple[str, str], int] = {}
    for e in examples:
        counts[(e.source, e.href)] = counts.get((e.source, e.href), 0) + 1
    return tuple(ExampleSource(source, href, n) for (source, href), n in counts.items())


def examples_of(
    module_docstring: str | None, definitions: Iterable[tuple[Definition, str]]
) -> tuple[ExampleView, ...]:
    """Every `>>>` example of the module's and its definitions' docstrings, in file order.

    `definitions` pairs each definition with the "#anchor" of its heading.
    """
    found: list[ExampleView] = []
    if module_docstring:
        for code in parse_docstring(module_docstring).examples:
            found.append(ExampleView("module docstring", "", code))
    for definition, href in definitions:
        if definition.docstring and ">>>" in definition.docstring:
            for code in parse_docstring(definition.docstring).examples:
                found.append(ExampleView(definition.qualname, href, code))
    return tuple(found)
