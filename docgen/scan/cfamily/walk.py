"""The walk over a C-family parse tree: names with their scopes, lines and text.

Iterative (a stack, never recursion), and it opens a function body only when
that body's bytes can hold a kernel launch, a GPU call or an operator
registration.  Everything shown is cut from the original bytes, so a blanked
macro still reads as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from docgen.scan.cfamily.bindings import bindings_in_order
from docgen.scan.cfamily.code import in_order
from docgen.scan.cfamily.method_tables import method_tables
from docgen.scan.cfamily.names import Frame, Walked, callable_kind
from docgen.scan.cfamily.preprocess.head_macros import (
    STRUCTURED_KERNEL_HEADS,
)
from docgen.scan.cfamily.reader_macros import (
    BLOCK_REGISTRATIONS,
    gtest_body_scope,
    split_commas,
)
from docgen.scan.cfamily.recovery import error_children, misread_block_children
from docgen.scan.cfamily.source import (
    CLASS_KINDS,
    LOCAL_TYPE,
    MACRO_NAME,
    TRANSPARENT,
    closed_by_itself,
    function_body,
    function_declarator,
    macro_definitions,
    namespace_parts,
    one_line,
    split_qualified,
    types_below,
    unwrap,
)
from docgen.scan.cfamily.typedefs import type_definition
from docgen.scan.cfamily.walk_entries import Entries

if TYPE_CHECKING:
    from tree_sitter import Node


class _Walker(Entries):
    """The walk itself: one handler per kind of node that declares names."""

    #: whether what a block the grammar could not place holds is read (see
    #: `cfamily_recovery.misread_block_children`)
    misread_blocks = False

    # --------------------------------------------------------------- the walk

    def run(self, root: Node) -> Walked:
        stack = [Frame(root)]
        while stack:
            frame = stack.pop()
            node = frame.node
            kind = node.type
            if kind == "ERROR":
                stack.extend(reversed(error_children(self, frame)))
            elif kind in TRANSPARENT:
                stack.extend(
                    Frame(c, frame.scope, frame.in_class, frame.file_local)
                    for c in reversed(node.named_children)
                )
            elif kind == "compound_statement" and self.misread_blocks:
                stack.extend(reversed(misread_block_children(frame)))
            elif kind == "linkage_specification":
                body = node.child_by_field_name("body")
                if body is not None:
                    stack.append(Frame(body, frame.scope, frame.in_class, frame.file_local))
            elif kind == "namespace_definition":
                stack.extend(self.namespace(frame))
            elif kind in CLASS_KINDS:
                stack.extend(self.record(frame))
            elif kind == "template_declaration":
                params = node.child_by_field_name("parameters")
                template = one_line("template " + self.text(params)) if params else "template"
                for child in node.named_children:
                    if child.type != "template_parameter_list":
                        stack.append(
                            Frame(
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
                stack.extend(self.type_defined(frame))
            elif kind == "friend_declaration":  # a friend defined in the class is a function
                stack.extend(  # (`= default` defines one too)
                    Frame(c, frame.scope, frame.in_class, frame.file_local)
                    for c in node.named_children
                    if c.type == "function_definition" or self.defaulted(c)
                )
            elif kind in ("declaration", "field_declaration"):
                stack.extend(self.declaration(frame))
            elif kind == "type_definition":
                stack.extend(type_definition(self, frame))
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
            elif kind == "preproc_call":  # `#import`, Objective-C's include-once include
                self.imported(node)
            elif kind == "expression_statement" and not frame.in_class:
                self.statement_macro(frame)
        self.out.definitions = tuple(
            sorted(self.definitions, key=lambda d: (d.line, d.qualname, d.kind))
        )
        self.out.launches = tuple(sorted(self.code.launches, key=lambda k: (k.line, k.kernel)))
        self.out.registrations = in_order(self.code.registrations)
        tables = method_tables(self.code.source, root)  # CPython's, at any depth
        self.out.bindings = bindings_in_order([*self.code.bindings, *tables])
        self.out.gpu_calls = self.code.gpu_calls
        self.out.test_cases = self.code.test_cases
        return self.out

    def namespace(self, frame: Frame) -> list[Frame]:
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
            inner = Frame(node, scope, "", True)
        else:
            written = self.source.parsed[name.start_byte : name.end_byte].decode("utf-8", "replace")
            for part in namespace_parts(written):
                self.add(
                    Frame(node, scope, "", frame.file_local),
                    node,
                    "namespace",
                    part,
                    (),
                    name.start_point[0] + 1,
                    header_end,
                    True,
                )
                scope = (*scope, part)
            inner = Frame(node, scope, "", frame.file_local)
        if body is None:
            return []
        return [Frame(c, inner.scope, "", inner.file_local) for c in reversed(body.named_children)]

    def record(self, frame: Frame) -> list[Frame]:
        """A class, struct, union or enum with a body (a forward declaration names nothing)."""
        node = frame.node
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if body is None:
            return []
        if name is None:  # an anonymous struct or union: its fields are its owner's
            if node.type == "enum_specifier":  # an anonymous enum's names are its scope's
                self.enumerators(frame, body, frame.scope)
                return []
            return [
                Frame(c, frame.scope, frame.in_class, frame.file_local)
                for c in reversed(body.named_children)
            ]
        if name.type == "template_type":
            name = name.child_by_field_name("name") or name
        parts = split_qualified(self.text(name))
        qualifier, short = tuple(parts[:-1]), parts[-1]
        bases: tuple[str, ...] = ()
        for child in node.named_children:
            if child.type == "base_class_clause":
                bases = tuple(split_commas(self.text(child).lstrip(":")))
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
        scope = (*frame.scope, *qualifier, short)
        if node.type == "enum_specifier":
            self.enumerators(frame, body, scope)
            return []
        return [Frame(c, scope, short, frame.file_local) for c in reversed(body.named_children)]

    def function_definition(self, frame: Frame) -> list[Frame]:
        """A function with its body; `= default` / `= delete` ones are declarations here.
        A macro-opened block (`NAMESPACE_BEGIN(x) { ... }`) is read through."""
        node = frame.node
        declarator = node.child_by_field_name("declarator")
        body = function_body(node)
        function = function_declarator(declarator)
        if function is None:
            inner = declarator
            while inner is not None and inner.type == "qualified_identifier":
                inner = inner.child_by_field_name("name")
            if declarator is not None and inner is not None and inner.type == "operator_cast":
                self.callable(frame, declarator, declarator, body, body is not None)
            return []
        name_node = function.child_by_field_name("declarator")
        headed = self.headed(frame, function, name_node, body)
        if headed is not None:
            return headed
        if (
            node.child_by_field_name("type") is None
            and name_node is not None
            and name_node.type == "identifier"
            and MACRO_NAME.match(self.text(name_node))
            and not frame.in_class
        ):
            macro = self.text(name_node)
            test_args = self.code.macro_block(node, macro, function, body)
            if body is not None and test_args is not None:
                test = gtest_body_scope(macro, test_args)
                return self.within(frame, body, None if test is None else (*frame.scope, *test))
            if body is None or macro in BLOCK_REGISTRATIONS:
                return []
            return [
                Frame(c, frame.scope, "", frame.file_local) for c in reversed(body.named_children)
            ] + self.nested_names(frame, body)
        self.callable(frame, function, name_node, body, body is not None)
        if body is None:
            return []
        self.code.body(body)
        if name_node is None:
            return self.within(frame, body, None)
        return self.within(frame, body, (*frame.scope, *self.source.qualified_parts(name_node)))

    def nested_names(self, frame: Frame, body: Node) -> list[Frame]:
        """What a macro-opened block (`TEST_SUBMODULE(name, m) {`) defines below its
        statements: classes, named as those at its top, and `#define`s, each read once
        (none in a block the grammar guessed, nor in C, whose blocks the walk reads)."""
        if self.misread_blocks or not closed_by_itself(body):
            return []
        text = self.source.data[body.start_byte : body.end_byte]
        classes = types_below(body) if LOCAL_TYPE.search(text) else []
        defines = macro_definitions(body) if b"define" in text else []
        below = [Frame(c, frame.scope, "", frame.file_local) for c in classes]
        return below + [Frame(c, (), "", frame.file_local) for c in defines]

    def type_defined(self, frame: Frame) -> list[Frame]:
        """A class written where a declaration's or a function's type stands: `struct S
        {...} s;`, `struct S {...} f() {...}` in C, or a class whose body the grammar
        closed early, the rest of it read as a function (folly's `class Function final
        : ... {`).  One without a body names nothing (see `record`)."""
        node = frame.node.child_by_field_name("type")
        if node is None or node.type not in CLASS_KINDS:
            return []
        return [
            Frame(
                node,
                frame.scope,
                frame.in_class,
                frame.file_local,
                frame.template,
                frame.outer or frame.node,
            )
        ]

    def callable(
        self,
        frame: Frame,
        function: Node,
        name_node: Node | None,
        body: Node | None,
        is_definition: bool,
    ) -> None:
        if name_node is None:
            return
        node = frame.node
        parts = self.source.qualified_parts(name_node)
        qualifier, name = tuple(parts[:-1]), parts[-1]
        if not name:
            return
        # `Foo::~Foo() = default;` out of its class defines it; inside the class it declares it
        is_definition = is_definition or (node.type == "function_definition" and bool(qualifier))
        kind = callable_kind(name, qualifier, frame.in_class)
        header_end = body.start_byte if body is not None else node.end_byte
        # the children are made only where the bytes say one can be there
        data = self.source.data
        static = False
        if body is not None or data.find(b"static", node.start_byte, header_end) >= 0:
            for child in node.named_children:
                if child.type == "field_initializer_list" and body is not None:
                    header_end = child.start_byte
                elif child.type == "storage_class_specifier" and self.text(child) == "static":
                    static = True
        last = name_node
        while last.type == "qualified_identifier":
            last = last.child_by_field_name("name") or last
            if last.type != "qualified_identifier":
                break
        self.add(
            frame,
            node,
            kind,
            name,
            qualifier,
            last.start_point[0] + 1,
            header_end,
            is_definition,
            file_local=static and not frame.in_class and not qualifier,
        )

    def declaration(self, frame: Frame) -> list[Frame]:
        node = frame.node
        pushed: list[Frame] = []
        type_node = node.child_by_field_name("type")
        pushed += self.type_defined(frame)
        for declarator in node.children_by_field_name("declarator"):
            function = function_declarator(declarator)
            if function is not None:
                name_node = function.child_by_field_name("declarator")
                if (
                    type_node is None
                    and name_node is not None
                    and name_node.type == "identifier"
                    and MACRO_NAME.match(self.text(name_node))
                    and self.text(name_node) != frame.in_class  # `RNG(int seed);` in `RNG`
                ):
                    self.statement_macro(frame)
                    continue
                if name_node is not None and name_node.type == "parenthesized_declarator":
                    declarator = name_node  # `int (*open)(...)`: a pointer to a function
                else:
                    braces = node.child_by_field_name("default_value")  # `void f(){};`: a body
                    body = (
                        braces if braces is not None and braces.type == "initializer_list" else None
                    )
                    self.callable(frame, function, name_node, body, body is not None)
                    continue
            if declarator.type == "operator_cast":
                self.callable(frame, declarator, declarator, None, False)
                continue
            inner = unwrap(declarator)
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
                    not self.static_member_declaration(node),
                )
            elif not frame.in_class and inner.type == "qualified_identifier":
                parts = self.source.qualified_parts(inner)
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


def walk(
    root: Node,
    data: bytes,
    parsed: bytes,
    spans: tuple[tuple[int, int, str], ...],
    dialect: str = "cpp",
    heads: Mapping[str, str] | None = None,
) -> Walked:
    """The names of one parse tree; `parsed` is what the parser read, `data` the file;
    `heads`: the macros that write a function's head (see `head_macros`)."""
    walker = _Walker(data, parsed, spans)
    walker.heads = heads if heads is not None else STRUCTURED_KERNEL_HEADS
    walker.misread_blocks = dialect == "c"  # C has no classes a block could hold members of
    return walker.run(root)
