"""Macros that turn their arguments into a string literal: `#define STR(x) #x`.

PyTorch's `jiterator_stringify(...)` is given whole function templates, written as
code, that become a string for a compiler at run time.  A parser reads them as code
(163 syntax errors in `ATen/native/cuda/Math.cuh`), and whatever it finds in them is
no name of the file: the preprocessor makes them a string.  So the arguments of such
a macro are blanked before parsing (see `cpp_blanking.neutralise`), its name and
parentheses left as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from docgen.scan.cfamily.preprocess.declaring_macros import made_by_every_definition

if TYPE_CHECKING:
    from docgen.scan.cfamily.preprocess.macro_def import MacroDef

_WORD = re.compile(r"[A-Za-z_]\w*")


def parameter_name(param: str) -> str:
    """How a body names a parameter: `...` as `__VA_ARGS__`, GNU's `args...` as `args`."""
    return "__VA_ARGS__" if param == "..." else param.removesuffix("...")


def stringizes(body: str, params: list[str]) -> int:
    """1 when a function-like macro's body uses its parameters only stringized (`#x`,
    never `##x` nor `x` alone), and one at least: what it is given becomes a string;
    -1 when it stringizes one and uses one as code too (`#cond`, then `##__VA_ARGS__`),
    which keeps the macro's other `#define`s from counting; else 0.  A parameter's name
    inside a string literal of the body is taken for a use of it as code."""
    names = {parameter_name(p) for p in params} - {""}
    stringized = as_code = False
    for word in _WORD.finditer(body):
        if word.group() not in names:
            continue
        before = body[: word.start()].rstrip()
        if before.endswith("#") and not before.endswith("##"):
            stringized = True
        else:
            as_code = True
    if not stringized:
        return 0
    return -1 if as_code else 1


def string_macros(defs: Iterable[MacroDef], attributes: frozenset[str]) -> tuple[str, ...]:
    """Macros every `#define` docgen read of which stringizes all its arguments, sorted,
    without `()`: not those another `#define` uses as code or makes an attribute macro.
    (A `#define` that stringizes nothing is not read; some other branch's could
    still use the arguments as code, a case not met in the trees tried.)"""
    return made_by_every_definition(defs, attributes, lambda d: d.stringizes == 1)
