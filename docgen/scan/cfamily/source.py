"""Reading a C-family parse tree against the original bytes: names, text, comments.

The tree was parsed from bytes with attribute macros blanked; every text a page
shows is cut from the original bytes at the same offsets, so a blanked macro
still reads as written.  Pure helpers: no node is kept beyond one call.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import TYPE_CHECKING

from docgen.model.facts import CKind
from docgen.scan.cfamily.comments import DOC_MARKERS, doc_text, without_comments

if TYPE_CHECKING:
    from tree_sitter import Node

#: nodes whose children are declarations of the same scope
TRANSPARENT = frozenset(
    {
        "translation_unit",
        "declaration_list",
        "field_declaration_list",
        "preproc_if",
        "preproc_ifdef",
        "preproc_else",
        "preproc_elif",
        "preproc_elifdef",
        "ERROR",
        "export_declaration",
    }
)
CLASS_KINDS: dict[str, CKind] = {
    "class_specifier": "class",
    "struct_specifier": "struct",
    "union_specifier": "union",
    "enum_specifier": "enum",
}
#: declarators that wrap the one that carries the name
WRAPPERS = frozenset(
    {
        "pointer_declarator",
        "reference_declarator",
        "init_declarator",
        "attributed_declarator",
        "parenthesized_declarator",
        "array_declarator",
    }
)
CUDA_QUALIFIERS = ("__global__", "__device__", "__host__")
MACRO_NAME = re.compile(r"[A-Z][A-Z0-9_]*$")
#: a scope's name: an identifier, an anonymous namespace, or an operator whose body
#: defines a class (`operator()` of a CUDA functor)
SCOPE = re.compile(r"[A-Za-z_]\w*|\(anonymous\)|operator(?:\(\)|\[\]|[-+*/%^&|~!=<>,]{1,3})")
#: C, C++ and CUDA keywords: a name that is one of these comes from a misread macro
_KEYWORD_TEXT = """alignas alignof and and_eq asm auto bitand bitor bool break case catch
    char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast else
    enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires return short signed sizeof static static_assert
    static_cast struct switch template this thread_local throw true try typedef typeid
    typename union unsigned using virtual void volatile wchar_t while xor xor_eq restrict
    _Bool _Complex _Atomic _Noreturn _Static_assert _Thread_local __global__ __device__
    __host__ __shared__ __constant__ __managed__"""
KEYWORDS = frozenset(_KEYWORD_TEXT.split())
#: what a name may look like: an identifier, `~Name`, `operator...`, or "(anonymous)"
NAME = re.compile(r"~?[A-Za-z_]\w*|operator\b.*|\(anonymous\)")


def bare(name: str) -> str:
    """`Foo<T>` -> `Foo`, `ns::Foo<std::pair<A, B>>` -> `ns::Foo`: template arguments
    dropped by counting brackets, whatever they hold."""
    return "::".join(split_qualified(name))


def namespace_parts(written: str) -> list[str]:
    """`a::inline b` (C++20) -> ["a", "b"]: the namespaces a head opens, outermost first."""
    parts = (part.strip() for part in written.split("::"))
    return [
        part.removeprefix("inline").strip() if part.startswith("inline ") else part
        for part in parts
        if part
    ]


def split_qualified(text: str) -> list[str]:
    """`a::Foo<std::string>::bar` -> ["a", "Foo", "bar"]: `::` splits only outside template
    arguments, which are dropped; an `operator...` ends the name as it is written."""
    if "<" not in text and ">" not in text and "operator" not in text:  # most names
        return _cleaned(text.split("::"))
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    i = 0
    while i < len(text):
        if (
            depth == 0
            and text.startswith("operator", i)
            and (i == 0 or not _word(text[i - 1]))
            and not _word(text[i + 8 : i + 9])  # `operator_name` is a name like any other
        ):
            current.append(text[i:])
            break
        ch = text[i]
        if ch == "<":
            depth += 1
        elif ch == ">" and text[i + 1 : i + 2] != "=" and text[i - 1 : i] != "-":
            depth = max(0, depth - 1)  # `>=` and `->` inside arguments close nothing
        elif depth == 0 and text.startswith("::", i):
            parts.append("".join(current))
            current = []
            i += 2
            continue
        elif depth == 0:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return _cleaned(parts)


def _cleaned(parts: list[str]) -> list[str]:
    cleaned = [" ".join(p.split()) for p in parts]
    return cleaned[1:] if len(cleaned) > 1 and not cleaned[0] else cleaned  # `::global`


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def one_line(text: str) -> str:
    """Source text on one line, whole: a page folds what is long, never cuts it."""
    return " ".join(text.split())


#: what may stand between a declaration and its doc comment: other comments, and the
#: conditionals of the declaration's own words (`#ifdef DEBUG virtual #else ... #endif`)
_ABOVE_A_DECLARATION = frozenset({"comment", "preproc_ifdef", "preproc_if", "preproc_else"})


class Source:
    """The original bytes, the bytes the parser read, and the blanked spans of one file."""

    def __init__(self, data: bytes, parsed: bytes, spans: tuple[tuple[int, int, str], ...]) -> None:
        self.data = data
        self.parsed = parsed  # a namespace macro's use reads as the namespace it opens
        self.spans = spans
        self.starts = [s[0] for s in spans]
        self.blanked_names = frozenset(
            text.split("(", 1)[0].strip() for _, _, text in spans if text
        )
        #: what wrapping macros drop (see `cpp_blanking.Blanked.spans`)
        self.dropped = [(start, end) for start, end, text in spans if not text]

    def text(self, node: Node | None, start: int | None = None, end: int | None = None) -> str:
        if node is None:
            return ""
        lo = node.start_byte if start is None else start
        hi = node.end_byte if end is None else end
        return self.data[lo:hi].decode("utf-8", "replace")

    def written(self, start: int, end: int) -> str:
        """The file's text from `start` to `end`, less what a wrapping macro drops."""
        if not self.dropped:  # most files
            return self.data[start:end].decode("utf-8", "replace")
        pieces, pos = [], start
        first = max(0, bisect.bisect_left(self.dropped, (start,)) - 1)
        for dropped_start, dropped_end in itertools.islice(self.dropped, first, None):
            if dropped_start >= end:
                break
            if dropped_end > pos:
                pieces.append(self.data[pos : max(pos, dropped_start)])
                pos = dropped_end
        pieces.append(self.data[pos:end])
        return b"".join(pieces).decode("utf-8", "replace")

    def attributes(self, node: Node, header_end: int) -> tuple[list[str], int]:
        """Blanked macros on the declaration and where its written text begins: those
        inside its head, and those before it with nothing but spaces between."""
        start = node.start_byte
        first = last = bisect.bisect_left(self.starts, start)
        reach = start
        while first > 0:  # back over the macros that lead up to it
            s_start, s_end, text = self.spans[first - 1]
            if not text or (s_end < reach and not self.data[s_end:reach].isspace()):
                break  # what a wrapping macro drops ends the declaration before
            first -= 1
            reach = s_start
        while last < len(self.spans) and self.spans[last][0] < header_end:
            last += 1
        found = [text for _, _, text in self.spans[first:last] if text]
        begin = min(start, self.spans[first][0]) if first < last else start
        if self.parsed.find(b"__", start, header_end) >= 0:  # no qualifier costs no children
            found.extend(c.type for c in node.children if c.type in CUDA_QUALIFIERS)
        return found, begin

    def doc(self, node: Node) -> str | None:
        """The doc comment right above a declaration: on the line above it, or above the
        lines a conditional set aside between them (`/** ... */`, then `#ifdef DEBUG`
        ... `#endif`, then `bool has_storage() const`)."""
        start = self._above_set_aside(node.start_byte)
        line_above = self.data.rfind(b"\n", 0, max(self.data.rfind(b"\n", 0, start), 0)) + 1
        if (
            self.data.find(b"/", line_above, start) < 0
            and self.data.find(b"#", line_above, start) < 0
        ):
            return None  # no comment or conditional ends on the line above
        comments: list[str] = []
        top = start  # where what is read so far begins
        sibling = node.prev_sibling
        while sibling is not None and sibling.type in _ABOVE_A_DECLARATION:
            if not self._set_aside_between(sibling.end_byte, top):
                break
            if sibling.type != "comment" and not self._declares_nothing(sibling):
                break  # a conditional that holds declarations of its own
            if sibling.type == "comment":
                comments.append(self.text(sibling))
            top = sibling.start_byte
            sibling = sibling.prev_sibling
        comments.reverse()
        docs = [c for c in comments if c.startswith(DOC_MARKERS)]
        return doc_text(docs) if docs else None

    def _declares_nothing(self, conditional: Node) -> bool:
        """A conditional of a declaration's own words (`virtual`, a macro), with no `;` or
        body of its own."""
        code, _ = without_comments(self.text(conditional))
        return ";" not in code and "{" not in code

    def _set_aside_line(self, begin: int, end: int) -> bool:
        """Whether the line `data[begin:end]` is set aside by a conditional: written in the
        file, blank where the parser read it."""
        return bool(self.data[begin:end].strip()) and not self.parsed[begin:end].strip()

    def _set_aside_between(self, end: int, top: int) -> bool:
        """Whether every line between the one `end` is on and the one `top` is on is set
        aside (true when there is none between them; false past 64 of them)."""
        line = self.data.find(b"\n", end) + 1
        stop = self.data.rfind(b"\n", 0, top) + 1
        for _ in range(64):
            if line <= 0 or line >= stop:
                return True
            newline = self.data.find(b"\n", line)
            if not self._set_aside_line(line, newline):
                return False
            line = newline + 1
        return line >= stop

    def _above_set_aside(self, start: int) -> int:
        """Where the lines above `start` begin that the parser read as blank but the file
        does not (a conditional's directives and the branches set aside): the
        declaration's doc comment may sit right above them."""
        begin = self.data.rfind(b"\n", 0, start) + 1
        if self.parsed[begin:start].strip():
            return start  # the declaration does not begin its line
        while begin > 0:
            above = self.data.rfind(b"\n", 0, begin - 1) + 1
            if not self._set_aside_line(above, begin - 1):
                break  # a blank line, or one the parser read
            begin = above
        return begin if begin < start else start

    def qualified_parts(self, node: Node) -> list[str]:
        """`ns::Foo<T>::bar` -> ["ns", "Foo", "bar"]; `~Foo` and `operator==` stay whole."""
        parts: list[str] = []
        while node.type == "qualified_identifier":
            scope = node.child_by_field_name("scope")
            if scope is not None:
                parts.append(bare(self.text(scope)))
            name = node.child_by_field_name("name")
            if name is None:
                return [*parts, ""]
            node = name
        if node.type == "operator_cast":  # `operator bool`: up to the parameter list
            params = next(iter(descendants(node, "parameter_list")), None)
            end = params.start_byte if params is not None else node.end_byte
            return [*parts, " ".join(self.text(node, node.start_byte, end).split())]
        if node.type == "template_function":
            inner = node.child_by_field_name("name")
            text = self.text(inner) if inner is not None else bare(self.text(node))
        else:
            text = self.text(node)
            if node.type == "operator_name" and not text.startswith("operator"):
                # a macro that declares one, written as it (`_CCCL_STATIC_CALL_OPERATOR(x)`)
                text = self.parsed[node.start_byte : node.end_byte].decode("ascii", "replace")
        return [*parts, " ".join(text.split())]


def descendants(node: Node, kind: str) -> list[Node]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            found.append(current)
        stack.extend(current.named_children)
    return found


#: a class, struct, union or enum with a body, as a function body may hold one
LOCAL_TYPE = re.compile(rb"\b(?:class|struct|union|enum)\b[^;{}]*\{")


def local_types(body: Node) -> list[Node]:
    """The outermost classes, structs, unions and enums with a body inside a function
    body (those nested in them are the walk's, as in any class)."""
    found = []
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type in CLASS_KINDS and node.child_by_field_name("body") is not None:
            found.append(node)
            continue
        stack.extend(node.named_children)
    return sorted(found, key=lambda n: n.start_byte)


def macro_definitions(node: Node) -> list[Node]:
    """The `#define`s anywhere under `node`."""
    return descendants(node, "preproc_def") + descendants(node, "preproc_function_def")


#: the statements of a block the walk does not read, where a class may stand inside
BLOCK_STATEMENTS = frozenset(
    {
        "compound_statement",
        "expression_statement",
        "if_statement",
        "for_statement",
        "for_range_loop",
        "while_statement",
        "do_statement",
        "switch_statement",
        "try_statement",
        "return_statement",
    }
)


def types_below(block: Node) -> list[Node]:
    """The outermost classes with a body below a block's statements (in an inner block,
    a lambda, a loop): not those at its top, which are declarations of their own."""
    return [
        found
        for statement in block.named_children
        if statement.type in BLOCK_STATEMENTS
        for found in local_types(statement)
    ]


def function_declarator(node: Node | None) -> Node | None:
    while node is not None:
        if node.type == "function_declarator":
            return node
        if node.type not in WRAPPERS:
            return None
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type.endswith("declarator")), None
        )
    return None


def unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in WRAPPERS:
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type.endswith(("declarator", "identifier"))), None
        )
    return node


def closed_by_itself(body: Node) -> bool:
    """Whether a body ends with its own `}`: one the grammar had to add after an error
    may hold the rest of the file, whose classes are no body's."""
    last = body.children[-1] if body.children else None
    return last is not None and last.type == "}" and not last.is_missing


def function_body(node: Node) -> Node | None:
    """A function definition's body: its block, or the `try` of a function-try-block,
    which tree-sitter-cpp leaves unlabelled in a class body (`~ctx() try { ... }`)."""
    body = node.child_by_field_name("body")
    if body is None:
        body = next((c for c in node.named_children if c.type == "try_statement"), None)
    return body
