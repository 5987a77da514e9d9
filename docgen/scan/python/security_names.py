"""What a Python module's names stand for, as far as reading its statements cheaply
can tell: import bindings (and simple re-assignments of them), names the module
binds itself, classes built on a safe yaml loader, and assignments worth a TLS
look.  Statement bodies only: expressions, the bulk of a tree, are never visited.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import MappingProxyType

from docgen.model.python_names import dotted_parts
from docgen.scan.python.ast_names import STATEMENT_BODIES

Scope = Mapping[str, tuple[str, ...]]  # bound name -> the dotted names it may stand for


@dataclass(frozen=True, slots=True)
class Names:
    """What the module's names stand for, as far as cheap statement reading can tell."""

    aliases: Scope  # imported (and simply re-assigned) names
    builtins_shadowed: frozenset[str]  # of "eval"/"exec": bound by the module itself
    #: local classes built on a safe yaml loader, or their aliases
    safe_loader_classes: frozenset[str]
    #: "eval"/"exec" bound only as a parameter: the lines of the functions that bind it
    #: (`def __aexit__(self, etype, eval, tb)` shadows `eval` in that function alone)
    builtins_shadowed_in: Mapping[str, tuple[tuple[int, int], ...]]


#: yaml loaders that cannot build arbitrary objects (FullLoader: see `python_security`)
_SAFE_LOADERS = frozenset(
    f"yaml.{loader}"
    for loader in (
        *("SafeLoader", "CSafeLoader", "BaseLoader", "CBaseLoader"),
        *("FullLoader", "CFullLoader"),
    )
)

_BUILTINS = ("eval", "exec")


def resolve(node: ast.expr, names: Names) -> tuple[str, ...]:
    """The dotted names an expression may stand for, through the module's imports."""
    parts = dotted_parts(node)
    if parts is None:
        return ()
    root = parts[0]
    rest = "".join("." + part for part in parts[1:])
    targets = names.aliases.get(root)
    if targets is not None:
        return tuple(target + rest for target in targets)
    if len(parts) == 1 and root in _BUILTINS and root not in names.builtins_shadowed:
        spans = names.builtins_shadowed_in.get(root, ())
        if not any(first <= node.lineno <= last for first, last in spans):
            return (root,)
    return ()


def is_safe_loader(node: ast.expr, names: Names, depth: int) -> bool:
    """A yaml Loader that cannot build arbitrary objects, in every way it is written here."""
    if depth <= 0:
        return False
    if isinstance(node, ast.IfExp):
        return is_safe_loader(node.body, names, depth - 1) and is_safe_loader(
            node.orelse, names, depth - 1
        )
    if isinstance(node, ast.Call):  # getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        attribute = _getattr_yaml(node, names)
        default_safe = len(node.args) < 3 or is_safe_loader(node.args[2], names, depth - 1)
        return f"yaml.{attribute}" in _SAFE_LOADERS and default_safe
    if isinstance(node, ast.Name) and node.id in names.safe_loader_classes:
        return True
    resolved = resolve(node, names)
    return bool(resolved) and all(name in _SAFE_LOADERS for name in resolved)


def _getattr_yaml(call: ast.Call, names: Names) -> str | None:
    """The attribute name in `getattr(yaml, "name"[, default])`, else None."""
    func, args = call.func, call.args
    if not (isinstance(func, ast.Name) and func.id == "getattr" and len(args) in (2, 3)):
        return None
    name = args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    return name.value if "yaml" in resolve(args[0], names) else None


_BLOCKS = STATEMENT_BODIES  # statement class -> its statement-body fields
_ASSIGN, _IMPORT, _BLOCK = 1, 2, 3
#: statement class -> what reading it means; statements missing here bind nothing we track
_ROLES: Mapping[type, int] = MappingProxyType(
    {ast.Assign: _ASSIGN, ast.AnnAssign: _ASSIGN, ast.Import: _IMPORT, ast.ImportFrom: _IMPORT}
    | dict.fromkeys(_BLOCKS, _BLOCK)
)
_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_BUILTINS = ("eval", "exec")
#: attributes whose assignment can switch TLS checks off
_TLS_ATTRIBUTES = frozenset({"check_hostname", "verify_mode", "_create_default_https_context"})


def module_renames(tree: ast.Module, tails: AbstractSet[str]) -> frozenset[str]:
    """Names that module-level `import x.load as f` or `f = x.load` give a risky callee.

    The cheap gate for files where no call has a risky name: it reads module-level
    statements only (not function or class bodies), so a renaming import inside a
    function is seen only in files that are read in full for another call.
    """
    blocks = _BLOCKS
    renames: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Import or kind is ast.ImportFrom:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.asname and alias.name.rpartition(".")[2] in tails:
                    renames.add(alias.asname)
        elif kind is ast.Assign:
            value = node.value  # type: ignore[attr-defined]
            tail = value.attr if type(value) is ast.Attribute else getattr(value, "id", None)
            if tail in tails:
                targets = node.targets  # type: ignore[attr-defined]
                renames.update(t.id for t in targets if type(t) is ast.Name)
        elif kind not in _SCOPES:
            for field in blocks.get(kind, ()):
                stack.extend(getattr(node, field))
    return frozenset(renames)


def calls_any(calls: Sequence[ast.Call], bare_names: AbstractSet[str]) -> list[ast.Call]:
    """The calls of a bare name among `bare_names`."""
    if not bare_names:
        return []
    name = ast.Name
    return [call for call in calls if type(call.func) is name and call.func.id in bare_names]


def read_statements(tree: ast.Module) -> tuple[Names, list[ast.Assign]]:
    """Import bindings, locally bound names, and assignments worth a TLS look.

    Statement bodies only: imports, definitions and assignments are statements,
    so expressions (the bulk of a tree) are never visited.
    """
    aliases: dict[str, list[str]] = {}
    local: set[str] = set()  # bound by relative import, non-alias assignment or parameter
    #: "eval"/"exec" as a parameter: the lines of each function that binds it
    parameters: dict[str, list[tuple[int, int]]] = {}
    defined: set[str] = set()  # bound by def/class: a local function shadows an import
    methods: set[int] = set()  # ids of functions directly in a class body: they bind nothing
    classes: list[ast.ClassDef] = []
    chains: list[tuple[str, ast.expr]] = []  # `name = dotted.chain`, resolved at the end
    tls: list[ast.Assign] = []
    roles, blocks = _ROLES, _BLOCKS
    stack: list[ast.AST] = list(tree.body)  # order is irrelevant: bindings are unions
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        role = roles.get(type(node))  # one lookup per statement: this loop sees them all
        if role is None:
            continue
        if role == _ASSIGN:
            _read_assignment(node, local, chains, tls)  # type: ignore[arg-type]
            continue
        if role == _IMPORT:
            _read_import(node, aliases, local)  # type: ignore[arg-type]
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if id(node) not in methods:
                defined.add(node.name)
            _add_parameters(node, local, parameters)
        elif isinstance(node, ast.ClassDef):
            defined.add(node.name)
            classes.append(node)
            methods.update(
                id(item)
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
        for field in blocks[type(node)]:
            extend(getattr(node, field))
    return _names(aliases, local, defined, chains, classes, parameters), tls


def _names(
    aliases: dict[str, list[str]],
    local: set[str],
    defined: set[str],
    chains: list[tuple[str, ast.expr]],
    classes: list[ast.ClassDef],
    parameters: Mapping[str, list[tuple[int, int]]],
) -> Names:
    """The module's scope once every binding is known."""
    for bound in defined:
        aliases.pop(bound, None)
    if chains:
        imported = Names(
            MappingProxyType({k: tuple(v) for k, v in aliases.items()}),
            frozenset(),
            frozenset(),
            MappingProxyType({}),
        )
        resolved = [(bound, resolve(value, imported)) for bound, value in chains]
        # `load = pickle.load` makes `load` an alias, unless `load` is bound to something else
        unclear = defined | local | {bound for bound, targets in resolved if not targets}
        for bound, targets in resolved:
            if bound not in unclear:
                aliases.setdefault(bound, []).extend(targets)
    scope: Scope = MappingProxyType(
        {bound: tuple(sorted(set(targets))) for bound, targets in aliases.items() if targets}
    )
    taken = local | defined | {name for name, _ in chains}
    shadowed = frozenset(n for n in _BUILTINS if n in taken)
    within = MappingProxyType(
        {n: tuple(sorted(spans)) for n, spans in parameters.items() if n not in shadowed}
    )
    names = Names(scope, shadowed, frozenset(), within)
    if not classes:
        return names
    safe = _safe_loader_classes(classes, names)
    if not safe:
        return names
    # `loader = SafeLoaderSubclass`: safe when every assignment to it says so
    values: dict[str, list[ast.expr]] = {}
    for bound, value in chains:
        values.setdefault(bound, []).append(value)
    safe_variables = {
        bound
        for bound, assigned in values.items()
        if bound not in local | defined
        and all(isinstance(value, ast.Name) and value.id in safe for value in assigned)
    }
    return Names(scope, shadowed, safe | safe_variables, within)


def _read_import(
    node: ast.Import | ast.ImportFrom, aliases: dict[str, list[str]], local: set[str]
) -> None:
    """`import a.b as c`: c is a.b; `import a.b`: a is a; `from a import b as c`: c is a.b."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                aliases.setdefault(alias.asname, []).append(alias.name)
            else:
                root = alias.name.partition(".")[0]
                aliases.setdefault(root, []).append(root)
        return
    for alias in node.names:
        if alias.name == "*":
            continue
        bound = alias.asname or alias.name
        if node.level or not node.module:  # relative: bound, but to nothing we know
            local.add(bound)
        else:
            aliases.setdefault(bound, []).append(f"{node.module}.{alias.name}")


def _read_assignment(
    node: ast.Assign | ast.AnnAssign,
    local: set[str],
    chains: list[tuple[str, ast.expr]],
    tls: list[ast.Assign],
) -> None:
    value = node.value
    chain = value if type(value) is ast.Name or type(value) is ast.Attribute else None
    for target in node.targets if isinstance(node, ast.Assign) else (node.target,):
        if type(target) is ast.Name:
            if chain is not None:
                chains.append((target.id, chain))
            else:
                local.add(target.id)
        elif (
            isinstance(node, ast.Assign)
            and isinstance(target, ast.Attribute)
            and target.attr in _TLS_ATTRIBUTES
        ):
            tls.append(node)


def _add_parameters(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    local: set[str],
    builtins: dict[str, list[tuple[int, int]]],
) -> None:
    """Parameters: `pickle_module.load(f)` is no `pickle.load` when `pickle_module` is one;
    a parameter named `eval` or `exec` shadows the builtin in its own function only."""
    arguments = function.args
    named = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    for arg in (*named, arguments.vararg, arguments.kwarg):
        if arg is None:
            continue
        if arg.arg in _BUILTINS:
            span = (function.lineno, function.end_lineno or function.lineno)
            builtins.setdefault(arg.arg, []).append(span)
        else:
            local.add(arg.arg)


def _safe_loader_classes(classes: list[ast.ClassDef], names: Names) -> frozenset[str]:
    """Local classes whose bases are all safe yaml loaders, directly or through each other."""
    safe: set[str] = set()
    changed = True
    while changed:
        changed = False
        known = Names(
            names.aliases, names.builtins_shadowed, frozenset(safe), names.builtins_shadowed_in
        )
        for cls in classes:
            if cls.name in safe or not cls.bases:
                continue
            if all(is_safe_loader(base, known, 1) for base in cls.bases):
                safe.add(cls.name)
                changed = True
    return frozenset(safe)
