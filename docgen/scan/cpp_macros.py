"""Export and attribute macros: found in a repository's headers, blanked before parsing.

`class TORCH_API Dispatcher` reads to a parser as a class named `TORCH_API`.
The preprocessor would expand the macro to an attribute or to nothing, so
docgen does what comes to the same for a parser without moving a byte:
every use is overwritten with spaces of the same length (newlines kept), and
the text that was there is kept as an attribute of the declaration.

A macro counts as an attribute macro when some `#define` of it has an empty
body or a body made only of attributes (`__attribute__((...))`,
`__declspec(...)`, `[[...]]`, `__launch_bounds__(...)`), specifiers such as
`inline`, CUDA qualifiers, and other attribute macros.  Function-like macros are
written `NAME()` in the sets here; their argument list is blanked with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from docgen.scan.cfamily_macros import BLOCK_REGISTRATIONS, TEST_MACROS, is_dispatch_macro

#: Macros every C++ tree may use, blanked whether or not a header defines them.
BUILTIN_MACROS: frozenset[str] = frozenset(
    {
        "__attribute__()",
        "__declspec()",
        "__launch_bounds__()",
        "__align__()",
        "TORCH_API",
        "TORCH_PYTHON_API",
        "TORCH_CUDA_CPP_API",
        "TORCH_CUDA_CU_API",
        "TORCH_HIP_API",
        "TORCH_XPU_API",
        "CAFFE2_API",
        "AOTI_TORCH_EXPORT",
        "C10_API",
        "C10_CUDA_API",
        "C10_HIP_API",
        "C10_XPU_API",
        "C10_EXPORT",
        "C10_IMPORT",
        "C10_HIDDEN",
        "C10_HOST_DEVICE",
        "C10_HOST",
        "C10_DEVICE",
        "C10_ALWAYS_INLINE",
        "C10_NOINLINE",
        "C10_NODISCARD",
        "C10_UNUSED",
        "C10_LAUNCH_BOUNDS_0",
        "C10_LAUNCH_BOUNDS_1()",
        "C10_LAUNCH_BOUNDS_2()",
        "C10_DEPRECATED",
        "C10_DEPRECATED_MESSAGE()",
    }
)

#: Words an attribute macro's body may hold besides attributes and other such macros.
SPECIFIER_WORDS: frozenset[str] = frozenset(
    {
        "inline",
        "__inline",
        "__inline__",
        "__forceinline",
        "__forceinline__",
        "static",
        "extern",
        "constexpr",
        "__host__",
        "__device__",
        "noexcept",
        "explicit",
        "__cdecl",
        "__stdcall",
    }
)

#: Never blanked, whatever a header does with them: the grammars know these words.
RESERVED: frozenset[str] = frozenset(
    {
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__forceinline__",
        "__restrict__",
        "__noinline__",
    }
)

_DEFINE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?((?:[^\n]*\\\r?\n)*[^\n]*)", re.MULTILINE
)
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_ATTRIBUTE_CALL = re.compile(r"\b(?:__attribute__|__declspec|__launch_bounds__|alignas)\s*\(")
_WORD = re.compile(r"[A-Za-z_]\w*")
#: identifiers that can be macro names worth looking up: upper case, or `__` words
_CANDIDATE = re.compile(rb"\b(?:__[A-Za-z]\w*|[A-Z][A-Z0-9_]+)\b")
_INCLUDE_GUARD = re.compile(r"_(?:H|HPP|HH|HXX|CUH|INCLUDED)_*$")


@dataclass(frozen=True)
class MacroDef:
    """One `#define` whose body could make it an attribute or a namespace macro."""

    name: str  # "NAME" or "NAME()" for a function-like macro
    refs: tuple[str, ...]  # other words of its body: attribute macros, or it is none
    #: a namespace macro: "a::b" for `namespace a { inline namespace b {` ("$1" stands for
    #: the first argument of a function-like one), "}" for a macro of closing braces
    namespace: str = ""


def _strip_balanced(body: str) -> str | None:
    """The body with attribute calls and `[[...]]` removed; None if they do not close."""
    while True:
        match = _ATTRIBUTE_CALL.search(body)
        if match is None:
            break
        depth, i = 1, match.end()
        while i < len(body) and depth:
            depth += {"(": 1, ")": -1}.get(body[i], 0)
            i += 1
        if depth:
            return None
        body = body[: match.start()] + " " + body[i:]
    while "[[" in body:
        start = body.index("[[")
        end = body.find("]]", start)
        if end < 0:
            return None
        body = body[:start] + " " + body[end + 2 :]
    return body


def _has_meaning(name: str) -> bool:
    """Registration and test macros are read by the scanner, never blanked (some trees
    define them empty for builds that leave a kernel out)."""
    return name in BLOCK_REGISTRATIONS or name in TEST_MACROS or is_dispatch_macro(name)


_NAMESPACE_OPENING = re.compile(r"(?:\s*(?:inline\s+)?namespace\s+[A-Za-z_]\w*\s*\{)+\s*")
_ONE_NAMESPACE = re.compile(r"namespace\s+([A-Za-z_]\w*)")


def _namespace_body(body: str, params: list[str]) -> str:
    """ "a::$1" for a body that opens namespaces, "}" for one that closes them, else ""."""
    if _NAMESPACE_OPENING.fullmatch(body):
        names = _ONE_NAMESPACE.findall(body)
        return "::".join(f"${params.index(n) + 1}" if n in params else n for n in names)
    if body.strip() and not body.replace("}", "").strip():
        return "}"
    return ""


def macro_defs(data: bytes) -> tuple[MacroDef, ...]:
    """The `#define`s of one file that may be attribute or namespace macros (cheap: no
    parse)."""
    if b"define" not in data:
        return ()
    found: dict[MacroDef, None] = {}
    for match in _DEFINE.finditer(data):
        name = match.group(1).decode("ascii")
        if name in RESERVED or _INCLUDE_GUARD.search(name) or _has_meaning(name):
            continue
        raw = match.group(3).decode("utf-8", "replace")
        params: list[str] = []
        if match.group(2):  # function-like: drop the parameter list
            close = raw.find(")")
            if close < 0:
                continue
            params = [p.strip() for p in raw[:close].split(",")]
            raw = raw[close + 1 :]
        key = f"{name}()" if match.group(2) else name
        uncommented = _COMMENT.sub(" ", raw.replace("\\\n", " "))
        namespace = _namespace_body(uncommented, params)
        if namespace:
            found[MacroDef(key, (), namespace)] = None
            continue
        body = _strip_balanced(uncommented)
        if body is None:
            continue
        words = _WORD.findall(body)
        if _WORD.sub("", body).strip():  # operators, numbers, strings: not an attribute
            continue
        refs = tuple(sorted({w for w in words if w not in SPECIFIER_WORDS}))
        found[MacroDef(key, refs)] = None
    return tuple(found)


def attribute_macros(defs: Iterable[MacroDef]) -> frozenset[str]:
    """The macros some definition makes attribute-like, following references to a fixpoint."""
    by_name: dict[str, list[tuple[str, ...]]] = {}
    for d in defs:
        if not d.namespace:
            by_name.setdefault(d.name, []).append(d.refs)
    known = {name.removesuffix("()") for name in BUILTIN_MACROS}
    chosen: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, bodies in by_name.items():
            if name in chosen:
                continue
            if any(all(ref in known for ref in refs) for refs in bodies):
                chosen.add(name)
                known.add(name.removesuffix("()"))
                changed = True
    return frozenset(chosen)


#: a class head up to its bases, template arguments or body: `class A_API Name FINAL {`
_CLASS_HEAD = re.compile(rb"\b(?:class|struct|union)[ \t]+([A-Za-z_][\w \t]*?)[ \t]*[:{<]")
_UPPER = re.compile(r"[A-Z][A-Z0-9_]*[A-Z0-9]")


def macros_in_use(data: bytes) -> frozenset[str]:
    """Macros this file's own class heads show to be attributes, defined where docgen
    cannot see (a generated or installed header): `class PROTOC_EXPORT Foo {`.  A type
    has a one-word name, so the other upper-case words of a head are macros."""
    if b"class" not in data and b"struct" not in data and b"union" not in data:
        return frozenset()
    found: set[str] = set()
    for match in _CLASS_HEAD.finditer(data):
        words = [w for w in match.group(1).decode().split() if w != "final"]
        if len(words) < 2:
            continue
        upper = [w for w in words if _UPPER.fullmatch(w)]
        if len(upper) == len(words):
            upper = upper[:-1]  # all upper case: the last one is the name
        found.update(upper)
    return frozenset(found - RESERVED)


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
    unusual: tuple[str, ...]  # names `_CANDIDATE` cannot find (`really_inline`)

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
        unusual = tuple(sorted(n for n in table if not _CANDIDATE.fullmatch(n.encode())))
        return cls(table, opening, unusual)


_LONE_MACRO = re.compile(
    rb"^[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]*(?://[^\n]*)?(?=\r?$)", re.MULTILINE
)
_CONDITIONAL = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")


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


def first_branches(data: bytes) -> bytes:
    """The file as if the first branch of every `#if`/`#ifdef` were taken: the code of the
    other branches and the conditional lines themselves blanked (lines kept); `#define`
    and `#include` lines stay in every branch.  A second reading for a file whose
    branches each open a class or a function head, which no grammar can nest inside a
    conditional."""
    lines = data.split(b"\n")
    skipping: list[bool] = []  # per open conditional: is this branch blanked?
    continued = blank_continued = False  # inside a directive's backslash-continued lines

    def blank(line: bytes) -> bytes:
        return re.sub(rb"[^\r]", b" ", line)

    for i, line in enumerate(lines):
        ends = line.rstrip().endswith(b"\\")
        if continued:
            lines[i] = blank(line) if blank_continued else line
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
            lines[i] = blank(line)
            continued, blank_continued = ends, True
        elif line.lstrip().startswith(b"#"):
            continued, blank_continued = ends, False
        elif any(skipping):
            lines[i] = blank(line)
    return b"\n".join(lines)


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


def neutralise(
    data: bytes, macros: MacroTable | Iterable[str], extra: frozenset[str] = frozenset()
) -> Blanked:
    """Blank every use of an attribute macro outside preprocessor lines, and write a
    namespace macro's namespace over it (`namespace fmt::v11{`, `}`), offsets unchanged.
    `extra`: object-like attribute macros of this file alone (see `macros_in_use`)."""
    prepared = macros if isinstance(macros, MacroTable) else MacroTable.of(macros)
    table, opening = prepared.function_like, prepared.opening
    candidates = {m.decode("ascii") for m in _CANDIDATE.findall(data)}
    present = candidates & table.keys()
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
        for i in range(start, end):
            if out[i] not in (10, 13):
                out[i] = 32
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


def namespace_macros(defs: Iterable[MacroDef]) -> tuple[tuple[str, str], ...]:
    """Macros that open or close namespaces, each with one expansion (the first in sorted
    order, so the choice does not depend on the order files were read)."""
    chosen: dict[str, str] = {}
    for name, namespace in sorted({(d.name, d.namespace) for d in defs if d.namespace}):
        chosen.setdefault(name, namespace)
    return tuple(sorted(chosen.items()))


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
