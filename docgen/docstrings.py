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

from docgen.docstring_heads import (
    Head,
    clean_name,
    google_param,
    google_return,
    numpy_param,
    numpy_return,
    raise_head,
)

DocstringStyle = Literal["google", "numpy", "rest", "plain"]
SectionKind = Literal["params", "returns", "yields", "raises", "other"]


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
    returns: tuple[DocField, ...] = ()
    yields: tuple[DocField, ...] = ()
    raises: tuple[DocField, ...] = ()
    examples: tuple[str, ...] = ()
    other_sections: tuple[tuple[str, str], ...] = ()


#: section titles (lower case, single spaces) shared by the Google and NumPy styles
_TITLES: Mapping[str, SectionKind] = MappingProxyType(
    {
        "args": "params",
        "arguments": "params",
        "parameters": "params",
        "params": "params",
        "keyword args": "params",
        "keyword arguments": "params",
        "kwargs": "params",
        "other parameters": "params",
        "returns": "returns",
        "return": "returns",
        "yields": "yields",
        "yield": "yields",
        "raises": "raises",
        "raise": "raises",
        "example": "other",
        "examples": "other",
        "note": "other",
        "notes": "other",
        "warning": "other",
        "warnings": "other",
        "see also": "other",
        "attributes": "other",
        "todo": "other",
        "references": "other",
    }
)
_GOOGLE_HEADER = re.compile(r"([A-Za-z][A-Za-z ]{0,24}?) *:(:?)[ \t]*")
_NUMPY_TITLE = re.compile(r"([A-Za-z][A-Za-z ]{0,24}?) *:?[ \t]*")
#: the underline of any heading: ends a NumPy section even when its title is unknown
_UNDERLINE = re.compile(r"[ \t]*(?:-{3,}|={3,}|~{3,}|\^{3,})[ \t]*")
_DASHES = re.compile(r"[ \t]*(-{3,})[ \t]*")

#: `:param int x: text` and its kin; group 1 the field, 2 its argument, 3 the text
_REST_FIELD = re.compile(
    r"[ \t]*:(param|parameter|arg|argument|key|keyword|kwarg|kwparam|type|kwtype"
    r"|returns|return|rtype|raises|raise|except|exception|yields|yield|ytype)"
    r"((?:[ \t][^:\n]*?)?):(?:[ \t]+(.*)|[ \t]*$)"
)
_REST_KINDS: Mapping[str, SectionKind] = MappingProxyType(
    {
        "param": "params",
        "parameter": "params",
        "arg": "params",
        "argument": "params",
        "key": "params",
        "keyword": "params",
        "kwarg": "params",
        "kwparam": "params",
        "type": "params",
        "kwtype": "params",
        "returns": "returns",
        "return": "returns",
        "rtype": "returns",
        "raises": "raises",
        "raise": "raises",
        "except": "raises",
        "exception": "raises",
        "yields": "yields",
        "yield": "yields",
        "ytype": "yields",
    }
)
_TYPE_FIELDS = frozenset({"type", "kwtype", "rtype", "ytype"})

_BULLET = re.compile(r"[-*+\u2022][ \t]+")
_LIST_ITEM = re.compile(r"(?:[-*+\u2022]|\d+[.)]|#\.|\(\d+\))(?:[ \t]|$)")
#: a label such as "Example::" or "Example usage:", pointless once its doctests are gone
_LABEL = re.compile(r"(?i)(?:[a-z]+ )?(?:examples?|usage)(?: [a-z]+)?::?")
#: capitalised, these open a remark inside a field list rather than name a field
_NOT_NAMES = frozenset(_TITLES) | {"default", "defaults", "e.g.", "i.e."}

_Parser = Callable[[str], "Head | None"]


@dataclass(frozen=True, slots=True)
class _Section:
    """A recognised section: lines `start` to `end` (exclusive) hold it entirely."""

    title: str
    kind: SectionKind
    start: int
    end: int
    body: tuple[str, ...]  # the body lines, doctests blanked, indentation kept
    field: str = ""  # reST only: the field name (`param`, `rtype`, ...)
    argument: str = ""  # reST only: what stands between field name and colon
    first: str = ""  # reST only: the text after the colon on the field's own line


def parse_docstring(text: str) -> ParsedDocstring:
    """Split a cleaned docstring into the parts a page shows separately."""
    raw = [line.rstrip() for line in text.splitlines()]
    doctests = _doctest_blocks(raw)
    hidden = frozenset(i for block in doctests for i in block)
    examples = tuple(textwrap.dedent("\n".join(raw[i] for i in block)) for block in doctests)
    gone = hidden | _dangling_labels(raw, hidden)
    lines = [("" if i in gone else line) for i, line in enumerate(raw)]
    style: DocstringStyle = "plain"
    sections: list[_Section] = []
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
        returns=parts.returns,
        yields=parts.yields,
        raises=parts.raises,
        examples=examples,
        other_sections=parts.other,
    )


# --- doctests ---------------------------------------------------------------------------


def _is_prompt(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith(">>>") and (len(stripped) == 3 or stripped[3] in " \t")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _doctest_blocks(lines: Sequence[str]) -> list[range]:
    """Each `>>>` line with what follows it up to a blank or less indented line.

    Output indented deeper than the prompt carries on past a blank line: printed
    tensors hold blank lines, and cutting one in two would leave half in the prose.
    """
    blocks: list[range] = []
    i = 0
    while i < len(lines):
        if not _is_prompt(lines[i]):
            i += 1
            continue
        depth = _indent(lines[i])
        end = i + 1
        while end < len(lines):
            if lines[end].strip() and _indent(lines[end]) >= depth:
                end += 1
                continue
            after = _next_text(lines, end)
            if end == i + 1 or after == len(lines) or _indent(lines[after]) <= depth:
                break
            end = after
        blocks.append(range(i, end))
        i = end
    return blocks


def _dangling_labels(raw: Sequence[str], hidden: frozenset[int]) -> frozenset[int]:
    """Lines like "Example::" whose whole block was doctests: nothing is left to label."""
    found: set[int] = set()
    for i, line in enumerate(raw):
        stripped = line.strip()
        if i in hidden or not _LABEL.fullmatch(stripped):
            continue
        j, saw_doctest = i + 1, False
        while j < len(raw) and (j in hidden or not raw[j].strip()):
            saw_doctest = saw_doctest or j in hidden
            j += 1
        if saw_doctest and (j == len(raw) or _indent(raw[j]) <= _indent(line)):
            found.add(i)
    return frozenset(found)


# --- finding sections -------------------------------------------------------------------


def _base_indent(lines: Sequence[str]) -> int:
    return min((_indent(line) for line in lines if line.strip()), default=0)


def _next_text(raw: Sequence[str], start: int) -> int:
    """Index of the first non-blank line at or after `start` (len(raw) if none)."""
    while start < len(raw) and not raw[start].strip():
        start += 1
    return start


def _google(raw: Sequence[str], lines: Sequence[str], hidden: frozenset[int]) -> list[_Section]:
    """`Title:` at the docstring's own indentation, over a block indented further."""
    base = _base_indent(raw)
    sections: list[_Section] = []
    i = 0
    while i < len(raw):
        line = raw[i]
        match = _GOOGLE_HEADER.fullmatch(line.strip()) if i not in hidden else None
        kind = _TITLES.get(_title_key(match.group(1))) if match else None
        # "Args::" is a header too, but "Example::" mostly introduces a literal block
        if match is None or kind is None or (match.group(2) and kind == "other"):
            i += 1
            continue
        first = _next_text(raw, i + 1)
        if _indent(line) != base or first == len(raw) or _indent(raw[first]) <= base:
            i += 1
            continue
        end = first
        while end < len(raw) and (not raw[end].strip() or _indent(raw[end]) > base):
            end += 1
        while not raw[end - 1].strip():
            end -= 1
        sections.append(_Section(match.group(1), kind, i, end, tuple(lines[i + 1 : end])))
        i = end
    return sections


def _title_key(title: str) -> str:
    return " ".join(title.lower().split())


def _is_heading(raw: Sequence[str], i: int) -> bool:
    """A text line underlined by the next one: a heading, known or not."""
    return (
        i + 1 < len(raw)
        and bool(raw[i].strip())
        and not _UNDERLINE.fullmatch(raw[i])
        and bool(_UNDERLINE.fullmatch(raw[i + 1]))
    )


def _numpy(raw: Sequence[str], lines: Sequence[str], hidden: frozenset[int]) -> list[_Section]:
    """Known titles underlined by dashes of about their length, each running to the next heading."""
    sections: list[_Section] = []
    for i in range(len(raw) - 1):
        title = raw[i].strip()
        match = _NUMPY_TITLE.fullmatch(title)
        dashes = _DASHES.fullmatch(raw[i + 1])
        if match is None or dashes is None or i in hidden:
            continue
        kind = _TITLES.get(_title_key(match.group(1)))
        width = len(dashes.group(1))
        if kind is None or not len(title) // 2 <= width <= 2 * len(title) + 2:
            continue
        end = i + 2
        while end < len(raw) and not (_is_heading(raw, end) and end not in hidden):
            end += 1
        sections.append(_Section(match.group(1), kind, i, end, tuple(lines[i + 2 : end])))
    return sections


def _rest(raw: Sequence[str], lines: Sequence[str], hidden: frozenset[int]) -> list[_Section]:
    """Each `:field arg: text` line with the lines indented under it."""
    sections: list[_Section] = []
    i = 0
    while i < len(raw):
        match = _REST_FIELD.fullmatch(raw[i]) if i not in hidden else None
        if match is None:
            i += 1
            continue
        depth = _indent(raw[i])
        end = i + 1
        while end < len(raw) and (not raw[end].strip() or _indent(raw[end]) > depth):
            end += 1
        while not raw[end - 1].strip():
            end -= 1
        field = match.group(1)
        body = tuple(lines[i + 1 : end])
        argument, first = match.group(2).strip(), (match.group(3) or "").strip()
        sections.append(_Section(field, _REST_KINDS[field], i, end, body, field, argument, first))
        i = end
    return sections


# --- free text --------------------------------------------------------------------------


def _free_text(lines: Sequence[str], sections: list[_Section]) -> list[str]:
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
    start = _next_text(lines, 0)
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
        indented = k > 0 and min(_indent(line) for line in paragraph) > 0
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
    returns: tuple[DocField, ...] = ()
    yields: tuple[DocField, ...] = ()
    raises: tuple[DocField, ...] = ()
    other: tuple[tuple[str, str], ...] = ()


def _structured_parts(sections: Sequence[_Section], style: DocstringStyle) -> _Parts:
    """Google and NumPy sections as fields, or as text where they do not parse."""
    found: dict[SectionKind, list[DocField]] = {
        "params": [],
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
    depth = _base_indent(body)
    heads: list[tuple[Head, list[str]]] = []
    for line in body:
        at_head = bool(line.strip()) and (not heads or _indent(line) <= depth)
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
    if label[:1].isupper() and _title_key(label) in _NOT_NAMES:
        return None  # "Note: ..." or "Default: 0" at the fields' indentation continues a field
    return head


_Finder = Callable[[Sequence[str], Sequence[str], frozenset[int]], list[_Section]]
#: tried in this order; a later style must find strictly more sections to win
_FINDERS: tuple[tuple[DocstringStyle, _Finder], ...] = (
    ("google", _google),
    ("numpy", _numpy),
    ("rest", _rest),
)
_GOOGLE_PARSERS: Mapping[SectionKind, _Parser] = MappingProxyType(
    {
        "params": google_param,
        "returns": google_return,
        "yields": google_return,
        "raises": raise_head,
    }
)
_NUMPY_PARSERS: Mapping[SectionKind, _Parser] = MappingProxyType(
    {
        "params": numpy_param,
        "returns": numpy_return,
        "yields": numpy_return,
        "raises": raise_head,
    }
)
_PARSERS: Mapping[str, Mapping[SectionKind, _Parser]] = MappingProxyType(
    {"google": _GOOGLE_PARSERS, "numpy": _NUMPY_PARSERS}
)


def _rest_parts(sections: Sequence[_Section]) -> _Parts:
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
