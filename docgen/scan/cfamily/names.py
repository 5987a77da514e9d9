"""Recording C-family names as the walk finds them: each with its scope, line,
attributes, declaration as written and doc comment, after the checks that keep
keywords, blanked macros and misread heads out."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from docgen.model.cfamily_facts import Binding, CDefinition, KernelLaunch, Registration
from docgen.model.facts import CKind
from docgen.model.kinds import CALLABLE_KINDS
from docgen.scan.cfamily.code import CodeFacts, launches_in_text
from docgen.scan.cfamily.comments import comment_text, without_comments
from docgen.scan.cfamily.macro_uses import FunctionMacros
from docgen.scan.cfamily.source import (
    KEYWORDS,
    MACRO_NAME,
    NAME,
    SCOPE,
    Source,
)

if TYPE_CHECKING:
    from tree_sitter import Node


@dataclass
class Walked:
    """What one walk of a C-family tree found, before it becomes the file's facts."""

    definitions: tuple[CDefinition, ...] = ()
    includes: list[tuple[int, str, bool]] = field(default_factory=list)
    launches: tuple[KernelLaunch, ...] = ()
    registrations: tuple[Registration, ...] = ()
    bindings: tuple[Binding, ...] = ()
    gpu_calls: set[tuple[int, str]] = field(default_factory=set)
    test_cases: set[tuple[int, str]] = field(default_factory=set)


def outside_bodies(
    names: Sequence[CDefinition], reading: Sequence[CDefinition]
) -> list[CDefinition]:
    """`names` but those on a line inside the body of a function `reading` defines: a
    reading that one syntax error swallowed lists a body's local typedefs as the file's
    own names, which a reading without the error rightly leaves to the function."""
    bodies = sorted(
        (d.line, d.end_line)
        for d in reading
        if d.kind in CALLABLE_KINDS and d.is_definition and d.end_line > d.line
    )
    merged: list[tuple[int, int]] = []
    for start, end in bodies:
        if merged and start <= merged[-1][1]:  # nested or touching: one span
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    starts = [start for start, _ in merged]
    kept = []
    for d in names:
        at = bisect_left(starts, d.line) - 1  # the last body whose head is above the name
        if at < 0 or d.line > merged[at][1]:
            kept.append(d)
    return kept


#: a parenthesis and the space a line break after it left (not `operator( )`)
_AFTER_PARENTHESIS = re.compile(r"(?<!operator)\( ")
#: a macro's name: what a declaration without a type that is no constructor calls
_MACRO_USE = re.compile(r"_?[A-Z][A-Z0-9_]*[A-Z0-9]")


class Frame(NamedTuple):
    """Where the walk stands: a tuple, because the walk makes one per child node."""

    node: Node
    scope: tuple[str, ...] = ()
    in_class: str = ""  # the enclosing class's name, "" outside classes
    file_local: bool = False
    template: str = ""
    outer: Node | None = None  # the template declaration around it, for doc comments


class Recorder:
    """The names of one file, and what the walk needs to record them."""

    def __init__(self, data: bytes, parsed: bytes, spans: tuple[tuple[int, int, str], ...]) -> None:
        self.source = Source(data, parsed, spans)
        self.code = CodeFacts(self.source)
        self.out = Walked()
        self.definitions: list[CDefinition] = []
        self._scopes: dict[tuple[str, ...], bool] = {}
        #: where the #defines already recorded start (one in a class defined in a
        #: function is met with the function's body and again with the class)
        self._macros_read: set[int] = set()

    @cached_property
    def _function_macros(self) -> FunctionMacros:
        return FunctionMacros(self.source.data)

    def text(self, node: Node | None, start: int | None = None, end: int | None = None) -> str:
        return self.source.text(node, start, end)

    def _plain_scope(self, parts: tuple[str, ...]) -> bool:
        """Whether every part is an identifier (answers kept: a scope repeats per member)."""
        known = self._scopes.get(parts)
        if known is None:
            known = self._scopes[parts] = all(SCOPE.fullmatch(part) for part in parts)
        return known

    def add(
        self,
        frame: Frame,
        node: Node,
        kind: CKind,
        name: str,
        qualifier: tuple[str, ...],
        name_line: int,
        header_end: int,
        is_definition: bool,
        bases: tuple[str, ...] = (),
        file_local: bool = False,
        end_line: int = 0,  # when not the end of `node`
        value: str = "",
        written_as: str = "",
        declaration: str = "",  # when not the text of `node` up to `header_end`
        doc: str = "",  # when not the comment above `node`
    ) -> None:
        blanked = self.source.blanked_names
        if (name in KEYWORDS and kind != "macro") or not NAME.fullmatch(name):
            return
        if not self._plain_scope(frame.scope) or not self._plain_scope(qualifier):
            return  # a misread head: no enclosing name may be other than an identifier
        if kind != "macro" and name.lstrip("~") in blanked:  # a macro's own #define stays
            return
        if (
            kind in ("method", "function")
            and not qualifier
            and _MACRO_USE.fullmatch(name)
            and node.child_by_field_name("type") is None
        ):
            return  # `_CCCL_IMMOVABLE(__opstate_t);`: only a constructor goes without a type
        if (
            kind in CALLABLE_KINDS
            and (not is_definition or MACRO_NAME.match(name))
            and self._function_macros.expands(name, name_line)
        ):
            # `extern DECL_CASE(64, 64);`: a use of this file's macro, misread (a lower-case
            # function defined under a macro's name is listed as written)
            return
        found, begin = self.source.attributes(node, header_end)
        if "__global__" in found and kind == "function":
            kind = "kernel"
        written, inner = without_comments(declaration or self.source.written(begin, header_end))
        declaration = " ".join(written.split()).removesuffix(";").rstrip()
        if inner:  # no space left where a comment was, before `,` or `)`
            declaration = re.sub(r" (?=[,)])", "", declaration)
        if "( " in declaration:  # a parameter list begun on the next line
            declaration = _AFTER_PARENTHESIS.sub("(", declaration)
        found_doc = doc or self.source.doc(frame.outer or node)
        if inner:  # comments inside the declaration: said after its doc comment
            found_doc = "\n\n".join(p for p in (found_doc, comment_text(inner)) if p) or None
        self.definitions.append(
            CDefinition(
                kind=kind,
                name=name,
                qualname="::".join((*frame.scope, *qualifier, name)),
                line=name_line,
                end_line=end_line or node.end_point[0] + 1,
                declaration=declaration,
                is_definition=is_definition,
                template=frame.template,
                bases=bases,
                attributes=tuple(found),
                doc=found_doc,
                file_local=frame.file_local or file_local,
                value=value,
                written_as=written_as,
            )
        )

    def macro(self, frame: Frame) -> None:
        node = frame.node
        name = node.child_by_field_name("name")
        if name is None or node.start_byte in self._macros_read:
            return
        self._macros_read.add(node.start_byte)
        params = node.child_by_field_name("parameters")
        end = params.end_byte if params is not None else name.end_byte
        # the node holds the newline that ends the directive: its last line is the one above
        last_row = node.end_point[0] if node.end_point[1] else node.end_point[0] - 1
        self.add(
            Frame(node, (), "", frame.file_local),
            node,
            "macro",
            self.text(name),
            (),
            name.start_point[0] + 1,
            end,
            True,
            end_line=max(last_row + 1, name.start_point[0] + 1),
            value=macro_value(self.source.data[end : node.end_byte]),
        )
        if self.source.data.find(b"<<<", end, node.end_byte) >= 0:  # launches in its body
            first_line = (params or name).end_point[0] + 1
            body = self.source.data[end : node.end_byte].decode("utf-8", "replace")
            self.code.launches.extend(launches_in_text(body, first_line, self.text(name)))

    def include(self, node: Node) -> None:
        path = node.child_by_field_name("path")
        if path is None:
            return
        raw = self.text(path)
        if path.type == "system_lib_string":
            self.out.includes.append((node.start_point[0] + 1, raw.strip("<>"), True))
        elif path.type == "string_literal":
            self.out.includes.append((node.start_point[0] + 1, raw.strip('"'), False))

    def defaulted(self, node: Node) -> bool:
        """Whether a declaration is a defaulted function's (`bool operator==(...) = default`)."""
        return node.type == "declaration" and any(
            (value := d.child_by_field_name("value")) is not None and self.text(value) == "default"
            for d in node.children_by_field_name("declarator")
        )

    def imported(self, node: Node) -> None:
        """`#import <x.h>` (torch's Metal and Core ML headers): an `#include` read once."""
        directive = node.child_by_field_name("directive")
        argument = node.child_by_field_name("argument")
        if directive is None or argument is None or self.text(directive) != "#import":
            return
        raw = self.text(argument).strip()
        if len(raw) > 2 and (raw[0], raw[-1]) in (("<", ">"), ('"', '"')):
            self.out.includes.append((node.start_point[0] + 1, raw[1:-1], raw[0] == "<"))

    # ------------------------------------------------- macros, bodies, launches


def macro_value(raw: bytes) -> str:
    """A `#define`'s replacement text as written: each continued line on a line of its
    own without its `\\`, the lines' common indentation and the comments' markers kept."""
    text = raw.decode("utf-8", "replace").replace("\r\n", "\n")
    lines = [line.rstrip().removesuffix("\\").rstrip() for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return ""
    first, rest = lines[0].strip(), lines[1:]
    indents = [len(line) - len(line.lstrip()) for line in rest if line.strip()]
    cut = min(indents, default=0)
    body = [first, *(line[cut:] for line in rest)]
    while body and not body[0]:
        body.pop(0)
    return "\n".join(body)


#: `operator==`, `operator()`, `operator bool`, `operator new`: never `operator_name`
_OPERATOR = re.compile(r"operator(?![A-Za-z0-9_])")


def is_operator(name: str) -> bool:
    """Whether a function's name is an operator's (`c10::OperatorHandle::operator_name`
    is a method whose name begins with the word)."""
    return _OPERATOR.match(name) is not None


def callable_kind(name: str, qualifier: tuple[str, ...], in_class: str) -> CKind:
    """What a function's name and where it stands make it: `~Foo` a destructor, `Foo` in
    `Foo` (or `Foo::Foo`) a constructor, a function of a class (or of `Upper::`) a method."""
    owner = qualifier[-1] if qualifier else in_class
    if name.startswith("~"):
        return "destructor"
    if is_operator(name):
        return "operator"
    if owner and name == owner:
        return "constructor"
    if in_class or (qualifier and owner[:1].isupper()):
        return "method"
    return "function"
