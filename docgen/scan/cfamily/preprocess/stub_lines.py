"""Dispatch-stub macro calls on lines of their own, read from the text.

PyTorch's headers write runs of `DECLARE_DISPATCH(unary_fn, abs_stub)` with no
`;` after them; the grammar reads the first as a statement missing its `;` and
the rest as errors, which hid one stub in twelve and made the file's other names
uncertain.  Such a line is blanked before the parse (newlines kept, so every
offset stays the original's) and becomes a registration here, from the file's own
text.
"""

from __future__ import annotations

from docgen.model.cfamily_facts import Registration
from docgen.scan.cfamily.preprocess.source import (
    BLANKED,
    LINE_REST,
    SEMICOLON_REST,
    Calls,
    Directives,
    LinePattern,
)
from docgen.scan.cfamily.reader_macros import DISPATCH_MACRO, is_dispatch_macro, macro_args

#: a dispatch-stub macro called at the start of a line
_STUB_CALL = LinePattern(rb"[ \t]*(" + DISPATCH_MACRO.encode() + rb")[ \t]*\(")


def stub_lines_blanked(parsed: bytes) -> tuple[bytes, tuple[tuple[int, int], ...]]:
    """`parsed` with each dispatch-stub call that stands alone on its lines blanked, and
    where those calls were (start, end of the call and its `;`)."""
    if b"DISPATCH" not in parsed:
        return parsed, ()
    out = bytearray(parsed)
    spans: list[tuple[int, int]] = []
    directives, calls = Directives(parsed), Calls(parsed)
    for match in _STUB_CALL.finditer(parsed):
        start, name_end = match.span(1)
        end = calls.args_end(name_end)
        if end <= name_end or directives.holds(start):
            continue  # unbalanced, or inside a `#define`
        if SEMICOLON_REST.match(parsed, end):
            end = parsed.index(b";", end) + 1  # its `;` blanked with it
        elif not LINE_REST.match(parsed, end):
            continue  # more code follows on the line
        out[start:end] = parsed[start:end].translate(BLANKED)
        spans.append((start, end))
    return (bytes(out), tuple(spans)) if spans else (parsed, ())


def stub_registration(text: str, line: int, end_line: int) -> Registration | None:
    """The registration a dispatch-stub call makes (`DECLARE_DISPATCH(fn_type, stub)`
    names its stub last, the others first); None when `text` calls no dispatch-stub
    macro or gives it no arguments."""
    head, _, _ = text.partition("(")
    macro = head.strip()
    args = macro_args(text[len(head) :].rstrip().rstrip(";")) if is_dispatch_macro(macro) else []
    if not args:
        return None
    if macro == "DECLARE_DISPATCH":
        stub, target = args[-1], ", ".join(args[:-1])
    else:
        stub, target = args[0], ", ".join(args[1:])
    return Registration(macro, stub, line, end_line, "", target)


def stub_registrations(data: bytes, spans: tuple[tuple[int, int], ...]) -> list[Registration]:
    """The registrations of the calls `stub_lines_blanked` found, from the original bytes."""
    found = []
    line, counted = 1, 0
    for start, end in spans:  # in order: the lines are counted once
        text = data[start:end].decode("utf-8", "replace")
        line += data.count(b"\n", counted, start)
        counted = start
        registration = stub_registration(text, line, line + text.count("\n"))
        if registration is not None:
            found.append(registration)
    return found
