"""The names torchgen gives an operator file's operators and the C++ kernels of their
`dispatch:` lines."""

from __future__ import annotations

from docgen.model.kinds import CALLABLE_KINDS
from docgen.model.yaml_facts import OperatorEntry

#: the module torchgen binds an op's function variant in, without `python_module`
FUNCTIONS_MODULE = "torch._C._VariableFunctions"
#: the class whose methods are the ops' method variants, and its module
METHODS_MODULE, METHODS_CLASS = "torch._C", "TensorBase"
#: the C++ namespace torchgen declares the kernels of `native_functions.yaml` in
NATIVE = "at::native"
#: the dispatch keys whose kernels of a structured op are structs (torchgen's
#: `STRUCTURED_DISPATCH_KEYS`); a structured op's kernels for other keys are functions
STRUCTURED_KEYS = frozenset({"CPU", "CUDA", "MPS", "XPU", "MTIA"})
#: what a kernel can be in the C-family index: a function, or a structured kernel's struct
KERNEL_KINDS: frozenset[str] = frozenset({*CALLABLE_KINDS, "struct", "class"})


def operator_qualname(namespace: str, name: str) -> str:
    """`aten::add.Tensor`: an operator by its namespace, as the dispatcher names it."""
    return f"{namespace}::{name}" if namespace else name


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


def dispatch_kernels(operator: OperatorEntry) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Every kernel of an op with the dispatch keys it runs for: those torchgen writes
    itself (see `generated_kernels`), then each `dispatch:` line's."""
    structured = is_structured(operator)
    return (
        *generated_kernels(operator),
        *((d.keys, kernel_qualname(d.kernel, structured, d.keys)) for d in operator.dispatch),
    )


def bound_variants(operator: OperatorEntry) -> tuple[str, frozenset[str]]:
    """The op's `python_module` ("" for none) and the variants torchgen binds it as
    (`function`, `method`; torchgen's default is `function`)."""
    fields = dict(operator.fields)
    written = fields.get("variants", "function").split(",")
    return fields.get("python_module", "").strip(), frozenset(
        v.strip() for v in written if v.strip()
    )


def bound_as(operator: OperatorEntry) -> list[tuple[str, str]]:
    """(module, Python name) of each binding torchgen makes of an op: its function in
    `torch._C._VariableFunctions` (or `torch._C._<python_module>`), its method of
    `TensorBase`."""
    python_module, variants = bound_variants(operator)
    base = operator.name.split(".", 1)[0]
    bound = []
    if "function" in variants:
        module = f"{METHODS_MODULE}._{python_module}" if python_module else FUNCTIONS_MODULE
        bound.append((module, base))
    if "method" in variants:
        bound.append((METHODS_MODULE, f"{METHODS_CLASS}.{base}"))
    return bound
