"""Idioms and costly loop patterns of one Python module, each proven by one line.

The tree is walked through statement bodies only: a full expression walk costs
about half an `ast.parse`, and every claim here but the loop ones
(`python_loops`) hangs on a statement (a `class`, a `def`, an assignment).  Names
are resolved through the file's own imports (`python_roles`), so a `Module` or
`Enum` of the project's own is never taken for torch's or the standard library's.

`yield` is seen where it is a statement's whole value (`yield x`, `y = yield`,
`return (yield)`), which is where Python code puts it; one buried deeper in an
expression would need the full walk this module avoids.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from docgen.model.facts import Finding
from docgen.model.python_names import dotted_name, node_line
from docgen.scan.python.decorator_idioms import Decorator, decorator_findings, decorators_of
from docgen.scan.python.loops import loop_findings
from docgen.scan.python.roles import Aliases, aliases_of, expr_role, role_of

_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


#: base-class roles that are findings of their own: role -> message after "`Name` "
_BASE_MESSAGES = MappingProxyType(
    {
        "nn-module": "subclasses `{}`.",
        "named-tuple": "is a typed named tuple (`{}`).",
        "typed-dict": "is a `{}`.",
        "enum": "is an enumeration (`{}`).",
        "protocol": "is a structural type (`{}`).",
    }
)

#: the roles a subclass has too (a subclass of an ABC or a Protocol need not be one)
_INHERITED_ROLES = frozenset({"nn-module", "typed-dict", "enum"})

#: statement classes -> (fields holding statements, fields holding handlers or cases)
_BLOCKS: Mapping[type, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType(
    {
        cls: fields
        for names, fields in (
            (("With", "AsyncWith"), (("body",), ())),
            (("If", "For", "AsyncFor", "While"), (("body", "orelse"), ())),
            (("Try", "TryStar"), (("body", "orelse", "finalbody"), ("handlers",))),
            (("Match",), ((), ("cases",))),
        )
        for name in names
        if (cls := getattr(ast, name, None)) is not None
    }
)
_VALUE_STATEMENTS = (ast.Expr, ast.Assign, ast.Return, ast.AugAssign, ast.AnnAssign)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_YIELD = 1
_YIELD_FROM = 2
#: what a name stands for when the imports cannot tell (relative import, local definition)
_UNKNOWN = "?"


@dataclass(slots=True)
class _Walk:
    """What the statement walk collects, for the passes that judge it."""

    definitions: list[_Def] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)  # enclosing definition's index, or -1
    classes: list[int] = field(default_factory=list)
    decorated: list[int] = field(default_factory=list)
    async_functions: list[int] = field(default_factory=list)
    yields: dict[int, int] = field(default_factory=dict)  # function index -> _YIELD | ...
    protocol_methods: dict[int, set[str]] = field(default_factory=dict)  # class -> __enter__...
    imports: list[ast.Import | ast.ImportFrom] = field(default_factory=list)
    local_names: list[str] = field(default_factory=list)  # module-level classes and defs
    module_assignments: list[ast.Assign | ast.AugAssign | ast.AnnAssign] = field(
        default_factory=list
    )

    def qualname(self, index: int) -> str:
        """`Outer.method.inner`, built only for definitions that get a finding."""
        parts: list[str] = []
        while index >= 0:
            parts.append(self.definitions[index].name)
            index = self.parents[index]
        return ".".join(reversed(parts))


def idiom_findings(
    tree: ast.Module, calls: Sequence[ast.Call], package: str | None = None
) -> list[Finding]:
    """Idioms and loop costs of a module, sorted by (category, line, kind, subject).

    `package` is the dotted package the module's relative imports start from
    (`torch.nn.modules` for `torch/nn/modules/linear.py`); None leaves them unknown.
    """
    walk = _walk(tree)
    aliases = aliases_of(walk.imports, walk.local_names, package)
    found: list[Finding] = []
    for statement in walk.module_assignments:
        found.extend(_dunder_all(statement))
    definitions = walk.definitions
    decorators = {
        index: found_decorators
        for index in walk.decorated
        if (found_decorators := decorators_of(definitions[index], aliases))
    }
    dispatchers: set[str] = set()
    abstract: dict[int, int] = {}  # class index -> abstract methods
    for index, decorated in decorators.items():
        roles = [role for _, _, role in decorated if role is not None]
        if "singledispatch" in roles:
            dispatchers.add(definitions[index].name)
        if "abstract" in roles:
            parent = walk.parents[index]
            abstract[parent] = abstract.get(parent, 0) + 1
    local_roles: dict[str, tuple[str, str]] = {}  # class name -> (role, base it comes from)
    for index in walk.classes:
        found.extend(
            _class_findings(index, walk, aliases, decorators, abstract.get(index, 0), local_roles)
        )
    for index in {*walk.async_functions, *walk.yields}:
        node = definitions[index]
        if not isinstance(node, ast.ClassDef):
            found.extend(_function_findings(node, walk.qualname(index), walk.yields.get(index, 0)))
    for index, decorated in decorators.items():
        node = definitions[index]
        found.extend(decorator_findings(node, walk.qualname(index), decorated, dispatchers))
    if _imports_torch(walk.imports):
        found.extend(loop_findings(tree, calls, aliases))
    return sorted(set(found), key=lambda f: (f.category, f.line, f.kind, f.subject, f.message))


# --- the statement walk -------------------------------------------------------

_MODULE, _CLASS, _FUNCTION = range(3)
#: statement classes by what the walk does with them; others hold nothing of interest
_VALUE_CLASSES = frozenset(_VALUE_STATEMENTS)
_BLOCK_CLASSES = frozenset(_BLOCKS)
_DEFINITION_CLASSES = frozenset(_DEFINITIONS)
_IMPORT_CLASSES = frozenset({ast.Import, ast.ImportFrom})
_YIELDS = frozenset({ast.Yield, ast.YieldFrom})
_BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While)
_BODY_FIELDS = frozenset({"body", "orelse", "finalbody"})
_ASSIGNMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign)
_PROTOCOL_METHODS = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})


def _walk(tree: ast.Module) -> _Walk:
    """Definitions, imports, yields and module assignments, through statement bodies.

    Iterative, so deep nesting cannot exhaust the stack; order does not matter
    because every finding is sorted at the end.  Dispatching on the exact
    statement class keeps the walk near a thirtieth of the parse.
    """
    result = _Walk()
    definitions, yields = result.definitions, result.yields
    imports, assignments = result.imports, result.module_assignments
    # (statements, index of the enclosing definition or -1, _MODULE / _CLASS / _FUNCTION)
    stack: list[tuple[list[ast.stmt], int, int]] = [(tree.body, -1, _MODULE)]
    push = stack.append
    values, blocks, definition_classes = _VALUE_CLASSES, _BLOCK_CLASSES, _DEFINITION_CLASSES
    yield_classes = _YIELDS
    while stack:
        body, owner, scope = stack.pop()
        for stmt in body:
            kind = type(stmt)
            if kind in values:
                if scope == _FUNCTION:
                    value_class = type(getattr(stmt, "value", None))
                    if value_class in yield_classes:
                        flag = _YIELD if value_class is ast.Yield else _YIELD_FROM
                        yields[owner] = yields.get(owner, 0) | flag
                elif scope == _MODULE and isinstance(stmt, _ASSIGNMENTS):
                    assignments.append(stmt)
            elif kind in blocks:
                if isinstance(stmt, _BRANCHES):  # the common blocks, read without getattr
                    push((stmt.body, owner, scope))
                    if stmt.orelse:
                        push((stmt.orelse, owner, scope))
                    continue
                bodies, holders = _BLOCKS[kind]
                for name in bodies:
                    statements = getattr(stmt, name)
                    if statements:
                        push((statements, owner, scope))
                for name in holders:  # except handlers, match cases: a body each
                    for holder in getattr(stmt, name):
                        push((holder.body, owner, scope))
            elif kind in definition_classes:
                if isinstance(stmt, _DEFINITIONS):
                    _add_definition(result, stmt, owner, scope == _CLASS)
                    inner = _CLASS if isinstance(stmt, ast.ClassDef) else _FUNCTION
                    push((stmt.body, len(definitions) - 1, inner))
            elif kind in _IMPORT_CLASSES and isinstance(stmt, (ast.Import, ast.ImportFrom)):
                imports.append(stmt)
    return result


def _add_definition(result: _Walk, stmt: _Def, owner: int, in_class: bool) -> None:
    index = len(result.definitions)
    result.definitions.append(stmt)
    result.parents.append(owner)
    if owner < 0:
        result.local_names.append(stmt.name)
    if stmt.decorator_list:
        result.decorated.append(index)
    if isinstance(stmt, ast.ClassDef):
        result.classes.append(index)
        return
    if isinstance(stmt, ast.AsyncFunctionDef):
        result.async_functions.append(index)
    if in_class and stmt.name in _PROTOCOL_METHODS:
        result.protocol_methods.setdefault(owner, set()).add(stmt.name)


def _dunder_all(stmt: ast.Assign | ast.AugAssign | ast.AnnAssign) -> list[Finding]:
    """`__all__ = [...]` or `__all__ += [...]`, with its count when the names are literal."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else (stmt.target,)
    for target in targets:  # a plain loop: this runs for every module-level assignment
        if isinstance(target, ast.Name) and target.id == "__all__":
            break
    else:
        return []
    value = stmt.value
    if value is None:  # `__all__: list[str]` declares, assigns nothing
        return []
    count = None
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(element, ast.Constant) and isinstance(element.value, str)
        for element in value.elts
    ):
        count = len(value.elts)
    names = f"{count} name" + ("" if count == 1 else "s")
    if isinstance(stmt, ast.AugAssign):
        message = f"`__all__` is extended with {names}." if count is not None else ""
        message = message or "`__all__` is extended."
    elif count is not None:
        message = f"`__all__` lists {names}."
    else:
        message = "`__all__` is assigned from an expression."
    return [Finding("pattern", "dunder-all", node_line(stmt), message, "__all__")]


# --- definitions ----------------------------------------------------------------


def _class_findings(
    index: int,
    walk: _Walk,
    aliases: Aliases,
    decorators: Mapping[int, list[Decorator]],
    abstract: int,
    local_roles: dict[str, tuple[str, str]],
) -> list[Finding]:
    """The findings of one class; `local_roles` holds the base roles of the classes
    before it (a subclass of `Linear`, itself an `nn.Module` of the same file, is one
    too) and gets this class's."""
    node = walk.definitions[index]
    if not isinstance(node, ast.ClassDef):
        return []
    name = ""  # the qualified name, built once a finding needs it
    found: list[Finding] = []
    abc_base = ""
    for base in node.bases:
        dotted = dotted_name(base.value if isinstance(base, ast.Subscript) else base)  # Protocol[T]
        role = role_of(dotted, aliases) if dotted is not None else None
        through = ""
        if role is None and dotted in local_roles:
            role, root = local_roles[dotted]
            through, dotted = dotted, root
        if role is None or dotted is None:
            continue
        if role in _INHERITED_ROLES and walk.parents[index] == -1:  # a module-level name
            local_roles.setdefault(node.name, (role, dotted))
        template = _BASE_MESSAGES.get(role)
        if template is not None:
            name = name or walk.qualname(index)
            message = f"`{name}` " + template.format(dotted)
            if through:
                message = message[:-1] + f" (through `{through}`, a class of this file)."
            found.append(_pattern(role, node_line(node), message, name))
        elif role == "abc":
            abc_base = dotted
    for keyword in node.keywords:
        if keyword.arg == "metaclass" and expr_role(keyword.value, aliases) == "abc-meta":
            abc_base = f"metaclass={dotted_name(keyword.value)}"
    dataclass = [
        decorator for decorator, _, role in decorators.get(index, ()) if role == "dataclass"
    ]
    defined = walk.protocol_methods.get(index, ())
    if not (abc_base or abstract or dataclass or defined):
        return found
    name, line = name or walk.qualname(index), node_line(node)
    if abc_base or abstract:
        count = f"{abstract} abstract method" + ("" if abstract == 1 else "s")
        if not abc_base:
            message = f"`{name}` declares {count}."
        elif abstract:
            message = f"`{name}` is an abstract base class (`{abc_base}`) with {count}."
        else:
            message = f"`{name}` is an abstract base class (`{abc_base}`)."
        found.append(_pattern("abc", line, message, name))
    for decorator in dataclass:
        frozen = isinstance(decorator, ast.Call) and any(
            keyword.arg == "frozen"
            and isinstance(keyword.value, ast.Constant)
            and keyword.value.value is True
            for keyword in decorator.keywords
        )
        message = f"`{name}` is a {'frozen ' if frozen else ''}dataclass."
        found.append(_pattern("dataclass", line, message, name))
    protocols = [
        f"`{enter}` and `{leave}`"
        for enter, leave in (("__enter__", "__exit__"), ("__aenter__", "__aexit__"))
        if enter in defined and leave in defined
    ]
    if protocols:
        message = f"`{name}` is a context manager: it defines {' and '.join(protocols)}."
        found.append(_pattern("context-manager", line, message, name))
    return found


def _function_findings(
    node: ast.FunctionDef | ast.AsyncFunctionDef, name: str, yields: int
) -> list[Finding]:
    line = node_line(node)
    is_async = isinstance(node, ast.AsyncFunctionDef)
    found: list[Finding] = []
    if is_async:
        found.append(_pattern("async", line, f"`{name}` is defined with `async def`.", name))
    if yields:
        uses = " and ".join(
            word
            for flag, word in ((_YIELD, "`yield`"), (_YIELD_FROM, "`yield from`"))
            if yields & flag
        )
        what = "a generator: it uses"
        if is_async:
            what = "an async generator: an `async def` that uses"
        found.append(_pattern("generator", line, f"`{name}` is {what} {uses}.", name))
    return found


def _pattern(kind: str, line: int, message: str, subject: str) -> Finding:
    return Finding("pattern", kind, line, message, subject)


# --- calls inside loops -------------------------------------------------------


def _imports_torch(imports: Iterable[ast.Import | ast.ImportFrom]) -> bool:
    """Whether the module imports torch at all.

    Loop claims need it: numpy arrays have `.item()` and `.tolist()` too, and a
    file that never names torch is far likelier to be calling those.
    """
    for stmt in imports:
        if isinstance(stmt, ast.Import):
            if any(alias.name.partition(".")[0] == "torch" for alias in stmt.names):
                return True
        elif not stmt.level and stmt.module and stmt.module.partition(".")[0] == "torch":
            return True
    return False
