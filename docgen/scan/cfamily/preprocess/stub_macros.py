"""Dispatch stubs registered through a file's own macros, read from the text.

PyTorch's kernel files write a family of kernels once, as a macro, and use it per
operator:

    #define IMPLEMENT_FLOAT_KERNEL(dispatchtypes, op)  \\
      static void op##_kernel(TensorIterator& iter) {  \\
        ...                                            \\
      }                                                \\
      REGISTER_DISPATCH(op##_stub, &op##_kernel)

    IMPLEMENT_FLOAT_KERNEL(FLOATING, ceil)

Each use registers a kernel: `ceil_kernel` for `ceil_stub`.  The `#define`'s
dispatch-stub calls are expanded with the use's arguments (parameters replaced,
`##` pasted), as the preprocessor would, and become registrations at the line of
the use, naming the macro they come through and whether its body defines the
kernel too.  Only macros of the same file are read: another file's are not known
here.
"""

from __future__ import annotations

import re
from dataclasses import replace

from docgen.model.cfamily_facts import Registration
from docgen.scan.cfamily.preprocess.source import Calls, Directives
from docgen.scan.cfamily.preprocess.stub_lines import stub_registration
from docgen.scan.cfamily.reader_macros import DISPATCH_MACRO, split_commas

#: `#define NAME(params)` and the rest of its (continued) lines
_DEFINE = re.compile(
    r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^()]*)\)((?:[^\n]*\\\r?\n)*[^\n]*)", re.M
)
_STUB_CALL = re.compile(r"\b(" + DISPATCH_MACRO + r")\s*\(")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_PASTE = re.compile(r"\s*##\s*")


def _balanced(text: str, open_at: int) -> int:
    """The index just past the `)` closing the `(` at `open_at`; -1 when it does not close."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _expanded(text: str, values: dict[str, str]) -> str:
    """`text` with each parameter replaced by its argument and `##` pasted."""
    pasted = _PASTE.sub("##", text)
    replaced = _IDENTIFIER.sub(lambda m: values.get(m.group(0), m.group(0)), pasted)
    return replaced.replace("##", "")


def _templates(text: str) -> dict[str, tuple[list[str], str, list[str]]]:
    """Each function-like macro whose body calls a dispatch-stub macro: its parameters,
    its body on one line, and those calls as written."""
    found: dict[str, tuple[list[str], str, list[str]]] = {}
    for match in _DEFINE.finditer(text):
        body = re.sub(r"\\\r?\n", " ", match.group(3))
        calls = []
        for call in _STUB_CALL.finditer(body):
            end = _balanced(body, call.end() - 1)
            if end > 0:
                calls.append(body[call.start() : end])
        if calls:
            params = [p.strip() for p in match.group(2).split(",") if p.strip()]
            found[match.group(1)] = (params, body, calls)
    return found


def stub_macro_registrations(data: bytes) -> list[Registration]:
    """The registrations the uses of the file's own stub-registering macros make."""
    if b"DISPATCH" not in data or b"define" not in data:
        return []
    text = data.decode("utf-8", "replace")
    templates = _templates(text)
    if not templates:
        return []
    directives, calls = Directives(data), Calls(data)
    found = []
    uses = re.compile(r"^[ \t]*(" + "|".join(map(re.escape, templates)) + r")[ \t]*\(", re.M)
    for use in uses.finditer(text):
        start = len(text[: use.start(1)].encode("utf-8"))
        if directives.holds(start):
            continue  # inside another `#define`
        span = calls.arguments(start + len(use.group(1).encode("utf-8")))
        if span is None:
            continue
        args = split_commas(data[span[0] : span[1]].decode("utf-8", "replace"))
        params, body, written = templates[use.group(1)]
        if len(args) != len(params):
            continue  # not this macro's arity: a variadic one, or a misread use
        values = dict(zip(params, args, strict=True))
        line = text.count("\n", 0, use.start(1)) + 1
        end_line = line + data.count(b"\n", start, span[1])
        expanded_body = _expanded(body, values)
        for call in written:
            registration = stub_registration(_expanded(call, values), line, end_line)
            if registration is not None:
                defines = _defines(expanded_body, registration.target)
                found.append(replace(registration, through=use.group(1), defines_kernel=defines))
    return found


def _defines(body: str, target: str) -> bool:
    """Whether a macro's expanded body defines the kernel a registration gives
    (`static void ceil_kernel(TensorIterator& iter) {`)."""
    kernel = target.split(",")[-1].strip().lstrip("&").strip().rsplit("::", 1)[-1]
    if not _IDENTIFIER.fullmatch(kernel):
        return False
    head = re.compile(r"[\w>&*]\s+" + re.escape(kernel) + r"\s*\([^;{}]*\)[^;{}]*\{")
    return head.search(body) is not None
