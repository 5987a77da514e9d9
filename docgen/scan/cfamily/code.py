"""What a C-family file's code does beyond declaring names: operator registrations,
dispatch stubs, test cases, kernel launches and CUDA calls.

Function bodies are opened only where their bytes can hold a launch or a call
of interest, so most bodies cost nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.model.facts import KernelLaunch, RegisteredOp, Registration
from docgen.scan.cfamily.preprocess.stub_lines import stub_registration
from docgen.scan.cfamily.reader_macros import (
    BLOCK_REGISTRATIONS,
    GPU_CALL,
    GPU_CALL_BYTES,
    TEST_MACROS,
    macro_args,
    names_a_test,
    op_name,
    string_value,
)
from docgen.scan.cfamily.source import Source, bare, descendants, one_line

if TYPE_CHECKING:
    from tree_sitter import Node


def in_order(registrations: Iterable[Registration]) -> tuple[Registration, ...]:
    """Registrations by line, then macro and name: the order the facts keep them in."""
    return tuple(sorted(registrations, key=lambda r: (r.line, r.macro, r.name)))


@dataclass
class CodeFacts:
    """Registrations, tests, launches and GPU calls of one file, as they are found."""

    source: Source
    registrations: list[Registration] = field(default_factory=list)
    launches: list[KernelLaunch] = field(default_factory=list)
    gpu_calls: set[tuple[int, str]] = field(default_factory=set)
    test_cases: set[tuple[int, str]] = field(default_factory=set)
    #: where the calls already read start: a class defined in a function is read with
    #: the function's body and again as a class
    calls_read: set[int] = field(default_factory=set)

    def text(self, node: Node | None) -> str:
        return self.source.text(node)

    def macro_block(
        self, node: Node, macro: str, function: Node, body: Node | None
    ) -> list[str] | None:
        """`TORCH_LIBRARY(ns, m) { ... }`, `TEST(Suite, Case) { ... }`, `TEST_CASE("name")
        { ... }`: not functions.  The macro's arguments when its block is a test case's
        body (the walk gives what the body defines the test's scope), else None."""
        arguments = self.text(function.child_by_field_name("parameters"))
        args = macro_args(arguments)
        named_test = names_a_test(macro, arguments)
        line = node.start_point[0] + 1
        if macro in TEST_MACROS and len(args) >= 2:
            self.test_cases.add((line, f"{args[0]}.{args[1]}"))
        elif named_test:
            # named by its first string, quotes kept
            named = next((a for a in args if a.startswith('"') and a.endswith('"')), None)
            if named is not None:
                self.test_cases.add((line, named))
        elif macro in BLOCK_REGISTRATIONS and args:
            var = args[-1]
            ops = self.registered_ops(body, var) if body is not None else ()
            key = args[1] if macro.endswith("_IMPL") and len(args) >= 3 else ""
            self.registrations.append(
                Registration(macro, args[0], line, node.end_point[0] + 1, key, "", ops)
            )
        if body is not None:
            self.body(body)
        return args if macro in TEST_MACROS or named_test else None

    def statement_macro(self, node: Node) -> None:
        line, end_line = node.start_point[0] + 1, node.end_point[0] + 1
        registration = stub_registration(self.text(node), line, end_line)
        if registration is not None:
            self.registrations.append(registration)

    def registered_ops(self, body: Node, var: str) -> tuple[RegisteredOp, ...]:
        ops: list[RegisteredOp] = []
        for call in descendants(body, "call_expression"):
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
                    self.text(verb), op_name(value), call.start_point[0] + 1, one_line(schema)
                )
            )
        return tuple(sorted(ops, key=lambda o: (o.line, o.verb, o.name)))

    def body(self, body: Node) -> None:
        """Kernel launches and GPU calls, looked for only where the bytes can hold them."""
        chunk = self.source.data[body.start_byte : body.end_byte]
        if b"<<<" not in chunk and not GPU_CALL_BYTES.search(chunk):
            return
        for call in descendants(body, "call_expression"):
            function = call.child_by_field_name("function")
            if function is None or call.start_byte in self.calls_read:
                continue
            self.calls_read.add(call.start_byte)
            name = bare(self.text(function).rsplit("::", 1)[-1])
            line = call.start_point[0] + 1
            config = next((c for c in call.named_children if c.type == "kernel_call_syntax"), None)
            if config is not None:
                inner = self.text(config).removeprefix("<<<").removesuffix(">>>")
                self.launches.append(
                    KernelLaunch(bare(self.text(function)), line, one_line(inner, 120))
                )
            elif GPU_CALL.match(name):
                self.gpu_calls.add((line, name))
