"""The C++ names torchgen gives the kernels of an operator file's `dispatch:` lines."""

from __future__ import annotations

from docgen.model.yaml_facts import OperatorEntry

#: the C++ namespace torchgen declares the kernels of `native_functions.yaml` in
NATIVE = "at::native"
#: the dispatch keys whose kernels of a structured op are structs (torchgen's
#: `STRUCTURED_DISPATCH_KEYS`); a structured op's kernels for other keys are functions
STRUCTURED_KEYS = frozenset({"CPU", "CUDA", "MPS", "XPU", "MTIA"})


def is_structured(operator: OperatorEntry) -> bool:
    """Whether torchgen makes the op a structured kernel (`structured: True`)."""
    return any(k == "structured" and v.lower() == "true" for k, v in operator.fields)


def kernel_qualname(kernel: str, structured: bool, keys: tuple[str, ...]) -> str:
    """The C++ name torchgen declares a dispatch kernel under for these keys: a struct
    for a structured op's kernel on a structured key, else a function (a line that
    mixes both kinds of key is read as its first key)."""
    if structured and keys and keys[0] in STRUCTURED_KEYS:
        return f"{NATIVE}::structured_{kernel}"
    return f"{NATIVE}::{kernel}"


#: the dispatch keys torchgen writes a kernel for from an op's `ufunc_inner_loop`
UFUNC_KEYS = ("CPU", "CUDA")


def generated_kernels(operator: OperatorEntry) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The kernels torchgen writes itself for a structured op with a `ufunc_inner_loop`
    (`add.out`: `at::native::structured_ufunc_add_CPU` and `..._CUDA`), which its
    `dispatch:` block does not list."""
    if not is_structured(operator) or all(k != "ufunc_inner_loop" for k, _ in operator.fields):
        return ()
    base = operator.name.split(".", 1)[0]
    return tuple(((key,), f"{NATIVE}::structured_ufunc_{base}_{key}") for key in UFUNC_KEYS)
