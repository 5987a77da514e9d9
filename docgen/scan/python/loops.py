"""Per-iteration device waits and copies in a Python module: `.item()`, `.cpu()`,
`.tolist()`, `.numpy()`, `torch.cuda.synchronize()` and host-to-device copies inside
a loop, each proven by the line of its call.

Claims start from the calls the scanner already collected; only the few that could
matter are placed, by a search that follows source positions down from the module,
so no loop map of the whole file is ever built.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Sequence

from docgen.model.facts import Finding
from docgen.model.python_names import node_line
from docgen.scan.python.roles import Aliases, expr_role, role_of

_Position = tuple[int, int]
_Span = tuple[_Position, _Position]

#: methods that, called without arguments, copy a tensor to the host and wait for it
SYNC_METHODS = frozenset({"item", "cpu", "tolist", "numpy"})
_CANDIDATE_ATTRS = SYNC_METHODS | {"cuda", "to", "synchronize"}
_SYNCHRONIZE = "torch.cuda.synchronize"
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_BODY_FIELDS = frozenset({"body", "orelse", "finalbody"})


def loop_findings(tree: ast.Module, calls: Sequence[ast.Call], aliases: Aliases) -> list[Finding]:
    """Per-iteration device waits and copies, placed only for the calls that could be."""
    attributes, attribute_class = _CANDIDATE_ATTRS, ast.Attribute
    candidates: list[ast.Call] = []
    for call in calls:  # the hot loop: exact class test, no isinstance
        func = call.func
        if type(func) is attribute_class and func.attr in attributes:
            candidates.append(call)
    # `from torch.cuda import synchronize`: rare, so its calls are looked for only then
    names = [name for name, targets in aliases.items() if _SYNCHRONIZE in targets]
    if names and any(role_of(name, aliases) == "synchronize" for name in names):
        candidates += [
            call for call in calls if isinstance(call.func, ast.Name) and call.func.id in names
        ]
    found: list[Finding] = []
    for call in candidates:
        claim = _claim(call, aliases)
        if claim is not None and _in_loop(tree, call):
            kind, subject, message = claim
            func = call.func  # the line of `.item` in a chain, as code refs have it
            line = getattr(func, "end_lineno", None) or node_line(func)
            found.append(Finding("performance", kind, line, message, subject))
    return found


def _claim(call: ast.Call, aliases: Aliases) -> tuple[str, str, str] | None:
    """(kind, subject, message) if this call waits for or copies to the device in a loop."""
    func = call.func
    if isinstance(func, ast.Name) or (
        isinstance(func, ast.Attribute) and func.attr == "synchronize"
    ):
        if expr_role(func, aliases) != "synchronize":
            return None
        subject = _chain(func)
        message = f"`{subject}()` inside a loop waits for the GPU on every iteration."
        return "sync-in-loop", subject, message
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in SYNC_METHODS:
        if call.args or call.keywords:
            return None
        subject = _chain(func)
        message = (
            f"`{subject}()` inside a loop waits for the GPU on every iteration "
            "when called on a GPU tensor."
        )
        return "sync-in-loop", subject, message
    if func.attr == "cuda":
        subject = _chain(func)
        message = f"`{subject}()` inside a loop copies to the GPU on every iteration."
        return "copy-in-loop", subject, message
    device = _cuda_device(call, aliases)
    if device is None:
        return None
    subject = _chain(func)
    message = f"`{subject}` inside a loop copies to `{device}` on every iteration."
    return "copy-in-loop", subject, message


def _chain(func: ast.expr) -> str:
    """The callee as code references name it: `a.b.item`, or `.item` on an expression."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    parts.append(func.id if isinstance(func, ast.Name) else "")
    return ".".join(reversed(parts))


def _cuda_device(call: ast.Call, aliases: Aliases) -> str | None:
    """The CUDA device literally passed to `.to(...)`, if any."""
    values = [*call.args, *(k.value for k in call.keywords if k.arg == "device")]
    for value in values:
        if isinstance(value, ast.Call) and expr_role(value.func, aliases) == "device":
            inner = [*value.args[:1], *(k.value for k in value.keywords if k.arg == "type")]
            value = inner[0] if inner else value
        if (
            isinstance(value, ast.Constant)
            and isinstance(value.value, str)
            and value.value.startswith("cuda")
        ):
            return value.value
    return None


def _in_loop(tree: ast.Module, call: ast.Call) -> bool:
    """Whether `call` runs once per iteration of a loop of its own function.

    Source positions prune the search to the call's ancestors (and, where
    Python < 3.12 gives f-string parts overlapping spans, a few siblings).  Should
    positions ever mislead, an unpruned search decides.
    """
    span = _span(call)
    found = _search(tree, call, span) if span is not None else None
    if found is None:
        found = _search(tree, call, None)
    return bool(found)


def _span(node: ast.AST) -> _Span | None:
    """Start and end of a node, the start taken from its first decorator if any."""
    end_line = getattr(node, "end_lineno", None)
    end_column = getattr(node, "end_col_offset", None)
    if end_line is None or end_column is None:
        return None
    start = _start(node)
    return (start, (end_line, end_column)) if start is not None else None


def _start(node: ast.AST) -> _Position | None:
    """Where a node starts: a decorated definition at its first decorator."""
    if isinstance(node, _DEFINITIONS) and node.decorator_list:
        node = node.decorator_list[0]
    line = getattr(node, "lineno", None)
    column = getattr(node, "col_offset", None)
    return (line, column) if line is not None and column is not None else None


def _search(root: ast.AST, call: ast.Call, span: _Span | None) -> bool | None:
    """In-loop state of `call` below `root`, None if not found; pruned by `span` if given."""
    stack: list[tuple[ast.AST, bool]] = [(root, False)]
    while stack:
        node, in_loop = stack.pop()
        children: list[tuple[ast.AST, bool]] = []
        _children(node, in_loop, span, children)
        for child, child_in_loop in children:
            if child is call:
                return child_in_loop
        stack.extend(children)
    return None


def _children(
    node: ast.AST, in_loop: bool, span: _Span | None, out: list[tuple[ast.AST, bool]]
) -> None:
    """The children that may hold `span`, with whether each runs per loop iteration.

    Loop bodies and `while` tests run per iteration; a `for` iterable and `else`
    run once; function, class and lambda bodies start afresh; a comprehension
    repeats all but its first iterable.
    """
    if isinstance(node, (ast.For, ast.AsyncFor)):
        _offer(out, node.target, in_loop, span)
        _offer(out, node.iter, in_loop, span)
        _offer_body(out, node.body, True, span)
        _offer_body(out, node.orelse, in_loop, span)
    elif isinstance(node, ast.While):
        _offer(out, node.test, True, span)
        _offer_body(out, node.body, True, span)
        _offer_body(out, node.orelse, in_loop, span)
    elif isinstance(node, ast.Lambda):
        _offer(out, node.args, in_loop, span)  # defaults: evaluated where defined
        _offer(out, node.body, False, span)
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        if span is None or not _starts_before(span, node.body):
            for name in node._fields:  # decorators, defaults, bases: evaluated where defined
                if name != "body":
                    _offer(out, getattr(node, name, None), in_loop, span)
        _offer_body(out, node.body, False, span)
    elif isinstance(node, _COMPREHENSIONS):
        if isinstance(node, ast.DictComp):
            _offer(out, node.key, True, span)
            _offer(out, node.value, True, span)
        else:
            _offer(out, node.elt, True, span)
        for index, generator in enumerate(node.generators):
            _offer(out, generator.iter, in_loop if index == 0 else True, span)
            _offer(out, generator.target, True, span)
            _offer(out, generator.ifs, True, span)
    else:
        for name in node._fields:
            value = getattr(node, name, None)
            if name in _BODY_FIELDS and isinstance(value, list):
                _offer_body(out, value, in_loop, span)
            else:
                _offer(out, value, in_loop, span)


def _starts_before(span: _Span, body: list[ast.stmt]) -> bool:
    """Whether positions prove `span` lies in `body`, past its definition's header."""
    start = _start(body[0]) if body else None
    return start is not None and start <= span[0]


def _offer(
    out: list[tuple[ast.AST, bool]], value: object, in_loop: bool, span: _Span | None
) -> None:
    """Append a child, or each of a list, unless positions prove it lies elsewhere."""
    for item in value if isinstance(value, list) else (value,):
        if isinstance(item, ast.AST) and item._fields:  # `Load` and operators hold nothing
            if span is not None:
                item_span = _span(item)  # None for arguments, `with` items, match cases
                if item_span is not None and not (
                    item_span[0] <= span[0] and span[1] <= item_span[1]
                ):
                    continue
            out.append((item, in_loop))


def _offer_body(
    out: list[tuple[ast.AST, bool]], body: list[ast.stmt], in_loop: bool, span: _Span | None
) -> None:
    """A statement list; of a long one, bisection finds the one statement that may hold `span`."""
    if span is not None and len(body) > 8:
        try:
            index = bisect_right(body, span[0], key=_sort_start) - 1
        except TypeError:  # a statement without a position: no shortcut
            index = None
        if index is not None:
            if index >= 0:
                _offer(out, body[index], in_loop, span)
            return
    _offer(out, body, in_loop, span)


def _sort_start(node: ast.stmt) -> _Position:
    start = _start(node)
    if start is None:
        raise TypeError("statement without a position")
    return start
