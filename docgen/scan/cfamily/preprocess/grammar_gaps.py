"""Valid C++ that the pinned tree-sitter-cpp grammar cannot read, rewritten in place.

tree-sitter-cpp 0.23 has no rule for a braced default argument (`const Tensor&
x={}`, `MempoolId_t id = {0, 0}`), for a free function declared `= delete`, for an
operator called by name on an object (`this->operator[](i)`, or `operator++();` on
`this`), for the type of an anonymous enum (`enum : int {`, protobuf's generated
classes), for a string or a header's name in a conditional's test (`#if
C10_CLANG_HAS_WARNING("-Wfoo")`, `#if __has_include(<filesystem>)`), for `using
typename Base<T>::type;` in a class body, for `typename` before a dependent type
called in an expression (`return typename T::type();`), for a pointer to a member
without a name (`remove_class<R (C::*)(A...) const>` in pybind11, `function_traits<T
C::*>`), for an attribute before `friend` (`[[nodiscard]] friend T& value_of(...)`
in c10's `strong_type.h`), for CUDA's execution space of a lambda (`[=] __device__
(int i) {`, PyTorch's `DistributionTemplates.h`), for a pointer parameter without a
name but with a default (SFINAE's `std::enable_if_t<...>* = nullptr` in a template's
parameters, `const char* = nullptr` in a function's), for a macro that makes a type
(`ql_head(tcache_t) tcache_ql;`, `typedef rb_tree(prof_tctx_t) prof_tctx_tree_t;` in
jemalloc; C's grammar reads those), for an explicit instantiation of a class
template (`template struct HeapArray<CMin<float, int64_t>>;` in faiss) nor for a
macro after a string literal that it continues (`"%" PRId64 " points"`, `"at "
__FILE__ ":" C10_STRINGIZE(__LINE__)`; C's grammar reads those) nor for a macro's
empty last argument (`PYBIND11_OVERRIDE(int, Base, get, );`): each makes a syntax
error, and the generated headers of PyTorch hold thousands of them. The bytes the
grammar reads get `0` in place of the braces, the string and the name (newlines kept),
spaces in place of `= delete`, of the enum's type, of `typename` after `using`, of
an attribute before `friend`, of `typename` in an expression, of a lambda's
execution space and of a member pointer's class (a plain pointer for the grammar),
`_` for the name a defaulted pointer parameter lacks (in place of the blank after
its `*`), one name in place of `operator[]`, `<...>` in place of a type macro's
parentheses (a template's arguments), and spaces in place of a class template's
explicit instantiation (it names nothing), of the comma before an empty last
argument and of a macro after a string (with its
arguments), so that every offset stays the original's; what a page shows is cut
from the original bytes.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from docgen.scan.cfamily.preprocess.source import (
    BLANKED,
    LITERAL_OR_COMMENT,
    Calls,
    Directives,
    LinePattern,
    whole_word_matches,
)
from docgen.scan.cfamily.source import KEYWORDS

#: `= {` of a default argument (a literal first: the engine jumps from one `=` to the next)
_BRACED_DEFAULT = re.compile(rb"=\s*\{")
#: what a default argument's `=` follows: a name, `>` or `]` (never `==`, `<=`, `+=` ...)
_BEFORE_DEFAULT = re.compile(rb"[\w>\]]\s*$")
#: what may follow a default argument: the next parameter, or the list's end
_AFTER_DEFAULT = re.compile(rb"\s*[,)]")
#: `) = delete;` and `) const = delete;`: a deleted function's declaration
_DELETED = re.compile(rb"\)(?:\s*(?:const|noexcept|&&?))*\s*(=\s*delete)\s*;")
_BRACES = re.compile(rb"[{}]")
#: `.operator` or `->operator`: an operator called by its name on an object
_OPERATOR_CALL = re.compile(rb"(?:\.|->)[ \t]*operator(?!\w)")
#: a symbol's operator called on `this` by its name, as a statement: `operator++();`
#: (CUTLASS's iterators; declaring one always takes a type before it)
_BARE_OPERATOR_CALL = re.compile(
    rb"operator(?=[ \t]*(?:\(\)|\[\]|[-+*/%^&|~!=<>]{1,3})[ \t]*\([^;\n]*\)[ \t]*;)"
)
#: what names the operator, up to its call's `(`: `()`, `[]`, `==`, ` bool`, ...
_OPERATOR_TOKEN = re.compile(rb"(?:\(\)|\[\]|[^(\n]{1,40}?)(?=[ \t]*\()")
#: the type of an enum without a name: `enum : int {` (a named one reads: `enum E : int {`)
_ANONYMOUS_ENUM_BASE = re.compile(rb"enum(?:[ \t]+(?:class|struct))?[ \t]*(:[^;{}()]*)\{")
#: a conditional's test that holds a string or a header's name: `#if
#: C10_CLANG_HAS_WARNING("-Wfoo")`, `#if __has_include(<filesystem>)`
_TEST_WITH_LITERAL = LinePattern(rb"[ \t]*#[ \t]*(?:if|elif)\b[^\n\\]*(?:\"|__has_include)")
#: a string, or a header's name as `__has_include` takes it
_TEST_LITERAL = re.compile(
    rb'"(?:[^"\\\n]|\\.)*"'
    rb"|(?<=__has_include\()[ \t]*<[^>\n]*>|(?<=__has_include_next\()[ \t]*<[^>\n]*>"
)
#: `typename` in a using-declaration: `using typename super::BatchRequestType;`
_USING_TYPENAME = re.compile(rb"using[ \t]+(typename)\b")
#: template arguments, one level of them nested: `<IValue, T>`, `<A<B>, C>`
_TEMPLATE_ARGS = rb"<[^<>;{}()\n]*(?:<[^<>;{}()\n]*>[^<>;{}()\n]*)*>"
#: a name with its template arguments
_TEMPLATE_NAME = rb"[A-Za-z_]\w*(?:[ \t]*" + _TEMPLATE_ARGS + rb")?"
#: `typename` before a dependent type called or braced in an expression: `return
#: typename T::type();`, `f(x, typename std::is_constructible<A, T>::type{})` (a
#: function's type, `typename T::R (*)(int)`, is not taken)
_EXPRESSION_TYPENAME = re.compile(
    rb"(typename)[ \t]+(?=(?:::)?"
    + _TEMPLATE_NAME
    + rb"(?:::"
    + _TEMPLATE_NAME
    + rb")+[ \t]*(?:\((?![ \t]*[*&])|\{))"
)
#: what an expression's `typename` follows (a literal first: the engine jumps to it)
_EXPRESSION_BEFORE = re.compile(rb"(?:[(,=?]|\breturn)[ \t]*$")


def _expression_typenames(parsed: bytes) -> Iterator[re.Match[bytes]]:
    """`typename` before a dependent type called or braced, where an expression stands."""
    for found in _EXPRESSION_TYPENAME.finditer(parsed):
        start = found.start()
        if _EXPRESSION_BEFORE.search(parsed, max(0, start - 12), start):
            yield found


#: a class's name as a member pointer qualifies it: `C::`, `ns::C<A, B>::`
_MEMBER_CLASS = rb"(?:[A-Za-z_]\w*(?:<[^()<>\n]{0,60}>)?::)+"
#: the class of a pointer to a member without a name: `(C::*)`, `T C::*>`
_MEMBER_POINTER_CLASS = re.compile(
    rb"(?<=\()[ \t]*(" + _MEMBER_CLASS + rb")\*[ \t]*\)"
    rb"|(?<=[\w>] )(" + _MEMBER_CLASS + rb")\*(?=[ \t]*[>,])"
)
#: a standard attribute before `friend`, which the grammar reads only after it
_ATTRIBUTE_BEFORE_FRIEND = re.compile(rb"\[\[[^\[\]\n]{1,80}\]\](?=\s*friend\b)")
#: the execution space of a CUDA lambda, between its captures and its parameters
_LAMBDA_SPACE = re.compile(
    rb"\][ \t]*((?:__host__|__device__)(?:[ \t]+(?:__host__|__device__))*)(?=[ \t]*\()"
)
#: the blank after the `*` of a pointer parameter without a name but with a default:
#: `std::enable_if_t<cond>* = nullptr`, `const char* = nullptr` (`* =` is no operator);
#: the `*` first, what stands before it looked at behind it, so the engine jumps to a `*`
_UNNAMED_POINTER_DEFAULT = re.compile(rb"\*(?<=[\w>*]\*)([ \t])[ \t]*=(?!=)")
#: a macro call that makes a type, then the name it declares, on a line of its own:
#: `ql_head(tcache_slow_t) tcache_ql;`, `typedef rb_tree(T) tree_t;` (no statement
#: or declaration of C++ reads `name(type) name;`: a keyword or `override` is excluded)
_TYPE_MACRO = re.compile(
    rb"[ \t]*(?:typedef[ \t]+)?([A-Za-z_]\w*)[ \t]*(\()[ \t]*"
    rb"[A-Za-z_][\w:]*(?:[ \t]*\*)*(?:[ \t]*,[ \t]*[A-Za-z_][\w:]*(?:[ \t]*\*)*)*"
    rb"[ \t]*(\))[ \t]+([A-Za-z_]\w*)[ \t]*;"
)
#: how such a line ends, found first: the engine jumps from one `)` to the next
_TYPE_MACRO_END = re.compile(rb"\)[ \t]+([A-Za-z_]\w*)[ \t]*;")
#: words that make `word(x) name;` something else than a type macro's declaration
_NOT_TYPE_MACRO = frozenset(w.encode() for w in KEYWORDS | {"override", "final"})


#: an explicit instantiation of a class template, on one line: `template struct A<int>;`,
#: `extern template class B<T>;` (a literal first: the engine jumps from one `template`
#: to the next; no comment, directive or string inside, where English can say it)
_CLASS_INSTANTIATION = re.compile(
    rb"template[ \t]+(?:class|struct|union)[ \t]+[A-Za-z_:][^;{}/#\"\n]*;"
)
#: `extern` before an instantiation, which goes with it
_EXTERN_BEFORE = re.compile(rb"(?<!\w)extern[ \t]+$")
#: a word after a closing quote and a blank on its line: `"%" PRId64`, `"at " __FILE__`
_MACRO_AFTER = re.compile(rb"[ \t]+([A-Za-z_]\w*)(?![\w\"'])")
#: the same, found first in the whole file (the engine jumps from one quote to the next):
#: a file without one (most) is not tokenized
_ANY_WORD_AFTER_QUOTE = re.compile(rb'"[ \t]+[A-Za-z_]')
#: words that stand after a string in C++ itself (`"a" and b`, `"x" if`, ...), and the
#: strings a word may follow there: `extern "C" BOOL f();`, `operator "" _km`
_NOT_MACROS = frozenset(w.encode() for w in KEYWORDS | {"__asm__", "_Pragma"})
_NO_MACRO_AFTER = re.compile(rb'(?:(?<!\w)extern[ \t]*"C(?:\+\+)?"|(?<!\w)operator[ \t]*"")$')
#: a literal or a comment, found in turn: a quote is known to open or close a string, and
#: one in a comment is left alone
_LITERAL_OR_COMMENT = re.compile(LITERAL_OR_COMMENT)
#: a comma before nothing but blanks, comments and a closing parenthesis: a macro's empty
#: last argument (`PYBIND11_OVERRIDE(int, Base, get, );`, `get, /*no args*/)`), which
#: no call of C or C++ has (a comment taken whole, to its `*/` or its line's end: no `)`
#: inside one is taken for the call's, and the search stays linear)
_EMPTY_LAST_ARGUMENT = re.compile(rb",(?=(?:\s|/\*(?:[^*]|\*(?!/))*\*/|//[^\n]*\n)*\))")


def _class_instantiations(parsed: bytes, directives: Directives) -> Iterator[tuple[int, int]]:
    """The span of each explicit instantiation of a class template, `extern` included."""
    for found in whole_word_matches(_CLASS_INSTANTIATION, parsed):
        start = found.start()
        if directives.holds(start):
            continue  # a macro's body: the grammar does not read it
        extern = _EXTERN_BEFORE.search(parsed, max(0, start - 20), start)
        yield (extern.start() if extern is not None else start), found.end()


def _empty_last_arguments(parsed: bytes, directives: Directives) -> list[int]:
    """Where the comma before each empty last argument stands, outside literals,
    comments and directives (`"(6, )"` is text, a macro's body is not read)."""
    commas = [found.start() for found in _EMPTY_LAST_ARGUMENT.finditer(parsed)]
    if not commas:
        return []
    text = [token.span() for token in _LITERAL_OR_COMMENT.finditer(parsed)]
    starts = [start for start, _ in text]
    kept = []
    for comma in commas:
        at = bisect.bisect_right(starts, comma) - 1
        if (at < 0 or comma >= text[at][1]) and not directives.holds(comma):
            kept.append(comma)
    return kept


def _opens_line_with_hash(parsed: bytes, pos: int) -> bool:
    """Whether the line of `pos` is a directive's first (found without a pass over the
    file's directives)."""
    line = parsed.rfind(b"\n", 0, pos) + 1
    return parsed[line:pos].lstrip(b" \t").startswith(b"#")


def _string_macros(parsed: bytes, directives: Directives) -> Iterator[tuple[int, int]]:
    """The span of each macro that stands after a string literal and a blank on its line
    (a suffix touches its quote), with its arguments where it is called there: no word
    but a keyword can stand there in C++ itself."""
    if _ANY_WORD_AFTER_QUOTE.search(parsed) is None:
        return
    calls = Calls(parsed)
    for token in _LITERAL_OR_COMMENT.finditer(parsed):
        start, end = token.span()
        if parsed[start] != ord('"'):
            continue  # a comment or a character literal
        after = _MACRO_AFTER.match(parsed, end)
        if after is None or after.group(1) in _NOT_MACROS:
            continue  # most strings; or C++'s own word
        if _NO_MACRO_AFTER.search(parsed, max(0, start - 16), end):
            continue  # `extern "C"`, a literal operator's `""`
        if _opens_line_with_hash(parsed, start) or directives.holds(start):
            continue  # an `#include`'s name, a macro's body: the grammar does not read them
        word_end = after.end(1)
        call_end = calls.args_end(word_end)
        yield after.start(1), call_end if b"\n" not in parsed[word_end:call_end] else word_end


def closing_brace(data: bytes, opened: int) -> int | None:
    """Where the brace opened at `opened` closes (nested braces counted), or None."""
    depth = 0
    for brace in _BRACES.finditer(data, opened):
        depth += 1 if brace.group() == b"{" else -1
        if depth == 0:
            return brace.start()
    return None


def _blank(data: bytearray, start: int, end: int, keep: bytes = b"") -> None:
    """Spaces over `start:end` (line ends kept, so lines stay lines), `keep` first."""
    data[start:end] = keep + bytes(data[start + len(keep) : end]).translate(BLANKED)


def _type_macro_calls(parsed: bytes) -> Iterator[re.Match[bytes]]:
    """Each line that is a type macro's call and the name it declares (`_TYPE_MACRO`)."""
    for end in _TYPE_MACRO_END.finditer(parsed):
        if end.group(1) in _NOT_TYPE_MACRO:
            continue
        line = parsed.rfind(b"\n", 0, end.start()) + 1
        call = _TYPE_MACRO.match(parsed, line)
        if call is not None and call.end() == end.end() and call.group(1) not in _NOT_TYPE_MACRO:
            yield call


def _operator_calls(parsed: bytes) -> Iterator[re.Match[bytes]]:
    """Each operator called by its name: on an object (`x.operator[](i)`), or on `this`
    as a statement of its own (`operator++();`, after a line's start, `;`, `{` or `}`)."""
    yield from _OPERATOR_CALL.finditer(parsed)
    for bare in _BARE_OPERATOR_CALL.finditer(parsed):
        before = parsed[max(0, bare.start() - 80) : bare.start()].rstrip(b" \t")
        if not before or before.endswith((b"\n", b";", b"{", b"}")):
            yield bare


def grammar_gaps_blanked(parsed: bytes) -> bytes:
    """`parsed` with every form of the module's docstring rewritten: braced default
    arguments and a conditional's strings and header names read as `0`, operators
    called by name as one name, a type macro's parentheses as a template's; a class
    template's explicit instantiation, a macro after a string, the comma before a
    macro's empty last argument, `= delete`
    on a function, an anonymous enum's type, `using typename`, an attribute before
    `friend`, a lambda's execution space and a member pointer's class blanked, and a
    defaulted pointer parameter named `_`.  The same bytes when it has none of them
    (most files)."""
    has_braced = b"={" in parsed or b"= {" in parsed
    has_deleted = b"delete" in parsed
    operator_calls = list(_operator_calls(parsed)) if b"operator" in parsed else []
    enum_bases = list(whole_word_matches(_ANONYMOUS_ENUM_BASE, parsed)) if b"enum" in parsed else []
    has_test_literals = b"#" in parsed and _TEST_WITH_LITERAL.search(parsed) is not None
    using_typenames = (
        list(whole_word_matches(_USING_TYPENAME, parsed))
        if b"using" in parsed and b"typename" in parsed
        else []
    )
    if b"typename" in parsed:
        using_typenames += _expression_typenames(parsed)
    type_macros = list(_type_macro_calls(parsed))
    member_pointers = list(_MEMBER_POINTER_CLASS.finditer(parsed)) if b"::*" in parsed else []
    friend_attributes = (
        list(_ATTRIBUTE_BEFORE_FRIEND.finditer(parsed))
        if b"[[" in parsed and b"friend" in parsed
        else []
    )
    unnamed_pointers = list(_UNNAMED_POINTER_DEFAULT.finditer(parsed)) if b"* " in parsed else []
    directives = Directives(parsed)  # found once, if either asks
    instantiations = (
        list(_class_instantiations(parsed, directives)) if b"template" in parsed else []
    )
    string_macros = list(_string_macros(parsed, directives)) if b'"' in parsed else []
    empty_arguments = _empty_last_arguments(parsed, directives)
    lambda_spaces = (
        list(_LAMBDA_SPACE.finditer(parsed))
        if b"__device__" in parsed or b"__host__" in parsed
        else []
    )
    if not (
        instantiations
        or empty_arguments
        or string_macros
        or unnamed_pointers
        or lambda_spaces
        or has_braced
        or has_deleted
        or operator_calls
        or enum_bases
        or has_test_literals
        or using_typenames
        or type_macros
        or member_pointers
        or friend_attributes
    ):
        return parsed
    out = bytearray(parsed)
    for start, end in (*instantiations, *string_macros):
        _blank(out, start, end)
    for comma in empty_arguments:  # `get, )` -> `get  )`
        out[comma] = ord(" ")
    for space in lambda_spaces:  # `[=] __device__ (` -> `[=]            (`
        _blank(out, *space.span(1))
    for pointer in unnamed_pointers:  # `T* = nullptr` -> `T*_= nullptr`
        out[pointer.start(1)] = ord("_")
    for attribute in friend_attributes:  # `[[nodiscard]] friend` -> `              friend`
        _blank(out, *attribute.span())
    for pointer in member_pointers:  # `(C::*)` -> `(   *)`: the one group that matched
        _blank(out, *pointer.span(pointer.lastindex or 0))
    for call in type_macros:  # `ql_head(T) name;` -> `ql_head<T> name;`
        out[call.start(2)], out[call.start(3)] = ord("<"), ord(">")
    for using in using_typenames:
        _blank(out, *using.span(1))
    for head in enum_bases:
        _blank(out, *head.span(1))
    if has_test_literals:
        for line in _TEST_WITH_LITERAL.finditer(parsed):
            end = parsed.find(b"\n", line.end())
            for literal in _TEST_LITERAL.finditer(
                parsed, line.start(), len(parsed) if end < 0 else end
            ):
                _blank(out, *literal.span(), keep=b"0")
    if has_braced:
        pos = 0
        while (found := _BRACED_DEFAULT.search(parsed, pos)) is not None:
            pos = found.end()
            equals = found.start()
            if not _BEFORE_DEFAULT.search(parsed, max(0, equals - 40), equals):
                continue
            opened = found.end() - 1
            closed = closing_brace(parsed, opened)
            if closed is None:
                break
            if _AFTER_DEFAULT.match(parsed, closed + 1):
                _blank(out, opened, closed + 1, keep=b"0")
    if has_deleted:
        for found in _DELETED.finditer(parsed):
            _blank(out, found.start(1), found.end(1))
    if operator_calls:
        for found in operator_calls:
            token = _OPERATOR_TOKEN.match(parsed, found.end())
            if token is not None:  # `operator[]` -> `operator__`: one name, called
                out[token.start() : token.end()] = b"_" * (token.end() - token.start())
    return bytes(out)
