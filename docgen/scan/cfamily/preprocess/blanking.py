"""Rewriting C-family source before it is parsed, without moving a byte.

Attribute macros are blanked to spaces and namespace macros rewritten as the
namespaces they open (see `cpp_macros` for how they are learned); a line that is
one upper-case word is blanked (`cpp_conditionals` has the second reading, of
the first branch of every conditional).  Newlines always stay, so every line and
offset the parser reports is the file's own.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from docgen.scan.cfamily.preprocess.macro_def import table_of
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros import CANDIDATE, has_meaning
from docgen.scan.cfamily.preprocess.namespace_macros import substituted
from docgen.scan.cfamily.preprocess.source import (
    BLANKED,
    LINE_REST,
    SEMICOLON_REST,
    Calls,
    Directives,
    LinePattern,
    kept_argument,
)
from docgen.scan.cfamily.source import KEYWORDS


@dataclass(frozen=True)
class Blanked:
    """Source bytes with attribute macros overwritten, and what was there."""

    data: bytes
    #: (start byte, end byte, text as written), sorted; a wrapping macro has two: an empty
    #: one at the start of the argument it keeps, with its name for text, and the rest
    #: of its call with "" for text (dropped from the declaration as docgen shows it)
    spans: tuple[tuple[int, int, str], ...]
    names: tuple[str, ...]  # macro names blanked, sorted


#: a line that is one upper-case word, or one of the Python C API's macros that declare
#: an object's head (`PyObject_HEAD` in a struct body: torch/csrc's Python objects)
_LONE_MACRO = LinePattern(
    rb"[ \t]*(_?[A-Z][A-Z0-9_]*[A-Z0-9]|PyObject_(?:VAR_)?HEAD)[ \t]*(?://[^\n]*)?(?=\r?(?:\n|\Z))"
)
#: an upper-case word called at the start of a line (see `lone_macros_blanked`), perhaps
#: after one underscore (`_PS256_CONST_TYPE(min_norm_pos, int, 0x00800000);`)
_LONE_CALL = LinePattern(rb"[ \t]*(_?[A-Z][A-Z0-9_]*[A-Z0-9_])[ \t]*\(")
#: a function-like macro the file defines itself: `#define name(`
_DEFINES_CALLABLE = LinePattern(rb"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(")
#: the rest after a call given a value: `= 1;` (no `==`; the value may go on to the next
#: lines; not `= default;` nor `= delete;`, which end a constructor: `UUID(const UUID&)
#: = default;`), then nothing or a comment
_ASSIGNED_REST = re.compile(
    rb"[ \t]*=(?!=)(?![ \t]*(?:default|delete)[ \t]*;)[^;{}]{0,200}?;" + LINE_REST.pattern
)
#: a function declared inside a call's arguments: a type, then a name called
_DECLARED_INSIDE = re.compile(rb"[\w>*&]\s+(?:[*&]+\s*)?[A-Za-z_]\w*\s*\(")
#: an empty line: nothing after it goes on with the call before it
_BLANK_LINE = re.compile(rb"[ \t]*\r?\n")
#: how a line that continues the call before it starts (`{` a body, `:` initializers)
_GOES_ON = re.compile(rb"[{(:;,=).\-]|(?:const|noexcept|override|final|try|throw|requires)\b")


#: a name called at the start of the next line (see `_returns_next`)
_NAME_CALLED_NEXT = re.compile(rb"\r?\n[ \t]*([A-Za-z_]\w*)[ \t]*\(")


def _returns_next(data: bytes, written: bytes, end: int) -> bool:
    """Whether the next line, written from its first column, is a function's name and
    its parameters (C's GNU style puts the type on the line above): `data` may have a
    wrapping macro blanked before the name (`PRIV(ckd_smul)(...)`)."""
    called = _NAME_CALLED_NEXT.match(data, end)
    if called is None or called.group(1).isupper():
        return False
    if called.group(1).decode("ascii") in KEYWORDS:  # `void (*hook)() = NULL;`
        return False
    first = data.index(b"\n", end) + 1
    return written[first : first + 1] not in (b" ", b"\t")


def lone_macros_blanked(data: bytes, written: bytes | None = None) -> tuple[bytes, frozenset[str]]:
    """A line that is one upper-case word and nothing else is a macro's use
    (`PROTOBUF_NAMESPACE_OPEN`, `C10_DIAGNOSTIC_POP`): no statement or declaration
    looks so.  So is a line that is one upper-case word called, with nothing after it
    and a next line that does not go on with it (`{`, `: x_(x)`, `const`, ...; after an
    empty line nothing does), as
    `OPENVINO_RTTI("Name")` or `Q_PROPERTY(int x READ x)` in a class body and
    `DEFINE_OP(add)` at file scope; a registration or test macro is never one.  So is
    such a call given a value, with its `;` (`TORCH_ARG(size_t, batch_size) = 1;` in a
    class body declares a field with its accessors: no code assigns to a call there).  So,
    with its `;`, is a call written from a line's first column after a line that ends
    a declaration, unless its arguments declare a function (a wrapping macro, not
    learned): `ABSL_FLAG(bool, verbose, false, "");`, whose arguments are types, which
    no grammar reads.
    Blanked, wherever it is defined (often in a file docgen never sees).  `written`: the
    file as written, when `data` has attribute macros blanked: a word left alone on its
    line by them is no macro (`FORCE_INLINE_TEMPLATE U32`, the type of a function whose
    name starts the next line), and neither is a word in the first column over a
    function's name in the first column of the next (`BOOL` / `pcre2_maketables(...)`)."""
    out = bytearray(data)
    names: set[str] = set()
    for match in _LONE_MACRO.finditer(data):
        start, end = match.span(1)
        line = _LONE_MACRO.line_start(match)
        if written is not None and written[line : match.end()] != data[line : match.end()]:
            continue
        if start == line and _returns_next(data, written or data, match.end()):
            continue  # `BOOL` / `pcre2_maketables(...)`: the function's type, on a line of its own
        if _last_enumerator(data, line, match.end()):
            continue  # `key_set_,` / `TOTAL_SIZE` / `};`: an enum's last value
        out[start:end] = b" " * (end - start)
        names.add(match.group(1).decode("ascii"))
    if b"(" not in data:
        return bytes(out), frozenset(names)
    directives, calls = Directives(data), Calls(data)
    for match in _LONE_CALL.finditer(data):
        start, name_end = match.span(1)
        name = match.group(1).decode("ascii")
        end = calls.args_end(name_end)
        if end <= name_end or has_meaning(name) or directives.holds(start):
            continue
        rest = LINE_REST.match(data, end)
        assigned = _ASSIGNED_REST.match(data, end) if rest is None else None
        if assigned is not None:  # `TORCH_ARG(size_t, batch_size) = 1;`: no call is assigned to
            end = data.index(b";", end) + 1
        elif rest is None:
            stop = _statement_end(data, name_end, end)
            if stop is None or not _at_file_scope(data, _LONE_CALL.line_start(match), start):
                continue
            end = stop
        elif _next_line_goes_on(data, rest.end()):
            continue  # a block macro's body, or a constructor's initializers, on the next line
        out[start:end] = data[start:end].translate(BLANKED)
        names.add(name)
    for match in _own_macro_calls(data):
        start, end = match.start(1), calls.args_end(match.end(1))
        rest = LINE_REST.match(data, end)
        if end <= match.end(1) or rest is None or directives.holds(start):
            continue
        if not _next_line_goes_on(data, rest.end()):
            out[start:end] = data[start:end].translate(BLANKED)
            names.add(match.group(1).decode("ascii"))
    return bytes(out), frozenset(names)


def _last_enumerator(data: bytes, line: int, end: int) -> bool:
    """Whether the word alone on the line at `line` (to `end`) follows a line that ends
    with `,` (a `//` comment after it aside) and comes before a `}`: an enum's last
    value, written without a comma."""
    above = data.rfind(b"\n", 0, max(line - 1, 0)) + 1
    previous = data[above : max(line - 1, above)].split(b"//", 1)[0].rstrip()
    return previous.endswith(b",") and data[end : end + 200].lstrip().startswith(b"}")


def _next_line_goes_on(data: bytes, line: int) -> bool:
    """Whether the line at `line` goes on with a call alone on the line before it (a
    block's `{`, initializers' `:`, `const` ...); after an empty line nothing does."""
    if _BLANK_LINE.match(data, line):
        return False
    return _GOES_ON.match(data[line : line + 200].lstrip()) is not None


def _own_macro_calls(data: bytes) -> Iterator[re.Match[bytes]]:
    """Calls from a line's first column, alone on it, of a function-like macro with a
    lower-case letter that the file defines: `fp16_bf16_binop_helper(+, operator+)` at
    file scope writes functions, but the grammar reads neither the call nor what
    follows it.  (An upper-case one is read wherever it is defined, see above.)"""
    if b"define" not in data:
        return iter(())
    own = {m.group(1) for m in _DEFINES_CALLABLE.finditer(data)}
    own = {name for name in own if not name.isupper() and not has_meaning(name.decode())}
    if not own:
        return iter(())
    names = b"|".join(re.escape(name) for name in sorted(own))
    return LinePattern(b"(" + names + rb")[ \t]*\(").finditer(data)


def calls_at_errors_blanked(data: bytes, error_rows: Iterable[int]) -> bytes:
    """Upper-case calls that start a line and end with their `;`, blanked with it where
    one of their lines (1-based `error_rows`) holds a syntax error: in a class body
    `PYBIND11_TYPE_CASTER(at::Tensor, _("torch.Tensor"));` reads as a method whose
    parameters are expressions.  Only calls the grammar could not read: elsewhere a
    call statement is read, and what it calls may be evidence (a CUDA call inside a
    `TORCH_CHECK`); and never a call that wraps a declaration (`DEPRECATED(int f(int
    x), "use g");`), whose name its syntax errors must keep showing as missing.  The
    same bytes when there is none."""
    rows = sorted(set(error_rows))
    if not rows or b"(" not in data:
        return data
    starts = [0, *(m.end() for m in _NEWLINE.finditer(data))]
    directives, calls = Directives(data), Calls(data)
    out: bytearray | None = None
    for match in _LONE_CALL.finditer(data):
        start, name_end = match.span(1)
        end = calls.args_end(name_end)
        if end <= name_end or has_meaning(match.group(1).decode("ascii")):
            continue
        stop = _statement_end(data, name_end, end)
        if stop is None or directives.holds(start):
            continue
        first, last = bisect.bisect_right(starts, start), bisect.bisect_right(starts, end)
        at = bisect.bisect_left(rows, first)
        if at == len(rows) or rows[at] > last:
            continue
        out = out if out is not None else bytearray(data)
        out[start:stop] = data[start:stop].translate(BLANKED)
    return bytes(out) if out is not None else data


_NEWLINE = re.compile(rb"\n")


def _statement_end(data: bytes, name_end: int, end: int) -> int | None:
    """Where a call whose arguments end at `end` ends as a statement, after its `;`; None
    when something other than `;` (and a comment) follows it on its line, or when it
    wraps a declaration (`DEPRECATED(int f(int x), "use g");`)."""
    if SEMICOLON_REST.match(data, end) is None:
        return None
    if _DECLARED_INSIDE.search(data, data.index(b"(", name_end) + 1, end):
        return None
    return data.index(b";", end) + 1


#: how a line ends that a new declaration may follow: `;` `{` `}`, or a comment's end
_ENDS_DECLARATION = (b";", b"{", b"}", b"*/")


def _at_file_scope(data: bytes, line_start: int, name_start: int) -> bool:
    """Whether a call written from the first column starts a declaration: the line
    before it (blank and `//` comment lines passed over) ends one or a block comment,
    or is a directive, or there is none.  An indented call is left alone: in a function
    body it is a statement the grammars read, and what it calls may be evidence (a CUDA
    call)."""
    if name_start != line_start:
        return False
    end = line_start - 1
    while end > 0:
        begin = data.rfind(b"\n", 0, end) + 1
        before = data[begin:end].strip()
        if before and not before.startswith(b"//"):
            before = before.split(b"//", 1)[0].rstrip()  # `}  // namespace`
            return before.startswith(b"#") or before.endswith(_ENDS_DECLARATION)
        end = begin - 1
    return True


def _call_args(text: str) -> list[str]:
    """`(a, b)` -> ["a", "b"]; [] when there is no argument list."""
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return []
    return [a.strip() for a in text[1:-1].split(",")]


def neutralise(
    data: bytes, macros: MacroTable | Iterable[str], extra: frozenset[str] = frozenset()
) -> Blanked:
    """Blank every use of an attribute macro outside preprocessor lines, and write a
    namespace macro's namespace over it (`namespace fmt::v11{`, `}`), offsets unchanged.
    A macro that opens a loop or a condition is written as `if`, its arguments kept.
    A closing macro writes its brace only after an opening one was written: an opening
    too long to write over its own name (`ABSL_NAMESPACE_BEGIN`, whose namespace is
    named by another macro) is blanked, and so must its closing be.
    `extra`: attribute macros of this file alone (see `cpp_macros_in_use`)."""
    prepared = (
        macros if isinstance(macros, MacroTable) else MacroTable.of(table_of(attribute=macros))
    )
    table, opening = prepared.function_like, prepared.opening
    candidates = {m.decode("ascii") for m in set(CANDIDATE.findall(data))}
    present = candidates & table.keys()
    if prepared.any_unusual is not None and prepared.any_unusual.search(data):
        present.update(name for name in prepared.unusual if name.encode() in data)
    if extra:
        # Arguments, where `(` follows, go with it (`PROTOBUF_SECTION_VARIABLE(cold)`).
        table = {**table, **dict.fromkeys(extra - table.keys(), True)}
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
    dead = (0, 0)
    opened = 0  # namespaces written by macros and not yet closed by one
    directives, calls = Directives(data), Calls(data)
    for match in pattern.finditer(data):
        start, end = match.span()
        if start < last_end:
            continue  # inside the arguments of the previous one
        if directives.holds(start):
            continue
        name = match.group().decode("ascii")
        if name in prepared.keeps:
            inside = calls.arguments(end)
            kept = kept_argument(
                data, end, prepared.keeps[name], inside[1] if inside is not None else None
            )
            if kept is None:
                continue  # not called, or the argument is not there: left as written
            (keep_start, keep_end), close = kept
            out[start:keep_start] = data[start:keep_start].translate(BLANKED)
            out[keep_end:close] = data[keep_end:close].translate(BLANKED)
            spans.append((keep_start, keep_start, name))  # what it wraps is written as is
            spans.append((keep_end, close, ""))  # what it drops, never shown
            used.add(name)
            last_end = end  # macros inside the argument kept are blanked in their turn
            dead = (keep_end, close)
            continue
        if dead[0] <= start < dead[1]:
            continue  # inside the arguments a wrapping macro drops
        if name in prepared.access:
            _write_access(out, data, start, end, prepared.access[name])
            used.add(name)
            continue
        if name in prepared.statements:
            if calls.args_end(end) > end:  # `list_for_each(pos, head) {`: `if (pos, head) {`
                out[start:end] = b"if".ljust(end - start)
                used.add(name)
            continue
        if name in prepared.writes:  # `_CCCL_STATIC_CALL_OPERATOR(x)` -> `operator()(x)`
            spelled = prepared.writes[name].encode()
            called = calls.args_end(end)
            if spelled.endswith(b"}"):  # handlers, `catch(...){}`: the arguments go too
                end = called
            elif called <= end:
                continue  # not called: left as written
            if len(spelled) <= end - start:
                out[start:end] = spelled.ljust(end - start)
                used.add(name)
                last_end = end
            continue
        if name in prepared.pointers:
            inside = calls.arguments(end)
            if inside is not None:  # `GIT_CALLBACK(name)` -> `           (*name)`
                paren = inside[0] - 1
                out[start : paren - 1] = data[start : paren - 1].translate(BLANKED)
                out[paren - 1 : paren + 1] = b"(*"
                used.add(name)
            continue
        if name in prepared.strings or name in prepared.types:
            inside = calls.arguments(end)
            if inside is not None:  # the rest of a string is no code: macros in it too
                # a type macro's parentheses too: its name stands for the type it makes
                lo, hi = (inside[0] - 1, inside[1] + 1) if name in prepared.types else inside
                out[lo:hi] = data[lo:hi].translate(BLANKED)
                last_end = hi
            continue
        if table[name]:
            end = calls.args_end(end)
        out[start:end] = data[start:end].translate(BLANKED)
        text = " ".join(data[start:end].decode("utf-8", "replace").split())
        used.add(name)
        last_end = end
        if name in opening:
            args = [prepared.names.get(a, a) for a in _call_args(text[len(name) :])]
            written = _namespace_text(opening[name], args, end - start)
            if written == "}" and not opened:
                written = None  # its namespace was never written: the brace would close another
            if written is not None and b"\n" not in data[start:end]:
                out[start : start + len(written)] = written.encode()
                opened += -1 if written == "}" else 1
            continue  # a namespace is no attribute of what follows
        spans.append((start, end, text))
    return Blanked(bytes(out), tuple(sorted(spans)), tuple(sorted(used)))


#: a `:` that is no `::`, after blanks
_ACCESS_COLON = re.compile(rb"[ \t]*:(?!:)")


def _write_access(out: bytearray, data: bytes, start: int, end: int, keyword: str) -> None:
    """`JSON_PRIVATE_UNLESS_TESTED:` in a class body: the keyword it stands for written over
    its name, or where the name is too short for it, the name and its `:` blanked (what
    follows is then read under the access the class had).  A use not before a `:` is
    left as written."""
    colon = _ACCESS_COLON.match(data, end)
    if colon is None:
        return
    if len(keyword) <= end - start:
        out[start:end] = keyword.encode().ljust(end - start)
    else:
        out[start : colon.end()] = data[start : colon.end()].translate(BLANKED)


def _namespace_text(expansion: str, args: list[str], width: int) -> str | None:
    """`namespace a::b{` (or `}`) that fits in `width` bytes: inner names are dropped
    until it does; None when even one name does not fit."""
    if expansion == "}":
        return "}"
    names = substituted(expansion, args).split("::")  # an argument may be `cuda::std`
    if not all(name.isidentifier() for name in names):
        return None
    while names:
        text = f"namespace {'::'.join(names)}{{"
        if len(text) <= width:
            return text
        names.pop()
    return None
