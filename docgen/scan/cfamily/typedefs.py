"""`typedef`s of a C-family file: the names they give and the fields they own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docgen.scan.cfamily.names import Frame
from docgen.scan.cfamily.source import CLASS_KINDS

if TYPE_CHECKING:
    from tree_sitter import Node

    from docgen.scan.cfamily.names import Recorder


def type_definition(walker: Recorder, frame: Frame) -> list[Frame]:
    """`typedef ... name;`; the fields of `typedef struct { ... } name;` are name's."""
    node = frame.node
    names: list[str] = []
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
        if (
            inner is not None
            and not (
                declarator.has_error  # misread: a name after a comma is a parameter's type
                and b"," in walker.source.parsed[declarator.start_byte : inner.start_byte]
            )
        ):
            names.append(walker.text(inner))
            walker.add(
                frame,
                node,
                "typedef",
                walker.text(inner),
                (),
                inner.start_point[0] + 1,
                node.end_byte,
                True,
            )
    type_node = node.child_by_field_name("type")
    if type_node is None or type_node.type not in CLASS_KINDS:
        return []
    body = type_node.child_by_field_name("body")
    if type_node.child_by_field_name("name") is None and body is not None and names:
        if type_node.type == "enum_specifier":
            return []
        scope = (*frame.scope, names[0])
        return [Frame(c, scope, names[0], frame.file_local) for c in reversed(body.named_children)]
    outer = frame.outer or node
    return [Frame(type_node, frame.scope, frame.in_class, frame.file_local, "", outer)]
