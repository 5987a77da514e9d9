"""Names in a stretch the grammar could not parse (an ERROR node, or a C block
where declarations stand).

A construct the grammar lacks (`typename T = void*` among template
parameters, a namespace left open) can leave a whole namespace as a flat run
of tokens.  Its head is still there, token by token: `namespace a {` opens a
namespace up to the `}` that closes its `{`, or, when that brace lies inside a
later construct the run swallowed, to the end of the run.  Class and function
heads are not read back so: one followed by others would hold them all, and on
the trees docgen was tried on no run ever held one with its closing brace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docgen.scan.cfamily.names import Frame
from docgen.scan.cfamily.source import namespace_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from docgen.scan.cfamily.names import Recorder

_NAMESPACE_NAMES = frozenset({"identifier", "namespace_identifier", "nested_namespace_specifier"})
#: what a misread C block holds at file scope besides functions
_FILE_SCOPE = frozenset(
    {"type_definition", "struct_specifier", "union_specifier", "enum_specifier"}
    | {"preproc_def", "preproc_function_def", "preproc_include"}
)
_CONDITIONAL = frozenset({"#if", "#ifdef", "#ifndef", "#elif", "#else", "#endif", "preproc_else"})


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
    stands before it in the node."""
    children = frame.node.children
    if frame.in_class or any(child.type in _CONDITIONAL for child in children):
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
        if _namespace_head(children, i):
            end = closing.get(i + 2, len(children))
            scopes.append((end, _namespace(walker, frame, scope, children, i, end)))
            i += 3
            continue
        if children[i].is_named:
            out.append(Frame(children[i], scope, "", frame.file_local))
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
    line = name.start_point[0] + 1
    for part in namespace_parts(walker.text(name)):
        inner = Frame(keyword, scope, "", frame.file_local)
        walker.add(
            inner, keyword, "namespace", part, (), line, brace.start_byte, True, end_line=end_line
        )
        scope = (*scope, part)
    return scope


def misread_block_children(frame: Frame) -> list[Frame]:
    """The functions with a return type, typedefs, struct, union and enum definitions
    and `#define`s in a C block where declarations stand: the grammar's reading of a
    brace it could not place (jemalloc's `#define` inside an initializer took the
    rest of ctl.c into one).  Its other children are read as statements and left
    out; in C++ such a block may hold a class's members, so only C files are read so."""
    parent = frame.node.parent
    if parent is None or parent.type not in ("translation_unit", "ERROR", "declaration_list"):
        return []  # a block in a function's body
    return [
        Frame(c, frame.scope, "", frame.file_local)
        for c in frame.node.named_children
        if c.type in _FILE_SCOPE
        or (c.type == "function_definition" and c.child_by_field_name("type"))
    ]
