"""The parts of the C-family walk that read what a macro makes of a declaration:
statement macros (dispatch stubs, command-line flags), an enum's enumerators, and the
functions whose head a macro writes (`TORCH_IMPL_FUNC(add_out)(...) {`), with the
names a function body holds (see `walk`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from docgen.scan.cfamily.names import Frame, Recorder, callable_kind
from docgen.scan.cfamily.preprocess.head_macros import (
    expand,
    split_head,
    split_template,
    writes_parameters,
)
from docgen.scan.cfamily.reader_macros import command_line_flag, macro_args
from docgen.scan.cfamily.source import (
    LOCAL_TYPE,
    SCOPE,
    closed_by_itself,
    descendants,
    local_types,
    macro_definitions,
    one_line,
)

if TYPE_CHECKING:
    from tree_sitter import Node


#: the node types that hold a declaration's `static`, `inline` and `constexpr`
_SPECIFIER_TYPES = frozenset({"storage_class_specifier", "type_qualifier"})


class Entries(Recorder):
    """What the walk reads through macros and in bodies."""

    #: macro -> the function head it writes (see `head_macros`)
    heads: Mapping[str, str] = {}

    def statement_macro(self, frame: Frame) -> None:
        """A macro called as a statement: a dispatch stub's, or a flag's declaration or
        definition (`C10_DEFINE_bool(name, default, "help")`), a name of its own whose
        help text is its doc."""
        node = frame.node
        self.code.statement_macro(node)
        text = self.text(node)
        flag = command_line_flag(text)
        if flag is None:
            return
        doc = self.source.doc(node)
        self.add(
            frame,
            node,
            "flag",
            flag.name,
            (),
            node.start_point[0] + 1,
            node.end_byte,
            flag.defines,
            value=flag.default,
            doc="\n\n".join(part for part in (doc, flag.help) if part),
        )

    def enumerators(self, frame: Frame, body: Node, scope: tuple[str, ...]) -> None:
        """An enum's enumerators, each under its enum's name (`Policy::CustomSizes`, as
        a scoped one is written; an unscoped one is also its enclosing scope's name),
        with its value where one is written; those in conditionals too."""
        for node in descendants(body, "enumerator"):
            name = node.child_by_field_name("name")
            if name is None:
                continue
            value = node.child_by_field_name("value")
            self.add(
                Frame(node, scope, "", frame.file_local),
                node,
                "enumerator",
                self.text(name),
                (),
                name.start_point[0] + 1,
                node.end_byte,
                True,
                value=one_line(self.text(value)) if value is not None else "",
            )

    def headed(
        self, frame: Frame, function: Node, name_node: Node | None, body: Node | None
    ) -> list[Frame] | None:
        """A function whose head a macro writes: `TORCH_IMPL_FUNC(add_out)(params) {`
        (the macro then its parameters) or `DEFINE_KERNEL(name, ...) {` (a head whose
        parameters the macro writes too), read as its expansion; None for any other."""
        if name_node is None or frame.node.child_by_field_name("type") is not None:
            return None
        if name_node.type == "function_declarator":  # the macro's use, then the parameters
            macro_node = name_node.child_by_field_name("declarator")
            use_args = name_node.child_by_field_name("parameters")
            params = self.text(function.child_by_field_name("parameters"))
        else:
            macro_node, use_args, params = name_node, function.child_by_field_name("parameters"), ""
        if macro_node is None or macro_node.type != "identifier" or use_args is None:
            return None
        template = self.heads.get(self.text(macro_node))
        if template is None or writes_parameters(template) == bool(params):
            return None  # not such a macro, or used the other way
        written_as = one_line(self.text(macro_node) + self.text(use_args))
        head = split_head(expand(template, macro_args(self.text(use_args))))
        if head is None or not all(SCOPE.fullmatch(part) for part in head.parts):
            return None
        template_part, before = split_template(head.before)
        qualifier, name = head.parts[:-1], head.parts[-1]
        kind = (
            "kernel"
            if "__global__" in before.split()
            else callable_kind(name, qualifier, frame.in_class)
        )
        inner = Frame(
            frame.node,
            frame.scope,
            frame.in_class,
            frame.file_local,
            template_part or frame.template,
            frame.outer,
        )
        header_end = body.start_byte if body is not None else frame.node.end_byte
        self.add(
            inner,
            frame.node,
            kind,
            name,
            qualifier,
            macro_node.start_point[0] + 1,
            header_end,
            body is not None,
            written_as=written_as,
            declaration=f"{before} {'::'.join(head.parts)}{head.params or params}",
        )
        if body is None:
            return []
        self.code.body(body)
        return self.within(frame, body, (*frame.scope, *head.parts))

    def within(self, frame: Frame, body: Node, scope: tuple[str, ...] | None) -> list[Frame]:
        """What a function body names: its `#define`s, file-wide wherever they are
        written, and the classes defined in it, named within `scope` (the function)
        and seen nowhere else (none where the body's extent is the grammar's guess)."""
        text = self.source.data[body.start_byte : body.end_byte]
        within: list[Frame] = []
        if b"define" in text:
            within += [Frame(c, (), "", frame.file_local) for c in macro_definitions(body)]
        if scope is not None and closed_by_itself(body) and LOCAL_TYPE.search(text):
            within += [Frame(c, scope, "", True) for c in local_types(body)]
        return within

    def static_member_declaration(self, node: Node) -> bool:
        """`static bool _enabled;` in a class declares the member, which a source file
        defines (`bool Flags::_enabled = false;`); `static inline` and `static constexpr`
        members are defined where they are declared."""
        words = {self.text(c) for c in node.children if c.type in _SPECIFIER_TYPES}
        return "static" in words and not words & {"inline", "constexpr"}
