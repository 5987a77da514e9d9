"""Idioms and costly loop patterns of one Python module, each proven by one line.

The tree is walked through statement bodies only: a full expression walk costs
about half an `ast.parse`, and every claim here but the loop ones hangs on a
statement (a `class`, a `def`, an assignment).  Loop claims start from the calls
the scanner already collected; only the few calls that could matter are placed,
by a search that follows source positions down from the module, so no loop map
of the whole file is ever built.  Names are resolved through the file's own
imports, so a `Module` or `Enum` of the project's own is never taken for torch's
or the standard library's.

`yield` is seen where it is a statement's whole value (`yield x`, `y = yield`,
`return (yield)`), which is where Python code puts it; one buried deeper in an
expression would need the full walk this module avoids.
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from docgen.facts import Finding
from docgen.scan.python_ast import dotted_name

_Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
_Aliases = Mapping[str, tuple[str, ...]]
_Position = tuple[int, int]
_Span = tuple[_Position, _Position]


def _roles() -> Mapping[str, str]:
    """Full name -> role; one table so each decorator or base is resolved once."""
    table: dict[str, str] = {}
    for role, names in (
        ("nn-module", ("torch.nn.Module", "torch.nn.modules.Module")),
        ("nn-module", ("torch.nn.modules.module.Module",)),
        ("named-tuple", ("typing.NamedTuple", "typing_extensions.NamedTuple")),
        ("typed-dict", ("typing.TypedDict", "typing_extensions.TypedDict")),
        ("typed-dict", ("mypy_extensions.TypedDict",)),
        ("enum", ("enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag")),
        ("protocol", ("typing.Protocol", "typing_extensions.Protocol")),
        ("abc", ("abc.ABC",)),
        ("abc-meta", ("abc.ABCMeta",)),
        ("abstract", ("abc.abstractmethod", "abc.abstractproperty")),
        ("abstract", ("abc.abstractclassmethod", "abc.abstractstaticmethod")),
        ("dataclass", ("dataclasses.dataclass",)),
        ("contextmanager", ("contextlib.contextmanager",)),
        ("asynccontextmanager", ("contextlib.asynccontextmanager",)),
        ("singledispatch", ("functools.singledispatch", "functools.singledispatchmethod")),
        ("synchronize", ("torch.cuda.synchronize",)),
        ("device", ("torch.device",)),
    ):
        table.update(dict.fromkeys(names, role))
    return MappingProxyType(table)


#: what a name must stand for, through the file's imports, to play a role here
ROLES = _roles()

#: every module a role's name lies in, with its parent packages
_ROLE_MODULES = frozenset(
    name.rsplit(".", depth)[0] for name in ROLES for depth in range(1, name.count(".") + 1)
)

#: the top-level packages of those modules: a name that shadows one needs tracking
_ROLE_ROOTS = frozenset(name.partition(".")[0] for name in ROLES)

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

#: methods that, called without arguments, copy a tensor to the host and wait for it
SYNC_METHODS = frozenset({"item", "cpu", "tolist", "numpy"})
_CANDIDATE_ATTRS = SYNC_METHODS | {"cuda", "to", "synchronize"}
_SYNCHRONIZE = "torch.cuda.synchronize"

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


# A decorator with its dotted name as written and the role its name resolves to.
_Decorator = tuple[ast.expr, str, str | None]


def idiom_findings(
    tree: ast.Module, calls: Sequence[ast.Call], package: str | None = None
) -> list[Finding]:
    """Idioms and loop costs of a module, sorted by (category, line, kind, subject).

    `package` is the dotted package the module's relative imports start from
    (`torch.nn.modules` for `torch/nn/modules/linear.py`); None leaves them unknown.
    """
    walk = _walk(tree)
    aliases = _aliases(walk, package)
    found: list[Finding] = []
    for statement in walk.module_assignments:
        found.extend(_dunder_all(statement))
    definitions = walk.definitions
    decorators = {
        index: found_decorators
        for index in walk.decorated
        if (found_decorators := _decorators(definitions[index], aliases))
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
    for index in walk.classes:
        found.extend(_class_findings(index, walk, aliases, decorators, abstract.get(index, 0)))
    for index in {*walk.async_functions, *walk.yields}:
        node = definitions[index]
        if not isinstance(node, ast.ClassDef):
            found.extend(_function_findings(node, walk.qualname(index), walk.yields.get(index, 0)))
    for index, decorated in decorators.items():
        found.extend(_decorator_findings(index, walk, decorated, dispatchers))
    if _imports_torch(walk.imports):
        found.extend(_loop_findings(tree, calls, aliases))
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
    return [Finding("pattern", "dunder-all", _line(stmt), message, "__all__")]


# --- names through the imports ------------------------------------------------


def _aliases(walk: _Walk, package: str | None = None) -> dict[str, tuple[str, ...]]:
    """What each imported name stands for, at any depth; `?` where imports cannot tell.

    Only names from modules that hold a role are spelled out.  Any other name
    needs a `?` only where it could be mistaken: when it shadows a module that
    holds roles (`torch`), or clashes with a name bound to one of them.
    """
    modules = _ROLE_MODULES
    aliases: dict[str, tuple[str, ...]] = {}
    unknown = list(walk.local_names)  # a module-level class or def shadows its name
    for stmt in walk.imports:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    bound, target = alias.asname, alias.name
                else:
                    bound = target = alias.name.partition(".")[0]
                if target in modules:
                    _bind(aliases, bound, target)
                else:
                    unknown.append(bound)
        elif (source := _from_module(stmt, package)) in modules:
            for alias in stmt.names:
                if alias.name != "*":
                    _bind(aliases, alias.asname or alias.name, f"{source}.{alias.name}")
        else:  # unresolved relative, or from a module without roles
            unknown.extend(alias.asname or alias.name for alias in stmt.names)
    for name in unknown:
        if name in aliases or name in _ROLE_ROOTS:
            _bind(aliases, name, _UNKNOWN)
    return aliases


def _from_module(stmt: ast.ImportFrom, package: str | None) -> str | None:
    """The absolute module a `from ... import` names; None for a relative one that
    cannot be resolved (no package, or more dots than the package is deep)."""
    if not stmt.level:
        return stmt.module
    if package is None:
        return None
    parts = package.split(".") if package else []
    keep = len(parts) - (stmt.level - 1)
    if keep < 0:
        return None
    base = parts[:keep] + ([stmt.module] if stmt.module else [])
    return ".".join(base) or None


def _bind(aliases: dict[str, tuple[str, ...]], name: str, target: str) -> None:
    known = aliases.get(name)
    if known is None:
        aliases[name] = (target,)
    elif target not in known:
        aliases[name] = (*known, target)


def _role(dotted: str, aliases: _Aliases) -> str | None:
    """The role a dotted name plays when every import binding of its root agrees.

    A root no import binds stands for itself, so `torch.nn.Module` written out
    counts while a bare `Module` of unknown origin does not.
    """
    root, dot, rest = dotted.partition(".")
    targets = aliases.get(root)
    if targets is None:
        return ROLES.get(dotted)
    role = ROLES.get(targets[0] + dot + rest)
    if role is not None and len(targets) > 1:
        return role if all(ROLES.get(t + dot + rest) == role for t in targets) else None
    return role


def _expr_role(node: ast.expr, aliases: _Aliases) -> str | None:
    dotted = dotted_name(node)
    return _role(dotted, aliases) if dotted is not None else None


def _decorators(node: _Def, aliases: _Aliases) -> list[_Decorator]:
    """The decorators that may matter: those with a role, and those that may register."""
    found: list[_Decorator] = []
    for decorator in node.decorator_list:
        dotted = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator)
        if dotted is not None:
            role = _role(dotted, aliases)
            if role is not None or "regist" in dotted.lower():
                found.append((decorator, dotted, role))
    return found


# --- definitions ----------------------------------------------------------------


def _class_findings(
    index: int,
    walk: _Walk,
    aliases: _Aliases,
    decorators: Mapping[int, list[_Decorator]],
    abstract: int,
) -> list[Finding]:
    node = walk.definitions[index]
    if not isinstance(node, ast.ClassDef):
        return []
    name = ""  # the qualified name, built once a finding needs it
    found: list[Finding] = []
    abc_base = ""
    for base in node.bases:
        dotted = dotted_name(base.value if isinstance(base, ast.Subscript) else base)  # Protocol[T]
        role = _role(dotted, aliases) if dotted is not None else None
        if role is None:
            continue
        template = _BASE_MESSAGES.get(role)
        if template is not None:
            name = name or walk.qualname(index)
            found.append(_pattern(role, _line(node), f"`{name}` " + template.format(dotted), name))
        elif role == "abc" and dotted is not None:
            abc_base = dotted
    for keyword in node.keywords:
        if keyword.arg == "metaclass" and _expr_role(keyword.value, aliases) == "abc-meta":
            abc_base = f"metaclass={dotted_name(keyword.value)}"
    dataclass = [
        decorator for decorator, _, role in decorators.get(index, ()) if role == "dataclass"
    ]
    defined = walk.protocol_methods.get(index, ())
    if not (abc_base or abstract or dataclass or defined):
        return found
    name, line = name or walk.qualname(index), _line(node)
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
    line = _line(node)
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


def _decorator_findings(
    index: int, walk: _Walk, decorators: list[_Decorator], dispatchers: set[str]
) -> list[Finding]:
    """Context managers, single dispatch and registering decorators.

    Other custom decorators are too many and too varied to be worth a line each.
    """
    node = walk.definitions[index]
    is_class = isinstance(node, ast.ClassDef)
    name = walk.qualname(index)
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
        found.append(_pattern(kind, _line(node), message, name))
    return found


def _pattern(kind: str, line: int, message: str, subject: str) -> Finding:
    return Finding("pattern", kind, line, message, subject)


def _line(node: ast.AST) -> int:
    """A node's line; 0 for a node built without one, which a parse never gives."""
    line = getattr(node, "lineno", None)
    return line if isinstance(line, int) else 0


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


def _loop_findings(tree: ast.Module, calls: Sequence[ast.Call], aliases: _Aliases) -> list[Finding]:
    """Per-iteration device waits and copies, placed only for the calls that could be."""
    attributes, attribute_class = _CANDIDATE_ATTRS, ast.Attribute
    candidates: list[ast.Call] = []
    for call in calls:  # the hot loop: exact class test, no isinstance
        func = call.func
        if type(func) is attribute_class and func.attr in attributes:
            candidates.append(call)
    # `from torch.cuda import synchronize`: rare, so its calls are looked for only then
    names = [name for name, targets in aliases.items() if _SYNCHRONIZE in targets]
    if names and any(_role(name, aliases) == "synchronize" for name in names):
        candidates += [
            call for call in calls if isinstance(call.func, ast.Name) and call.func.id in names
        ]
    found: list[Finding] = []
    for call in candidates:
        claim = _claim(call, aliases)
        if claim is not None and _in_loop(tree, call):
            kind, subject, message = claim
            func = call.func  # the line of `.item` in a chain, as code refs have it
            line = getattr(func, "end_lineno", None) or _line(func)
            found.append(Finding("performance", kind, line, message, subject))
    return found


def _claim(call: ast.Call, aliases: _Aliases) -> tuple[str, str, str] | None:
    """(kind, subject, message) if this call waits for or copies to the device in a loop."""
    func = call.func
    if isinstance(func, ast.Name) or (
        isinstance(func, ast.Attribute) and func.attr == "synchronize"
    ):
        if _expr_role(func, aliases) != "synchronize":
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


def _cuda_device(call: ast.Call, aliases: _Aliases) -> str | None:
    """The CUDA device literally passed to `.to(...)`, if any."""
    values = [*call.args, *(k.value for k in call.keywords if k.arg == "device")]
    for value in values:
        if isinstance(value, ast.Call) and _expr_role(value.func, aliases) == "device":
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
