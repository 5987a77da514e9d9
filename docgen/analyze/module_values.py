"""The list a module-level name holds where a test is defined, read from the top level
alone: `funcs = [a, b]`, `more = funcs[:]`, `more += [c]`, `more.append(d)`.  A
decorator such as `@pytest.mark.parametrize("func", funcs)` is evaluated when its class
or function is defined, so each definition sees the lists as they are at that point.
Anything else done to a name (a comprehension added, `remove`, a call) makes it unknown
from there on, and it is never guessed."""

from __future__ import annotations

import ast
from collections.abc import Mapping

#: what a name holds: the list's items as written, or None when it cannot be read
Items = tuple[ast.expr, ...] | None
#: the lists a definition sees, by name
Values = Mapping[str, Items]


def _items(node: ast.expr, known: Mapping[str, Items]) -> Items:
    """The items of a list or tuple literal, of a known name, or of its copy
    (`name[:]`, `list(name)`, `tuple(name)`); None for anything else."""
    if isinstance(node, (ast.List, ast.Tuple)):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return None
        return tuple(node.elts)
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Slice)
        and node.slice.lower is node.slice.upper is node.slice.step is None
    ):
        return _items(node.value, known)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "tuple")
        and len(node.args) == 1
        and not node.keywords
    ):
        return _items(node.args[0], known)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _items(node.left, known), _items(node.right, known)
        return None if left is None or right is None else left + right
    return None


def _targets(statement: ast.stmt) -> list[ast.expr]:
    """What a statement binds or changes at the top level (for those this module does
    not read): every name of a target, `funcs` of `funcs[0] = x` too, which a walk for
    stored names alone would miss."""
    if isinstance(statement, ast.Assign):
        return list(statement.targets)
    if isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        return [statement.target]
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return [statement.target]
    return []


def _step(statement: ast.stmt, known: dict[str, Items]) -> None:
    """What one top-level statement does to the known lists."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Name):
            known[target.id] = _items(statement.value, known)
            return
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        value = statement.value
        known[statement.target.id] = None if value is None else _items(value, known)
        return
    if (
        isinstance(statement, ast.AugAssign)
        and isinstance(statement.target, ast.Name)
        and isinstance(statement.op, ast.Add)
    ):
        name = statement.target.id
        before, added = known.get(name), _items(statement.value, known)
        known[name] = None if before is None or added is None else before + added
        return
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        function = call.func
        if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
            name = function.value.id
            if name in known:
                known[name] = _mutated(known[name], function.attr, call, known)
                if function.attr in ("append", "extend"):
                    return
        for node in (n for a in (*call.args, *call.keywords) for n in ast.walk(a)):
            if isinstance(node, ast.Name) and node.id in known:
                known[node.id] = None  # passed to a call that may change it
        return
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        for alias in statement.names:
            known[(alias.asname or alias.name).split(".")[0]] = None
        return
    for node in (n for t in _targets(statement) for n in ast.walk(t)):
        if isinstance(node, ast.Name):
            known[node.id] = None
    for node in ast.walk(statement):  # a nested block that rebinds a known name
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            known[node.id] = None


def _mutated(before: Items, method: str, call: ast.Call, known: Mapping[str, Items]) -> Items:
    """The list after `name.append(x)` or `name.extend([...])`; None after any other call."""
    if before is None or call.keywords or len(call.args) != 1:
        return None
    if method == "append":
        argument = call.args[0]
        return None if isinstance(argument, ast.Starred) else (*before, argument)
    if method == "extend":
        added = _items(call.args[0], known)
        return None if added is None else before + added
    return None


def values_at_definitions(tree: ast.Module) -> dict[int, Values]:
    """For each top-level class or function (by its line), the lists it sees."""
    known: dict[str, Items] = {}
    seen: dict[int, Values] = {}
    for statement in tree.body:
        if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            seen[statement.lineno] = dict(known)
            known[statement.name] = None
            continue
        _step(statement, known)
    return seen


def with_values(call: ast.Call, values: Values) -> ast.Call:
    """`call` with a name as its second argument replaced by the list it holds there."""
    if len(call.args) < 2 or not isinstance(call.args[1], ast.Name):
        return call
    items = values.get(call.args[1].id)
    if items is None:
        return call
    listed = ast.List(list(items), ast.Load())
    return ast.Call(call.func, [call.args[0], listed, *call.args[2:]], call.keywords)
