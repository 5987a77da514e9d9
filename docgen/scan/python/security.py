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
from dataclasses import dataclass
from types import MappingProxyType

from docgen.model.facts import Finding
from docgen.model.python_names import dotted_parts
from docgen.scan.python.security_names import (
    Names,
    calls_any,
    is_safe_loader,
    module_renames,
    read_statements,
    resolve,
)

#: longest piece of source quoted inside a message
_MAX_QUOTE = 40
#: how deep `is_safe_loader` follows `a if c else b` and `getattr(...)` defaults
_MAX_LOADER_DEPTH = 4

# A check gets the call, its resolved callee and the scope; it returns the message or None.
_Check = Callable[[ast.Call, str, "Names"], str | None]


@dataclass(frozen=True, slots=True)
class _Rule:
    """One security check and the kind of finding it makes."""

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
    if not candidates and not tls and not calls_any(calls, module_renames(tree, tails)):
        return []

    names, assignments = read_statements(tree)
    candidates.extend(calls_any(calls, names.aliases.keys() - tails))  # renamed: `U = x.load`
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

    def check(call: ast.Call, name: str, names: Names) -> str | None:
        return sentence.format(f"`{name}`")

    return check


def _literal_code(call: ast.Call, name: str, names: Names) -> str | None:
    if not call.args:
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str | bytes):
        return None
    return f"`{name}` runs code built at run time, not a fixed string literal"


def _torch_load(call: ast.Call, name: str, names: Names) -> str | None:
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


def _yaml_load(call: ast.Call, name: str, names: Names) -> str | None:
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
    if is_safe_loader(loader, names, _MAX_LOADER_DEPTH):
        return None
    resolved = resolve(loader, names)
    if resolved and all(loader_name.startswith("yaml.") for loader_name in resolved):
        return f"`{name}` with `Loader={_quote(loader)}` can build arbitrary Python objects"
    return (
        f"`{name}` with `Loader={_quote(loader)}`, not known to be a safe loader,"
        " may build arbitrary Python objects"
    )


def _shell_true(call: ast.Call, name: str, names: Names) -> str | None:
    value = _keyword(call, "shell")
    if value is None or not _is_true(value):
        return None
    return f"`{name}` with `shell=True` runs its command through the shell"


_PICKLE = "{} runs arbitrary code from the data it unpickles"
_SHELL = "{} always runs its command through the shell"
_PICKLE_MODULES = ("pickle", "cPickle", "_pickle", "dill", "cloudpickle", "six.moves.cPickle")
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


def _call_findings(call: ast.Call, names: Names) -> Iterator[Finding]:
    for resolved in resolve(call.func, names):
        rule = _RULES.get(resolved)
        if rule is None:
            continue
        message = rule.check(call, resolved, names)
        if message is not None:
            yield Finding("security", rule.kind, call.lineno, message, resolved)
        return  # one reading per call: the first name that has a rule


def _tls_keywords(call: ast.Call, names: Names) -> Iterator[Finding]:
    func = call.func
    for keyword in call.keywords:
        if keyword.arg == "verify" and _is_false(keyword.value):
            resolved = resolve(func, names)
            http = next((n for n in resolved if n.startswith(_HTTP_MODULES)), None)
            if http is None and isinstance(func, ast.Attribute) and func.attr in _HTTP_METHODS:
                http = _written(func)
            if http is not None:
                message = f"`{http}` with `verify=False` skips TLS certificate checks"
                yield Finding("security", "tls-off", call.lineno, message, http)
        elif keyword.arg == "cert_reqs" and _is_cert_none(keyword.value, names):
            subject = next(iter(resolve(call.func, names)), None) or _written(call.func)
            message = (
                f"`{subject}` with `cert_reqs={_quote(keyword.value)}` skips TLS certificate checks"
            )
            yield Finding("security", "tls-off", call.lineno, message, subject)


def _assignment_findings(statement: ast.Assign, names: Names) -> Iterator[Finding]:
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
        elif "ssl._create_default_https_context" in resolve(target, names) and (
            "ssl._create_unverified_context" in resolve(value, names)
        ):
            subject = "ssl._create_default_https_context"
            message = f"`{subject}` is replaced, so default HTTPS contexts skip certificate checks"
        else:
            continue
        yield Finding("security", "tls-off", statement.lineno, message, subject)


# --- names ---------------------------------------------------------------------


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


def _is_cert_none(node: ast.expr, names: Names) -> bool:
    if isinstance(node, ast.Constant):
        return node.value == "CERT_NONE"
    return "ssl.CERT_NONE" in resolve(node, names)


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
