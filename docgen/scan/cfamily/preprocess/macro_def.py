"""One `#define` as the preprocessor layer reads it: what its body makes it mean."""

from __future__ import annotations

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
