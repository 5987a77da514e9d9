"""Macros that write the head of a function their use then gives a body: PyTorch's
structured kernels (`#define TORCH_IMPL_FUNC(name) void structured_##name::impl`, used
as `TORCH_IMPL_FUNC(add_out)(const Tensor& self, ...) { ... }`) and the kernels a
tree's macro declares (flash-attention's `DEFINE_FLASH_FORWARD_KERNEL(flash_fwd_kernel,
bool Is_dropout, ...) { ... }`, whose `#define` ends `__global__ void kernelName(...)`).

A parser reads such a use as a function named after the macro and loses the name it
defines.  The head is kept as a template, each argument written `$1`, `$2`, ... (`$@`
for the variadic rest), so a use expands to the declaration the compiler sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

#: the words a head may begin with that make it no function's: statements and classes
_NOT_A_HEAD = frozenset(
    {
        "return",
        "case",
        "goto",
        "else",
        "throw",
        "do",
        "co_return",
        "co_yield",
        "new",
        "delete",
        "sizeof",
        "typedef",
        "using",
        "namespace",
        "struct",
        "class",
        "union",
        "enum",
        "if",
        "for",
        "while",
        "switch",
        "static_assert",
    }
)
#: a declarator name, pieces pasted with `##` and qualified with `::`
_NAME = r"[A-Za-z_$][\w$]*(?:\s*##\s*[A-Za-z_$@][\w$@]*)*"
_QUALIFIED = rf"(?:::\s*)?{_NAME}(?:\s*::\s*~?{_NAME})*"
#: a head with no parameter list: `void structured_##name::impl`
_OPEN_HEAD = re.compile(rf"(?P<type>[\w$:<>,\s*&]*[\w>*&])\s+(?P<name>{_QUALIFIED})")
#: the words after a parameter list
_AFTER_PARAMS = re.compile(r"(?:\s*(?:const|noexcept|override|final|volatile))*\s*")
#: PyTorch's structured-kernel macros, as `ATen/TensorMeta.h` defines them: known before
#: a tree is read, since a tree (an extension, a folder of kernels) may use them without
#: holding that header
STRUCTURED_KERNEL_HEADS: Mapping[str, str] = {
    "TORCH_META_FUNC": "void structured_$1::meta",
    "TORCH_META_FUNC2": "void structured_$1_$2::meta",
    "TORCH_PRECOMPUTE_META_FUNC": "structured_$1::meta_return_ty structured_$1::meta",
    "TORCH_PRECOMPUTE_META_FUNC2": "structured_$1_$2::meta_return_ty structured_$1_$2::meta",
    "TORCH_IMPL_FUNC": "void structured_$1::impl",
}


def head_template(body: str, params: Sequence[str]) -> str:
    """The head a function-like macro's body writes, its arguments as `$1`...`$@`; ""
    when the body is not a function's head (see the module's docstring) or when the
    name it declares is not made from an argument."""
    names = [p.strip() for p in params]
    if not names or "#" in body.replace("##", ""):
        return ""  # no arguments, or one made a string
    text = " ".join(body.split())
    places: dict[str, str] = {}
    for at, name in enumerate(names, 1):
        if name == "...":
            places["__VA_ARGS__"] = "$@"
        elif name.endswith("..."):
            places[name.removesuffix("...").strip()] = "$@"
        else:
            places[name] = f"${at}"
    written = re.sub(r"[A-Za-z_]\w*", lambda m: places.get(m.group(), m.group()), text)
    written = re.sub(r"\s*##\s*", "", written)
    head = split_head(written)
    if head is None or "$" not in "".join(head.parts).replace("$@", ""):
        return ""
    return written


class Head(NamedTuple):
    """An expanded head: what comes before the name, the name's parts, its parameters."""

    before: str  # `template <...> __global__ void`, `void`
    parts: tuple[str, ...]  # `("structured_add_out", "impl")`
    params: str  # `(const Params p)`, "" for a head whose use gives them


def split_head(text: str) -> Head | None:
    """A head's parts (see `Head`), or None when `text` is no function's head."""
    text = text.strip()
    params = ""
    after = _AFTER_PARAMS.match(text[::-1])  # what follows the parameter list
    tail = text[: len(text) - (after.end() if after else 0)]
    if tail.endswith(")"):
        start = _opening(tail)
        if start is None:
            return None
        params, tail = text[start:], tail[:start].rstrip()
    found = _OPEN_HEAD.fullmatch(_without_template(tail))
    if found is None:
        return None
    before = tail[: len(tail) - len(found.group("name"))].strip()
    words = before.replace("<", " ").split()
    if not words or words[0] in _NOT_A_HEAD or any(w in _NOT_A_HEAD for w in words):
        return None
    parts = tuple(p.strip() for p in found.group("name").removeprefix("::").split("::"))
    return Head(before, parts, params)


def writes_parameters(template: str) -> bool:
    """Whether a head template writes its function's parameters too."""
    head = split_head(template)
    return head is not None and bool(head.params)


def split_template(before: str) -> tuple[str, str]:
    """`template <typename T> __global__ void` -> (`template <typename T>`, `__global__
    void`); ("", `before`) when it is no template."""
    rest = _without_template(before)
    return before[: len(before) - len(rest)].strip(), rest


def _without_template(text: str) -> str:
    """`template <typename T, int N> void f` -> `void f`: a template's parameters may
    hold what a head may not."""
    if not text.startswith("template"):
        return text
    depth = 0
    for at, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                return text[at + 1 :].strip()
    return text


def _opening(text: str) -> int | None:
    """Where the parenthesis that closes `text` opens."""
    depth = 0
    for at in range(len(text) - 1, -1, -1):
        ch = text[at]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return at
    return None


def expand(template: str, args: Sequence[str]) -> str:
    """A head template with a use's arguments in place (`$@`: the variadic rest)."""
    count = sum(1 for n in range(1, 10) if f"${n}" in template)

    def argument(found: re.Match[str]) -> str:
        mark = found.group(1)
        if mark == "@":
            return ", ".join(args[count:])
        at = int(mark) - 1
        return args[at] if at < len(args) else ""

    return re.sub(r"\$(\d|@)", argument, template)


def head_macros(
    defs: Iterable[tuple[str, str]], attributes: frozenset[str]
) -> tuple[tuple[str, str], ...]:
    """(name without `()`, head template) of the macros every `#define` of which writes
    the same head (see `head_template`); not the attribute macros."""
    heads: dict[str, set[str]] = {}
    for name, head in defs:
        heads.setdefault(name, set()).add(head)
    return tuple(
        sorted(
            (name.removesuffix("()"), next(iter(written)))
            for name, written in heads.items()
            if len(written) == 1 and "" not in written and name not in attributes
        )
    )
