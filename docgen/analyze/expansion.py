"""The names a runner gives one test function: PyTorch's `@parametrize` suffixes and
pytest's `@pytest.mark.parametrize` ids, combined; too many to list are counted, and
values that depend on a condition are counted both ways."""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from docgen.analyze.module_values import Values, with_values
from docgen.analyze.pytest_ids import pytest_ids
from docgen.model.python_names import dotted_name

PYTORCH_PARAMETRIZE = frozenset({"parametrize", "parametrize_test"})
MAX_EXPANDED = 256  # parametrized names listed per test before they are counted instead


def dotted(node: ast.expr) -> str:
    """`a.b.c` for a name or attribute chain, "" for anything else."""
    return dotted_name(node) or ""


def callee(node: ast.expr) -> tuple[str, ast.Call | None]:
    """A decorator's name, and its call when it is called."""
    if isinstance(node, ast.Call):
        return dotted(node.func), node
    return dotted(node), None


def _literal(node: ast.expr) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def _pytorch_part(name: str, index: int, value: object) -> str:
    """PyTorch's `_formatted_str_repr` for values a literal can hold."""
    if isinstance(value, (int, float, str)):
        return f"{name}_{str(value).replace('.', '_')}"
    return f"{name}{index}"


def pytorch_names(call: ast.Call) -> list[str] | None:
    """Name suffixes of one `@parametrize("a,b", [...])`, or None when not literal."""
    if len(call.args) < 2 or any(k.arg == "name_fn" for k in call.keywords):
        return None
    ok, arg_names = _literal(call.args[0])
    if (
        not ok
        or not isinstance(arg_names, str)
        or not isinstance(call.args[1], (ast.List, ast.Tuple))
    ):
        return None
    names = [n.strip() for n in arg_names.split(",") if n.strip()]
    suffixes = []
    for index, item in enumerate(call.args[1].elts):
        explicit = ""
        if isinstance(item, ast.Call) and dotted(item.func).endswith("subtest") and item.args:
            for keyword in item.keywords:
                if keyword.arg == "name":
                    ok, given = _literal(keyword.value)
                    if not ok or not isinstance(given, str):
                        return None
                    explicit = given
            item = item.args[0]
        ok, value = _literal(item)
        if not ok:
            return None
        values = list(value) if len(names) > 1 and isinstance(value, (tuple, list)) else [value]
        if len(values) != len(names):
            return None
        suffixes.append(
            explicit
            or "_".join(_pytorch_part(n, index, v) for n, v in zip(names, values, strict=True))
        )
    return suffixes


@dataclass(frozen=True)
class Expansion:
    """The names a runner gives one test function: all of them (`complete`), one row
    for too many to list (their number in `cases`), or one row for values that depend
    on a `condition` (counted where it is false, and where it is true)."""

    names: list[str]
    complete: bool
    cases: int = 1
    condition: str = ""
    cases_if_true: int = 0


def class_marks(decorators: Sequence[ast.expr]) -> list[ast.expr]:
    """A class's `@pytest.mark.parametrize` decorators, which pytest applies to each
    of its tests after the test's own."""
    return [d for d in decorators if callee(d)[0].endswith("mark.parametrize")]


def case_count(call: ast.Call) -> int | None:
    """How many cases a `parametrize` makes when its values are listed but their ids
    are known only when it runs (`[w.argmax, w.sum]`: pytest names them by `__name__`)."""
    values = call.args[1] if len(call.args) > 1 else None
    if not isinstance(values, (ast.List, ast.Tuple)):
        return None
    if any(isinstance(e, ast.Starred) for e in values.elts):
        return None
    return len(values.elts)


def expanded(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    instantiated: bool,
    marks: Sequence[ast.expr] = (),
    values: Values | None = None,
) -> Expansion:
    """The names a runner gives one test function (see `Expansion`); `marks`: the
    parametrizations its classes give it, its own class's first, then its bases' in
    their order, each in source order (see `class_marks`); `values`: the module's lists
    where the test is defined (see `module_values`)."""
    pytorch: list[list[str]] = []
    pytest: list[list[str]] = []
    conditions: set[str] = set()
    if_true: list[int] = []  # the pytest decorators' case counts where the condition holds
    counted_only = False  # some cases are counted, their ids known only when it runs
    unread = Expansion([function.name], False)
    for decorator in (*marks, *function.decorator_list):
        name, call = callee(decorator)
        last = name.rsplit(".", 1)[-1]
        if call is None:
            continue
        if last in PYTORCH_PARAMETRIZE and not name.startswith("pytest"):
            if not instantiated:
                continue
            found = pytorch_names(call)
            if found is None:
                return unread
            pytorch.append(found)
        elif name.endswith("mark.parametrize"):
            call = with_values(call, values or {})
            ids = pytest_ids(call)
            branches = _branches(call) if ids is None else None
            if ids is None and branches is None:
                count = case_count(call)
                if count is None:
                    return unread
                ids, counted_only = [""] * count, True
            if branches is not None:
                condition, ids, true_ids = branches
                conditions.add(condition)
                if_true.append(len(true_ids))
            else:
                if_true.append(len(ids or ()))
            pytest.insert(0, ids or [])  # the decorator nearest the function comes first
    count = math.prod(len(p) for p in pytorch) * math.prod(len(p) for p in pytest)
    if len(conditions) > 1:
        return unread
    if conditions:
        when_true = math.prod(len(p) for p in pytorch) * math.prod(if_true)
        return Expansion([function.name], True, count, conditions.pop(), when_true)
    if count > MAX_EXPANDED or counted_only:
        return Expansion([function.name], True, count)
    names = [function.name]
    if pytorch:
        names = [
            "_".join([function.name, *(p for p in combo if p)])
            for combo in itertools.product(*pytorch)
        ]
    if pytest:
        names = [f"{n}[{'-'.join(combo)}]" for n in names for combo in itertools.product(*pytest)]
    return Expansion(sorted(names), True)


def _branches(call: ast.Call) -> tuple[str, list[str], list[str]] | None:
    """For `parametrize("dtype", [a] if cond else [a, b])`: the condition as written and
    the ids where it is false and where it is true; None when either cannot be read."""
    values = call.args[1] if len(call.args) > 1 else None
    if not isinstance(values, ast.IfExp):
        return None
    found = []
    for branch in (values.orelse, values.body):
        variant = ast.Call(call.func, [call.args[0], branch, *call.args[2:]], call.keywords)
        ids = pytest_ids(variant)
        if ids is None:
            return None
        found.append(ids)
    return ast.unparse(values.test), found[0], found[1]
