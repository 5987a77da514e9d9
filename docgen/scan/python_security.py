"""Security findings in one Python module: calls that run code or skip checks.

A callee only counts once resolved through the module's own imports, so that
`model.eval()`, a local `def load(...)` or `ast.literal_eval` never look like
`eval`, `pickle.load` or `yaml.load`.  Imports are read from statement bodies
at any depth (a function-level import counts for the whole module): this is a
cheap, file-wide approximation of scope, not a full binder; a name that is
also bound by a local `def`, a parameter or an unrelated assignment is left
unresolved rather than guessed.

It runs on every Python file, so it stays lazy: the calls are sifted by their
last name first, and the statements are read only in the few files where some
call could matter (about 4% of `ast.parse` time on torch/distributed).  Hence
two blind spots, both rare: a renaming import or `f = x.load` inside a function
body, and the TLS assignments (`ctx.check_hostname = False`, ...), are seen
only in files read for another reason: a risky-named call, a `verify=` or
`cert_reqs=` keyword, or `ssl.create_default_context()` / `ssl.SSLContext()`.

`yaml.full_load` and `Loader=FullLoader` are not findings: FullLoader stopped
constructing arbitrary objects in PyYAML 5.4 (CVE-2020-14343), so calling it
out would claim a risk that current installs do not have.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import MappingProxyType

from docgen.facts import Finding
from docgen.scan.python_ast import dotted_parts

#: longest piece of source quoted inside a message
_MAX_QUOTE = 40
#: how deep `_is_safe_loader` follows `a if c else b` and `getattr(...)` defaults
_MAX_LOADER_DEPTH = 4

_Scope = Mapping[str, tuple[str, ...]]  # bound name -> the dotted names it may stand for
# A check gets the call, its resolved callee and the scope; it returns the message or None.
_Check = Callable[[ast.Call, str, "_Names"], str | None]


@dataclass(frozen=True, slots=True)
class _Names:
    """What the module's names stand for, as far as cheap statement reading can tell."""

    aliases: _Scope  # imported (and simply re-assigned) names
    builtins_shadowed: frozenset[str]  # of "eval"/"exec": bound by the module itself
    safe_loader_classes: frozenset[
        str
    ]  # local classes built on a safe yaml loader, or their aliases


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str
    check: _Check


def security_findings(tree: ast.Module, calls: Sequence[ast.Call]) -> list[Finding]:
    """Findings for risky calls (and a few TLS assignments), sorted and unique.

    `calls` are all the Call nodes of `tree`, in any order; the result is sorted
    by (line, kind, subject) with one finding per such triple.
    """
    candidates: list[ast.Call] = []
    tls: list[ast.Call] = []
    tails, tls_keywords = _TRIGGER_TAILS, _TLS_KEYWORDS
    attribute, name = ast.Attribute, ast.Name
    for call in calls:
        func = call.func
        kind = type(func)
        if kind is attribute:
            if func.attr in tails:  # type: ignore[attr-defined]
                candidates.append(call)
        elif kind is name and func.id in tails:  # type: ignore[attr-defined]
            candidates.append(call)
        keywords = call.keywords
        if keywords:
            for keyword in keywords:
                if keyword.arg in tls_keywords:
                    tls.append(call)
                    break
    if not candidates and not tls and not _calls_any(calls, _module_renames(tree)):
        return []

    names, assignments = _read_statements(tree)
    candidates.extend(_calls_any(calls, names.aliases.keys() - tails))  # renamed: `U = x.load`
    found: list[Finding] = []
    for call in candidates:
        found.extend(_call_findings(call, names))
    for call in tls:
        found.extend(_tls_keywords(call, names))
    for statement in assignments:
        found.extend(_assignment_findings(statement, names))
    found.sort(key=lambda f: (f.line, f.kind, f.subject, f.message))
    unique: dict[tuple[int, str, str], Finding] = {}
    for finding in found:  # one per (line, kind, subject): the first message in order
        unique.setdefault((finding.line, finding.kind, finding.subject), finding)
    return list(unique.values())


# --- the rules -----------------------------------------------------------------


def _always(sentence: str) -> _Check:
    """A check that always fires; `{}` in the sentence becomes the callee."""

    def check(call: ast.Call, name: str, names: _Names) -> str | None:
        return sentence.format(f"`{name}`")

    return check


def _literal_code(call: ast.Call, name: str, names: _Names) -> str | None:
    if not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str | bytes):
        return None
    return f"`{name}` runs code built at run time, not a fixed string literal"


def _torch_load(call: ast.Call, name: str, names: _Names) -> str | None:
    value = _keyword(call, "weights_only")
    if value is None:
        if any(keyword.arg is None for keyword in call.keywords):
            return (
                f"`{name}` gets `**` keywords but no explicit `weights_only=True`,"
                " so it may unpickle arbitrary code from the file"
            )
        return f"`{name}` without `weights_only=True` can unpickle arbitrary code from the file"
    if _is_true(value):
        return None
    return (
        f"`{name}` with `weights_only={_quote(value)}`, not the literal `True`,"
        " can unpickle arbitrary code from the file"
    )


def _yaml_load(call: ast.Call, name: str, names: _Names) -> str | None:
    loader = _keyword(call, "Loader")
    if loader is None and len(call.args) >= 2:
        loader = call.args[1]
    if loader is None:
        if any(keyword.arg is None for keyword in call.keywords):
            return (
                f"`{name}` gets `**` keywords but no explicit safe `Loader`,"
                " so it may build arbitrary Python objects"
            )
        return f"`{name}` without a safe `Loader` can build arbitrary Python objects"
    if _is_safe_loader(loader, names, _MAX_LOADER_DEPTH):
        return None
    resolved = _resolve(loader, names)
    if resolved and all(loader_name.startswith("yaml.") for loader_name in resolved):
        return f"`{name}` with `Loader={_quote(loader)}` can build arbitrary Python objects"
    return (
        f"`{name}` with `Loader={_quote(loader)}`, not known to be a safe loader,"
        " may build arbitrary Python objects"
    )


def _shell_true(call: ast.Call, name: str, names: _Names) -> str | None:
    value = _keyword(call, "shell")
    if value is None or not _is_true(value):
        return None
    return f"`{name}` with `shell=True` runs its command through the shell"


_PICKLE = "{} runs arbitrary code from the data it unpickles"
_SHELL = "{} always runs its command through the shell"
_PICKLE_MODULES = ("pickle", "cPickle", "_pickle", "dill", "cloudpickle", "six.moves.cPickle")
#: yaml loaders that cannot build arbitrary objects (FullLoader: see the module docstring)
_SAFE_LOADERS = frozenset(
    f"yaml.{loader}"
    for loader in (
        *("SafeLoader", "CSafeLoader", "BaseLoader", "CBaseLoader"),
        *("FullLoader", "CFullLoader"),
    )
)
_HTTP_MODULES = ("requests.", "httpx.", "urllib3.")
_HTTP_METHODS = frozenset(
    {"get", "post", "put", "patch", "delete", "head", "request", "send", "Session", "Client"}
)

#: resolved callee -> what kind of finding it is and when
_RULES: Mapping[str, _Rule] = MappingProxyType(
    {
        **{"eval": _Rule("eval-exec", _literal_code), "exec": _Rule("eval-exec", _literal_code)},
        **{f"builtins.{n}": _Rule("eval-exec", _literal_code) for n in ("eval", "exec")},
        **{
            f"{module}.{function}": _Rule("pickle-load", _always(_PICKLE))
            for module in _PICKLE_MODULES
            for function in ("load", "loads", "Unpickler", "_load", "_loads", "_Unpickler")
        },
        **{
            f"marshal.{n}": _Rule(
                "pickle-load", _always("{} can build code objects; it is unsafe on untrusted data")
            )
            for n in ("load", "loads")
        },
        "joblib.load": _Rule("pickle-load", _always(_PICKLE)),
        "shelve.open": _Rule("pickle-load", _always("{} unpickles values, which can run code")),
        "torch.load": _Rule("torch-load", _torch_load),
        "torch.serialization.load": _Rule("torch-load", _torch_load),
        "yaml.load": _Rule("yaml-load", _yaml_load),
        "yaml.load_all": _Rule("yaml-load", _yaml_load),
        **{
            f"yaml.{n}": _Rule("yaml-load", _always("{} can build arbitrary Python objects"))
            for n in ("unsafe_load", "unsafe_load_all")
        },
        **{
            f"subprocess.{n}": _Rule("shell", _shell_true)
            for n in ("run", "call", "check_call", "check_output", "Popen")
        },
        **{
            f"subprocess.{n}": _Rule("shell", _always(_SHELL))
            for n in ("getoutput", "getstatusoutput")
        },
        **{f"os.{n}": _Rule("os-system", _always(_SHELL)) for n in ("system", "popen")},
        **{
            f"commands.{n}": _Rule("os-system", _always(_SHELL))
            for n in ("getoutput", "getstatusoutput")
        },
        "tempfile.mktemp": _Rule(
            "mktemp", _always("{} returns a name another process can take before the file exists")
        ),
        "ssl._create_unverified_context": _Rule(
            "tls-off", _always("{} makes a TLS context that skips certificate checks")
        ),
    }
)
#: callee names worth reading the module's imports for: the last part of every ruled
#: name, and the calls that come with hand-built TLS contexts (checked as assignments)
_TRIGGER_TAILS = frozenset(name.rpartition(".")[2] for name in _RULES) | frozenset(
    {"create_default_context", "SSLContext"}
)
_TLS_KEYWORDS = frozenset({"verify", "cert_reqs"})


# --- calls ---------------------------------------------------------------------


def _call_findings(call: ast.Call, names: _Names) -> Iterator[Finding]:
    for resolved in _resolve(call.func, names):
        rule = _RULES.get(resolved)
        if rule is None:
            continue
        message = rule.check(call, resolved, names)
        if message is not None:
            yield Finding("security", rule.kind, call.lineno, message, resolved)
        return  # one reading per call: the first name that has a rule


def _tls_keywords(call: ast.Call, names: _Names) -> Iterator[Finding]:
    func = call.func
    for keyword in call.keywords:
        if keyword.arg == "verify" and _is_false(keyword.value):
            resolved = _resolve(func, names)
            http = next((n for n in resolved if n.startswith(_HTTP_MODULES)), None)
            if http is None and isinstance(func, ast.Attribute) and func.attr in _HTTP_METHODS:
                http = _written(func)
            if http is not None:
                message = f"`{http}` with `verify=False` skips TLS certificate checks"
                yield Finding("security", "tls-off", call.lineno, message, http)
        elif keyword.arg == "cert_reqs" and _is_cert_none(keyword.value, names):
            subject = next(iter(_resolve(call.func, names)), None) or _written(call.func)
            message = (
                f"`{subject}` with `cert_reqs={_quote(keyword.value)}` skips TLS certificate checks"
            )
            yield Finding("security", "tls-off", call.lineno, message, subject)


def _assignment_findings(statement: ast.Assign, names: _Names) -> Iterator[Finding]:
    """`ssl._create_default_https_context = ...unverified...`, `check_hostname = False`, ..."""
    value = statement.value
    for target in statement.targets:
        if not isinstance(target, ast.Attribute):
            continue
        subject = _written(target)
        if target.attr == "check_hostname" and _is_false(value):
            message = f"`{subject} = False` turns off TLS host name checks"
        elif target.attr == "verify_mode" and _is_cert_none(value, names):
            message = f"`{subject} = {_quote(value)}` turns off TLS certificate checks"
        elif "ssl._create_default_https_context" in _resolve(target, names) and (
            "ssl._create_unverified_context" in _resolve(value, names)
        ):
            subject = "ssl._create_default_https_context"
            message = f"`{subject}` is replaced, so default HTTPS contexts skip certificate checks"
        else:
            continue
        yield Finding("security", "tls-off", statement.lineno, message, subject)


# --- names ---------------------------------------------------------------------


def _resolve(node: ast.expr, names: _Names) -> tuple[str, ...]:
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
        return (root,)
    return ()


def _written(node: ast.expr) -> str:
    """A callee as written: `self.session.get`, or `.get` on an expression."""
    parts = dotted_parts(node)
    if parts is not None:
        return ".".join(parts)
    return "." + node.attr if isinstance(node, ast.Attribute) else "(expression)"


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def _is_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _is_false(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _is_cert_none(node: ast.expr, names: _Names) -> bool:
    if isinstance(node, ast.Constant):
        return node.value == "CERT_NONE"
    return "ssl.CERT_NONE" in _resolve(node, names)


def _is_safe_loader(node: ast.expr, names: _Names, depth: int) -> bool:
    """A yaml Loader that cannot build arbitrary objects, in every way it is written here."""
    if depth <= 0:
        return False
    if isinstance(node, ast.IfExp):
        return _is_safe_loader(node.body, names, depth - 1) and _is_safe_loader(
            node.orelse, names, depth - 1
        )
    if isinstance(node, ast.Call):  # getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        attribute = _getattr_yaml(node, names)
        default_safe = len(node.args) < 3 or _is_safe_loader(node.args[2], names, depth - 1)
        return f"yaml.{attribute}" in _SAFE_LOADERS and default_safe
    if isinstance(node, ast.Name) and node.id in names.safe_loader_classes:
        return True
    resolved = _resolve(node, names)
    return bool(resolved) and all(name in _SAFE_LOADERS for name in resolved)


def _getattr_yaml(call: ast.Call, names: _Names) -> str | None:
    """The attribute name in `getattr(yaml, "name"[, default])`, else None."""
    func, args = call.func, call.args
    if not (isinstance(func, ast.Name) and func.id == "getattr" and len(args) in (2, 3)):
        return None
    name = args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    return name.value if "yaml" in _resolve(args[0], names) else None


def _quote(node: ast.expr) -> str:
    """Short source text of an expression, safe inside Markdown inline code."""
    parts = dotted_parts(node)
    if parts is not None:
        text = ".".join(parts)
    elif isinstance(node, ast.Constant):
        text = repr(node.value)
    else:
        text = ast.unparse(node)
    if "`" in text or "\n" in text:
        return "..."
    return text if len(text) <= _MAX_QUOTE else text[: _MAX_QUOTE - 3] + "..."


# --- reading the module's statements -------------------------------------------


#: statement class -> its statement-body fields
_BLOCKS: Mapping[type, tuple[str, ...]] = MappingProxyType(
    {
        cls: fields
        for names, fields in (
            (("FunctionDef", "AsyncFunctionDef", "ClassDef", "With", "AsyncWith"), ("body",)),
            (("ExceptHandler", "match_case"), ("body",)),
            (("If", "For", "AsyncFor", "While"), ("body", "orelse")),
            (("Try", "TryStar"), ("body", "handlers", "orelse", "finalbody")),
            (("Match",), ("cases",)),
        )
        for name in names
        if (cls := getattr(ast, name, None)) is not None
    }
)
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


def _module_renames(tree: ast.Module) -> frozenset[str]:
    """Names that module-level `import x.load as f` or `f = x.load` give a risky callee.

    The cheap gate for files where no call has a risky name: it reads module-level
    statements only (not function or class bodies), so a renaming import inside a
    function is seen only in files that are read in full for another call.
    """
    tails, blocks = _TRIGGER_TAILS, _BLOCKS
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


def _calls_any(calls: Sequence[ast.Call], bare_names: AbstractSet[str]) -> list[ast.Call]:
    """The calls of a bare name among `bare_names`."""
    if not bare_names:
        return []
    name = ast.Name
    return [call for call in calls if type(call.func) is name and call.func.id in bare_names]


def _read_statements(tree: ast.Module) -> tuple[_Names, list[ast.Assign]]:
    """Import bindings, locally bound names, and assignments worth a TLS look.

    Statement bodies only: imports, definitions and assignments are statements,
    so expressions (the bulk of a tree) are never visited.
    """
    aliases: dict[str, list[str]] = {}
    local: set[str] = set()  # bound by relative import, non-alias assignment or parameter
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
            _add_parameters(node.args, local)
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
    return _names(aliases, local, defined, chains, classes), tls


def _names(
    aliases: dict[str, list[str]],
    local: set[str],
    defined: set[str],
    chains: list[tuple[str, ast.expr]],
    classes: list[ast.ClassDef],
) -> _Names:
    """The module's scope once every binding is known."""
    for bound in defined:
        aliases.pop(bound, None)
    if chains:
        imported = _Names(
            MappingProxyType({k: tuple(v) for k, v in aliases.items()}), frozenset(), frozenset()
        )
        resolved = [(bound, _resolve(value, imported)) for bound, value in chains]
        # `load = pickle.load` makes `load` an alias, unless `load` is bound to something else
        unclear = defined | local | {bound for bound, targets in resolved if not targets}
        for bound, targets in resolved:
            if bound not in unclear:
                aliases.setdefault(bound, []).extend(targets)
    scope: _Scope = MappingProxyType(
        {bound: tuple(sorted(set(targets))) for bound, targets in aliases.items() if targets}
    )
    taken = local | defined | {name for name, _ in chains}
    shadowed = frozenset(n for n in _BUILTINS if n in taken)
    names = _Names(scope, shadowed, frozenset())
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
    return _Names(scope, shadowed, safe | safe_variables)


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


def _add_parameters(arguments: ast.arguments, local: set[str]) -> None:
    """Parameters: `pickle_module.load(f)` is no `pickle.load` when `pickle_module` is one."""
    for group in (arguments.posonlyargs, arguments.args, arguments.kwonlyargs):
        for arg in group:
            local.add(arg.arg)
    if arguments.vararg is not None:
        local.add(arguments.vararg.arg)
    if arguments.kwarg is not None:
        local.add(arguments.kwarg.arg)


def _safe_loader_classes(classes: list[ast.ClassDef], names: _Names) -> frozenset[str]:
    """Local classes whose bases are all safe yaml loaders, directly or through each other."""
    safe: set[str] = set()
    changed = True
    while changed:
        changed = False
        known = _Names(names.aliases, names.builtins_shadowed, frozenset(safe))
        for cls in classes:
            if cls.name in safe or not cls.bases:
                continue
            if all(_is_safe_loader(base, known, 1) for base in cls.bases):
                safe.add(cls.name)
                changed = True
    return frozenset(safe)
