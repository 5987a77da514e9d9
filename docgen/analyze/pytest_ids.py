"""The ids pytest gives the cases of `@pytest.mark.parametrize`, read from the source.

pytest names a primitive value by itself (`1`, `True`, `None`, an ASCII string), any
other object by its argument name and index (`axis0`), a `pytest.param(..., id=...)`
by its id, joins several arguments with `-` and makes repeated ids unique with a
counter.  A name or attribute could be any of these, so a case that holds one is not
named here (the caller shows the test unexpanded), but for `torch.float16` and the
other dtypes, which are objects.
"""

from __future__ import annotations

import ast
from collections import Counter, defaultdict
from collections.abc import Callable

from docgen.model.python_names import dotted_name

#: `torch.<name>` values that are objects, which pytest names by argument and index: the
#: dtypes (`torch.pi`, `torch.inf` and their kin are floats, named by their value)
TORCH_DTYPES = frozenset(
    {
        "float16",
        "half",
        "bfloat16",
        "float32",
        "float",
        "float64",
        "double",
        "complex32",
        "chalf",
        "complex64",
        "cfloat",
        "complex128",
        "cdouble",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "short",
        "int32",
        "int",
        "int64",
        "long",
        "bool",
        "quint8",
        "qint8",
        "qint32",
        "quint4x2",
        "quint2x4",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
        "float8_e8m0fnu",
        "float4_e2m1fn_x2",
        "bits8",
        "bits16",
        "strided",
        "sparse_coo",
        "channels_last",
        "contiguous_format",
        "preserve_format",
    }
)


def is_torch_object(node: ast.expr) -> bool:
    """`torch.float16` and the other `torch` constants that are objects."""
    dotted = dotted_name(node) or ""
    root, _, attribute = dotted.partition(".")
    return root == "torch" and attribute in TORCH_DTYPES


_ARITHMETIC: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Div: lambda a, b: a / b,
    ast.Mod: lambda a, b: a % b,
}
#: the largest power folded (`2 ** 30`), so that no literal can make a huge number
MAX_EXPONENT = 64


def number(node: ast.expr) -> int | float | None:
    """The value of arithmetic on number literals (`128 * 1024`, `-1`, `2 ** 30`), as
    Python computes it; None for anything else."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = number(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        left, right = number(node.left), number(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Pow):
            if not isinstance(right, int) or not 0 <= right <= MAX_EXPONENT or abs(left) > 2**16:
                return None
            return left**right
        operation = _ARITHMETIC.get(type(node.op))
        if operation is None or (
            right == 0 and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod))
        ):
            return None
        return operation(left, right)
    return None


def value_id(node: ast.expr, name: str, index: int) -> str | None:
    """pytest's id of one argument value, or None when it cannot be known statically."""
    if is_torch_object(node):
        return f"{name}{index}"
    if isinstance(node, (ast.UnaryOp, ast.BinOp)):
        try:
            folded = number(node)
            return str(folded) if folded is not None else None
        except (ArithmeticError, ValueError):  # overflow, or an int too long to print
            return None
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or isinstance(value, (bool, int, float)):
            return str(value)
        if isinstance(value, str):
            return value if value.isascii() and value.isprintable() else None
        return None
    if isinstance(node, (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.Lambda)):
        return f"{name}{index}"
    if isinstance(node, ast.Call) and not (dotted_name(node.func) or "").endswith("param"):
        return f"{name}{index}"  # an object made by a call
    return None


def case_id(node: ast.expr, names: list[str], index: int) -> str | None:
    """The id of one case (a value, a tuple of values, or a `pytest.param`)."""
    if isinstance(node, ast.Call) and (dotted_name(node.func) or "").endswith("param"):
        for keyword in node.keywords:
            if keyword.arg == "id":
                given = keyword.value
                if isinstance(given, ast.Constant) and isinstance(given.value, str):
                    return given.value
                return None
        values = list(node.args)
    elif len(names) > 1 and isinstance(node, (ast.Tuple, ast.List)):
        values = list(node.elts)
    else:
        values = [node]
    if len(values) != len(names):
        return None
    parts = [value_id(v, n, index) for v, n in zip(values, names, strict=True)]
    if any(p is None for p in parts):
        return None
    return "-".join(p for p in parts if p is not None)


def unique(ids: list[str]) -> list[str]:
    """pytest's suffixes for repeated ids (`a0`, `a1`; `x1_0`, `x1_1`)."""
    counts = Counter(ids)
    suffixes: defaultdict[str, int] = defaultdict(int)
    taken = set(ids)
    made = list(ids)
    for index, id_ in enumerate(ids):
        if counts[id_] > 1:
            joiner = "_" if id_ and id_[-1].isdigit() else ""
            new = f"{id_}{joiner}{suffixes[id_]}"
            while new in taken:
                suffixes[id_] += 1
                new = f"{id_}{joiner}{suffixes[id_]}"
            made[index] = new
            taken.add(new)
            suffixes[id_] += 1
    return made


def pytest_ids(call: ast.Call) -> list[str] | None:
    """Ids of one `@pytest.mark.parametrize(names, values, ids=...)`, or None when they
    cannot be known without running the code."""
    if len(call.args) < 2 or not isinstance(call.args[1], (ast.List, ast.Tuple)):
        return None
    first = call.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        names = [n.strip() for n in first.value.split(",") if n.strip()]
    elif isinstance(first, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in first.elts
    ):
        names = [str(e.value) for e in first.elts if isinstance(e, ast.Constant)]
    else:
        return None
    cases = call.args[1].elts
    for keyword in call.keywords:
        if keyword.arg == "ids":
            given = keyword.value
            if isinstance(given, (ast.List, ast.Tuple)) and len(given.elts) == len(cases):
                texts = [e.value for e in given.elts if isinstance(e, ast.Constant)]
                if len(texts) == len(cases) and all(isinstance(t, str) for t in texts):
                    return unique([str(t) for t in texts])
            return None
    made = [case_id(case, names, index) for index, case in enumerate(cases)]
    if any(m is None for m in made):
        return None
    return unique([m for m in made if m is not None])
