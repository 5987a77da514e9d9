"""Rewriting C-family source before it is parsed, without moving a byte.

Attribute macros are blanked to spaces and namespace macros rewritten as the
namespaces they open (see `cpp_macros` for how they are learned); a line that is
one upper-case word is blanked; and a second reading can take the first branch
of every conditional.  Newlines always stay, so every line and offset the parser
reports is the file's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from docgen.scan.cpp_macros import BUILTIN_MACROS, CANDIDATE


@dataclass(frozen=True)
class Blanked:
    """Source bytes with attribute macros overwritten, and what was there."""

    data: bytes
    spans: tuple[tuple[int, int, str], ...]  # (start byte, end byte, text as written), sorted
    names: tuple[str, ...]  # macro names blanked, sorted


@dataclass(frozen=True)
class MacroTable:
    """Every macro `neutralise` rewrites, prepared once for all the files of a build."""

    function_like: Mapping[str, bool]  # name -> whether its argument list goes with it
    opening: Mapping[str, str]  # namespace macro -> its expansion (see `namespace_macros`)
    unusual: tuple[str, ...]  # names `CANDIDATE` cannot find (`really_inline`)

    @cached_property
    def any_unusual(self) -> re.Pattern[bytes] | None:
        """Finds any of `unusual` (one scan of a file instead of one per name); None if none."""
        if not self.unusual:
            return None
        return re.compile(b"|".join(re.escape(n.encode()) for n in self.unusual))

    @classmethod
    def of(cls, macros: Iterable[str], namespaces: Iterable[tuple[str, str]] = ()) -> MacroTable:
        table: dict[str, bool] = {}
        # A name defined both ways (`#define X` and `#define X(a)` in other branches) is
        # function-like: its arguments go with it only where `(` follows.  Sorted, so the
        # table never depends on the order of a set.
        for name in sorted({*BUILTIN_MACROS, *macros, *(n for n, _ in namespaces)}):
            bare_name = name.removesuffix("()")
            table[bare_name] = table.get(bare_name, False) or name.endswith("()")
        opening = {name.removesuffix("()"): expansion for name, expansion in namespaces}
        unusual = tuple(sorted(n for n in table if not CANDIDATE.fullmatch(n.encode())))
        return cls(table, opening, unusual)


_LONE_MACRO = re.compile(
    rb"^[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]*(?://[^\n]*)?(?=\r?$)", re.MULTILINE
)
_NOT_CR = re.compile(rb"[^\r]")
_CONDITIONAL = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")
#: a conditional's opening line, as `first_branches` reads one (`# if` too)
OPENING = re.compile(rb"^[ \t]*#[ \t]*if", re.MULTILINE)
#: a conditional's other branch, as `first_branches` reads one (`# else` too)
OTHER_BRANCH = re.compile(rb"^[ \t]*#[ \t]*(?:elif|elifdef|elifndef|else)\b", re.MULTILINE)


def lone_macros_blanked(data: bytes) -> tuple[bytes, frozenset[str]]:
    """A line that is one upper-case word and nothing else is a macro's use
    (`PROTOBUF_NAMESPACE_OPEN`, `C10_DIAGNOSTIC_POP`): no statement or declaration
    looks so.  Blanked, wherever it is defined (often in a file docgen never sees)."""
    out = bytearray(data)
    names: set[str] = set()
    for match in _LONE_MACRO.finditer(data):
        start, end = match.span(1)
        out[start:end] = b" " * (end - start)
        names.add(match.group(1).decode("ascii"))
    return bytes(out), frozenset(names)


#: a `#define` continued over several lines, from its `#` (checked to start its line)
_CONTINUED_DEFINE = re.compile(rb"#[ \t]*define\b[^\n]*\\\r?\n(?:[^\n]*\\\r?\n)*[^\n]*")
_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.DOTALL)


def directive_comments_blanked(data: bytes) -> bytes:
    """Block comments inside a `#define` continued over several lines, blanked: the
    grammars end the macro's body at such a comment and read the rest of it as code
    (`NEQCHECKGOTO` after a `/* Print the back trace */` line in the body of the macro
    before it).  The preprocessor drops them too; a comment not closed within the
    directive stays."""
    if b"/*" not in data or b"define" not in data:
        return data
    out: bytearray | None = None
    for match in _CONTINUED_DEFINE.finditer(data):
        start, end = match.span()
        if b"/*" not in data[start:end] or data[data.rfind(b"\n", 0, start) + 1 : start].strip():
            continue
        for comment in _BLOCK_COMMENT.finditer(data, start, end):
            if out is None:
                out = bytearray(data)
            out[comment.start() : comment.end()] = comment.group().translate(_BLANKED)
    return data if out is None else bytes(out)


def first_branches(data: bytes) -> tuple[bytes, tuple[tuple[int, int, int], ...]]:
    """The file as if the first branch of every `#if`/`#ifdef` were taken: the code of the
    other branches and the conditional lines themselves blanked (lines kept); `#define`
    and `#include` lines stay in every branch.  A second reading for a file whose
    branches each open a class or a function head, which no grammar can nest inside a
    conditional.  Also (row, start byte, end byte) of every line blanked, so that the
    parser reads again only what changed."""
    lines = data.split(b"\n")
    skipping: list[bool] = []  # per open conditional: is this branch blanked?
    continued = blank_continued = False  # inside a directive's backslash-continued lines
    changed: list[int] = []

    for i, line in enumerate(lines):
        ends = line.rstrip().endswith(b"\\")
        if continued:
            if blank_continued:
                changed.append(i)
            continued = ends
            continue
        match = _CONDITIONAL.match(line)
        if match:
            word = match.group(1)
            if word.startswith(b"if"):
                skipping.append(False)
            elif word == b"endif":
                if skipping:
                    skipping.pop()
            elif skipping:
                skipping[-1] = True
            changed.append(i)
            continued, blank_continued = ends, True
        elif line.lstrip().startswith(b"#"):
            continued, blank_continued = ends, False
        elif any(skipping):
            changed.append(i)
    spans = []
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for i in changed:
        if lines[i].strip():
            lines[i] = _NOT_CR.sub(b" ", lines[i])
            spans.append((i, starts[i], starts[i] + len(lines[i])))
    return b"\n".join(lines), tuple(spans)


def _call_args(text: str) -> list[str]:
    """`(a, b)` -> ["a", "b"]; [] when there is no argument list."""
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return []
    return [a.strip() for a in text[1:-1].split(",")]


def _line_is_directive(data: bytes, pos: int) -> bool:
    """Whether `pos` is on a preprocessor line, its backslash-continued lines included."""
    start = data.rfind(b"\n", 0, pos) + 1
    while start > 1 and data[max(0, start - 3) : start - 1].endswith((b"\\", b"\\\r")):
        start = data.rfind(b"\n", 0, start - 1) + 1
    return data[start:pos].lstrip().startswith(b"#")


def _args_end(data: bytes, pos: int) -> int:
    """The end of a parenthesised argument list starting at or after `pos`, else `pos`."""
    i = pos
    while i < len(data) and data[i] in b" \t":
        i += 1
    if i >= len(data) or data[i] != ord("("):
        return pos
    depth = 0
    for j in range(i, len(data)):
        ch = data[j]
        if ch == ord("("):
            depth += 1
        elif ch == ord(")"):
            depth -= 1
            if depth == 0:
                return j + 1
    return pos  # unbalanced: leave the rest alone


#: every byte to a space but line ends, which keep the lines where they were
_BLANKED = bytes(b if b in (10, 13) else 32 for b in range(256))


def neutralise(
    data: bytes, macros: MacroTable | Iterable[str], extra: frozenset[str] = frozenset()
) -> Blanked:
    """Blank every use of an attribute macro outside preprocessor lines, and write a
    namespace macro's namespace over it (`namespace fmt::v11{`, `}`), offsets unchanged.
    `extra`: object-like attribute macros of this file alone (see `macros_in_use`)."""
    prepared = macros if isinstance(macros, MacroTable) else MacroTable.of(macros)
    table, opening = prepared.function_like, prepared.opening
    candidates = {m.decode("ascii") for m in CANDIDATE.findall(data)}
    present = candidates & table.keys()
    if prepared.any_unusual is not None and prepared.any_unusual.search(data):
        present.update(name for name in prepared.unusual if name.encode() in data)
    if extra:
        table = {**table, **dict.fromkeys(extra - table.keys(), False)}
        present.update(extra & candidates)
    if not present:
        return Blanked(data, (), ())
    pattern = re.compile(
        rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in sorted(present)) + rb")\b"
    )
    out = bytearray(data)
    spans: list[tuple[int, int, str]] = []
    used: set[str] = set()
    last_end = 0
    for match in pattern.finditer(data):
        start, end = match.span()
        if start < last_end:
            continue  # inside the arguments of the previous one
        if _line_is_directive(data, start):
            continue
        name = match.group().decode("ascii")
        if table[name]:
            end = _args_end(data, end)
        out[start:end] = data[start:end].translate(_BLANKED)
        text = " ".join(data[start:end].decode("utf-8", "replace").split())
        used.add(name)
        last_end = end
        if name in opening:
            args = _call_args(text[len(name) :])
            written = _namespace_text(opening[name], args, end - start)
            if written is not None and b"\n" not in data[start:end]:
                out[start : start + len(written)] = written.encode()
            continue  # a namespace is no attribute of what follows
        spans.append((start, end, text))
    return Blanked(bytes(out), tuple(spans), tuple(sorted(used)))


def _namespace_text(expansion: str, args: list[str], width: int) -> str | None:
    """`namespace a::b{` (or `}`) that fits in `width` bytes: inner names are dropped
    until it does; None when even one name does not fit."""
    if expansion == "}":
        return "}"
    names = []
    for part in expansion.split("::"):
        if part.startswith("$"):
            index = int(part[1:]) - 1
            part = args[index] if index < len(args) else ""
        if not part.isidentifier():
            return None
        names.append(part)
    while names:
        text = f"namespace {'::'.join(names)}{{"
        if len(text) <= width:
            return text
        names.pop()
    return None
