"""Where a C, C++ or CUDA file's code names something: every identifier and qualified
name (`at::native::add_out`) outside comments, literals and `#include` lines, with the
scope it stands in and the `using` directives open there, so that the index can look
it up across files as a compiler would (`docgen.index.cfamily_uses`).

One regular-expression pass over the bytes, at the engine's speed: no parse is
needed to find names, only to know what they are, which the definitions of the whole
tree tell; a qualifier that may be a class's or an enum's (`c10::ScalarType` of
`c10::ScalarType::Float`) is a use too.  Left out: keywords and the standard library
(`std::`), one-letter names
(template parameters, loop counters), members reached through `.` or `->` (their
class is the type of an expression, which no pass without types knows), and the
name of a definition on its own line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from docgen.model.cfamily_facts import (
    DIRECTIVE,
    FORWARD,
    MACRO_BODY,
    USING,
    CDefinition,
    CNameUse,
)
from docgen.model.kinds import CALLABLE_KINDS
from docgen.scan.cfamily.preprocess.source import LITERAL_OR_COMMENT

#: what is skipped (a literal or a comment, a number, an `#include`-like line), or a
#: name with what stands before it (`.`, `->`, `.template`) and right after it (`(`, `<`)
_TOKEN = re.compile(
    LITERAL_OR_COMMENT
    + rb"|^[ \t]*#[ \t]*(?:include|include_next|import|pragma|error|warning|line)\b[^\n]*"
    + rb"|\d[\w.']*"
    + rb"|(?:(\.|->)[ \t]*(?:template\b[ \t]*)?)?"
    + rb"((?:::[ \t]*)?[A-Za-z_]\w*(?:[ \t]*::[ \t]*~?[A-Za-z_]\w*)*)"
    # a call's `(`, a kernel's launch `<<<`, or a template's `<` right after the name
    # (`a < b` compares, `a << b` shifts)
    + rb"([ \t]*\(|[ \t]*<<<|<(?![<=]))?",
    re.MULTILINE,
)
_SPACE = re.compile(rb"[ \t]+")
_USING = re.compile(
    rb"^[ \t]*using[ \t]+(namespace[ \t]+)?(?:::)?([A-Za-z_][\w:]*)[ \t]*;", re.MULTILINE
)
#: a class declared ahead of its definition (`class C10_API SymInt;`)
_FORWARD = re.compile(
    rb"^[ \t]*(?:template[ \t]*<[^;{}\n]*>[ \t]*)?(?:class|struct|union)[ \t]+"
    rb"(?:[A-Z][A-Z0-9_]*[ \t]+)?([A-Za-z_]\w*)[ \t]*;",
    re.MULTILINE,
)
#: a `#define` with its continuation lines: the names in its body are read where the
#: macro expands, so only another macro's can be told
_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\r?\n)*[^\n]*", re.MULTILINE)


#: words that are never a name of the tree: C, C++ and CUDA keywords, the fixed-width
#: types and the preprocessor's words
_KEYWORD_TEXT = """
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast
    else enum explicit export extern false float for friend goto if inline int long
    mutable namespace new noexcept not not_eq nullptr operator or or_eq private
    protected public register reinterpret_cast requires return short signed sizeof
    static static_assert static_cast struct switch template this thread_local throw true
    try typedef typeid typename union unsigned using virtual void volatile wchar_t while
    xor xor_eq override final restrict _Bool _Complex _Generic _Static_assert define
    undef ifdef ifndef elif elifdef endif defined __has_include __global__ __device__
    __host__ __shared__ __constant__ __forceinline__ __restrict__ size_t ptrdiff_t
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t
    NULL std
"""
KEYWORDS = frozenset(_KEYWORD_TEXT.split())
#: the kinds whose body is a scope for the names written in it
_SCOPES = frozenset({"namespace", "class", "struct", "union"}) | CALLABLE_KINDS


def name_uses(data: bytes, definitions: Iterable[CDefinition]) -> tuple[CNameUse, ...]:
    """Every name the file's code writes, grouped by how it is written, its scope, the
    `using`s open there and whether it is called, each with its lines (by name)."""
    definitions = tuple(definitions)
    starts = [m.end() for m in re.finditer(rb"\n", data)]
    scopes = _scopes_by_line(definitions, len(starts) + 1)
    namespaces = {""} | {d.qualname for d in definitions if d.kind == "namespace"}
    usings = _usings(data, starts, definitions)
    in_macros = _macro_lines(data, starts)
    forwards = _forward_declarations(data, starts)
    own = {(d.line, d.name) for d in definitions} | set(forwards)
    grouped: dict[tuple[str, str, tuple[str, ...], bool], set[int]] = {}
    for match in _TOKEN.finditer(data):
        written = match.group(2)
        if written is None or match.group(1):
            continue
        name = _SPACE.sub(b"", written).decode("utf-8", "replace")
        last = name.rpartition("::")[2].lstrip("~")
        first = name.lstrip(":").partition("::")[0]
        if len(last) < 2 or last in KEYWORDS or first == "std":
            continue
        line = bisect.bisect_right(starts, match.start()) + 1
        if (line, last) in own:
            continue
        scope = MACRO_BODY if line in in_macros else scopes[line]
        opened = tuple(t for start, end, t, _ in usings if start < line <= end)
        key = (name, scope, opened, match.group(3) is not None)
        grouped.setdefault(key, set()).add(line)
        for qualifier in _class_qualifiers(name):  # `ScalarType::Float` names ScalarType
            grouped.setdefault((qualifier, scope, opened, False), set()).add(line)
    found = [
        CNameUse(name, scope, opened, call, tuple(sorted(lines)))
        for (name, scope, opened, call), lines in sorted(grouped.items())
    ]
    # what a namespace's own lines say of names, which every file that sees them reads
    # through: `using namespace c10;` and `using c10::SymInt;` in `namespace at { }`, and
    # `class SymInt;` in `namespace c10 { }`
    said: dict[tuple[str, str, str], list[int]] = {}
    for start, _, target, namespace in usings:
        if namespace is not None:
            kind = DIRECTIVE if target.endswith("::") else USING
            said.setdefault((target.removesuffix("::"), namespace, kind), []).append(start)
    for line, name in forwards:
        holder = scopes[line]
        if holder in namespaces:
            said.setdefault((name, holder, FORWARD), []).append(line)
    found += [
        CNameUse(name, namespace, (), False, tuple(lines), kind)
        for (name, namespace, kind), lines in sorted(said.items())
    ]
    return tuple(found)


def _forward_declarations(data: bytes, starts: list[int]) -> list[tuple[int, str]]:
    return [
        (bisect.bisect_right(starts, m.start()) + 1, m.group(1).decode("utf-8", "replace"))
        for m in _FORWARD.finditer(data)
    ]


def _class_qualifiers(name: str) -> list[str]:
    """The qualifiers of a qualified name that may name a class or an enum (a capital in
    their last part: `c10::ScalarType` of `c10::ScalarType::Float`, not `at::native`)."""
    parts = name.split("::")
    return [
        "::".join(parts[:n])
        for n in range(1, len(parts))
        if parts[n - 1] and parts[n - 1] != parts[n - 1].lower() and parts[:n] != [""]
    ]


def _macro_lines(data: bytes, starts: list[int]) -> set[int]:
    """The lines of every `#define`'s body, its first line too (its own name on it is
    the file's own declaration)."""
    found: set[int] = set()
    for match in _DEFINE.finditer(data):
        first = bisect.bisect_right(starts, match.start()) + 1
        last = bisect.bisect_right(starts, max(match.start(), match.end() - 1)) + 1
        found.update(range(first, last + 1))
    return found


def _scope_of(d: CDefinition) -> str:
    """The scope a definition's body is: a namespace or class by its name, a function
    by what holds it (`c10::DeviceGuard` for `c10::DeviceGuard::reset_device`)."""
    return d.qualname.rpartition("::")[0] if d.kind in CALLABLE_KINDS else d.qualname


def _scopes_by_line(definitions: tuple[CDefinition, ...], lines: int) -> list[str]:
    """The innermost scope of every line (index 0 unused): wider bodies first, each
    narrower one written over them."""
    found = [""] * (lines + 2)
    bodies = [d for d in definitions if d.kind in _SCOPES and d.is_definition and d.end_line]
    for d in sorted(bodies, key=lambda d: (d.line - d.end_line, d.line)):
        scope = _scope_of(d)
        for n in range(d.line, min(d.end_line, lines) + 1):
            found[n] = scope
    return found


def _usings(
    data: bytes, starts: list[int], definitions: tuple[CDefinition, ...]
) -> list[tuple[int, int, str, str | None]]:
    """Each `using namespace n;` (as `n::`) and `using n::name;` (as `n::name`) with the
    lines it is open on (from its own to the end of the body it stands in) and the
    namespace it stands in at namespace scope ("" at file scope; None in a class or a
    function)."""
    found = []
    bodies = [d for d in definitions if d.kind in _SCOPES and d.is_definition]
    for match in _USING.finditer(data):
        line = bisect.bisect_right(starts, match.start()) + 1
        target = match.group(2).decode("utf-8", "replace").rstrip(":")
        if match.group(1) is None and "::" not in target:
            continue  # `using x;` names nothing a lookup could use
        around = [d for d in bodies if d.line <= line <= d.end_line]
        inner = min(around, key=lambda d: d.end_line - d.line) if around else None
        end = inner.end_line if inner is not None else 1 << 30
        namespace = "" if inner is None else inner.qualname if inner.kind == "namespace" else None
        found.append((line, end, f"{target}::" if match.group(1) else target, namespace))
    return found
