"""Macros that open or close namespaces: learned from their `#define`s.

`FMT_BEGIN_NAMESPACE` writes `namespace fmt { inline namespace v11 {`; a parser
sees a word and loses the scope of everything up to `FMT_END_NAMESPACE`.  Some
trees build these macros out of one another: libcudacxx's
`_CCCL_BEGIN_NAMESPACE_CUDA_STD` is `_CCCL_BEGIN_NAMESPACE(cuda::std)`, which is
`_CCCL_BEGIN_NAMESPACE_NOVERSION(_NS) inline namespace __4 {`, which writes
`namespace _NS {`.  Such a composed macro is followed to the one it calls, once
every `#define` is read (`namespace_macros`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docgen.scan.cfamily.preprocess.macro_def import MacroDef

_NAMESPACE_OPENING = re.compile(r"(?:\s*(?:inline\s+)?namespace\s+[A-Za-z_]\w*\s*\{)+\s*")
_ONE_NAMESPACE = re.compile(r"namespace\s+([A-Za-z_]\w*)")
#: macro uses beside a namespace's braces (`namespace name { PYBIND11_WARNING_PUSH`,
#: `_CCCL_PROLOGUE_INCLUDE_CHECK() namespace _NS {`)
_MACRO_USES = re.compile(r"\s*(?:_?[A-Z][A-Z0-9_]*\b\s*(?:\([^()]*\)\s*)?)*")
#: macro uses before a namespace's opening: words and calls without arguments
#: (`_CCCL_PROLOGUE_INCLUDE_CHECK() namespace _NS {`); a call given arguments may be a
#: namespace macro itself (see `composed_namespace`)
_LEADING_USES = re.compile(r"\s*(?:_?[A-Z][A-Z0-9_]*\b\s*(?:\(\s*\)\s*)?)*")
#: a body that calls one macro, with braces or inline namespaces of its own around the
#: call: `_CCCL_BEGIN_NAMESPACE(cuda::std)`, `_CCCL_BEGIN_NAMESPACE_NOVERSION(_NS) inline
#: namespace _LIBCUDACXX_ABI_NAMESPACE {`, `} _CCCL_END_NAMESPACE_NOVERSION(_NS)`
_COMPOSED = re.compile(
    r"\s*(\}\s*)?(_?[A-Z][A-Z0-9_]*)\s*\(([^()]*)\)\s*"
    r"((?:inline\s+namespace\s+[A-Za-z_]\w*\s*\{\s*)*)(\}\s*)?"
)
#: a composed macro's expansion as `composed_namespace` writes it: `@NAME(arg,arg)`
_REFERENCE = re.compile(r"@([A-Za-z_]\w*)\((.*)\)")


def namespace_body(body: str, params: list[str]) -> str:
    """ "a::$1" for a body that opens namespaces, "}" for one that closes them, else "".
    Upper-case macro uses around the opening braces or the closing ones are left out:
    pybind11's open and close a pragma too."""
    uses = _LEADING_USES.match(body)
    opening = _NAMESPACE_OPENING.match(body, uses.end() if uses is not None else 0)
    if opening is not None and _MACRO_USES.fullmatch(body, opening.end()):
        names = _ONE_NAMESPACE.findall(body, opening.start(), opening.end())
        return "::".join(f"${params.index(n) + 1}" if n in params else n for n in names)
    if "}" in body and _MACRO_USES.fullmatch(body.replace("}", " ")):
        return "}"
    return ""


def composed_namespace(body: str, params: list[str]) -> str:
    """`@NAME(args)` for a body that is a call of one other macro (its arguments with
    this macro's parameters as `$1`, `$2` ...), with a brace or inline namespaces
    around it, else "".  Whether NAME opens or closes a namespace is known only once
    every `#define` is read (see `namespace_macros`); an inline namespace is left out
    of the names, as a reader leaves it out of a name (`cuda::std::vector`)."""
    call = _COMPOSED.fullmatch(body)
    if call is None or (call.group(1) and call.group(4)):
        return ""
    args = [a.strip() for a in call.group(3).split(",")] if call.group(3).strip() else []
    written = [f"${params.index(a) + 1}" if a in params else a for a in args]
    return f"@{call.group(2)}({','.join(written)})"


def substituted(expansion: str, args: list[str]) -> str:
    """An expansion with `$k` replaced by the k-th argument of a call of its macro."""
    if expansion == "}":
        return "}"
    parts = []
    for part in expansion.split("::"):
        if part.startswith("$"):
            index = int(part[1:]) - 1
            part = args[index] if index < len(args) else ""
        parts.append(part)
    return "::".join(parts)


def namespace_macros(defs: Iterable[MacroDef]) -> tuple[tuple[str, str], ...]:
    """Macros that open or close namespaces, each with one expansion (the first in sorted
    order, so the choice does not depend on the order files were read); a composed
    macro takes the expansion of the one it calls, followed to a fixpoint, and is
    dropped when that one opens or closes no namespace."""
    chosen: dict[str, str] = {}
    composed: dict[str, str] = {}
    for name, namespace in sorted({(d.name, d.namespace) for d in defs if d.namespace}):
        (composed if namespace.startswith("@") else chosen).setdefault(name, namespace)
    changed = True
    while changed:
        changed = False
        for name, reference in composed.items():
            if name in chosen:
                continue
            called = _REFERENCE.fullmatch(reference)
            if called is None:
                continue
            target = chosen.get(f"{called.group(1)}()")
            if target is None:
                continue
            args = called.group(2).split(",") if called.group(2) else []
            chosen[name] = substituted(target, args)
            changed = True
    return tuple(sorted(chosen.items()))
