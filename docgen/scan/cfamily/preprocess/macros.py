"""Export, attribute and namespace macros: learned from a repository's headers.

`class TORCH_API Dispatcher` reads to a parser as a class named `TORCH_API`.
The preprocessor would expand the macro to an attribute or to nothing, so
docgen does what comes to the same for a parser without moving a byte (see
`cpp_blanking`); this module decides which macros those are.

A macro counts as an attribute macro when some `#define` of it has an empty
body or a body made only of attributes (`__attribute__((...))`,
`__declspec(...)`, `[[...]]`, `__launch_bounds__(...)`), pragmas (`_Pragma(...)`,
which leave no code: `#pragma unroll` in a macro), specifiers such as
`inline`, CUDA qualifiers, and other attribute macros.  Function-like macros are
written `NAME()` in the sets here; their argument list is blanked with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from docgen.scan.cfamily.preprocess.builtin_macros import BUILTIN_MACROS, RESERVED, SPECIFIER_WORDS
from docgen.scan.cfamily.preprocess.conditionals import disabled_branches_blanked
from docgen.scan.cfamily.preprocess.declaring_macros import declaring_reading, heading_reading
from docgen.scan.cfamily.preprocess.macro_def import MacroDef
from docgen.scan.cfamily.preprocess.namespace_macros import composed_namespace, namespace_body
from docgen.scan.cfamily.preprocess.source import directives_matching
from docgen.scan.cfamily.preprocess.string_macros import parameter_name, stringizes
from docgen.scan.cfamily.reader_macros import (
    BLOCK_REGISTRATIONS,
    NAMED_TEST_MACROS,
    TEST_MACROS,
    is_dispatch_macro,
)
from docgen.scan.cfamily.source import KEYWORDS

#: a `#define` with its continued lines, from its `#` (see `directives_matching`)
_DEFINE = re.compile(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?((?:[^\n]*\\\r?\n)*[^\n]*)")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
#: calls that leave nothing for a parser: attributes, and pragmas (`_Pragma("unroll")`)
_ATTRIBUTE_CALL = re.compile(
    r"\b(?:__attribute__|__declspec|__launch_bounds__|alignas|_Pragma|__pragma)\s*\("
)
_WORD = re.compile(r"[A-Za-z_]\w*")
#: identifiers that can be macro names worth looking up: upper case, or `__` words
CANDIDATE = re.compile(rb"\b(?:__[A-Za-z]\w*|[A-Z][A-Z0-9_]+)\b")
_INCLUDE_GUARD = re.compile(r"_(?:H|HPP|HH|HXX|CUH|INCLUDED)_*$")


_PARENTHESIS = re.compile(r"[()]")


def _after_closing(body: str, start: int) -> int | None:
    """Where the parenthesis opened just before `start` closes, plus one; None if it
    does not."""
    depth = 1
    for paren in _PARENTHESIS.finditer(body, start):
        depth += 1 if paren.group() == "(" else -1
        if not depth:
            return paren.end()
    return None


def _strip_balanced(body: str) -> str | None:
    """The body with attribute calls and `[[...]]` removed; None if they do not close."""
    while True:
        match = _ATTRIBUTE_CALL.search(body)
        if match is None:
            break
        end = _after_closing(body, match.end())
        if end is None:
            return None
        body = body[: match.start()] + " " + body[end:]
    while "[[" in body:
        start = body.index("[[")
        end = body.find("]]", start)
        if end < 0:
            return None
        body = body[:start] + " " + body[end + 2 :]
    return body


_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def _calls_apart(body: str) -> tuple[str, list[str]] | None:
    """The body without its calls, and the names called: what a function-like macro is
    given is not a word of the body (`GUARDED_BY(x)` may expand to
    `THREAD_ANNOTATION(guarded_by(x))`, a call of an attribute macro).  None if a call
    does not close."""
    kept: list[str] = []
    called: list[str] = []
    pos = 0
    while (match := _CALL.search(body, pos)) is not None:
        end = _after_closing(body, match.end())
        if end is None:
            return None
        kept.append(body[pos : match.start()])
        called.append(match.group(1))
        pos = end
    kept.append(body[pos:])
    return " ".join(kept), called


def _opened_statement(body: str) -> str:
    """`for`, `while`, `if` or `switch` for a body that is that statement's head alone
    (`for ((q) = (h)->next; (q) != (h); (q) = (q)->next)`: the loop's body follows the
    macro's use), else "" (`if (!(x)) { fail(); }` is a whole statement)."""
    head = _STATEMENT_HEAD.match(body)
    if head is None:
        return ""
    end = _after_closing(body, head.end())
    return head.group(1) if end is not None and not body[end:].strip() else ""


def has_meaning(name: str) -> bool:
    """Registration and test macros are read by the scanner, never blanked (some trees
    define them empty for builds that leave a kernel out)."""
    return (
        name in BLOCK_REGISTRATIONS
        or name in TEST_MACROS
        or name in NAMED_TEST_MACROS
        or is_dispatch_macro(name)
    )


#: the head of a statement a macro's body opens: `for (`, `while (`, `if (`, `switch (`
_STATEMENT_HEAD = re.compile(r"\s*(for|while|if|switch)\s*\(")
#: an object-like macro's body that is `if` or `if constexpr`
_IF_KEYWORD = re.compile(r"\s*if(?:\s+constexpr)?\s*")


def macro_defs(data: bytes) -> tuple[MacroDef, ...]:
    """The `#define`s of one file that may be attribute or namespace macros (cheap: no
    parse), but for those of `#if 0` branches, which no build reads."""
    if b"define" not in data:
        return ()
    found: dict[MacroDef, None] = {}
    for match in directives_matching(_DEFINE, disabled_branches_blanked(data)):
        name = match.group(1).decode("ascii")
        # A keyword stays what the grammars know it to be, whatever a header makes of it
        # (`#define extern extern` in glext.h had every `extern "C" {` blanked).
        if name in RESERVED or name in KEYWORDS or _INCLUDE_GUARD.search(name):
            continue
        if has_meaning(name):
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
        namespace = namespace_body(uncommented, params)
        if namespace:
            found[MacroDef(key, (), namespace)] = None
            continue
        composed = composed_namespace(uncommented, params)
        if composed:  # kept beside the reading below: a call that opens none is dropped
            found[MacroDef(key, (), composed)] = None
        if match.group(2):
            opens = _opened_statement(uncommented)
        else:  # `#define RAPIDJSON_IF_CONSTEXPR if constexpr` (`if` for older compilers)
            opens = "if" if _IF_KEYWORD.fullmatch(uncommented) else ""
        if opens:
            found[MacroDef(key, (), opens=opens)] = None
            continue
        declaring = declaring_reading(uncommented, params) or (
            heading_reading(uncommented, params) if match.group(2) else None
        )
        if declaring is not None:  # a type, a declarator, a call operator, handlers
            found[
                MacroDef(
                    key,
                    (),
                    wraps=declaring.wraps,
                    makes_type=declaring.makes_type,
                    pointer=declaring.pointer,
                    writes=declaring.writes,
                    head=declaring.head,
                )
            ] = None
            continue
        body = _strip_balanced(uncommented)
        apart = _calls_apart(body) if body is not None else None
        # operators, numbers, strings: not an attribute, but maybe a string of its arguments
        if apart is None or _WORD.sub("", apart[0]).strip():
            if params and (stringized := stringizes(uncommented, params)):
                found[MacroDef(key, (), stringizes=stringized)] = None
            continue
        body, called = apart
        words = _WORD.findall(body)
        # a call makes an attribute only of a function-like attribute macro: `NAME()`
        # (`__extension__ (x)` is an expression)
        names = {w for w in words if w not in SPECIFIER_WORDS} | {f"{c}()" for c in called}
        given = [parameter_name(p) for p in params]
        kept = [w for w in words if w in given]
        wraps = given.index(kept[0]) + 1 if len(kept) == 1 and kept[0] not in called else 0
        if wraps and params[wraps - 1].endswith("..."):
            wraps = -wraps  # `#define jiterator_code(...) __VA_ARGS__`: every argument from there
        refs = tuple(sorted(names - set(kept))) if wraps else tuple(sorted(names))
        found[MacroDef(key, refs, wraps=wraps)] = None
    return tuple(found)


def _as_referred_to(macros: Iterable[str]) -> set[str]:
    """How a body may refer to these macros: a plain word may name either kind of macro,
    a call `NAME()` a function-like one."""
    return {*macros, *(name.removesuffix("()") for name in macros)}


#: what a macro for exceptions that a build may turn off stands for in one branch
#: (`#define CATCH_TRY try`, `#define CATCH_CATCH_ALL catch (...)`): blanked like an
#: attribute, it leaves the block after it, which the grammars read; left alone, the
#: grammar reads `CATCH_TRY{` as an initializer and loses the class around it
EXCEPTION_WORDS = frozenset({"try", "catch()"})


def attribute_macros(defs: Iterable[MacroDef]) -> frozenset[str]:
    """The macros some definition makes attribute-like, following references to a fixpoint."""
    by_name: dict[str, list[tuple[str, ...]]] = {}
    for d in defs:
        if not (
            d.namespace
            or d.wraps
            or d.stringizes
            or d.makes_type
            or d.pointer
            or d.writes
            or d.head
        ):
            by_name.setdefault(d.name, []).append(d.refs)
    known = _as_referred_to(BUILTIN_MACROS) | EXCEPTION_WORDS
    chosen: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, bodies in by_name.items():
            if name in chosen:
                continue
            if any(all(ref in known for ref in refs) for refs in bodies):
                chosen.add(name)
                known.update((name, name.removesuffix("()")))
                changed = True
    return frozenset(chosen)


def _one_words(defs: Iterable[MacroDef]) -> dict[str, set[str]]:
    """Each object-like macro's definitions, each as the one word it stands for,
    attributes aside ("" for a definition that is not one word)."""
    words: dict[str, set[str]] = {}
    for d in defs:
        if not d.name.endswith("()") and not d.namespace and not d.wraps and not d.opens:
            words.setdefault(d.name, set()).add(d.refs[0] if len(d.refs) == 1 else "")
    return words


def name_macros(defs: Iterable[MacroDef]) -> tuple[tuple[str, str], ...]:
    """Object-like macros that stand for one identifier, attributes aside, wherever they
    are defined (`#define PYBIND11_NAMESPACE pybind11 __attribute__((visibility(...)))`):
    the name a namespace macro's argument written so stands for."""
    found = {
        name: {w if w[:1].islower() and w.isidentifier() else "" for w in words}
        for name, words in _one_words(defs).items()
    }
    return tuple(
        sorted(
            (name, next(iter(words)))
            for name, words in found.items()
            if len(words) == 1 and "" not in words
        )
    )


#: what an access-specifier macro stands for (see `access_macros`)
ACCESS_WORDS = frozenset({"public", "private", "protected"})


def access_macros(defs: Iterable[MacroDef]) -> tuple[tuple[str, str], ...]:
    """Object-like macros every `#define` of which is an access specifier, written before
    a `:` in a class body (`#define JSON_PRIVATE_UNLESS_TESTED private`, `public` in a
    test build), each with one of its keywords (the first in sorted order): a parser
    reads the use as a bit-field and loses the rest of the class."""
    return tuple(
        sorted(
            (name, min(words)) for name, words in _one_words(defs).items() if words <= ACCESS_WORDS
        )
    )


def statement_macros(defs: Iterable[MacroDef]) -> tuple[str, ...]:
    """Macros that open a loop or a condition (see `MacroDef.opens`), sorted, without
    `()`; not those defined otherwise too (in another branch)."""
    opening = {d.name for d in defs if d.opens}
    other = {d.name for d in defs if not d.opens}
    return tuple(sorted(name.removesuffix("()") for name in opening - other))


def wrapper_macros(
    defs: Iterable[MacroDef], attributes: frozenset[str]
) -> tuple[tuple[str, int], ...]:
    """Function-like macros that expand to one of their arguments with only attributes
    around it (see `MacroDef.wraps`), each with the place of that argument (the first
    in sorted order); not those some other `#define` makes attribute macros."""
    known = _as_referred_to(BUILTIN_MACROS | attributes)
    chosen: dict[str, int] = {}
    for d in sorted(defs, key=lambda d: (d.name, d.wraps, d.refs)):
        if d.wraps and d.name not in attributes and all(ref in known for ref in d.refs):
            chosen.setdefault(d.name, d.wraps)
    return tuple(sorted(chosen.items()))
