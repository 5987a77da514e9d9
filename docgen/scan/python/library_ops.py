"""The operators a Python file registers with PyTorch's dispatcher through
`torch.library`, read as the C++ `TORCH_LIBRARY` blocks are (`Registration`):

- `lib = Library("quantized_decomposed", "DEF")` (or `"FRAGMENT"`, `"IMPL"` with a
  dispatch key) and its `lib.define("quantize_per_tensor(Tensor input, ...) -> Tensor")`
  and `lib.impl("name", function, "CPU")` calls, and `@impl(lib, "name", "CPU")`;
- `@torch.library.custom_op("torch_attn::_varlen_attn", mutates_args={})` on a function,
  and `torch.library.define("ns::name", "(Tensor x) -> Tensor")`;
- `@torch.library.impl("ns::name", "CPU")`, `@torch.library.register_fake("ns::name")`
  and `@torch.library.register_kernel("ns::name", "CUDA")` on a function, and
  `@op.register_fake` or `@op.register_kernel("cpu")` where `op` is a function of the
  file a `custom_op` decorates.

A library is a module-level variable; names are read only where written as string
literals.  Only the file's own spellings of `torch.library` count: the module imported
as itself or by name (`from torch.library import Library, impl`).
"""

from __future__ import annotations

import ast
from dataclasses import replace

from docgen.model.cfamily_facts import RegisteredOp, Registration
from docgen.model.python_names import dotted_name
from docgen.scan.python.attributes import scope_statements

MODULE = "torch.library"
#: the calls that define an operator's schema, and those that give it a kernel
DEFINERS = frozenset({"custom_op", "triton_op", "define"})
IMPLEMENTERS = frozenset({"impl", "register_fake", "register_kernel", "register_autograd"})


def library_ops(tree: ast.Module, text: str) -> tuple[Registration, ...]:
    """Every registration of the file, by line."""
    if "library" not in text and "Library(" not in text:
        return ()
    nodes = list(ast.walk(tree))
    names = _library_names(nodes)
    if not names:
        return ()
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    functions = [n for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    libraries = _libraries(tree, names, calls)
    found = list(libraries.values())
    found += [made for call in calls if (made := _call(call, names)) is not None]
    for function in functions:
        found.extend(_decorated(function, names, libraries))
    defined = {  # the function a `custom_op` decorates names its operator
        op.target: f"{r.name}::{op.name}"
        for r in found
        if r.macro in ("custom_op", "triton_op")
        for op in r.ops
    }
    for function in functions:
        found.extend(_methods(function, defined))
    return tuple(sorted(found, key=lambda r: (r.line, r.macro, r.name)))


def _methods(
    function: ast.FunctionDef | ast.AsyncFunctionDef, defined: dict[str, str]
) -> list[Registration]:
    """`@op.register_fake` and `@op.register_kernel("cpu")` on a function, where `op` is
    a function of the file a `custom_op` makes an operator of."""
    found = []
    for decorator in function.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        reference = call.func if call is not None else decorator
        if not isinstance(reference, ast.Attribute) or reference.attr not in IMPLEMENTERS:
            continue
        owner = reference.value
        if not isinstance(owner, ast.Name) or owner.id not in defined:
            continue
        args = _strings(call) if call is not None else []
        found.append(
            _registration(
                reference.attr,
                defined[owner.id],
                decorator.lineno,
                [defined[owner.id], *args],
                function.name,
            )
        )
    return found


def _library_names(nodes: list[ast.AST]) -> dict[str, str]:
    """What each spelling of `torch.library`'s functions stands for in this file
    (`torch.library.custom_op`, `library.impl`, `Library`)."""
    names: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in (MODULE, "torch"):
                    names[alias.asname] = alias.name
                elif alias.name in (MODULE, "torch"):  # `import torch.library` binds `torch`
                    names["torch"] = "torch"
        elif isinstance(node, ast.ImportFrom) and node.module in (MODULE, "torch"):
            for alias in node.names:
                if node.module == MODULE or alias.name == "library":
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _resolved(node: ast.expr, names: dict[str, str]) -> str:
    """A callee as the file's imports make it (`torch.library.impl`), "" when it is not
    one of `torch.library`'s."""
    written = dotted_name(node)
    if written is None:
        return ""
    head, dot, rest = written.partition(".")
    if head not in names:
        return ""
    full = f"{names[head]}{dot}{rest}"
    return full if full.startswith(f"{MODULE}.") else ""


def _strings(call: ast.Call) -> list[str | None]:
    """Each positional argument's text where it is a string literal."""
    return [
        a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
        for a in call.args
    ]


def _libraries(
    tree: ast.Module, names: dict[str, str], calls: list[ast.Call]
) -> dict[str, Registration]:
    """Each module-level `lib = Library("ns", "DEF"[, "CPU"])`, with the operators its
    `define` and `impl` calls (anywhere in the file) register."""
    found: dict[str, Registration] = {}
    for statement in scope_statements(tree.body):
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            continue
        target, call = statement.targets[0], statement.value
        if not isinstance(target, ast.Name) or not isinstance(call, ast.Call):
            continue
        if _resolved(call.func, names) != f"{MODULE}.Library":
            continue
        args = _strings(call)
        if len(args) < 2 or args[0] is None or args[1] is None:
            continue
        key = args[2] if len(args) > 2 and args[2] else ""
        line = statement.lineno
        found[target.id] = Registration(f"Library({args[1]})", args[0], line, line, key)
    for node in calls:
        if not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        if not isinstance(owner, ast.Name) or owner.id not in found:
            continue
        args = _strings(node)
        verb = node.func.attr
        if verb not in ("define", "impl") or not args or not args[0]:
            continue
        name = args[0].split("(", 1)[0].strip()
        function = dotted_name(node.args[1]) if verb == "impl" and len(node.args) > 1 else None
        op = RegisteredOp(
            "def" if verb == "define" else "impl",
            name,
            node.lineno,
            args[0] if verb == "define" else "",
            function or "",
        )
        block = found[owner.id]
        found[owner.id] = replace(block, ops=(*block.ops, op))
    return found


def _call(call: ast.Call, names: dict[str, str]) -> Registration | None:
    """`torch.library.define("ns::name", "(Tensor x) -> Tensor")`, or a kernel given by
    a call (`torch.library.impl("ns::name", "CPU", kernel)`); a decorator's call names
    no function, and `_decorated` reads it with its function."""
    callee = _resolved(call.func, names)
    verb = callee.rsplit(".", 1)[-1] if callee else ""
    args = _strings(call)
    if not args or not args[0] or "::" not in args[0]:
        return None
    if verb == "define":
        return _registration(verb, args[0], call.lineno, args, "")
    function = _function_arg(call)
    if verb in IMPLEMENTERS and function:
        return _registration(verb, args[0], call.lineno, args, function)
    return None


def _function_arg(call: ast.Call) -> str:
    """The function given as a call's last positional argument, by name."""
    for arg in reversed(call.args):
        written = dotted_name(arg)
        if written is not None:
            return written
    return ""


def _decorated(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    names: dict[str, str],
    libraries: dict[str, Registration],
) -> list[Registration]:
    """The registrations a function's decorators make of it."""
    found = []
    for decorator in function.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        callee = _resolved(decorator.func, names)
        verb = callee.rsplit(".", 1)[-1] if callee else ""
        args = _strings(decorator)
        if verb == "impl" and decorator.args and isinstance(decorator.args[0], ast.Name):
            library = libraries.get(decorator.args[0].id)
            if library is not None and len(args) > 1 and args[1]:  # `@impl(lib, "name", "CPU")`
                key = args[2] if len(args) > 2 and args[2] else library.dispatch_key
                op = RegisteredOp("impl", args[1], decorator.lineno, "", function.name)
                line = decorator.lineno
                found.append(Registration("impl", library.name, line, line, key, "", (op,)))
            continue
        if (verb in DEFINERS or verb in IMPLEMENTERS) and args and args[0] and "::" in args[0]:
            found.append(_registration(verb, args[0], decorator.lineno, args, function.name))
    return found


def _registration(
    verb: str, qualified: str, line: int, args: list[str | None], function: str
) -> Registration:
    """One operator's registration: `ns::name` defined, or given a kernel for a key."""
    namespace, _, name = qualified.partition("::")
    defines = verb in DEFINERS
    key = args[1] if verb in ("impl", "register_kernel") and len(args) > 1 and args[1] else ""
    schema = args[1] if verb == "define" and len(args) > 1 and args[1] else ""
    op = RegisteredOp("def" if defines else "impl", name, line, schema, function)
    return Registration(verb, namespace, line, line, key, "", (op,))
