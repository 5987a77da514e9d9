"""Docstring text as inert Markdown: reStructuredText's inline markup and directives
turned into their Markdown equivalents, every other character escaped.

What a docstring writes in reST (``` ``code`` ```, `*emphasis*`, `**strong**`,
`:class:\\`Name\\``, `.. note::`, a literal block after `::`) is read and written
again as Markdown made here (a code span, emphasis, a link to the name's anchor, a
GitHub alert, a fenced block); the rest of the text goes through the same escaping
as `docgen.render.filters.md_text`, so a docstring still cannot open a link, an
image, HTML or a heading of its own.  Nothing is dropped: an unknown role is shown
as code, an unknown directive with its name and its text.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence

from docgen.model.doc_roles import INLINE as _INLINE
from docgen.model.doc_roles import NAME_ROLES, role_text
from docgen.render.filters import folded, inert_inline, inline_code, safe_line_start

__all__ = ["Resolve", "alert", "blocks_markdown", "inline_markdown"]

#: A role's target -> the href of its definition's anchor, "" when it is not known.
Resolve = Callable[[str], str]

_DIRECTIVE = re.compile(r"^\.\.[ \t]+([A-Za-z][\w-]*(?::[\w-]+)?)::(?:[ \t]+(.*))?$")
_ALERTS = {
    "note": "NOTE",
    "hint": "TIP",
    "tip": "TIP",
    "important": "IMPORTANT",
    "warning": "WARNING",
    "attention": "WARNING",
    "caution": "CAUTION",
    "danger": "CAUTION",
    "error": "CAUTION",
}
_VERSIONS = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}
_FENCE = re.compile(r"^(`{3,}|~{3,})([^`]*)$")
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "testcode", "doctest"})
_LIST_ITEM = re.compile(r"^(?:([-*+\u2022])|(\d+[.)]|#\.|\(\d+\)))[ \t]+")


def inline_markdown(text: str, resolve: Resolve, in_table: bool = False) -> str:
    """One paragraph of reST on one line of Markdown (`in_table`: a table cell's, whose
    code spans escape `|` as GitHub's tables need)."""
    flat = " ".join(text.split())
    pieces: list[str] = []
    at = 0
    for match in _INLINE.finditer(flat):
        if match.start() > at:
            pieces.append(inert_inline(flat[at : match.start()]))
        pieces.append(_markup(match, resolve, in_table))
        at = match.end()
    if at < len(flat):
        pieces.append(inert_inline(flat[at:]))
    joined = "".join(pieces).strip()
    if joined and not _INLINE.match(flat):  # plain text first: it could open a block
        joined = safe_line_start(joined)
    return joined


def _code(text: str, in_table: bool) -> str:
    """A code span; in a table cell GitHub reads `\\|` inside it as `|`."""
    span = inline_code(text)
    return span.replace("|", "\\|") if in_table else span


def _markup(match: re.Match[str], resolve: Resolve, in_table: bool) -> str:
    kind = match.lastgroup
    if kind == "literal":
        return _code(match.group("lit").strip() or match.group("lit"), in_table)
    if kind == "role":
        return _role(match.group("rname"), match.group("rtext"), resolve, in_table)
    if kind == "link":
        return f"{inert_inline(match.group('ltext'))} ({_code(match.group('url'), in_table)})"
    if kind == "ref":
        return inert_inline(match.group("reftext"))
    if kind == "interp":
        return _code(match.group("itext"), in_table)
    if kind == "strong":
        return f"**{inert_inline(match.group('stext'))}**"
    return f"*{inert_inline(match.group('etext'))}*"


def _role(name: str, text: str, resolve: Resolve, in_table: bool) -> str:
    """`:class:\\`~a.B\\`` -> `B` linked to its anchor where the page knows it, else
    `a.B` as code (where the name is, since no link says it)."""
    read = role_text(name, text)
    if read.role in ("ref", "term"):
        return inert_inline(read.label)
    if read.role not in NAME_ROLES:
        return _code(read.label, in_table)
    href = resolve(read.target) if read.names_object else ""
    label = read.label
    if not read.titled:
        label = read.shown.rpartition(".")[2] if read.short and href else read.shown
    span = _code(label, in_table)
    return f"[{span}]({href})" if href else span


# --- blocks ------------------------------------------------------------------------------


def blocks_markdown(text: str, resolve: Resolve) -> str:
    """reST text (paragraphs, lists, literal blocks, doctests, directives) as Markdown
    blocks separated by blank lines."""
    lines = textwrap.dedent(text.strip("\n")).splitlines()
    return "\n\n".join(_blocks(lines, resolve))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _body(lines: Sequence[str], start: int, base: int) -> int:
    """Where the block indented deeper than `base` from `start` ends."""
    end = start
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > base):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _blocks(lines: Sequence[str], resolve: Resolve) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        base = _indent(line)
        directive = _DIRECTIVE.match(line.strip())
        if directive:
            end = _body(lines, i + 1, base)
            body = textwrap.dedent("\n".join(lines[i + 1 : end]))
            out.append(_directive(directive.group(1), directive.group(2) or "", body, resolve))
            i = end
            continue
        fence = _FENCE.match(line.strip())
        if fence:  # a Markdown fence, which docstrings written in Markdown use
            marks = fence.group(1)
            end = i + 1
            while end < len(lines) and not _closes(lines[end].strip(), marks):
                end += 1
            code = textwrap.dedent("\n".join(lines[i + 1 : end]))
            out.append(folded(code, fence.group(2).strip().split(" ")[0] or "text"))
            i = end + 1
            continue
        if line.lstrip().startswith(">>>"):
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            out.append(folded(textwrap.dedent("\n".join(lines[i:end])), "pycon"))
            i = end
            continue
        item = _LIST_ITEM.match(line.lstrip())
        if item:
            end, items = _list(lines, i, base)
            ordered = item.group(2) is not None
            out.append("\n".join(_item(n, t, ordered, resolve) for n, t in enumerate(items, 1)))
            i = end
            continue
        end = i
        while end < len(lines) and lines[end].strip() and _indent(lines[end]) <= base:
            if end > i and _opens_block(lines[end]):
                break
            end += 1
        if end == i:  # a deeper indented paragraph (a block quote in reST)
            end = _body(lines, i, base - 1)
        paragraph = "\n".join(lines[i:end])
        literal = paragraph.rstrip().endswith("::")
        if literal:
            paragraph = paragraph.rstrip()[:-2].rstrip()
            paragraph = paragraph + ":" if paragraph and not paragraph.endswith(":") else paragraph
        if paragraph.strip():
            out.append(inline_markdown(paragraph, resolve))
        i = end
        if literal:
            start = i
            while start < len(lines) and not lines[start].strip():
                start += 1
            if start < len(lines) and _indent(lines[start]) > base:
                stop = _body(lines, start, base)
                code = textwrap.dedent("\n".join(lines[start:stop]))
                out.append(folded(code, "pycon" if code.lstrip().startswith(">>>") else "text"))
                i = stop
    return out


def _opens_block(line: str) -> bool:
    """Whether a line ends the paragraph above it: a directive, a list item, a fence or a
    doctest."""
    text = line.strip()
    return bool(
        _DIRECTIVE.match(text) or _LIST_ITEM.match(text) or _FENCE.match(text)
    ) or text.startswith(">>>")


def _closes(line: str, marks: str) -> bool:
    """Whether a line closes a fence opened with `marks` (as many of its character or more)."""
    return len(line) >= len(marks) and line == marks[0] * len(line)


def _list(lines: Sequence[str], start: int, base: int) -> tuple[int, list[str]]:
    """The items of a list starting at `start` (each with its continuation lines)."""
    items: list[str] = []
    i = start
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            following = i + 1
            while following < len(lines) and not lines[following].strip():
                following += 1
            if following < len(lines) and _indent(lines[following]) > base:
                i = following
                continue
            if (
                following < len(lines)
                and _indent(lines[following]) == base
                and _LIST_ITEM.match(lines[following].lstrip())
            ):
                i = following
                continue
            break
        marker = _LIST_ITEM.match(line.lstrip())
        if _indent(line) == base and marker:
            items.append(line.lstrip()[marker.end() :])
        elif _indent(line) > base and items:
            items[-1] += " " + line.strip()
        else:
            break
        i += 1
    return i, items


def _item(number: int, text: str, ordered: bool, resolve: Resolve) -> str:
    body = inline_markdown(text, resolve) or " "
    return f"{number}. {body}" if ordered else f"- {body}"


def _directive(name: str, argument: str, body: str, resolve: Resolve) -> str:
    key = name.rpartition(":")[2].lower()
    if key in _ALERTS:
        inner = blocks_markdown("\n\n".join(p for p in (argument, body) if p.strip()), resolve)
        return alert(_ALERTS[key], inner)
    if key in _VERSIONS:
        head = f"*{_VERSIONS[key]} {inert_inline(argument)}*" if argument else f"*{_VERSIONS[key]}*"
        rest = blocks_markdown(body, resolve) if body.strip() else ""
        return f"{head}: {rest}" if rest and "\n" not in rest else f"{head}\n\n{rest}".rstrip()
    if key in _CODE_DIRECTIVES:
        return folded(body, argument.split()[0] if argument.strip() else "python")
    if key == "math":
        return folded("\n".join(filter(None, [argument, body])), "math")
    if key == "seealso":
        inner = blocks_markdown("\n\n".join(filter(None, [argument, body])), resolve)
        return f"**See also:** {inner}" if "\n" not in inner else f"**See also:**\n\n{inner}"
    if key == "admonition":
        inner = blocks_markdown(body, resolve)
        return f"**{inert_inline(argument)}**\n\n{inner}".rstrip()
    # any other directive: its name and argument as code, its text as text
    head = inline_code(f".. {name}:: {argument}".rstrip())
    inner = blocks_markdown(body, resolve) if body.strip() else ""
    return f"{head}\n\n{inner}".rstrip()


def alert(kind: str, inner: str) -> str:
    """Markdown blocks as a GitHub alert (`NOTE`, `WARNING`, ...)."""
    quoted = "\n".join(f"> {line}" if line else ">" for line in inner.splitlines())
    return f"> [!{kind}]\n{quoted}" if inner else f"> [!{kind}]"
