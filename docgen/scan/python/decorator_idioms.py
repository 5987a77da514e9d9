"""The decorators of a Python definition that are findings of their own: context
managers, single dispatch and registering decorators (`docgen.scan.python.idioms`)."""

from __future__ import annotations

import ast

from docgen.model.facts import Finding
from docgen.model.python_names import dotted_name, node_line
from docgen.scan.python.roles import Aliases, role_of

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
#: a decorator with its dotted name as written and the role its name resolves to
Decorator = tuple[ast.expr, str, str | None]


def decorators_of(node: Definition, aliases: Aliases) -> list[Decorator]:
    """The decorators that may matter: those with a role, and those that may register."""
    found: list[Decorator] = []
    for decorator in node.decorator_list:
        dotted = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator)
        if dotted is not None:
            role = role_of(dotted, aliases)
            if role is not None or "regist" in dotted.lower():
                found.append((decorator, dotted, role))
    return found


def decorator_findings(
    node: Definition, name: str, decorators: list[Decorator], dispatchers: set[str]
) -> list[Finding]:
    """Context managers, single dispatch and registering decorators.

    Other custom decorators are too many and too varied to be worth a line each.
    """
    is_class = isinstance(node, ast.ClassDef)
    found: list[Finding] = []
    for decorator, dotted, role in decorators:
        owner, _, last = dotted.rpartition(".")
        written = f"@{dotted}(...)" if isinstance(decorator, ast.Call) else f"@{dotted}"
        if role in ("contextmanager", "asynccontextmanager") and not is_class:
            adjective = "an async" if role == "asynccontextmanager" else "a"
            kind = "context-manager"
            message = f"`{name}` is {adjective} context manager made by `{written}`."
        elif role == "singledispatch" and not is_class:
            kind = "dispatch"
            message = f"`{name}` is a single-dispatch generic function (`{written}`)."
        elif role is not None:
            continue  # dataclass, abstract method: told with the class
        elif last == "register" and owner in dispatchers:
            kind = "dispatch"
            message = f"`{name}` is an implementation registered on the single-dispatch `{owner}`."
        elif "register" in dotted.lower() or "registry" in dotted.lower():
            kind = "decorator-registry"
            message = f"`{name}` is registered by the decorator `{written}`."
        else:
            continue  # `@registration_hook`: no `register` in it
        found.append(Finding("pattern", kind, node_line(node), message, name))
    return found
