"""What a C-family file's code does beyond declaring names: operator registrations,
dispatch stubs, test cases, kernel launches and CUDA calls.

Function bodies are opened only where their bytes can hold a launch or a call
of interest, so most bodies cost nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docgen.model.cfamily_facts import Binding, KernelLaunch, RegisteredOp, Registration
from docgen.scan.cfamily.bindings import BINDING_BYTES, FileNames, bindings_in, file_names
from docgen.scan.cfamily.preprocess.stub_lines import stub_registration
from docgen.scan.cfamily.reader_macros import (
    BINDING_MODULES,
    BLOCK_REGISTRATIONS,
    CUDA_NAMESPACE_NAME,
    GPU_CALL,
    GPU_CALL_BYTES,
    TEST_MACROS,
    function_named,
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
    bindings: list[Binding] = field(default_factory=list)
    gpu_calls: set[tuple[int, str]] = field(default_factory=set)
    test_cases: set[tuple[int, str]] = field(default_factory=set)
    #: where the calls already read start: a class defined in a function is read with
    #: the function's body and again as a class
    calls_read: set[int] = field(default_factory=set)
    #: where the bodies whose bindings are read start (read once, as the calls are)
    bodies_read: set[int] = field(default_factory=set)
    #: what the file declares for all its bindings, read when a body first binds
    binding_names: FileNames | None = None

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
        elif macro in BINDING_MODULES and args:  # `PYBIND11_MODULE(name, m) {`
            self.bindings.append(Binding("module", args[0], "", line))
        elif macro in BLOCK_REGISTRATIONS and args:
            var = args[-1]
            ops = self.registered_ops(body, var) if body is not None else ()
            key = args[1] if macro.endswith("_IMPL") and len(args) >= 3 else ""
            self.registrations.append(
                Registration(macro, args[0], line, node.end_point[0] + 1, key, "", ops)
            )
        if body is not None and "MODULE" in macro and len(args) >= 2:
            # `PYBIND11_MODULE(name, m)`, pybind11's own `TEST_SUBMODULE(name, m)`: a block
            # whose last argument is the module it binds names in
            self.read_bindings(body, (args[-1],))
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
            given = arguments.named_children[1:] if arguments else []  # last: after a key
            target = function_named(self.text(given[-1])) if given else ""
            ops.append(
                RegisteredOp(
                    self.text(verb),
                    op_name(value),
                    call.start_point[0] + 1,
                    one_line(schema),
                    target,
                )
            )
        return tuple(sorted(ops, key=lambda o: (o.line, o.verb, o.name)))

    def body(self, body: Node) -> None:
        """Kernel launches, GPU calls and bindings, looked for only where the bytes can
        hold them."""
        chunk = self.source.data[body.start_byte : body.end_byte]
        self.read_bindings(body, ())
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
                launched = bare(self.text(function))
                kernel = self.set_to(body, launched, call.start_byte)
                self.launches.append(
                    KernelLaunch(
                        kernel or launched, line, one_line(inner), launched if kernel else ""
                    )
                )
            elif GPU_CALL.match(name):
                self.gpu_calls.add((line, name))
        if b"cuda::" in chunk:
            for node in descendants(body, "qualified_identifier"):
                written = CUDA_NAMESPACE_NAME.match(self.text(node))
                if written is not None:
                    self.gpu_calls.add((node.start_point[0] + 1, written.group(0).lstrip(":")))

    def read_bindings(self, body: Node, modules: tuple[str, ...]) -> None:
        """The pybind11 bindings of a body, read once; `modules`: the names of the
        modules it is given (see `bindings_in`)."""
        if body.start_byte not in self.bodies_read:  # (`bindings_in` looks at the bytes first)
            self.bodies_read.add(body.start_byte)
            binds = BINDING_BYTES.search(self.source.data, body.start_byte, body.end_byte)
            if self.binding_names is None and binds:
                self.binding_names = file_names(self.source.data)
            self.bindings.extend(bindings_in(self.source, body, modules, self.binding_names))

    def set_to(self, body: Node, variable: str, before: int) -> str:
        """The kernel a local variable or function pointer of `body` was last set to
        above `before` (`auto kernel = &flash_fwd_kernel<T, N>;`, `kernel =
        cond ? ... : ...` is none: it is not one kernel), "" when none is."""
        if not _IDENTIFIER.fullmatch(variable):
            return ""
        found, at = "", -1
        for node in descendants(body, "init_declarator"):
            if not at < node.start_byte < before:
                continue  # below the launch, or above the last one set
            name, value = node.child_by_field_name("declarator"), node.child_by_field_name("value")
            if name is None or value is None or self.text(name).lstrip("*& ") != variable:
                continue
            found, at = _kernel_named(self.text(value)), node.start_byte
        return found


#: a name a launch may go through: one identifier
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
#: what a pointer to one kernel is set to: `&kernel<T>`, `kernel<T, N>`, `ns::kernel`
_KERNEL_VALUE = re.compile(r"\s*&?\s*((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)\s*(?:<.*>)?\s*")


def _kernel_named(value: str) -> str:
    """The kernel a value names (see `_KERNEL_VALUE`), "" for any other value."""
    found = _KERNEL_VALUE.fullmatch(value)
    return bare(found.group(1).replace(" ", "")) if found else ""


#: a launch in text no parser read (a `#define`'s body): `name<...> <<<`
_LAUNCH_MARK = re.compile(r"<<<")


def launches_in_text(text: str, first_line: int, macro: str) -> list[KernelLaunch]:
    """The `kernel<<<config>>>(...)` launches a macro's replacement text holds, each on
    its line of the file (`first_line`: the `#define`'s)."""
    found = []
    for mark in _LAUNCH_MARK.finditer(text):
        end = text.find(">>>", mark.end())
        if end < 0:
            continue
        name = _name_before(text, mark.start())
        if not name:
            continue
        line = first_line + text.count("\n", 0, mark.start())
        config = one_line(text[mark.end() : end])
        found.append(KernelLaunch(name, line, config, "", macro))
    return found


#: what may stand between a kernel's name and `<<<` in a `#define`: continued lines too
_SPACE = " \t\r\n\\"


def _name_before(text: str, at: int) -> str:
    """The kernel named before `<<<` at `at`: its template arguments skipped."""
    at = len(text[:at].rstrip(_SPACE))
    if at and text[at - 1] == ">":
        depth = 0
        while at > 0:
            at -= 1
            if text[at] == ">":
                depth += 1
            elif text[at] == "<":
                depth -= 1
                if depth == 0:
                    break
        at = len(text[:at].rstrip(_SPACE))
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_:"):
        start -= 1
    name = text[start:at].strip(":")
    return bare(name) if _IDENTIFIER.match(name.rsplit("::", 1)[-1] or "") else ""
