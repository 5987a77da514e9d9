"""Attribute macros one file shows in its own declarations, wherever they are defined.

Learning macros from `#define`s (see `cpp_macros`) misses those a tree does not
hold: a generated header's, an installed library's.  Some places in a declaration
admit no other upper-case word, so a word written there is such a macro.
"""

from __future__ import annotations

import re

from docgen.scan.cfamily.preprocess.builtin_macros import RESERVED
from docgen.scan.cfamily.preprocess.source import LinePattern, whole_word_matches
from docgen.scan.cfamily.source import KEYWORDS

#: a class head up to its bases, template arguments or body: `class A_API Name FINAL {`
_CLASS_HEAD = re.compile(rb"\b(?:class|struct|union)[ \t]+([A-Za-z_][\w \t]*?)[ \t]*[:{<]")
_UPPER = re.compile(r"[A-Z][A-Z0-9_]*[A-Z0-9]")
#: an upper-case call in a class head, before the name: `class PROTOBUF_EXPORT
#: PROTOBUF_ALIGNAS(8) Arena final {` (its arguments go with it, see `neutralise`)
_CLASS_HEAD_CALL = re.compile(
    rb"(?:class|struct|union)[ \t]+((?:[A-Z][A-Z0-9_]*[A-Z0-9][ \t]+)*)"
    rb"([A-Z][A-Z0-9_]*[A-Z0-9])\([^()\n]*\)[ \t]+[A-Za-z_]\w*[ \t]*(?:final\b[ \t]*)?[:{<]"
)


#: an upper-case word between a pointer or reference and the name it declares:
#: `Arena* PROTOBUF_NULLABLE arena`, `Foo* PROTOBUF_NONNULL New(`
_POINTER_QUALIFIER = re.compile(
    rb"[*&][ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])\s+(?:const\s+)?[A-Za-z_]\w*[ \t]*[(;,=)\[{]"
)
#: an upper-case word between a function's parameters and its body or `;`:
#: `mutable_unknown_fields() ABSL_ATTRIBUTE_LIFETIME_BOUND {`
_TRAILING_ATTRIBUTE = re.compile(rb"\)[ \t]*(?:const\s+)?([A-Z][A-Z0-9_]*[A-Z0-9])\s*[{;]")
#: an upper-case word between an enum's name and its body, where only `: type` can stand:
#: `enum FlatBuffersVTableOffset FLATBUFFERS_VTABLE_UNDERLYING_TYPE {`
_ENUM_BASE = re.compile(  # a literal first: the engine jumps from one `enum` to the next
    rb"enum(?:[ \t]+(?:class|struct))?[ \t]+(?!(?:class|struct)\b)[A-Za-z_]\w*[ \t]+"
    rb"([A-Z][A-Z0-9_]*[A-Z0-9])\s*\{"
)
#: an upper-case word between a type and the function it declares, where no second type
#: can stand: `static cutlass::MatrixCoord CUTLASS_DEVICE get_lane_offset(` (found from
#: the blank before the word; the type is read back from there)
_BEFORE_FUNCTION_NAME = re.compile(rb"[ \t]([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+[A-Za-z_]\w*[ \t]*\(")
#: keywords that are a whole type: an upper-case word after one, before a function's
#: name, is no type (`static void CUTLASS_DEVICE accumToSmem(`)
_TYPE_KEYWORDS = frozenset(
    {"void", "bool", "char", "short", "int", "long", "float", "double", "auto", "wchar_t"}
)
#: the word a type ends with, read back from the blanks before the upper-case word
_TYPE_BEFORE = re.compile(rb"([A-Za-z_]\w*)(?:::)?[ \t]*$")
#: an upper-case call between an array's or a function's declarator and its `;` or
#: value, where only attributes stand: `entries[] PROTOBUF_SECTION_VARIABLE(cold);`
_ATTRIBUTE_CALL = re.compile(rb"[\])]\s+([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]*\([^()\n]*\)[ \t]*[;=]")
#: comments, where English can look like any of the above (`aren't on MSVC (see`)
_COMMENTS = re.compile(rb"//[^\n]*|/\*.*?\*/", re.S)
#: an upper-case word opening a line before `static`, `inline` ... or before a type that
#: has lower-case letters and a function's name: `PROTOBUF_ALWAYS_INLINE bool Allocate(`,
#: `CUTLASS_DEVICE static void invoke(`
_LEADING_ATTRIBUTE = LinePattern(
    rb"[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]+(?:(?:static|inline|constexpr|virtual|explicit)\b"
    rb"|[A-Za-z_][\w:]*[a-z][\w:]*[ \t*&]+[A-Za-z_]\w*[ \t]*\()"
)


#: what may follow an attribute on a declaration's next line: `= 0;`, `= default;` ...
_SPECIAL_VALUE = re.compile(rb"\s*(?:0|default|delete)\s*;")


def _declares_with_value(code: bytes, call: re.Match[bytes]) -> bool:
    """Whether an `_ATTRIBUTE_CALL` match is a line of its own that declares with a value
    (`TORCH_ARG(bool, log_target) = false;` after a line ending in `)`): a macro that
    declares a field, not an attribute of the declaration before it."""
    if code[call.end() - 1] != ord("=") or b"\n" not in code[call.start() : call.start(1)]:
        return False
    return _SPECIAL_VALUE.match(code, call.end()) is None


#: how a byte read backwards moves the depth of parentheses
_PAREN_DEPTH = {ord(")"): 1, ord("("): -1}


#: what a parenthesis after which a class's name can stand opens: `struct alignas(16)
#: K64V64 {` (Highway), `class __declspec(dllexport) FOO {`
_BEFORE_NAME = re.compile(rb"(?:\bnew|\balignas|_Alignas|__declspec|__attribute__\s*\(?)\s*$")


def _placement(data: bytes, close: int) -> bool:
    """Whether the parenthesis closing at `close` holds no function's parameters but a
    placement new's address or an attribute's arguments, after which a type or a
    class's name stands (`new (&storage) SRWLOCK;`, `struct alignas(16) K64V64 {`)."""
    depth = 0
    for i in range(close, max(-1, close - 2000), -1):
        depth += _PAREN_DEPTH.get(data[i], 0)
        if depth == 0:
            return _BEFORE_NAME.search(data, max(0, i - 20), i) is not None
    return True  # not found near: not taken for a declaration


def _without_comments(data: bytes) -> bytes:
    """`data` with every comment blanked to spaces of its length, offsets kept."""
    if b"/" not in data:
        return data
    return _COMMENTS.sub(lambda m: b" " * (m.end() - m.start()), data)


def macros_in_use(data: bytes) -> frozenset[str]:
    """Macros this file's own declarations show to be attributes, defined where docgen
    cannot see (a generated or installed header, or another library): `class
    PROTOC_EXPORT Foo {` (a type has a one-word name, so the other upper-case words of
    a head are macros), `Arena* PROTOBUF_NULLABLE arena` (no name or keyword is
    written between a `*` and the name it declares), `f() ABSL_ATTRIBUTE_PURE {`
    (none between a function's parameters and its body either), and the places of
    `_ENUM_BASE`, `_BEFORE_FUNCTION_NAME`, `_LEADING_ATTRIBUTE` and `_ATTRIBUTE_CALL`.
    Read in the code only: a comment's English can look like any of them."""
    code = _without_comments(data)
    found: set[str] = set()
    if b"*" in code or b"&" in code:
        found.update(m.group(1).decode("ascii") for m in _POINTER_QUALIFIER.finditer(code))
    found.update(
        m.group(1).decode("ascii")
        for m in _TRAILING_ATTRIBUTE.finditer(code)
        if not _placement(code, m.start())
    )
    if b"enum" in code:
        found.update(
            m.group(1).decode("ascii")
            for m in whole_word_matches(_ENUM_BASE, code)  # `enum` is a word
        )
    for m in _BEFORE_FUNCTION_NAME.finditer(code):
        typed = _TYPE_BEFORE.search(code, max(0, m.start() - 80), m.start() + 1)
        last = typed.group(1).decode("ascii") if typed is not None else ""
        # `const FOO f(`: FOO is the type; `void FOO f(`: the type is written already; at a
        # line's start, see `_LEADING_ATTRIBUTE`
        if last in _TYPE_KEYWORDS or (last and last not in KEYWORDS and not last.isupper()):
            found.add(m.group(1).decode("ascii"))
    found.update(m.group(1).decode("ascii") for m in _LEADING_ATTRIBUTE.finditer(code))
    found.update(
        m.group(1).decode("ascii")
        for m in _ATTRIBUTE_CALL.finditer(code)
        if not _declares_with_value(code, m)
    )
    if b"class" not in code and b"struct" not in code and b"union" not in code:
        return frozenset(found - RESERVED)
    for m in _CLASS_HEAD_CALL.finditer(code):  # the call, and the macros before it
        found.update((*m.group(1).decode("ascii").split(), m.group(2).decode("ascii")))
    for match in _CLASS_HEAD.finditer(code):
        words = [w for w in match.group(1).decode().split() if w != "final"]
        if len(words) < 2:
            continue
        upper = [w for w in words if _UPPER.fullmatch(w)]
        if len(upper) == len(words):
            upper = upper[:-1]  # all upper case: the last one is the name
        found.update(upper)
    return frozenset(found - RESERVED)
