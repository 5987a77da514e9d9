"""Names in a stretch the grammar could not parse (an ERROR node).

A construct the grammar lacks (`typename T = void*` among template
parameters, a function that calls a macro it cannot read) can leave a whole
namespace or function as a flat run of tokens.  The heads are still there,
token by token: `namespace a {` opens a namespace, and a return type, a
declarator and `{` open a function, each up to the `}` that closes its `{`.
A function is read back only when that brace is in the same run; a namespace
whose brace the run swallowed (inside a later construct) holds the rest of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docgen.scan.cfamily_names import Frame, callable_kind
from docgen.scan.cfamily_source import function_declarator

if TYPE_CHECKING:
    from tree_sitter import Node

    from docgen.scan.cfamily_names import Recorder

_NAMESPACE_NAMES = frozenset({"identifier", "namespace_identifier", "nested_namespace_specifier"})
#: what makes a function's head one with a return type (`FOO(x) {` is a macro's use)
_TYPES = frozenset(
    {
        "primitive_type",
        "type_identifier",
        "sized_type_specifier",
        "template_type",
        "qualified_identifier",
        "placeholder_type_specifier",
    }
)
#: what may stand before a function's declarator in its head
_HEAD = _TYPES | {
    "storage_class_specifier",
    "type_qualifier",
    "attribute_specifier",
    "attribute_declaration",
    "virtual",
    "explicit_function_specifier",
}
_CONDITIONAL = frozenset({"#if", "#ifdef", "#ifndef", "#elif", "#else", "#endif", "preproc_else"})
_FILE_WIDE = frozenset({"preproc_def", "preproc_function_def", "preproc_include"})


def _closing_braces(children: list[Node]) -> dict[int, int]:
    """Index of each `{` -> index of the `}` that closes it, among one node's children."""
    closing: dict[int, int] = {}
    open_at: list[int] = []
    for i, child in enumerate(children):
        if child.type == "{":
            open_at.append(i)
        elif child.type == "}" and open_at:
            closing[open_at.pop()] = i
    return closing


def error_children(walker: Recorder, frame: Frame) -> list[Frame]:
    """The named children of an ERROR node to walk, each in the namespace whose head
    stands before it in the node; a function head recorded here, its body skipped."""
    children = frame.node.children
    if any(child.type in _CONDITIONAL for child in children):
        # heads in other branches of a conditional (`#ifdef A namespace a { #else
        # namespace b { #endif`) are not nested: left to the reading of first branches
        return [
            Frame(c, frame.scope, frame.in_class, frame.file_local) for c in children if c.is_named
        ]
    closing = _closing_braces(children)
    scopes: list[tuple[int, tuple[str, ...]]] = []  # (index of the closing `}`, scope)
    out: list[Frame] = []
    i = 0
    while i < len(children):
        while scopes and scopes[-1][0] < i:
            scopes.pop()
        scope = scopes[-1][1] if scopes else frame.scope
        child = children[i]
        if _namespace_head(children, i) and not frame.in_class:
            # its `}` may lie inside a later child the error swallowed: then to the end
            end = closing.get(i + 2, len(children))
            scopes.append((end, _namespace(walker, frame, scope, children, i, end)))
            i += 3
            continue
        body_end = closing.get(i + 1)
        if body_end is not None and _function(walker, frame, scope, children, i, body_end):
            # the body's #defines and #includes are the file's, wherever they stand
            out += [
                Frame(c, (), "", frame.file_local)
                for c in children[i + 2 : body_end]
                if c.type in _FILE_WIDE
            ]
            i = body_end + 1
            continue
        if child.is_named:
            out.append(Frame(child, scope, frame.in_class, frame.file_local))
        i += 1
    return out


def _namespace_head(children: list[Node], at: int) -> bool:
    """Whether `namespace a {` starts at `children[at]`."""
    return (
        at + 2 < len(children)
        and children[at].type == "namespace"
        and children[at + 1].type in _NAMESPACE_NAMES
        and children[at + 2].type == "{"
    )


def _namespace(
    walker: Recorder,
    frame: Frame,
    scope: tuple[str, ...],
    children: list[Node],
    at: int,
    end: int,
) -> tuple[str, ...]:
    """Record `namespace a::b {` at `children[at]`; the scope inside it."""
    keyword, name, brace = children[at], children[at + 1], children[at + 2]
    closer = children[end] if end < len(children) else frame.node  # to the end of the run
    end_line = closer.end_point[0] + 1
    for part in walker.text(name).split("::"):
        part = part.strip()
        if part:
            inner = Frame(keyword, scope, "", frame.file_local)
            line = name.start_point[0] + 1
            walker.add(
                inner,
                keyword,
                "namespace",
                part,
                (),
                line,
                brace.start_byte,
                True,
                end_line=end_line,
            )
            scope = (*scope, part)
    return scope


def _function(
    walker: Recorder,
    frame: Frame,
    scope: tuple[str, ...],
    children: list[Node],
    at: int,
    end: int,
) -> bool:
    """Record the function whose declarator is `children[at]` (its `{` next), if what
    stands before it is a head with a return type."""
    function = function_declarator(children[at])
    name_node = function.child_by_field_name("declarator") if function is not None else None
    if name_node is None:
        return False
    first = at
    while first > 0 and children[first - 1].type in _HEAD:
        first -= 1
    head = children[first:at]
    if not any(node.type in _TYPES for node in head):
        return False
    parts = walker.source.qualified_parts(name_node)
    qualifier, name = tuple(parts[:-1]), parts[-1]
    if not name:
        return False
    static = any(walker.text(node) == "static" for node in head)
    walker.add(
        Frame(head[0], scope, frame.in_class, frame.file_local),
        head[0],
        callable_kind(name, qualifier, frame.in_class),
        name,
        qualifier,
        name_node.start_point[0] + 1,
        children[at + 1].start_byte,
        True,
        file_local=static and not frame.in_class and not qualifier,
        end_line=children[end].end_point[0] + 1,
    )
    return True
