"""Macros that mean something to a reader: operator registrations, dispatch stubs,
test cases (googletest's, Catch2's, doctest's), and the CUDA calls a GPU tag is
decided from.

These are read for what they do, never listed as functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

#: `MACRO(args) { body }` blocks that register operators
BLOCK_REGISTRATIONS: frozenset[str] = frozenset(
    {
        "TORCH_LIBRARY",
        "TORCH_LIBRARY_FRAGMENT",
        "TORCH_LIBRARY_IMPL",
        "STABLE_TORCH_LIBRARY",
        "STABLE_TORCH_LIBRARY_FRAGMENT",
        "STABLE_TORCH_LIBRARY_IMPL",
    }
)
#: `MACRO(name, m) { body }` blocks that make a Python module (pybind11's, nanobind's)
BINDING_MODULES: frozenset[str] = frozenset(
    {"PYBIND11_MODULE", "PYBIND11_EMBEDDED_MODULE", "NB_MODULE"}
)
#: `MACRO(Suite, Case) { body }` blocks that define a googletest case
TEST_MACROS: frozenset[str] = frozenset(
    {"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P", "CUDA_TEST"}
)
#: `MACRO("name", ...) { body }` blocks that define a Catch2 or doctest case
NAMED_TEST_MACROS: frozenset[str] = frozenset(
    {
        "TEST_CASE",
        "TEST_CASE_METHOD",
        "TEST_CASE_FIXTURE",
        "TEST_CASE_TEMPLATE",
        "TEST_CASE_TEMPLATE_DEFINE",
        "SCENARIO",
        "SCENARIO_METHOD",
        "TEMPLATE_TEST_CASE",
        "TEMPLATE_TEST_CASE_SIG",
        "TEMPLATE_TEST_CASE_METHOD",
        "TEMPLATE_TEST_CASE_METHOD_SIG",
        "TEMPLATE_PRODUCT_TEST_CASE",
        "TEMPLATE_PRODUCT_TEST_CASE_METHOD",
        "TEMPLATE_LIST_TEST_CASE",
        "TEMPLATE_LIST_TEST_CASE_METHOD",
    }
)
#: a macro of a tree's own that opens a test case named by a string: upper case, with
#: `TEST` in its name (CCCL's `C2H_TEST("name", "[tag]", types)`)
_OWN_TEST_MACRO = re.compile(r"[A-Z_][A-Z0-9_]*TEST[A-Z0-9_]*")


def names_a_test(macro: str, arguments: str) -> bool:
    """Whether `MACRO(arguments) { ... }` defines a test case named by a string: one of
    Catch2's or doctest's, or a tree's own test macro called with a string."""
    if macro in NAMED_TEST_MACROS:
        return True
    return '"' in arguments and _OWN_TEST_MACRO.fullmatch(macro) is not None


#: a test macro's suite or test name: one identifier
_TEST_NAME = re.compile(r"[A-Za-z_]\w*")


def gtest_body_scope(macro: str, args: Sequence[str]) -> tuple[str, ...] | None:
    """Where googletest puts the body of `TEST(Suite, Name) { ... }`, as scope names for
    the classes defined in it: the body is the `TestBody` method of the class the macro
    declares (`Suite_Name_Test`; for a typed test, the template `Name` in the namespace
    `gtest_suite_Suite_`).  None for a macro docgen does not know the expansion of."""
    if len(args) < 2 or not all(_TEST_NAME.fullmatch(a) for a in args[:2]):
        return None
    suite, name = args[0], args[1]
    if macro in ("TEST", "TEST_F", "TEST_P"):
        return (f"{suite}_{name}_Test", "TestBody")
    if macro in ("TYPED_TEST", "TYPED_TEST_P"):
        return (f"gtest_suite_{suite}_", name, "TestBody")
    return None


#: the dispatch-stub macros: `DECLARE_DISPATCH`, `DEFINE_DISPATCH`, `REGISTER_*DISPATCH`
DISPATCH_MACRO = r"(?:DECLARE|DEFINE)_DISPATCH|(?:ALSO_)?REGISTER_\w*DISPATCH"
_DISPATCH = re.compile(DISPATCH_MACRO)
#: CUDA runtime, driver and library calls: `cudaMalloc`, `cuLaunchKernel`, `cublasSgemm`, ...
GPU_CALL = re.compile(
    r"(?:cuda|cu|cublas|cublasLt|cudnn|cufft|curand|cusparse|cusolver|nccl|nvrtc)[A-Z]\w*$"
    r"|C10_CUDA_KERNEL_LAUNCH_CHECK$|C10_CUDA_CHECK$|AT_CUDA_CHECK$"
)
#: bytes that may hold such a call: cheap to look for before a body is opened
GPU_CALL_BYTES = re.compile(
    rb"\b(?:(?:cuda|cu|cublas|cublasLt|cudnn|cufft|curand|cusparse|cusolver|nccl|nvrtc)[A-Z]"
    rb"|C10_CUDA_|AT_CUDA_CHECK|cuda::)"
)
#: a name of PyTorch's CUDA namespaces, as a body writes it
CUDA_NAMESPACE_NAME = re.compile(r"(?:::)?(?:at|c10)::cuda::[A-Za-z_]\w*")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def is_dispatch_macro(name: str) -> bool:
    return _DISPATCH.fullmatch(name) is not None


def split_commas(text: str) -> list[str]:
    """`a, f(b, c), T<d, e>` -> ["a", "f(b, c)", "T<d, e>"]: commas outside brackets,
    each part on one line, empty parts dropped."""
    return _split_at_commas(text, _BRACKET_OR_COMMA)


def _split_at_commas(text: str, marks: re.Pattern[str]) -> list[str]:
    """`text` split at the commas `marks` finds outside the brackets it finds (what else
    it finds, a string literal, is passed over whole), each part on one line, empty
    parts dropped."""
    parts: list[str] = []
    depth, start = 0, 0
    for found in marks.finditer(text):  # the few chars that matter, not every one
        ch = found.group()
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:  # a comma outside brackets
            parts.append(text[start : found.start()])
            start = found.end()
    parts.append(text[start:])
    return [" ".join(p.split()) for p in parts if p.strip()]


_BRACKET_OR_COMMA = re.compile(r"[(\[{<)\]}>,]")


def macro_args(text: str) -> list[str]:
    """`(a, f(b, c), d)` -> ["a", "f(b, c)", "d"], each on one line."""
    text = text.strip()
    if not text.startswith("(") or not text.endswith(")"):
        return []
    return split_commas(text[1:-1])


def string_value(text: str) -> str | None:
    """The text of a string literal argument, adjacent literals joined; also through
    `TORCH_SELECTIVE_SCHEMA("...")`-style wrappers.  None when it holds no literal."""
    pieces = _STRING.findall(text)
    if not pieces:
        return None
    return "".join(pieces)


#: a function given by name: `&mha_fwd`, `at::native::add`, `TORCH_FN(f)`,
#: `c10::DispatchKey::CPU` aside (`TORCH_FN_TYPE`, casts and lambdas are no name)
_FUNCTION_GIVEN = re.compile(
    r"(?:TORCH_FN\(\s*)?&?\s*((?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)\s*\)?"
)


def function_named(text: str) -> str:
    """The function an `m.impl("op", ...)` argument names (`&mha_fwd` -> `mha_fwd`,
    `TORCH_FN(at::native::add)` -> `at::native::add`); "" for a lambda or anything else."""
    match = _FUNCTION_GIVEN.fullmatch(text.strip())
    return match.group(1).removeprefix("::") if match else ""


def op_name(value: str) -> str:
    """`aten::add.out(Tensor self) -> Tensor` -> `aten::add.out`."""
    return value.split("(", 1)[0].strip()


#: c10's and gflags' flag macros: `C10_DEFINE_bool(name, default, "help")`,
#: `C10_DECLARE_int64(name)`, `DEFINE_string(...)`, `C10_DEFINE_typed_var(type, ...)`
_FLAG_MACRO = re.compile(
    r"\s*((?:C10_)?(DECLARE|DEFINE)_(?:bool|int|int32|int64|uint32|uint64|double|string"
    r"|typed_var))\s*\("
)


class Flag(NamedTuple):
    """A command-line flag a macro declares or defines."""

    name: str
    defines: bool
    default: str  # as written, "" for a declaration
    help: str  # the help string's text, "" for a declaration


def command_line_flag(text: str) -> Flag | None:
    """The flag `C10_DEFINE_bool(name, default, "help");` (and its kin) declares or
    defines; None for any other text."""
    found = _FLAG_MACRO.match(text)
    if found is None:
        return None
    args = _value_args(text[found.end(1) :].strip().removesuffix(";").rstrip())
    if found.group(1).endswith("typed_var"):
        args = args[1:]  # the type comes first
    if not args or _TEST_NAME.fullmatch(args[0]) is None:
        return None
    defines = found.group(2) == "DEFINE"
    if not defines:
        return Flag(args[0], False, "", "")
    default = args[1] if len(args) > 1 else ""
    help_text = string_value(args[2]) if len(args) > 2 else None
    return Flag(args[0], True, default, help_text or "")


#: what the arguments of a call of values are split at: strings, parentheses, commas
_VALUE_PARTS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[()\[\]{},]')


def _value_args(text: str) -> list[str]:
    """`(name, 1 << 20, "a, b")` -> ["name", "1 << 20", '"a, b"']: split where
    `macro_args` would not (`<<` is no bracket, a string's comma no separator)."""
    if not text.startswith("(") or not text.endswith(")"):
        return []
    return _split_at_commas(text[1:-1], _VALUE_PARTS)
