"""The preprocessor's conditionals and directives, read without a preprocessor.

A second reading of a file can take the first branch of every conditional, and
block comments inside a continued `#define` are blanked, as the preprocessor drops
them.  Lines and offsets stay the file's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docgen.scan.cfamily.preprocess.source import (
    BLANKED,
    LINE_REST,
    LinePattern,
    directive_end,
    directives_matching,
    string_end,
)

_NOT_CR = re.compile(rb"[^\r]")
#: a conditional's line from its `#`, the directive's word in a group
_CONDITIONAL_DIRECTIVE = rb"#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b"
#: a line of a conditional, matched at the line's start
CONDITIONAL = re.compile(rb"[ \t]*" + _CONDITIONAL_DIRECTIVE)
#: a conditional's opening line, as `first_branches` reads one (`# if` too)
OPENING = LinePattern(rb"[ \t]*#[ \t]*if")
#: a conditional's other branch, as `first_branches` reads one (`# else` too)
OTHER_BRANCH = LinePattern(rb"[ \t]*#[ \t]*(?:elif|elifdef|elifndef|else)\b")
_DEFINE_START = re.compile(rb"#[ \t]*define\b")
#: what can hide or open a comment inside a directive: a literal's quote, `/*`, `//`
_LEXEME = re.compile(rb"[\"']|/[*/]")
_SPLICE = re.compile(rb"\\\r?\n")


def directive_comments_blanked(data: bytes) -> bytes:
    """Block comments inside a `#define` continued over several lines, blanked: the
    grammars end the macro's body at such a comment and read the rest of it as code
    (`NEQCHECKGOTO` after a `/* Print the back trace */` line in the body of the macro
    before it).  The preprocessor drops them too.  A backslash that continues a line
    inside the comment stays; a `/*` in a string literal is no comment, but the
    grammars take it for one, so such a literal's text is blanked too (its quotes
    stay); a comment not closed within the directive stays.  Linear in the file's
    length."""
    if b"/*" not in data or b"define" not in data:
        return data
    out: bytearray | None = None
    end = -1
    for match in directives_matching(_DEFINE_START, data):
        start = match.start()
        if start <= end:
            continue  # on a continued line of the #define before
        end = directive_end(data, start)
        if data.find(b"/*", start, end) < 0 or data.find(b"\n", start, end) < 0:
            continue  # no comment, or one line: the grammars read it whole
        i = start
        while (lexeme := _LEXEME.search(data, i, end)) is not None:
            i = lexeme.start()
            if data[i] in b"\"'":
                closing = string_end(data, i)
                if data.find(b"/", i, closing) >= 0:  # `"/*"`: the grammars see a comment
                    if out is None:
                        out = bytearray(data)
                    out[i + 1 : closing] = _blanked_keeping_splices(data[i + 1 : closing])
                i = closing + 1
                continue
            if data[i + 1] == ord("/"):
                break  # a line comment runs on over the continued lines: left as written
            close = data.find(b"*/", i + 2, end)
            if close < 0:
                break
            if out is None:
                out = bytearray(data)
            out[i : close + 2] = _blanked_keeping_splices(data[i : close + 2])
            i = close + 2
    return data if out is None else bytes(out)


#: `#if 0`, a comment after it or not: a branch no build compiles
_DISABLED = re.compile(rb"#[ \t]*if[ \t]+0[ \t]*(?:/[/*][^\n]*)?\r?(?:\n|\Z)")
#: a conditional's line, as the preprocessor reads one inside a branch it skips
_NESTING = re.compile(_CONDITIONAL_DIRECTIVE)


def disabled_branches_blanked(data: bytes) -> bytes:
    """The code of every `#if 0` branch blanked up to its `#elif`, `#else` or `#endif`
    (conditionals nested inside it counted): the preprocessor drops it, so no name,
    macro or include written there exists in any build, and the code commented out that
    way is often no longer valid.  Lines and offsets stay; the same bytes when there is
    none (most files)."""
    if b"0" not in data:
        return data
    out: bytearray | None = None
    done = 0  # where the last branch blanked ends
    for opening in directives_matching(_DISABLED, data):
        if opening.start() < done:
            continue  # nested inside the last one
        depth, start = 0, opening.end()
        end = -1
        for nested in directives_matching(_NESTING, data, start):
            word = nested.group(1)
            if word.startswith(b"if"):
                depth += 1
            elif depth == 0:
                end = data.rfind(b"\n", start, nested.start()) + 1 or start  # its line
                break
            elif word == b"endif":
                depth -= 1
        if end < 0:
            continue  # never closed (in a comment, say): left as written
        out = out if out is not None else bytearray(data)
        out[start:end] = data[start:end].translate(BLANKED)
        done = end
    return bytes(out) if out is not None else data


#: what moves the depth of parentheses, and what hides parentheses from it: comments,
#: literals, and a preprocessor line (its start)
_PAREN_TOKEN = re.compile(
    rb"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|[()]|(?:^|\n)[ \t]*#",
    re.S,
)


def parenthesized_conditionals_blanked(data: bytes) -> bytes:
    """The conditional lines (`#ifdef`, `#else`, `#endif` ...) that stand inside
    parentheses blanked, the code of every branch kept: the parameters of
    `try_get_call_ptr(..., void *DEFAULT #ifdef HAVE_AVX512_CPU_DEFINITION , void
    *AVX512 #endif ...)` (torch's `DispatchStub.h`) then read as one list, which a
    grammar can parse and no name depends on.  The same bytes when there is none."""
    out: bytearray | None = None
    depth, pos = 0, 0
    while (token := _PAREN_TOKEN.search(data, pos)) is not None:
        text, pos = token.group(), token.end()
        if text == b"(":
            depth += 1
        elif text == b")":
            depth = max(0, depth - 1)
        elif not text.startswith((b"/", b'"', b"'")):  # a preprocessor line
            start = token.start() + (text[0] == 0x0A)  # the line's start
            end = directive_end(data, start)
            if depth and CONDITIONAL.match(data, start):
                out = out if out is not None else bytearray(data)
                out[start:end] = _blanked_keeping_splices(data[start:end])
            pos = end  # a directive's own parentheses count for nothing
    return bytes(out) if out is not None else data


def _blanked_keeping_splices(text: bytes) -> bytes:
    """`text` blanked but for its line ends and the backslashes that continue lines."""
    blanked = bytearray(text.translate(BLANKED))
    for splice in _SPLICE.finditer(text):
        blanked[splice.start()] = ord("\\")
    return bytes(blanked)


#: a line an `#error`-only branch may hold beside its `#error`: blank, or a comment
_ERROR_BRANCH_LINE = re.compile(rb"[ \t]*(?:#[ \t]*(?:error|warning)\b.*|//.*|)\r?$")


def _read_lines(lines: list[bytes]) -> Iterator[tuple[int, bytes | None, bool]]:
    """Each line as the conditionals read it: (index, the conditional's word, or b"" on
    another directive's line and None on code; whether it continues a conditional's
    line).  A directive's continued lines are given the word of no conditional."""
    continued = in_conditional = False  # inside a directive's backslash-continued lines
    for i, line in enumerate(lines):
        ends = line.rstrip().endswith(b"\\")
        if continued:
            continued = ends
            yield i, b"", in_conditional
            continue
        match = CONDITIONAL.match(line)
        if match:
            continued, in_conditional = ends, True
            yield i, match.group(1), False
        elif line.lstrip().startswith(b"#"):
            continued, in_conditional = ends, False
            yield i, b"", False
        else:
            yield i, None, False


def _kept_branches(lines: list[bytes], take: int) -> set[int]:
    """The line opening the branch each conditional keeps when the `take`-th is taken
    (its last when it has fewer), an `#error`-only branch never (a header's guard)."""
    groups: list[list[int]] = []  # per open conditional: where its branches start
    kept: set[int] = set()
    for i, word, _ in _read_lines(lines):
        if not word:
            continue
        if word.startswith(b"if"):
            groups.append([i])
        elif word == b"endif" and groups:
            starts = groups.pop()
            ends_at = [*starts[1:], i]
            readable = [
                start
                for start, stop in zip(starts, ends_at, strict=True)
                if not all(_ERROR_BRANCH_LINE.match(x) for x in lines[start + 1 : stop])
            ] or starts
            kept.add(readable[min(take, len(readable) - 1)])
        elif groups:
            groups[-1].append(i)
    return kept


def first_branches(data: bytes, take: int = 0) -> tuple[bytes, tuple[tuple[int, int, int], ...]]:
    """The file as if the first branch of every `#if`/`#ifdef` were taken (the `take`-th
    with `take`, see `_kept_branches`): the code of the other branches and the
    conditional lines themselves blanked (lines kept); `#define` and `#include` lines
    stay in every branch.  A second reading for a file whose branches each open a class
    or a function head, which no grammar can nest inside a conditional.  Also (row,
    start byte, end byte) of every line blanked, so that the parser reads again only
    what changed."""
    lines = data.split(b"\n")
    kept = _kept_branches(lines, take) if take else set()
    skipping: list[bool] = []  # per open conditional: is this branch blanked?
    changed: list[int] = []
    for i, word, continues_conditional in _read_lines(lines):
        if continues_conditional:
            changed.append(i)
        elif word is None:
            if any(skipping):
                changed.append(i)
        elif word:
            if word.startswith(b"if"):
                skipping.append(bool(take) and i not in kept)
            elif word == b"endif":
                if skipping:
                    skipping.pop()
            elif skipping:
                skipping[-1] = not take or i not in kept
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


#: a conditional's opening line, its condition in a group: `#ifdef __cplusplus`,
#: `#if defined(__cplusplus)`, or another (`#ifdef C10_MOBILE`); not continued
_GUARD = rb"[ \t]*#[ \t]*(if(?:def|ndef)?\b[^\n\\]*?)[ \t]*\r?\n"
_REST = LINE_REST.pattern  # the line ends, after a comment or nothing
#: lines holding nothing but blanks or a `//` comment
_EMPTY = rb"(?:[ \t]*(?://[^\n]*)?\r?\n)*"
_ENDIF = rb"[ \t]*#[ \t]*endif\b"
#: lines that neither open nor close a brace nor are a directive (declarations, mostly)
_BRACELESS = rb"(?:[ \t]*(?:[^#\s{}][^{}\n]*)?\r?\n)*"
#: `extern "C" {` first in a conditional: a C header opening its declarations to C++
#: (the first of them may follow it there, as in torch's `dynamo/eval_frame.h`)
_LINKAGE_OPENED = LinePattern(
    _GUARD + _EMPTY + rb"[ \t]*(extern[ \t]+\"C\"[ \t]*\{)" + _REST + _BRACELESS + _ENDIF
)
#: the `}` that closes it, alone in a conditional further down
_LINKAGE_CLOSED = LinePattern(_GUARD + _EMPTY + rb"[ \t]*(\})[ \t]*;?" + _REST + _EMPTY + _ENDIF)


def _same_guard(opening: bytes, closing: bytes) -> bool:
    """Whether two conditions guard the same linkage: written alike, or both asking
    for C++ (`#ifdef __cplusplus`, `#if defined(__cplusplus)`)."""
    if b" ".join(opening.split()) == b" ".join(closing.split()):
        return True
    return b"__cplusplus" in opening and b"__cplusplus" in closing


def linkage_guards_blanked(data: bytes) -> bytes:
    """`extern "C" {` and its `}`, each first in a conditional of its own under the same
    condition (`#ifdef __cplusplus` mostly; the `}` alone but for blank and comment
    lines, the opening perhaps followed by declarations without braces), blanked: the
    grammars read a brace opened in one conditional and closed in another as syntax
    errors, in the many C headers written for C++ too.  What the braces hold
    is at file scope either way (a linkage names no scope).  Left alone unless every
    opening has its closing after it, before the next opening."""
    if b'"C"' not in data:
        return data
    opened = list(_LINKAGE_OPENED.finditer(data))
    conditions = {m.group(1) for m in opened}
    closed = [  # a brace closing under a condition no linkage opened under is another's
        m
        for m in _LINKAGE_CLOSED.finditer(data)
        if any(_same_guard(c, m.group(1)) for c in conditions)
    ]
    if not opened or len(opened) != len(closed):
        return data
    bounds = [*(m.start(2) for m in opened[1:]), len(data)]
    for o, c, bound in zip(opened, closed, bounds, strict=True):
        if not o.end(2) <= c.start(2) < bound or not _same_guard(o.group(1), c.group(1)):
            return data
    out = bytearray(data)
    for start, end in (*(m.span(2) for m in opened), *(m.span(2) for m in closed)):
        out[start:end] = data[start:end].translate(BLANKED)
    return bytes(out)


#: a conditional with one branch that holds only specifiers, inside a declaration:
#: `template <...>` / `#if defined(JSON_HAS_CPP_14)` / `constexpr` / `#endif` / `auto get()`,
#: or nothing once attribute macros are blanked (`#if defined(USE_ROCM)` /
#: `__launch_bounds__(512)` / `#endif` between a kernel's template head and its type)
_SPECIFIERS = rb"(?:constexpr|consteval|constinit|inline|static|explicit|virtual|thread_local)"
_SPECIFIER_CONDITIONAL = LinePattern(
    rb"([ \t]*#[ \t]*if(?:n?def)?\b[^\n\\]*)\r?\n"
    rb"(?:[ \t]*(?://[^\n]*|(?:" + _SPECIFIERS + rb"[ \t]*)+)?\r?\n)+"
    rb"([ \t]*#[ \t]*endif\b[^\n\\]*)"
)


def specifier_conditionals_blanked(data: bytes) -> bytes:
    """The directives of a conditional whose one branch holds only specifiers (`constexpr`,
    `inline`, `thread_local`, ...), `//` comments and blanks, blanked: the grammars end a
    declaration at a directive, and its branch is a word of it.  The same bytes when
    there is none (most files)."""
    if b"#" not in data or b"endif" not in data:
        return data
    return _groups_blanked(data, _SPECIFIER_CONDITIONAL)


def _groups_blanked(data: bytes, pattern: LinePattern) -> bytes:
    """`data` with the two groups of each match of `pattern` blanked (the same bytes
    when it has none)."""
    out: bytearray | None = None
    for match in pattern.finditer(data):
        out = out if out is not None else bytearray(data)
        for group in (1, 2):
            start, end = match.span(group)
            out[start:end] = data[start:end].translate(BLANKED)
    return bytes(out) if out is not None else data


#: a template head alone on its line, whole: `template <typename T, class U = void>`
_HEAD_LINE = rb"[ \t]*template[ \t]*<[^\n]*>[ \t]*(?://[^\n]*)?\r?\n"
#: a conditional each branch of which is one template head (`#if defined(__s390x__)` /
#: `template <class T, class TEMP = void>` / `#else` / `template <typename T>` / `#endif`)
_HEAD_CONDITIONAL = LinePattern(
    rb"([ \t]*#[ \t]*if(?:n?def)?\b[^\n\\]*\r?\n)"
    + _HEAD_LINE
    + rb"((?:[ \t]*#[ \t]*(?:elif|else)\b[^\n\\]*\r?\n"
    + _HEAD_LINE
    + rb")+[ \t]*#[ \t]*endif\b[^\n\\]*)"
)


#: a branch of lines that end no declaration, the head of a function or its member
#: initializers: no `;`, no brace, no directive
_OPEN_LINES = rb"(?:[ \t]*[^#\s][^\n;{}]*\r?\n){1,6}"
#: a conditional each branch of which is the head of the same function, the body after
#: it (`#ifndef DOXYGEN` / `template <typename T> explicit V(T b, ENABLEIF(...))` /
#: `#else` / `explicit V(bool b)` / `#endif` / `: data_() {`, in rapidjson)
_FUNCTION_HEAD_CONDITIONAL = LinePattern(
    rb"([ \t]*#[ \t]*if(?:n?def)?\b[^\n\\]*\r?\n)"
    + _OPEN_LINES
    + rb"((?:[ \t]*#[ \t]*(?:elif|else)\b[^\n\\]*\r?\n"
    + _OPEN_LINES
    + rb")+[ \t]*#[ \t]*endif\b[^\n\\]*)(?=\s*[:{])"
)


def head_conditionals_blanked(data: bytes) -> bytes:
    """A conditional whose every branch is one template head, or the head of the function
    whose body follows it, read with its first branch alone (its directives and the
    other branches blanked): the grammars see the heads of every branch in a row, which
    no declaration has, and lose the declaration after them.  The same bytes when there
    is none (most files)."""
    if b"endif" not in data:
        return data
    if b"template" in data:
        data = _groups_blanked(data, _HEAD_CONDITIONAL)
    return _groups_blanked(data, _FUNCTION_HEAD_CONDITIONAL)


#: a null directive: `#` alone on its line (a comment may follow), which does nothing
_NULL_DIRECTIVE = LinePattern(rb"[ \t]*(#)[ \t]*(?:/\*[^\n]*?\*/[ \t]*)*(?://[^\n]*)?(?=\r?\n|\Z)")


def null_directives_blanked(data: bytes) -> bytes:
    """Each null directive's `#` blanked: no grammar here reads one, and a file that
    separates its directives with them (redis's vendored `fast_float.h`, zstd) had a
    syntax error at each.  The same bytes when there is none (most files)."""
    if b"#" not in data:
        return data
    out: bytearray | None = None
    for match in _NULL_DIRECTIVE.finditer(data):
        out = out if out is not None else bytearray(data)
        out[match.start(1)] = ord(" ")
    return bytes(out) if out is not None else data
