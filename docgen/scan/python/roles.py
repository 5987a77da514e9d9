"""What a name in a Python module stands for, through the module's own imports.

Only names from modules that hold a role (torch's `nn.Module`, `abc`, `enum`,
`dataclasses`, ...) are spelled out; any other name is marked unknown where it
could be mistaken for one of them, so a project's own `Module` or `Enum` is never
taken for torch's or the standard library's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from docgen.model.python_names import dotted_name

Aliases = Mapping[str, tuple[str, ...]]


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

#: what a name stands for when the imports cannot tell (relative import, local definition)
_UNKNOWN = "?"


def aliases_of(
    imports: Iterable[ast.Import | ast.ImportFrom],
    local_names: Iterable[str],
    package: str | None = None,
) -> dict[str, tuple[str, ...]]:
    """What each imported name stands for, at any depth; `?` where imports cannot tell.

    Only names from modules that hold a role are spelled out.  Any other name
    needs a `?` only where it could be mistaken: when it shadows a module that
    holds roles (`torch`), or clashes with a name bound to one of them.
    """
    modules = _ROLE_MODULES
    aliases: dict[str, tuple[str, ...]] = {}
    unknown = list(local_names)  # a module-level class or def shadows its name
    for stmt in imports:
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


def role_of(dotted: str, aliases: Aliases) -> str | None:
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


def expr_role(node: ast.expr, aliases: Aliases) -> str | None:
    dotted = dotted_name(node)
    return role_of(dotted, aliases) if dotted is not None else None
