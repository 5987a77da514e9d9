"""What a test module's top level does to its classes: `instantiate_parametrized_tests`
and `instantiate_device_type_tests` (with `only_for` / `except_for`), and a fallback
that hides them (`if not TEST_CUDA: TestCase = NoTest`, or `= object`), after which a
runner collects nothing from the classes built on that name."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from docgen.analyze.dtype_helpers import dtypes_of
from docgen.model.facts import Requirement
from docgen.model.python_names import dotted_name

#: what a fallback sets a base class's name to: a class no runner collects
HIDING = frozenset({"NoTest", "object"})
#: the device type a machine without an accelerator instantiates
CPU = "cpu"


@dataclass(frozen=True)
class ModuleScope:
    """The top level's instantiations and fallbacks.

    `per_device`: class -> the device types instantiated for it on a machine with only
    a CPU (() when `only_for` / `except_for` leave the CPU out); `hidden`: base name ->
    the requirement a fallback makes of it."""

    parametrized: frozenset[str] = frozenset()
    per_device: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hidden: dict[str, Requirement] = field(default_factory=dict)


#: what makes the requirement of a condition: (test, skip_when, written, line)
Condition = Callable[[ast.expr, bool, str, int], Requirement]


def module_scope(tree: ast.Module, condition: Condition) -> ModuleScope:
    """Read a module's top level; `condition(test, skip_when, written, line)` makes the
    requirement of a fallback's condition (see `suite.condition_requirement`)."""
    parametrized: set[str] = set()
    per_device: dict[str, tuple[str, ...]] = {}
    hidden: dict[str, Requirement] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if (dotted_name(target) or "").endswith("instantiate_parametrized_tests"):
                    parametrized.add(node.name)
        elif isinstance(node, ast.If):
            for name, value, line in _fallbacks(node.body):
                written = f"if {ast.unparse(node.test)}: {name} = {value}"
                made = condition(node.test, True, written, line)
                hidden[name] = replace(
                    made, text=f"{made.text}; not collected then ({name} = {value})"
                )
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Name):
            callee = dotted_name(call.func) or ""
            if callee.endswith("instantiate_parametrized_tests"):
                parametrized.add(call.args[0].id)
            elif callee.endswith("instantiate_device_type_tests"):
                per_device[call.args[0].id] = _cpu_devices(call)
    return ModuleScope(frozenset(parametrized), per_device, hidden)


def _fallbacks(body: list[ast.stmt]) -> list[tuple[str, str, int]]:
    """`TestCase = NoTest` in a conditional's body: (name, what it is set to, line)."""
    found = []
    for statement in body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Name)
            and statement.value.id in HIDING
        ):
            found.append((statement.targets[0].id, statement.value.id, statement.lineno))
    return found


def _cpu_devices(call: ast.Call) -> tuple[str, ...]:
    """("cpu",) unless `only_for` leaves the CPU out or `except_for` names it."""
    for keyword in call.keywords:
        given = _strings(keyword.value)
        if keyword.arg == "only_for" and given is not None and CPU not in given:
            return ()
        if keyword.arg == "except_for" and given is not None and CPU in given:
            return ()
    return (CPU,)


def _strings(node: ast.expr) -> tuple[str, ...] | None:
    """A string or a list or tuple of strings, lower-cased; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value.lower(),)
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(items) == len(node.elts) and all(isinstance(i, str) for i in items):
            return tuple(str(i).lower() for i in items)
    return None


#: decorators that give a device test its dtypes (the CPU's own first)
DTYPE_DECORATORS = ("dtypesIfCPU", "dtypes")


def device_names(
    function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, device: str
) -> tuple[list[str], bool]:
    """The names `instantiate_device_type_tests` gives one test (already named `name`
    by its parametrizations) on `device`: `name_cpu`, `name_cpu_float32` for each dtype
    of `@dtypes(torch.float32, ...)` or `@dtypes(*all_types_and(torch.half))`; whether
    the dtypes could be read (`@ops(...)` expands only when the tests are collected)."""
    found: dict[str, ast.Call] = {}
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call):
            last = (dotted_name(decorator.func) or "").rsplit(".", 1)[-1]
            found.setdefault(last, decorator)
    if "ops" in found:
        return [f"{name}_{device}"], False
    given = next((found[d] for d in DTYPE_DECORATORS if d in found), None)
    if given is None:
        return [f"{name}_{device}"], True
    dtypes = dtypes_of(list(given.args))
    if not dtypes:
        return [f"{name}_{device}"], False
    return [f"{name}_{device}_{d}" for d in dtypes], True
