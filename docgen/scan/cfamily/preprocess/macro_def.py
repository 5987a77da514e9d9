"""One `#define` as the preprocessor layer reads it, and the macro table it feeds: each
macro of a tree with what it means to the scanner, as Universal Ctags' `-D
NAME(args)=body`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class MacroDef:
    """One `#define` whose body could make it an attribute or a namespace macro."""

    name: str  # "NAME" or "NAME()" for a function-like macro
    refs: tuple[str, ...]  # other words of its body: attribute macros, or it is none
    #: a namespace macro: "a::b" for `namespace a { inline namespace b {` ("$1" stands for
    #: the first argument of a function-like one), "}" for a macro of closing braces
    namespace: str = ""
    #: a macro that expands to one of its arguments with attributes around it
    #: (`GGML_DEPRECATED(func, hint)` -> `func __attribute__((deprecated(hint)))`):
    #: that argument's place, from 1, negative for a variadic one (every argument from
    #: there on is kept); 0 for any other macro
    wraps: int = 0
    #: a function-like macro whose body is the head of a loop or a condition (`for (...)`,
    #: `while (...)`, `if (...)`, `switch (...)`), such as `list_for_each(pos, head)`,
    #: or an object-like one that is `if` or `if constexpr`: that keyword
    opens: str = ""
    #: 1 for a function-like macro that makes a string of what it is given, -1 for one
    #: that makes a string of some of it and uses the rest as code (see
    #: `cpp_string_macros`), 0 for any other
    stringizes: int = 0
    #: a function-like macro whose body is a dependent type (`typename ...::Type`): its
    #: use stands where a type does, its arguments a parser cannot read (see `type_macros`)
    makes_type: bool = False
    #: a function-like macro that makes a pointer declarator of its argument
    #: (`#define GIT_CALLBACK(name) (*name)`, `(__cdecl *name)` on Windows): its use
    #: declares that name (see `pointer_macros`)
    pointer: bool = False
    #: a function-like macro that declares a call operator of the arguments it is given
    #: (`#define _CCCL_STATIC_CALL_OPERATOR(...) operator()(__VA_ARGS__) const`):
    #: `operator()`, written over the macro's name; or `CATCH_ALL` for a macro of
    #: `catch` handlers, written over the whole use (see `written_macros`)
    writes: str = ""
    #: a function-like macro that writes the head of a function its use gives a body
    #: (`TORCH_IMPL_FUNC(name)`): that head, its arguments `$1`, ... (see `head_macros`)
    head: str = ""


#: What a macro can mean to the scanner, in the order the table keeps them, each with
#: what its value holds ("" where it has none).
MEANINGS: Mapping[str, str] = {
    # an export or attribute macro, blanked before the parse (`TORCH_API`)
    "attribute": "",
    # opens or closes namespaces (`FMT_BEGIN_NAMESPACE`): what it writes, `a::b` or `}`
    "namespace": "expansion",
    # wraps a declaration in attributes (`GGML_DEPRECATED(func, hint)`): the place, from 1,
    # of the argument it keeps (negative: variadic, every argument from there on)
    "wrapper": "place",
    # the head of a loop or a condition (`list_for_each(pos, head)`), read as `if`
    "statement": "",
    # stands for one name (`PYBIND11_NAMESPACE`): that name
    "name": "identifier",
    # stands for an access specifier (`JSON_PRIVATE_UNLESS_TESTED`): the keyword
    "access": "keyword",
    # makes a string of its arguments, which are blanked (`jiterator_stringify`)
    "string": "",
    # makes a dependent type, read as a type of its own name (`RAPIDJSON_ENABLEIF`)
    "type": "",
    # makes a pointer declarator of its argument (`GIT_CALLBACK(name)`)
    "pointer": "",
    # declares a function of the arguments it is given: that function's name, as written
    "written": "name",
    # writes the head of a function its use gives a body (`TORCH_IMPL_FUNC(name)`): the
    # head, its arguments `$1`, ... (see `head_macros`)
    "head": "template",
}


@dataclass(frozen=True, order=True, slots=True)
class Macro:
    """One macro of the table: `NAME` or `NAME()` (function-like), what it means (a key of
    `MEANINGS`) and its value."""

    name: str
    means: str
    value: str = ""

    def __str__(self) -> str:
        value = f":{self.value}" if self.value else ""
        return f"{self.name}={self.means}{value}"


def table_of(**meanings: Iterable[str] | Iterable[tuple[str, str | int]]) -> tuple[Macro, ...]:
    """A macro table from each meaning's macros, in `MEANINGS` order: names, or (name,
    value) for a meaning with a value (`table_of(attribute=["API"], wrapper=[("W()", 1)])`);
    attribute macros sorted, the others in the order given."""
    unknown = meanings.keys() - MEANINGS.keys()
    if unknown:
        raise ValueError(f"no such macro meaning: {sorted(unknown)}")
    table: list[Macro] = []
    for means, valued in MEANINGS.items():
        given = list(meanings.get(means, ()))
        if valued:
            pairs = [item for item in given if isinstance(item, tuple)]
            table.extend(Macro(str(name), means, str(value)) for name, value in pairs)
        else:
            names = [item for item in given if isinstance(item, str)]
            chosen = sorted(set(names)) if means == "attribute" else list(dict.fromkeys(names))
            table.extend(Macro(name, means) for name in chosen)
    return tuple(table)


class ByMeaning:
    """A macro table by meaning, each meaning's macros in the table's order: what the
    settings answer and what the rewriting table is made from, grouped once."""

    __slots__ = ("_groups",)

    def __init__(self, macros: Iterable[Macro]) -> None:
        groups: dict[str, list[Macro]] = {means: [] for means in MEANINGS}
        for macro in macros:
            groups[macro.means].append(macro)
        self._groups = {means: tuple(group) for means, group in groups.items()}

    def __getitem__(self, means: str) -> tuple[Macro, ...]:
        return self._groups[means]

    def named(self, means: str) -> tuple[str, ...]:
        """The names of the macros of one meaning."""
        return tuple(m.name for m in self._groups[means])

    def values(self, means: str) -> tuple[tuple[str, str], ...]:
        """(name, value) of the macros of one meaning."""
        return tuple((m.name, m.value) for m in self._groups[means])
