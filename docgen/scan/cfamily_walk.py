"""The walk over a C-family parse tree: names with their scopes, lines and text.

Iterative (a stack, never recursion), and it opens a function body only when
that body's bytes can hold a kernel launch, a GPU call or an operator
registration.  Everything shown is cut from the original bytes, so a blanked
macro still reads as written.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.facts import CDefinition, CKind, KernelLaunch, RegisteredOp, Registration
from docgen.scan.cfamily_macros import (
    BLOCK_REGISTRATIONS,
    GPU_CALL,
    TEST_MACROS,
    is_dispatch_macro,
    macro_args,
    op_name,
    string_value,
)

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
DOC_MARKERS = ("///", "//!", "/**", "/*!")
DECLARATION_WIDTH = 300
DOC_WIDTH = 2000
MACRO_NAME = re.compile(r"[A-Z][A-Z0-9_]*$")
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
TEMPLATE_ARGS = re.compile(r"<[^<>]*>")


@dataclass
class Walked:
    definitions: tuple[CDefinition, ...] = ()
    includes: list[tuple[int, str, bool]] = field(default_factory=list)
    launches: tuple[KernelLaunch, ...] = ()
    registrations: tuple[Registration, ...] = ()
    gpu_calls: set[tuple[int, str]] = field(default_factory=set)
    test_cases: set[tuple[int, str]] = field(default_factory=set)


@dataclass(frozen=True)
class _Frame:
    node: Node
    scope: tuple[str, ...] = ()
    in_class: str = ""  # the enclosing class's name, "" outside classes
    file_local: bool = False
    template: str = ""
    outer: Node | None = None  # the template declaration around it, for doc comments


def _bare(name: str) -> str:
    """`Foo<T>` -> `Foo` (nested template arguments included)."""
    while "<" in name:
        stripped = TEMPLATE_ARGS.sub("", name)
        if stripped == name:
            break
        name = stripped
    return name.strip()


def _one_line(text: str, width: int = DECLARATION_WIDTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _doc_text(comments: list[str]) -> str | None:
    lines: list[str] = []
    for comment in comments:
        if comment.startswith(("///", "//!")):
            lines.append(comment[3:].removeprefix(" "))
        elif comment.startswith(("/**", "/*!")):
            body = comment[3:].removesuffix("*/")
            for line in body.split("\n"):
                stripped = line.strip()
                stripped = stripped[1:].removeprefix(" ") if stripped.startswith("*") else stripped
                lines.append(stripped)
    text = "\n".join(lines).strip()
    if not text:
        return None
    return text if len(text) <= DOC_WIDTH else text[: DOC_WIDTH - 1] + "…"


class _Walker:
    def __init__(self, data: bytes, spans: tuple[tuple[int, int, str], ...]) -> None:
        self.data = data
        self.spans = spans
        self.starts = [s[0] for s in spans]
        self.blanked_names = frozenset(text.split("(", 1)[0].strip() for _, _, text in spans)
        self.out = Walked()
        self.definitions: list[CDefinition] = []
        self.launches: list[KernelLaunch] = []
        self.registrations: list[Registration] = []

    def text(self, node: Node | None, start: int | None = None, end: int | None = None) -> str:
        if node is None:
            return ""
        lo = node.start_byte if start is None else start
        hi = node.end_byte if end is None else end
        return self.data[lo:hi].decode("utf-8", "replace")

    # ------------------------------------------------------------------ pieces

    def attributes(self, node: Node, header_end: int) -> tuple[list[str], int]:
        """Blanked macros on the declaration and where its written text begins."""
        start = node.start_byte
        lo = start
        while (lo > 0 and self.data[lo - 1 : lo].isspace()) or self._blanked(lo - 1):
            lo -= 1
        first = bisect.bisect_left(self.starts, lo)
        found = []
        begin = start
        for s_start, s_end, text in self.spans[first:]:
            if s_start >= header_end:
                break
            if s_end <= start and any(
                not self.data[i : i + 1].isspace() and not self._blanked(i)
                for i in range(s_end, start)
            ):
                continue
            found.append(text)
            begin = min(begin, s_start)
        for child in node.children:
            if child.type in CUDA_QUALIFIERS:
                found.append(child.type)
        return found, begin

    def _blanked(self, pos: int) -> bool:
        if pos < 0:
            return False
        i = bisect.bisect_right(self.starts, pos) - 1
        return i >= 0 and self.spans[i][0] <= pos < self.spans[i][1]

    def doc(self, node: Node) -> str | None:
        comments: list[str] = []
        row = node.start_point[0]
        sibling = node.prev_sibling
        while sibling is not None and sibling.type == "comment" and sibling.end_point[0] >= row - 1:
            comments.append(self.text(sibling))
            row = sibling.start_point[0]
            sibling = sibling.prev_sibling
        comments.reverse()
        docs = [c for c in comments if c.startswith(DOC_MARKERS)]
        return _doc_text(docs) if docs else None

    def add(
        self,
        frame: _Frame,
        node: Node,
        kind: CKind,
        name: str,
        qualifier: tuple[str, ...],
        name_line: int,
        header_end: int,
        is_definition: bool,
        bases: tuple[str, ...] = (),
        file_local: bool = False,
    ) -> None:
        if name in KEYWORDS or not NAME.fullmatch(name) or name.lstrip("~") in self.blanked_names:
            return
        found, begin = self.attributes(node, header_end)
        if "__global__" in found and kind == "function":
            kind = "kernel"
        declaration = _one_line(self.text(node, begin, header_end).rstrip().removesuffix(";"))
        self.definitions.append(
            CDefinition(
                kind=kind,
                name=name,
                qualname="::".join((*frame.scope, *qualifier, name)),
                line=name_line,
                end_line=node.end_point[0] + 1,
                declaration=declaration,
                is_definition=is_definition,
                template=frame.template,
                bases=bases,
                attributes=tuple(found),
                doc=self.doc(frame.outer or node),
                file_local=frame.file_local or file_local,
            )
        )

    # --------------------------------------------------------------- the walk

    def run(self, root: Node) -> Walked:
        stack = [_Frame(root)]
        while stack:
            frame = stack.pop()
            node = frame.node
            kind = node.type
            if kind in TRANSPARENT:
                stack.extend(
                    _Frame(c, frame.scope, frame.in_class, frame.file_local)
                    for c in reversed(node.named_children)
                )
            elif kind == "linkage_specification":
                body = node.child_by_field_name("body")
                if body is not None:
                    stack.append(_Frame(body, frame.scope, frame.in_class, frame.file_local))
            elif kind == "namespace_definition":
                stack.extend(self.namespace(frame))
            elif kind in CLASS_KINDS:
                stack.extend(self.record(frame))
            elif kind == "template_declaration":
                params = node.child_by_field_name("parameters")
                template = _one_line("template " + self.text(params)) if params else "template"
                for child in node.named_children:
                    if child.type != "template_parameter_list":
                        stack.append(
                            _Frame(
                                child,
                                frame.scope,
                                frame.in_class,
                                frame.file_local,
                                template,
                                frame.outer or node,
                            )
                        )
            elif kind == "function_definition":
                stack.extend(self.function_definition(frame))
            elif kind in ("declaration", "field_declaration"):
                stack.extend(self.declaration(frame))
            elif kind == "type_definition":
                stack.extend(self.type_definition(frame))
            elif kind == "alias_declaration":
                name = node.child_by_field_name("name")
                if name is not None:
                    self.add(
                        frame,
                        node,
                        "alias",
                        self.text(name),
                        (),
                        name.start_point[0] + 1,
                        node.end_byte,
                        True,
                    )
            elif kind in ("preproc_def", "preproc_function_def"):
                self.macro(frame)
            elif kind == "preproc_include":
                self.include(node)
            elif kind == "expression_statement" and not frame.in_class:
                self.statement_macro(node)
        self.out.definitions = tuple(
            sorted(self.definitions, key=lambda d: (d.line, d.qualname, d.kind))
        )
        self.out.launches = tuple(sorted(self.launches, key=lambda k: (k.line, k.kernel)))
        self.out.registrations = tuple(
            sorted(self.registrations, key=lambda r: (r.line, r.macro, r.name))
        )
        return self.out

    def namespace(self, frame: _Frame) -> list[_Frame]:
        node = frame.node
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        header_end = body.start_byte if body is not None else node.end_byte
        scope = frame.scope
        line = node.start_point[0] + 1
        if name is None:
            self.add(
                frame, node, "namespace", "(anonymous)", (), line, header_end, True, file_local=True
            )
            inner = _Frame(node, scope, "", True)
        else:
            for part in self.text(name).split("::"):
                part = part.strip()
                if not part:
                    continue
                self.add(
                    _Frame(node, scope, "", frame.file_local),
                    node,
                    "namespace",
                    part,
                    (),
                    name.start_point[0] + 1,
                    header_end,
                    True,
                )
                scope = (*scope, part)
            inner = _Frame(node, scope, "", frame.file_local)
        if body is None:
            return []
        return [_Frame(c, inner.scope, "", inner.file_local) for c in reversed(body.named_children)]

    def record(self, frame: _Frame) -> list[_Frame]:
        """A class, struct, union or enum with a body (a forward declaration names nothing)."""
        node = frame.node
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is None or body is None:
            return []
        if name.type == "template_type":
            name = name.child_by_field_name("name") or name
        parts = [_bare(p) for p in self.text(name).split("::")]
        qualifier, short = tuple(parts[:-1]), parts[-1]
        bases: tuple[str, ...] = ()
        for child in node.named_children:
            if child.type == "base_class_clause":
                bases = tuple(_split_top(self.text(child).lstrip(":")))
        self.add(
            frame,
            node,
            CLASS_KINDS[node.type],
            short,
            qualifier,
            name.start_point[0] + 1,
            body.start_byte,
            True,
            bases,
        )
        if node.type == "enum_specifier":
            return []
        scope = (*frame.scope, *qualifier, short)
        return [_Frame(c, scope, short, frame.file_local) for c in reversed(body.named_children)]

    def function_definition(self, frame: _Frame) -> list[_Frame]:
        """A function with its body; `= default` / `= delete` ones are declarations here.
        A macro-opened block (`NAMESPACE_BEGIN(x) { ... }`) is read through."""
        node = frame.node
        declarator = node.child_by_field_name("declarator")
        body = node.child_by_field_name("body")
        function = _function_declarator(declarator)
        if function is None:
            if declarator is not None and declarator.type == "operator_cast":
                self.callable(frame, declarator, declarator, body, body is not None)
            return []
        name_node = function.child_by_field_name("declarator")
        if (
            node.child_by_field_name("type") is None
            and name_node is not None
            and name_node.type == "identifier"
            and MACRO_NAME.match(self.text(name_node))
            and not frame.in_class
        ):
            macro = self.text(name_node)
            self.macro_block(node, macro, function, body)
            if body is None or macro in TEST_MACROS or macro in BLOCK_REGISTRATIONS:
                return []
            return [
                _Frame(c, frame.scope, frame.in_class, frame.file_local)
                for c in reversed(body.named_children)
            ]
        self.callable(frame, function, name_node, body, body is not None)
        if body is not None:
            self.body(body)
        return []

    def callable(
        self,
        frame: _Frame,
        function: Node,
        name_node: Node | None,
        body: Node | None,
        is_definition: bool,
    ) -> None:
        if name_node is None:
            return
        node = frame.node
        parts = _qualified_parts(self, name_node)
        qualifier, name = tuple(parts[:-1]), parts[-1]
        if not name:
            return
        owner = qualifier[-1] if qualifier else frame.in_class
        # `Foo::~Foo() = default;` out of its class defines it; inside the class it declares it
        is_definition = is_definition or (node.type == "function_definition" and bool(qualifier))
        if name.startswith("~"):
            kind: CKind = "destructor"
        elif name.startswith("operator"):
            kind = "operator"
        elif owner and name == owner:
            kind = "constructor"
        elif frame.in_class or (qualifier and owner[:1].isupper()):
            kind = "method"
        else:
            kind = "function"
        if body is not None:
            header_end = body.start_byte
            for child in node.named_children:
                if child.type == "field_initializer_list":
                    header_end = child.start_byte
        else:
            header_end = node.end_byte
        static = any(
            c.type == "storage_class_specifier" and self.text(c) == "static"
            for c in node.named_children
        )
        self.add(
            frame,
            node,
            kind,
            name,
            qualifier,
            name_node.start_point[0] + 1,
            header_end,
            is_definition,
            file_local=static and not frame.in_class and not qualifier,
        )

    def declaration(self, frame: _Frame) -> list[_Frame]:
        node = frame.node
        pushed: list[_Frame] = []
        type_node = node.child_by_field_name("type")
        if type_node is not None and type_node.type in CLASS_KINDS:
            pushed.append(
                _Frame(
                    type_node,
                    frame.scope,
                    frame.in_class,
                    frame.file_local,
                    frame.template,
                    frame.outer or node,
                )
            )
        for declarator in node.children_by_field_name("declarator"):
            function = _function_declarator(declarator)
            if function is not None:
                name_node = function.child_by_field_name("declarator")
                if (
                    type_node is None
                    and name_node is not None
                    and name_node.type == "identifier"
                    and MACRO_NAME.match(self.text(name_node))
                ):
                    self.statement_macro(node)
                    continue
                self.callable(frame, function, name_node, None, False)
                continue
            if declarator.type == "operator_cast":
                self.callable(frame, declarator, declarator, None, False)
                continue
            inner = _unwrap(declarator)
            if inner is None:
                continue
            if frame.in_class and inner.type == "field_identifier":
                self.add(
                    frame,
                    node,
                    "field",
                    self.text(inner),
                    (),
                    inner.start_point[0] + 1,
                    node.end_byte,
                    True,
                )
            elif not frame.in_class and inner.type == "qualified_identifier":
                parts = _qualified_parts(self, inner)
                if len(parts) > 1 and parts[-1]:
                    self.add(
                        frame,
                        node,
                        "field",
                        parts[-1],
                        tuple(parts[:-1]),
                        inner.start_point[0] + 1,
                        node.end_byte,
                        True,
                    )
        return pushed

    def type_definition(self, frame: _Frame) -> list[_Frame]:
        node = frame.node
        pushed: list[_Frame] = []
        type_node = node.child_by_field_name("type")
        if type_node is not None and type_node.type in CLASS_KINDS:
            pushed.append(
                _Frame(
                    type_node,
                    frame.scope,
                    frame.in_class,
                    frame.file_local,
                    "",
                    frame.outer or node,
                )
            )
        for declarator in node.children_by_field_name("declarator"):
            inner: Node | None = declarator
            while inner is not None and inner.type != "type_identifier":
                inner = inner.child_by_field_name("declarator") or next(
                    (
                        c
                        for c in inner.named_children
                        if c.type.endswith("declarator") or c.type == "type_identifier"
                    ),
                    None,
                )
            if inner is not None:
                self.add(
                    frame,
                    node,
                    "typedef",
                    self.text(inner),
                    (),
                    inner.start_point[0] + 1,
                    node.end_byte,
                    True,
                )
        return pushed

    def macro(self, frame: _Frame) -> None:
        node = frame.node
        name = node.child_by_field_name("name")
        if name is None:
            return
        params = node.child_by_field_name("parameters")
        end = params.end_byte if params is not None else name.end_byte
        self.add(
            _Frame(node, (), "", frame.file_local),
            node,
            "macro",
            self.text(name),
            (),
            name.start_point[0] + 1,
            end,
            True,
        )

    def include(self, node: Node) -> None:
        path = node.child_by_field_name("path")
        if path is None:
            return
        raw = self.text(path)
        if path.type == "system_lib_string":
            self.out.includes.append((node.start_point[0] + 1, raw.strip("<>"), True))
        elif path.type == "string_literal":
            self.out.includes.append((node.start_point[0] + 1, raw.strip('"'), False))

    # ------------------------------------------------- macros, bodies, launches

    def macro_block(self, node: Node, macro: str, function: Node, body: Node | None) -> None:
        """`TORCH_LIBRARY(ns, m) { ... }`, `TEST(Suite, Case) { ... }`: not functions."""
        params = function.child_by_field_name("parameters")
        args = macro_args(self.text(params)) if params is not None else []
        line = node.start_point[0] + 1
        if macro in TEST_MACROS and len(args) >= 2:
            self.out.test_cases.add((line, f"{args[0]}.{args[1]}"))
        elif macro in BLOCK_REGISTRATIONS and args:
            var = args[-1]
            ops = self.registered_ops(body, var) if body is not None else ()
            key = args[1] if macro.endswith("_IMPL") and len(args) >= 3 else ""
            self.registrations.append(
                Registration(macro, args[0], line, node.end_point[0] + 1, key, "", ops)
            )
        if body is not None:
            self.body(body)

    def statement_macro(self, node: Node) -> None:
        text = self.text(node)
        macro = text.split("(", 1)[0].strip()
        if not is_dispatch_macro(macro):
            return
        args = macro_args(text[len(text.split("(", 1)[0]) :].rstrip().rstrip(";"))
        if not args:
            return
        line = node.start_point[0] + 1
        if macro == "DECLARE_DISPATCH":
            stub, target = args[-1], ", ".join(args[:-1])
        else:
            stub, target = args[0], ", ".join(args[1:])
        self.registrations.append(
            Registration(macro, stub, line, node.end_point[0] + 1, "", target)
        )

    def registered_ops(self, body: Node, var: str) -> tuple[RegisteredOp, ...]:
        ops: list[RegisteredOp] = []
        for call in _descendants(body, "call_expression"):
            function = call.child_by_field_name("function")
            if function is None or function.type != "field_expression":
                continue
            receiver = function.child_by_field_name("argument")
            verb = function.child_by_field_name("field")
            if receiver is None or verb is None or self.text(receiver) != var:
                continue
            if self.text(verb) not in ("def", "impl"):
                continue
            arguments = call.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments and arguments.named_children else None
            value = string_value(self.text(first)) if first is not None else None
            if value is None:
                continue
            schema = value if self.text(verb) == "def" and "(" in value else ""
            ops.append(
                RegisteredOp(
                    self.text(verb), op_name(value), call.start_point[0] + 1, _one_line(schema)
                )
            )
        return tuple(sorted(ops, key=lambda o: (o.line, o.verb, o.name)))

    def body(self, body: Node) -> None:
        """Kernel launches and GPU calls, looked for only where the bytes can hold them."""
        chunk = self.data[body.start_byte : body.end_byte]
        launches = b"<<<" in chunk
        if not launches and b"cu" not in chunk and b"nccl" not in chunk:
            return
        for call in _descendants(body, "call_expression"):
            function = call.child_by_field_name("function")
            if function is None:
                continue
            name = _bare(self.text(function).rsplit("::", 1)[-1])
            line = call.start_point[0] + 1
            config = next((c for c in call.named_children if c.type == "kernel_call_syntax"), None)
            if config is not None:
                inner = self.text(config).removeprefix("<<<").removesuffix(">>>")
                self.launches.append(
                    KernelLaunch(_bare(self.text(function)), line, _one_line(inner, 120))
                )
            elif GPU_CALL.match(name):
                self.out.gpu_calls.add((line, name))


def _descendants(node: Node, kind: str) -> list[Node]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            found.append(current)
        stack.extend(current.named_children)
    return found


def _function_declarator(node: Node | None) -> Node | None:
    while node is not None:
        if node.type == "function_declarator":
            return node
        if node.type not in WRAPPERS:
            return None
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type.endswith("declarator")), None
        )
    return None


def _unwrap(node: Node | None) -> Node | None:
    while node is not None and node.type in WRAPPERS:
        node = node.child_by_field_name("declarator") or next(
            (c for c in node.named_children if c.type.endswith(("declarator", "identifier"))), None
        )
    return node


def _qualified_parts(walker: _Walker, node: Node) -> list[str]:
    """`ns::Foo<T>::bar` -> ["ns", "Foo", "bar"]; `~Foo` and `operator==` stay whole."""
    parts: list[str] = []
    while node.type == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        if scope is not None:
            parts.append(_bare(walker.text(scope)))
        name = node.child_by_field_name("name")
        if name is None:
            return [*parts, ""]
        node = name
    if node.type == "template_function":
        inner = node.child_by_field_name("name")
        text = walker.text(inner) if inner is not None else _bare(walker.text(node))
    else:
        text = walker.text(node)
    return [*parts, " ".join(text.split())]


def _split_top(text: str) -> list[str]:
    """Split on commas outside `<>` and `()`."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [" ".join(p.split()) for p in parts if p.strip()]


def walk(root: Node, data: bytes, spans: tuple[tuple[int, int, str], ...]) -> Walked:
    return _Walker(data, spans).run(root)
