"""Docstrings split into summary, free text and parameter / return / raise tables.

Three conventions are read: Google (`Args:` over an indented block), NumPy (a
title underlined with dashes) and reST field lists (`:param x:`).  Each style is
tried on its own and the one with the most sections that really parse wins, so
prose that merely says "Args:" or a doc that mixes conventions is never forced
into the wrong shape; with no section at all the docstring is "plain".  Section
bodies that do not parse as fields are kept as text rather than dropped or
half-parsed.  Doctest blocks are collected from anywhere and taken out of the
text around them, so a page can show them once, as code.

Only lines and small linear regexes are used: a malformed or hostile docstring
costs a linear scan and never an exception.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from docgen.render.docstring_heads import (
    Head,
    clean_name,
    google_param,
    google_return,
    numpy_param,
    numpy_return,
    raise_head,
)
from docgen.render.docstring_sections import (
    TITLES,
    Section,
    SectionKind,
    base_indent,
    dangling_labels,
    doctest_blocks,
    google_sections,
    indent,
    next_text,
    numpy_sections,
    rest_sections,
    title_key,
)

DocstringStyle = Literal["google", "numpy", "rest", "plain"]


@dataclass(frozen=True, slots=True)
class DocField:
    """One row of a parameters, returns, yields or raises table."""

    name: str  # "" when unnamed; the exception type for a raises row
    type: str  # as written, "" if none
    description: str  # paragraphs (and list items) separated by "\n"


@dataclass(frozen=True, slots=True)
class ParsedDocstring:
    """A docstring as the parts a page shows separately."""

    style: DocstringStyle
    summary: str  # first paragraph on one line
    description: str  # the remaining free text, dedented
    params: tuple[DocField, ...] = ()
    attributes: tuple[DocField, ...] = ()  # a Google or NumPy "Attributes" section
    returns: tuple[DocField, ...] = ()
    yields: tuple[DocField, ...] = ()
    raises: tuple[DocField, ...] = ()
    examples: tuple[str, ...] = ()
    other_sections: tuple[tuple[str, str], ...] = ()


_TYPE_FIELDS = frozenset({"type", "kwtype", "rtype", "ytype"})

_BULLET = re.compile(r"[-*+\u2022][ \t]+")
_LIST_ITEM = re.compile(r"(?:[-*+\u2022]|\d+[.)]|#\.|\(\d+\))(?:[ \t]|$)")
#: capitalised, these open a remark inside a field list rather than name a field
_NOT_NAMES = frozenset(TITLES) | {"default", "defaults", "e.g.", "i.e."}

_Parser = Callable[[str], "Head | None"]


def parse_docstring(text: str) -> ParsedDocstring:
    """Split a cleaned docstring into the parts a page shows separately."""
    raw = [line.rstrip() for line in text.splitlines()]
    doctests = doctest_blocks(raw)
    hidden = frozenset(i for block in doctests for i in block)
    examples = tuple(textwrap.dedent("\n".join(raw[i] for i in block)) for block in doctests)
    gone = hidden | dangling_labels(raw, hidden)
    lines = [("" if i in gone else line) for i, line in enumerate(raw)]
    style: DocstringStyle = "plain"
    sections: list[Section] = []
    best = 0
    for candidate, finder in _FINDERS:
        found = finder(raw, lines, hidden)
        # reST has one "section" per field: count the kinds of field instead
        score = len({s.kind for s in found}) if candidate == "rest" else len(found)
        if score > best:
            style, sections, best = candidate, found, score
    summary, description = _summary_and_rest(_free_text(lines, sections))
    parts = _rest_parts(sections) if style == "rest" else _structured_parts(sections, style)
    return ParsedDocstring(
        style=style,
        summary=summary,
        description=description,
        params=parts.params,
        attributes=parts.attributes,
        returns=parts.returns,
        yields=parts.yields,
        raises=parts.raises,
        examples=examples,
        other_sections=parts.other,
    )


# --- free text --------------------------------------------------------------------------


def _free_text(lines: Sequence[str], sections: list[Section]) -> list[str]:
    """The lines no section holds, with a paragraph break where a section was cut out."""
    taken = {i for section in sections for i in range(section.start, section.end)}
    free: list[str] = []
    for i, line in enumerate(lines):
        if i not in taken:
            free.append(line)
        elif free and free[-1]:
            free.append("")
    return free


def _summary_and_rest(lines: Sequence[str]) -> tuple[str, str]:
    start = next_text(lines, 0)
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    summary = " ".join(" ".join(lines[start:end]).split())
    return summary, _tidy_block(lines[end:])


def _tidy_block(lines: Sequence[str]) -> str:
    """Dedented, without blank lines at either end or runs of them inside."""
    kept: list[str] = []
    for line in lines:
        if line.strip():
            kept.append(line)
        elif kept and kept[-1]:
            kept.append("")
    while kept and not kept[-1]:
        kept.pop()
    return textwrap.dedent("\n".join(kept))


def _description(first: str, rest: Sequence[str]) -> str:
    """Lines joined into paragraphs, one per line; list items and literal blocks keep their lines.

    A table cell cannot hold hard-wrapped prose, but a bullet list or code joined
    into one line would read as nonsense.
    """
    body = textwrap.dedent("\n".join(line if line.strip() else "" for line in rest)).split("\n")
    paragraphs: list[list[str]] = [[first.strip()]] if first.strip() else []
    gap = not paragraphs
    for line in body:
        if not line.strip():
            gap = True
        elif gap or not paragraphs:
            paragraphs.append([line])
            gap = False
        else:
            paragraphs[-1].append(line)
    out: list[str] = []
    literal_next = False
    for k, paragraph in enumerate(paragraphs):
        indented = k > 0 and min(indent(line) for line in paragraph) > 0
        if literal_next or indented:
            out.append(textwrap.dedent("\n".join(paragraph)))
        else:
            out.append(_join_prose(paragraph))
        literal_next = paragraph[-1].rstrip().endswith("::")
    return "\n".join(part for part in out if part)


def _join_prose(paragraph: Sequence[str]) -> str:
    pieces: list[str] = []
    for line in paragraph:
        text = " ".join(line.split())
        if pieces and not _LIST_ITEM.match(text):
            pieces[-1] = f"{pieces[-1]} {text}"
        else:
            pieces.append(text)
    return "\n".join(pieces)


# --- fields -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Parts:
    """The structured parts of one docstring, collected before the final dataclass."""

    params: tuple[DocField, ...] = ()
    attributes: tuple[DocField, ...] = ()
    returns: tuple[DocField, ...] = ()
    yields: tuple[DocField, ...] = ()
    raises: tuple[DocField, ...] = ()
    other: tuple[tuple[str, str], ...] = ()


def _structured_parts(sections: Sequence[Section], style: DocstringStyle) -> _Parts:
    """Google and NumPy sections as fields, or as text where they do not parse."""
    found: dict[SectionKind, list[DocField]] = {
        "params": [],
        "attributes": [],
        "returns": [],
        "yields": [],
        "raises": [],
    }
    other: list[tuple[str, str]] = []
    for section in sections:
        fields = (
            _fields(section.body, _PARSERS[style][section.kind])
            if section.kind != "other"
            else None
        )
        if fields is not None:
            found[section.kind].extend(fields)
        elif section.kind in ("returns", "yields"):
            text = _description("", section.body)
            if text:
                found[section.kind].append(DocField("", "", text))
        else:
            text = _tidy_block(section.body)
            if text:
                other.append((section.title, text))
    return _Parts(
        params=tuple(found["params"]),
        attributes=tuple(found["attributes"]),
        returns=tuple(found["returns"]),
        yields=tuple(found["yields"]),
        raises=tuple(found["raises"]),
        other=tuple(other),
    )


def _fields(body: Sequence[str], parse: _Parser) -> list[DocField] | None:
    """Entries at the body's outer indentation, each parsed; None when the first does not parse.

    A later line at that indentation that does not parse continues the entry
    before it: hard-wrapped text at one indentation is common, stray fields are not.
    """
    depth = base_indent(body)
    heads: list[tuple[Head, list[str]]] = []
    for line in body:
        at_head = bool(line.strip()) and (not heads or indent(line) <= depth)
        head = _head(parse, line.strip()) if at_head else None
        if head is not None:
            heads.append((head, []))
        elif not heads and line.strip():
            return None
        elif heads:
            heads[-1][1].append(line)
    return [
        DocField(name, type_, _description(first, rest)) for (name, type_, first), rest in heads
    ] or None


def _head(parse: _Parser, text: str) -> Head | None:
    """An entry's head as written, or inside a bullet ("- x: text")."""
    head = parse(text)
    bullet = _BULLET.match(text) if head is None else None
    if bullet is not None:
        head = parse(text[bullet.end() :])
    label = head[0] or head[1] if head is not None else ""
    if label[:1].isupper() and title_key(label) in _NOT_NAMES:
        return None  # "Note: ..." or "Default: 0" at the fields' indentation continues a field
    return head


_Finder = Callable[[Sequence[str], Sequence[str], frozenset[int]], list[Section]]
#: tried in this order; a later style must find strictly more sections to win
_FINDERS: tuple[tuple[DocstringStyle, _Finder], ...] = (
    ("google", google_sections),
    ("numpy", numpy_sections),
    ("rest", rest_sections),
)
_GOOGLE_PARSERS: Mapping[SectionKind, _Parser] = MappingProxyType(
    {
        "params": google_param,
        "attributes": google_param,
        "returns": google_return,
        "yields": google_return,
        "raises": raise_head,
    }
)
_NUMPY_PARSERS: Mapping[SectionKind, _Parser] = MappingProxyType(
    {
        "params": numpy_param,
        "attributes": numpy_param,
        "returns": numpy_return,
        "yields": numpy_return,
        "raises": raise_head,
    }
)
_PARSERS: Mapping[str, Mapping[SectionKind, _Parser]] = MappingProxyType(
    {"google": _GOOGLE_PARSERS, "numpy": _NUMPY_PARSERS}
)


def _rest_parts(sections: Sequence[Section]) -> _Parts:
    """reST fields merged: `:type x:` into `x`'s row, `:rtype:` into the one returns row."""
    params: dict[str, list[str]] = {}  # name -> [type, description]
    raises: list[DocField] = []
    flows: dict[SectionKind, list[str]] = {"returns": ["", ""], "yields": ["", ""]}
    for section in sections:
        text = _description(section.first, section.body)
        if section.kind == "params":
            if section.field in _TYPE_FIELDS:
                row = params.setdefault(clean_name(section.argument), ["", ""])
                row[0] = " ".join(text.split())
                continue
            *typed, name = section.argument.rsplit(None, 1) or [""]
            row = params.setdefault(clean_name(name), ["", ""])
            row[0] = row[0] or " ".join(typed)
            row[1] = "\n".join(part for part in (row[1], text) if part)
        elif section.kind == "raises":
            raises.append(DocField(section.argument, "", text))
        elif section.kind in flows:
            flow = flows[section.kind]
            if section.field in _TYPE_FIELDS:
                flow[0] = " ".join(text.split())
            else:
                flow[0] = flow[0] or section.argument
                flow[1] = "\n".join(part for part in (flow[1], text) if part)
    return _Parts(
        params=tuple(DocField(name, type_, text) for name, (type_, text) in params.items()),
        returns=_flow(flows["returns"]),
        yields=_flow(flows["yields"]),
        raises=tuple(raises),
    )


def _flow(row: list[str]) -> tuple[DocField, ...]:
    return (DocField("", row[0], row[1]),) if any(row) else ()
