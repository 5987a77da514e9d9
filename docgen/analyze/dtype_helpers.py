"""The dtypes PyTorch's test helpers stand for, so that `@dtypes(*floating_types())`
names its tests as `instantiate_device_type_tests` does (`test_x_cpu_float32`).

The lists are those of `torch/testing/_internal/common_dtype.py` in torch 2.13; a
helper's `_and(...)` form adds its arguments.  A test names a dtype as
`str(dtype)` without `torch.` does: `torch.half` is `float16`, `torch.cfloat`
`complex64`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from types import MappingProxyType

from docgen.model.python_names import dotted_name

#: what an alias of a dtype prints as
CANONICAL: Mapping[str, str] = MappingProxyType(
    {
        "half": "float16",
        "float": "float32",
        "double": "float64",
        "cfloat": "complex64",
        "cdouble": "complex128",
        "chalf": "complex32",
        "short": "int16",
        "int": "int32",
        "long": "int64",
    }
)
_FLOATING = ("float32", "float64")
_INTEGRAL = ("uint8", "int8", "int16", "int32", "int64")
_COMPLEX = ("complex64", "complex128")
_FLOAT8 = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")
#: helper -> its dtypes, in order (an `_and` helper then adds its arguments)
HELPERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "empty_types": (),
        "floating_types": _FLOATING,
        "floating_types_and_half": (*_FLOATING, "float16"),
        "floating_types_and": _FLOATING,
        "floating_and_complex_types": (*_FLOATING, *_COMPLEX),
        "floating_and_complex_types_and": (*_FLOATING, *_COMPLEX),
        "double_types": ("float64", "complex128"),
        "integral_types": _INTEGRAL,
        "integral_types_and": _INTEGRAL,
        "all_types": (*_FLOATING, *_INTEGRAL),
        "all_types_and": (*_FLOATING, *_INTEGRAL),
        "complex_types": _COMPLEX,
        "complex_types_and": _COMPLEX,
        "all_types_and_complex": (*_FLOATING, *_INTEGRAL, *_COMPLEX),
        "all_types_and_complex_and": (*_FLOATING, *_INTEGRAL, *_COMPLEX),
        "all_types_and_half": (*_FLOATING, *_INTEGRAL, "float16"),
        "float8_types": _FLOAT8,
        "float8_types_and": _FLOAT8,
    }
)


def dtype_name(node: ast.expr) -> str | None:
    """`torch.float32` -> `float32`, `torch.half` -> `float16`; None for anything else."""
    written = dotted_name(node) or ""
    if written.startswith("torch.") and written.count(".") == 1:
        name = written.split(".", 1)[1]
        return CANONICAL.get(name, name)
    return None


def dtypes_of(args: list[ast.expr]) -> list[str] | None:
    """The dtypes `@dtypes(...)` is given: dtypes as written and `*helper(...)` of
    PyTorch's helpers, without repeats, in order; None when one cannot be read."""
    found: list[str] = []
    for arg in args:
        if isinstance(arg, ast.Starred):
            listed = _helper(arg.value)
            if listed is None:
                return None
            found.extend(listed)
        else:
            name = dtype_name(arg)
            if name is None:
                return None
            found.append(name)
    return list(dict.fromkeys(found))


def _helper(node: ast.expr) -> list[str] | None:
    if not isinstance(node, ast.Call) or node.keywords:
        return None
    helper = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
    base = HELPERS.get(helper)
    if base is None or (node.args and not helper.endswith("_and")):
        return None
    extra = dtypes_of(list(node.args))
    return None if extra is None else [*base, *extra]
