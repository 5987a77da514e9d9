"""The docstrings a module attaches at import to objects made elsewhere.

PyTorch documents the functions its C++ makes from Python: `torch._C._add_docstr`
sets the `__doc__` of such a function, so `torch/_torch_docs.py` writes
`add_docstr(torch.add, r\"\"\"...\"\"\")`, `torch/linalg/__init__.py` writes `cross =
_add_docstr(_linalg.linalg_cross, r\"\"\"...\"\"\")`, and `torch/_tensor_docs.py` calls its
own one-line wrapper, `def add_docstr_all(method, docstr): add_docstr(getattr(
torch._C.TensorBase, method), docstr)`, as `add_docstr_all("abs", r\"\"\"...\"\"\")`.
Each is read from the statements that run at import: the module's (through `if`,
`try`, `with` and loops) and its classes' bodies, never inside a function.  The text
is kept as written: a `.format(...)` that fills fields of it at import is noted, not
run.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, replace

from docgen.model.binding_facts import AttachedDoc
from docgen.model.facts import Attribute
from docgen.model.python_names import dotted_name
from docgen.scan.python.attributes import scope_statements

#: the name of torch's setter, as `torch._C` (or `._C` inside torch) gives it
SETTER = "_add_docstr"


@dataclass(frozen=True)
class _Wrapper:
    """A module function whose one statement attaches its `doc` argument to the
    attribute its `name` argument names of `owner`."""

    owner: str
    name: int  # the index of the parameter naming the attribute
    doc: int  # the index of the parameter holding the text


def attached_docs(tree: ast.Module, text: str) -> tuple[AttachedDoc, ...]:
    """Every `add_docstr(target, text)` that runs at import, by line."""
    if SETTER not in text:
        return ()
    setters = _setter_names(tree)
    wrappers = _wrappers(tree, setters)
    found = []
    for owner, statements in _scopes(tree):
        for statement in scope_statements(statements):
            attached = _attached(statement, owner, setters, wrappers)
            if attached is not None:
                found.append(attached)
    return tuple(sorted(found, key=lambda a: (a.line, a.target)))


def _scopes(tree: ast.Module) -> list[tuple[str, list[ast.stmt]]]:
    """The bodies that run at import: the module's, and each module-level class's
    (`class Tensor: detach = _C._add_docstr(_C.TensorBase.detach, ...)`)."""
    scopes = [("", tree.body)]
    scopes += [(node.name, node.body) for node in tree.body if isinstance(node, ast.ClassDef)]
    return scopes


def _attached(
    statement: ast.stmt, owner: str, setters: frozenset[str], wrappers: dict[str, _Wrapper]
) -> AttachedDoc | None:
    """The docstring one statement attaches, if it is a call of the setter or of a
    wrapper of it, bare or bound to a name."""
    bound = ""
    if isinstance(statement, ast.Expr):
        call = statement.value
    elif (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        call, bound = statement.value, statement.targets[0].id
    else:
        return None
    if not isinstance(call, ast.Call) or len(call.args) < 2:
        return None
    callee = dotted_name(call.func) or ""
    target, doc = None, None
    if callee in setters:
        target, doc = _target(call.args[0]), call.args[1]
    elif callee in wrappers:
        wrapper = wrappers[callee]
        if max(wrapper.name, wrapper.doc) < len(call.args):
            named = call.args[wrapper.name]
            if isinstance(named, ast.Constant) and isinstance(named.value, str):
                target, doc = f"{wrapper.owner}.{named.value}", call.args[wrapper.doc]
    if target is None or doc is None:
        return None
    written, fields = _text(doc)
    text = inspect.cleandoc(written) if written is not None else None  # as `help()` shows it
    call_text = f"{callee}({_short(ast.unparse(call.args[0]))}, ...)"
    qualname = f"{owner}.{bound}" if owner and bound else bound
    return AttachedDoc(target, statement.lineno, text, fields, call_text, qualname)


def _setter_names(tree: ast.Module) -> frozenset[str]:
    """The names the setter goes by in this file: `from torch._C import _add_docstr
    [as add_docstr]` anywhere at module level, and its dotted spellings."""
    names = {f"torch._C.{SETTER}", f"_C.{SETTER}"}
    for statement in scope_statements(tree.body):
        if not isinstance(statement, ast.ImportFrom) or not statement.module:
            continue
        if statement.module.rsplit(".", 1)[-1] != "_C":
            continue
        for alias in statement.names:
            if alias.name == SETTER:
                names.add(alias.asname or alias.name)
    return frozenset(names)


def _wrappers(tree: ast.Module, setters: frozenset[str]) -> dict[str, _Wrapper]:
    """The module's functions whose body (past a docstring) is one
    `setter(getattr(OWNER, name), doc)` of two of their parameters."""
    found: dict[str, _Wrapper] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        params = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
        body = node.body[1:] if ast.get_docstring(node, clean=False) is not None else node.body
        if len(body) != 1 or not isinstance(body[0], ast.Expr):
            continue
        call = body[0].value
        if not isinstance(call, ast.Call) or dotted_name(call.func) not in setters:
            continue
        if len(call.args) != 2 or call.keywords:
            continue
        getter, doc = call.args
        if not (
            isinstance(getter, ast.Call)
            and dotted_name(getter.func) == "getattr"
            and len(getter.args) == 2
            and isinstance(getter.args[1], ast.Name)
            and isinstance(doc, ast.Name)
        ):
            continue
        owner = dotted_name(getter.args[0])
        name, text = getter.args[1].id, doc.id
        if owner and name in params and text in params:
            found[node.name] = _Wrapper(owner, params.index(name), params.index(text))
    return found


def _target(node: ast.expr) -> str | None:
    """`torch.add`, or `getattr(torch._C.TensorBase, "abs")` as `torch._C.TensorBase.abs`."""
    written = dotted_name(node)
    if written is not None:
        return written
    if (
        isinstance(node, ast.Call)
        and dotted_name(node.func) == "getattr"
        and len(node.args) == 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        owner = dotted_name(node.args[0])
        return f"{owner}.{node.args[1].value}" if owner else None
    return None


def _text(node: ast.expr) -> tuple[str | None, str]:
    """The text a docstring argument writes, and the arguments of a `.format(...)` that
    fills it, as written ("" for none); None for text made by other code (a variable,
    an f-string's values)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, ""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        inner, _ = _text(node.func.value)
        arguments = [ast.unparse(a) for a in node.args]
        arguments += [ast.unparse(k) for k in node.keywords]
        return inner, (_short(", ".join(arguments)) or "()") if inner is not None else ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, left_fields = _text(node.left)
        right, right_fields = _text(node.right)
        if left is not None and right is not None and not (left_fields and right_fields):
            return left + right, left_fields or right_fields
    return None, ""


def with_attached(
    attributes: tuple[Attribute, ...], attached: tuple[AttachedDoc, ...]
) -> tuple[Attribute, ...]:
    """The module and class attributes bound to an attaching call's result (`cross =
    _add_docstr(...)`) documented by the text it attaches, unless they have a
    docstring of their own: that text is the `__doc__` of what the name holds."""
    texts = {(a.bound, a.line): a.text for a in attached if a.bound and a.text}
    if not texts:
        return attributes
    return tuple(
        replace(a, docstring=texts[(a.qualname, a.line)])
        if a.scope != "instance" and a.docstring is None and (a.qualname, a.line) in texts
        else a
        for a in attributes
    )


#: the longest first argument a call is shown with
MAX_ARGUMENT = 80


def _short(text: str) -> str:
    return text if len(text) <= MAX_ARGUMENT else text[: MAX_ARGUMENT - 1] + "…"
