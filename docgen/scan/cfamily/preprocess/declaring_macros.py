"""Macros that stand for part of a declaration: a type, a declarator, a call operator, or
`catch` handlers.

A parser reads a use of such a macro as a call and loses the declaration around it:
rapidjson's `RAPIDJSON_DISABLEIF_RETURN((cond), (bool)) operator==(...)`, libgit2's
`typedef int GIT_CALLBACK(git_apply_delta_cb)(...)`, CCCL's `_CCCL_API auto
_CCCL_STATIC_CALL_OPERATOR(bool, _Up&&)`, TensorRT's `try { ... }
PLUGIN_API_CATCH("name")`.  Which macros these are is read from their `#define`s
(`declaring_reading`, for `cpp_macros.macro_defs`) and chosen once every `#define` is
read (the functions below, for the scan settings); `cpp_blanking` rewrites the uses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from docgen.scan.cfamily.preprocess.head_macros import head_template

if TYPE_CHECKING:
    from docgen.scan.cfamily.preprocess.macro_def import MacroDef

#: a body that is a dependent type: `typename ::rapidjson::internal::EnableIf<...>::Type`
_DEPENDENT_TYPE = re.compile(r"\s*typename\s+(?:::\s*)?[A-Za-z_]")
#: a body that makes a pointer declarator of a parameter: `(*name)`, `(__cdecl *name)`
_POINTER_DECLARATOR = re.compile(r"\s*\(\s*(?:[A-Za-z_]\w*\s+)*\*\s*([A-Za-z_]\w*)\s*\)\s*")
#: a body that is `catch` handlers with their blocks (TensorRT's `PLUGIN_API_CATCH(func)`
#: after a `try { ... }`); `catch (...)` alone leaves its block and stays an attribute
_CATCH_CLAUSE = re.compile(r"\s*catch\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*\{")
#: what a use of such a macro is read as: one handler, of anything, doing nothing
CATCH_ALL = "catch(...){}"
#: a body that declares a call operator of the macro's arguments: `static
#: operator()(__VA_ARGS__)`, `operator()(__VA_ARGS__) const`
_DECLARED_CALLABLE = re.compile(
    r"\s*(?:(?:static|inline|constexpr)\s+)*(operator\s*\(\s*\))"
    r"\s*\(\s*([A-Za-z_]\w*)\s*\)\s*(?:(?:const|noexcept)\b\s*)*"
)
#: a body that pastes a parameter to a word: `_pcre2_##name`, `name##_t`
_PASTED_NAME = re.compile(
    r"\s*(?:[A-Za-z_]\w*\s*##\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*##\s*[A-Za-z_]\w*)\s*"
)


class Declaring(NamedTuple):
    """What a `#define` of a macro that stands for part of a declaration makes of it (the
    `MacroDef` fields of the same names)."""

    wraps: int = 0
    makes_type: bool = False
    pointer: bool = False
    writes: str = ""
    head: str = ""


def declaring_reading(body: str, params: list[str]) -> Declaring | None:
    """The `MacroDef` fields of a body that stands for part of a declaration, else None:
    a dependent type (`typename ...`), `catch` handlers with their blocks, a call
    operator of the arguments, a pointer declarator (`(*name)`), or a name pasted to a
    word (`_pcre2_##name`), which docgen lists under the name written, as a wrapper
    keeps it."""
    if params and _DEPENDENT_TYPE.match(body):
        return Declaring(makes_type=True)
    if _CATCH_CLAUSE.match(body):
        return Declaring(writes=CATCH_ALL)
    declares = _DECLARED_CALLABLE.fullmatch(body) if params else None
    if declares is not None and declares.group(2) in [*params, "__VA_ARGS__"]:
        return Declaring(writes=re.sub(r"\s+", "", declares.group(1)))
    if len(params) != 1:
        return None
    pointer = _POINTER_DECLARATOR.fullmatch(body)
    if pointer is not None and pointer.group(1) == params[0]:
        return Declaring(pointer=True)
    pasted = _PASTED_NAME.fullmatch(body)
    if pasted is not None and params[0] in pasted.groups():
        return Declaring(wraps=1)
    return None


def heading_reading(body: str, params: list[str]) -> Declaring | None:
    """A body that writes the head of a function its use gives a body (see
    `head_macros`), else None."""
    head = head_template(body, params)
    return Declaring(head=head) if head else None


def made_by_every_definition(
    defs: Iterable[MacroDef], attributes: frozenset[str], made: Callable[[MacroDef], bool]
) -> tuple[str, ...]:
    """The macros every `#define` of which is `made` so, sorted, without `()`; not those
    made attribute macros by another."""
    making = {d.name for d in defs if made(d)}
    other = {d.name for d in defs if not made(d)} | set(attributes)
    return tuple(sorted(name.removesuffix("()") for name in making - other))


def type_macros(defs: Iterable[MacroDef], attributes: frozenset[str]) -> tuple[str, ...]:
    """Function-like macros every `#define` of which makes a dependent type (see
    `MacroDef.makes_type`), sorted, without `()`: rapidjson's
    `RAPIDJSON_DISABLEIF_RETURN((cond), (bool)) operator==(...)`, whose arguments a
    parser reads as expressions, and so misses the operator and makes fields of the
    names in them.  Its use is read as a type of its own name, the arguments blanked."""
    return made_by_every_definition(defs, attributes, lambda d: d.makes_type)


def written_macros(
    defs: Iterable[MacroDef], attributes: frozenset[str]
) -> tuple[tuple[str, str], ...]:
    """Function-like macros every `#define` of which declares the same function of its
    arguments, a call operator (see `MacroDef.writes`), without `()`, each with its name:
    CCCL's `_CCCL_API auto _CCCL_STATIC_CALL_OPERATOR(bool, _Up&&)` declares
    `operator()`, and had been read as a method named after the macro."""
    names: dict[str, set[str]] = {}
    for d in defs:
        names.setdefault(d.name, set()).add(d.writes)
    return tuple(
        sorted(
            (name.removesuffix("()"), next(iter(written)))
            for name, written in names.items()
            if len(written) == 1 and "" not in written and name not in attributes
        )
    )


def pointer_macros(defs: Iterable[MacroDef], attributes: frozenset[str]) -> tuple[str, ...]:
    """Function-like macros every `#define` of which makes a pointer declarator of its
    argument (see `MacroDef.pointer`), sorted, without `()`: libgit2's
    `typedef int GIT_CALLBACK(git_apply_delta_cb)(...)` declares `git_apply_delta_cb`,
    which a parser takes for the parameter of a function named `GIT_CALLBACK`."""
    return made_by_every_definition(defs, attributes, lambda d: d.pointer)
