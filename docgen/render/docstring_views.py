"""Docstrings on a docs page: tables where a convention parses, the text verbatim
where none does, and the `>>>` examples gathered for Testing & Usage."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from docgen.model.facts import Definition
from docgen.render.docstrings import DocField, ParsedDocstring, parse_docstring

#: Doctest examples shown per page before "and N more".
EXAMPLES_SHOWN = 5


@dataclass(frozen=True)
class FieldRow:
    """One documented parameter, return value or exception."""

    name: str  # raw; shown as code
    type: str  # raw; shown as code, "" when none
    description: str  # raw; shown as inert text on one line


@dataclass(frozen=True)
class FieldTable:
    """One section of a docstring shown as a table; columns without content are left out."""

    title: str  # "Parameters", "Returns", "Yields", "Raises"
    first_column: str  # "Name" or "Type" (raises: the exception)
    rows: tuple[FieldRow, ...]
    has_types: bool
    has_names: bool


@dataclass(frozen=True)
class DocstringView:
    """A docstring as its convention structures it, or verbatim when none applies."""

    style: str  # google / numpy / rest / plain
    tables: tuple[FieldTable, ...]
    text: str  # the docstring verbatim when no convention parses and it says more than a line


@dataclass(frozen=True)
class ExampleView:
    """A usage example found in a docstring, linked to the definition it documents."""

    source: str  # "module docstring" or the qualname whose docstring holds it
    href: str  # "#anchor" of that definition, "" for the module
    code: str


def docstring_view(docstring: str | None) -> DocstringView | None:
    if not docstring or not docstring.strip():
        return None
    parsed = parse_docstring(docstring)
    tables = tuple(t for t in _tables(parsed) if t.rows)
    if tables:
        return DocstringView(parsed.style, tables, "")
    text = docstring.strip()
    if "\n" not in text:
        return None  # one line: the summary already shows all of it
    return DocstringView(parsed.style, (), text)


def _tables(parsed: ParsedDocstring) -> Iterable[FieldTable]:
    yield _table("Parameters", "Name", parsed.params)
    yield _table("Returns", "Name", parsed.returns)
    yield _table("Yields", "Name", parsed.yields)
    yield _table("Raises", "Exception", parsed.raises)


def _table(title: str, first: str, fields: tuple[DocField, ...]) -> FieldTable:
    rows = tuple(FieldRow(f.name, f.type, f.description) for f in fields)
    return FieldTable(title, first, rows, any(r.type for r in rows), any(r.name for r in rows))


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
