"""Where a docstring's sections are, in each of the three conventions docgen reads
(Google, NumPy, reST field lists), and its doctest blocks: lines and small linear
regexes only (see `docgen.render.docstrings`, which turns the sections into fields)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

SectionKind = Literal["params", "attributes", "returns", "yields", "raises", "other"]

#: section titles (lower case, single spaces) shared by the Google and NumPy styles
TITLES: Mapping[str, SectionKind] = MappingProxyType(
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
        "attributes": "attributes",
        "attribute": "attributes",
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
#: a label such as "Example::" or "Example usage:", pointless once its doctests are gone
_LABEL = re.compile(r"(?i)(?:[a-z]+ )?(?:examples?|usage)(?: [a-z]+)?::?")


@dataclass(frozen=True, slots=True)
class Section:
    """A recognised section: lines `start` to `end` (exclusive) hold it entirely."""

    title: str
    kind: SectionKind
    start: int
    end: int
    body: tuple[str, ...]  # the body lines, doctests blanked, indentation kept
    field: str = ""  # reST only: the field name (`param`, `rtype`, ...)
    argument: str = ""  # reST only: what stands between field name and colon
    first: str = ""  # reST only: the text after the colon on the field's own line


# --- doctests ---------------------------------------------------------------------------


def _is_prompt(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith(">>>") and (len(stripped) == 3 or stripped[3] in " \t")


def indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def doctest_blocks(lines: Sequence[str]) -> list[range]:
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
        depth = indent(lines[i])
        end = i + 1
        while end < len(lines):
            if lines[end].strip() and indent(lines[end]) >= depth:
                end += 1
                continue
            after = next_text(lines, end)
            if end == i + 1 or after == len(lines) or indent(lines[after]) <= depth:
                break
            end = after
        blocks.append(range(i, end))
        i = end
    return blocks


def dangling_labels(raw: Sequence[str], hidden: frozenset[int]) -> frozenset[int]:
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
        if saw_doctest and (j == len(raw) or indent(raw[j]) <= indent(line)):
            found.add(i)
    return frozenset(found)


# --- finding sections -------------------------------------------------------------------


def base_indent(lines: Sequence[str]) -> int:
    return min((indent(line) for line in lines if line.strip()), default=0)


def next_text(raw: Sequence[str], start: int) -> int:
    """Index of the first non-blank line at or after `start` (len(raw) if none)."""
    while start < len(raw) and not raw[start].strip():
        start += 1
    return start


def google_sections(
    raw: Sequence[str], lines: Sequence[str], hidden: frozenset[int]
) -> list[Section]:
    """`Title:` at the docstring's own indentation, over a block indented further."""
    base = base_indent(raw)
    sections: list[Section] = []
    i = 0
    while i < len(raw):
        line = raw[i]
        match = _GOOGLE_HEADER.fullmatch(line.strip()) if i not in hidden else None
        kind = TITLES.get(title_key(match.group(1))) if match else None
        # "Args::" is a header too, but "Example::" mostly introduces a literal block
        if match is None or kind is None or (match.group(2) and kind == "other"):
            i += 1
            continue
        first = next_text(raw, i + 1)
        if indent(line) != base or first == len(raw) or indent(raw[first]) <= base:
            i += 1
            continue
        end = first
        while end < len(raw) and (not raw[end].strip() or indent(raw[end]) > base):
            end += 1
        while not raw[end - 1].strip():
            end -= 1
        sections.append(Section(match.group(1), kind, i, end, tuple(lines[i + 1 : end])))
        i = end
    return sections


def title_key(title: str) -> str:
    return " ".join(title.lower().split())


def _is_heading(raw: Sequence[str], i: int) -> bool:
    """A text line underlined by the next one: a heading, known or not."""
    return (
        i + 1 < len(raw)
        and bool(raw[i].strip())
        and not _UNDERLINE.fullmatch(raw[i])
        and bool(_UNDERLINE.fullmatch(raw[i + 1]))
    )


def numpy_sections(
    raw: Sequence[str], lines: Sequence[str], hidden: frozenset[int]
) -> list[Section]:
    """Known titles underlined by dashes of about their length, each running to the next heading."""
    sections: list[Section] = []
    for i in range(len(raw) - 1):
        title = raw[i].strip()
        match = _NUMPY_TITLE.fullmatch(title)
        dashes = _DASHES.fullmatch(raw[i + 1])
        if match is None or dashes is None or i in hidden:
            continue
        kind = TITLES.get(title_key(match.group(1)))
        width = len(dashes.group(1))
        if kind is None or not len(title) // 2 <= width <= 2 * len(title) + 2:
            continue
        end = i + 2
        while end < len(raw) and not (_is_heading(raw, end) and end not in hidden):
            end += 1
        sections.append(Section(match.group(1), kind, i, end, tuple(lines[i + 2 : end])))
    return sections


def rest_sections(
    raw: Sequence[str], lines: Sequence[str], hidden: frozenset[int]
) -> list[Section]:
    """Each `:field arg: text` line with the lines indented under it."""
    sections: list[Section] = []
    i = 0
    while i < len(raw):
        match = _REST_FIELD.fullmatch(raw[i]) if i not in hidden else None
        if match is None:
            i += 1
            continue
        depth = indent(raw[i])
        end = i + 1
        while end < len(raw) and (not raw[end].strip() or indent(raw[end]) > depth):
            end += 1
        while not raw[end - 1].strip():
            end -= 1
        field = match.group(1)
        body = tuple(lines[i + 1 : end])
        argument, first = match.group(2).strip(), (match.group(3) or "").strip()
        sections.append(Section(field, _REST_KINDS[field], i, end, body, field, argument, first))
        i = end
    return sections
