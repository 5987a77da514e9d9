"""Python's uses of names that may be made in C++, as a relation
(`docgen.index.relations`), and where such a name is made.

A file's rows are made from its own facts alone: each dotted name its code reads,
with its first name read as the file's imports and module-level aliases make it
(`flash_attn_gpu.fwd` with `import flash_attn_2_cuda as flash_attn_gpu` is
`flash_attn_2_cuda.fwd`; `aten.add.Tensor` with `aten = torch.ops.aten` is
`torch.ops.aten.add.Tensor`), keyed by its last name.  Which of them lead to C++ is
told at render time (`native_ends`), from the keyword index: a `binding` site whose
module, submodule and class spell the name, or the `op` site of a `torch.ops.ns.op`
name (a `TORCH_LIBRARY` block's `m.def`, an operator file's `- func:` entry).  An
edit of a Python file moves the keys its rows gained or lost: the pages of the C++
files binding those names are the only others it changes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.analyze.dotted_reads import OPS_PREFIX
from docgen.index.relations import Relation
from docgen.model.facts import PythonFacts
from docgen.model.kernel_names import KERNEL_KINDS
from docgen.model.sites import DefinitionSite

#: (the name as Python resolves it, as written, its lines joined by commas)
CallRow = tuple[str, str, str]
#: what a binding's C++ may be: a function, a class, a field (`def_readwrite`), an enumerator
TARGET_KINDS = frozenset({*KERNEL_KINDS, "field", "enumerator", "enum"})
#: the scripts whose extension modules name the modules C++ files are compiled into
BUILD_SCRIPT = "setup.py"


def _row(data: list[str | int]) -> CallRow:
    name, written, lines = data
    if not isinstance(name, str) or not isinstance(written, str) or not isinstance(lines, str):
        raise TypeError("a native call row is (name, as written, lines)")
    return name, written, lines


def call_key(row: CallRow) -> str:
    """The name a row's binding or operator is indexed under: the last name of what it
    resolves to, or the operator's base name (`scale` of `torch.ops.ns.scale.default`)."""
    name = row[0]
    if name.startswith(OPS_PREFIX):
        parts = name.split(".")
        return parts[3] if len(parts) > 3 else ""
    return name.rsplit(".", 1)[-1]


NATIVE_CALLS: Relation[CallRow] = Relation("native-calls", "3", call_key, _row, keyed=True)


def call_rows(python: PythonFacts | None) -> tuple[CallRow, ...]:
    """A file's rows, sorted: its dotted reads (see `docgen.analyze.dotted_reads`)."""
    if python is None:
        return ()
    return tuple(
        sorted((r.name, r.written, ",".join(str(n) for n in r.lines)) for r in python.reads)
    )


def row_lines(row: CallRow) -> tuple[int, ...]:
    return tuple(int(n) for n in row[2].split(","))


@dataclass(frozen=True, order=True)
class NativeEnd:
    """Where a Python name is made in C++: a `binding` site (its qualified name below
    its module, as the file spells it) or an `op` site (`flash_attn_3::fwd`)."""

    path: str
    line: int
    kind: str
    qualname: str
    anchor: str


def extension_roots(
    scripts: Iterable[tuple[str, PythonFacts | None]], paths: Iterable[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """Each file of `paths` (None: every one listed) a build script's extension module
    lists, with the modules it is compiled into (`csrc/flash_attn/flash_api.cpp`:
    (`flash_attn_2_cuda`,)), from `(path, facts)` of the tree's `setup.py` files."""
    tree = set(paths) if paths is not None else None
    found: dict[str, set[str]] = {}
    for script, python in scripts:
        folder = posixpath.dirname(script)
        for extension in python.extensions if python is not None else ():
            for source in extension.sources:
                path = posixpath.normpath(posixpath.join(folder, source))
                if tree is None or path in tree:
                    found.setdefault(path, set()).add(extension.name)
    return {p: tuple(sorted(names)) for p, names in sorted(found.items())}


def native_ends(
    name: str,
    named: Callable[[str], Sequence[DefinitionSite]],
    roots: Mapping[str, tuple[str, ...]],
) -> tuple[NativeEnd, ...]:
    """Where the tree makes this Python name in C++ (see the module's docstring).  A
    name read through a relative import (`.x.f`) is not matched: which package it
    starts from is not in the row."""
    if name.startswith("."):
        return ()
    if name.startswith(OPS_PREFIX):
        return _operators(name.removeprefix(OPS_PREFIX), named)
    short = name.rsplit(".", 1)[-1]
    found = set()
    for site in named(short):
        if site.kind != "binding":
            continue
        known = roots.get(site.path)
        if known:
            matched = any(name == f"{root}.{site.qualname}" for root in known)
        else:  # a module the file names itself or imports (`_C.fwd`), or a submodule
            matched = "." in site.qualname and (
                name == site.qualname or name.endswith(f".{site.qualname}")
            )
        if matched:
            found.add(NativeEnd(site.path, site.line, site.kind, site.qualname, site.anchor))
    return tuple(sorted(found))


def target_sites(
    named: Callable[[str], Sequence[DefinitionSite]],
    path: str,
    target: str,
    visible: Callable[[], Collection[str]] | None = None,
) -> list[DefinitionSite]:
    """The definitions of a binding's C++ `target` (as written): in the binding's own
    file by its qualified name, else the one definition so named when `target` names
    no scope (`&mha_fwd` inside `namespace FLASH_NAMESPACE`); else, for a target that
    names a scope (`&CacheEntry::code`, `&::c10d::ProcessGroup::getRank`), the places
    of the one qualified name of the tree that is it or ends with it (as C++ reads it
    from an enclosing namespace: `torch::dynamo::CacheEntry::code`); else, for one that
    names none, the places of the one qualified name so named in the files the
    binding's file includes (`visible`: them, transitively; None: not known)."""
    if not target:
        return []
    short = target.rsplit("::", 1)[-1]
    sites = [s for s in named(short) if s.kind in TARGET_KINDS]
    here = [s for s in sites if s.path == path]
    exact = [s for s in here if s.qualname == target]
    if exact or (len(here) == 1 and "::" not in target):
        return sorted(exact or here)
    if "::" not in target:
        seen = visible() if visible is not None and sites else ()
        scoped = [s for s in sites if s.path in seen]
    else:
        scoped = [s for s in sites if s.qualname == target or s.qualname.endswith(f"::{target}")]
    whole = [s for s in scoped if s.qualname == target]  # not a constructor of that name
    return sorted(whole or (scoped if len({s.qualname for s in scoped}) == 1 else []))


def _operators(
    spelled: str, named: Callable[[str], Sequence[DefinitionSite]]
) -> tuple[NativeEnd, ...]:
    """`aten.add.Tensor`: the op `aten::add.Tensor`; `aten.add.default` the op with no
    overload name; `aten.add` each overload."""
    parts = spelled.split(".")
    if len(parts) not in (2, 3):
        return ()
    namespace, base = parts[0], parts[1]
    wanted = f"{namespace}::{base}"
    exact = len(parts) == 3
    if exact and parts[2] != "default":
        wanted = f"{wanted}.{parts[2]}"
    found = {
        NativeEnd(s.path, s.line, s.kind, s.qualname, s.anchor)
        for s in named(base)
        if s.kind == "op"
        and (s.qualname == wanted or (not exact and s.qualname.startswith(f"{wanted}.")))
    }
    return tuple(sorted(found))
