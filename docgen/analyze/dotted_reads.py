"""The dotted names a Python file's code reads, read as the file's imports and
module-level aliases make their first name: what the links from Python into C++ are
made of (see `docgen.index.native_calls`), kept after the code references that make
them are dropped."""

from __future__ import annotations

from docgen.model.binding_facts import DottedRead
from docgen.model.facts import PythonFacts

#: how `torch/_ops.py`'s own `ops` object is written where it is imported from there
_OPS_SPELLINGS = ("torch._ops.ops.",)
OPS_PREFIX = "torch.ops."


def _normal(name: str) -> str:
    for prefix in _OPS_SPELLINGS:
        if name.startswith(prefix):
            return OPS_PREFIX + name[len(prefix) :]
    return name


def dotted_reads(python: PythonFacts) -> tuple[DottedRead, ...]:
    """Each dotted name whose first name an import or an alias binds (every import of
    it: `try: import a as x` / `except: import b as x` gives both), on the lines where no
    longer name read there extends it (`torch.ops.aten.add` of `torch.ops.aten.add.Tensor`
    is not a read of its own), and each name a `from` import of an absolute module
    binds, on the import's line (`from torch._C._distributed_c10d import ProcessGroup`
    is a use of `torch._C._distributed_c10d.ProcessGroup`), and on the lines where the
    code uses that name bare (`ProcessGroup(...)`, see `docgen.scan.python.name_uses`)
    or reads through it (`ProcessGroup.Options`), a name a `from m import *` may bind
    as `m.name` (the tree tells whether it does), and a method's `super().forward` as
    `forward` of its class's first base;
    a relative import's names are read as written (`.distributed_c10d.all_reduce`):
    the package they start from is the tree's to tell (`docgen.index.graph.absolute_name`).
    One read per name and spelling, with all its lines."""
    imported = {
        DottedRead(_normal(target), name, (imp.line,))
        for imp in python.imports
        if imp.is_from and not imp.star
        for name, target in imp.aliases
        if "." in target
    }
    if not python.code_refs and not python.name_uses:
        return _merged(imported)
    first: dict[str, str] = {}
    stands_for: dict[str, set[str]] = {}
    for imp in sorted(python.imports, key=lambda i: i.line):
        for name, target in imp.aliases:
            first.setdefault(name, target)
            stands_for.setdefault(name, set()).add(target)
    for alias in python.aliases:
        head, dot, rest = alias.value.partition(".")
        value = f"{first[head]}{dot}{rest}" if head in first else alias.value
        stands_for.setdefault(alias.name, set()).add(value)
    covered: set[tuple[str, int]] = set()
    for ref in python.code_refs:
        parts = ref.name.split(".")
        for depth in range(2, len(parts)):
            prefix = ".".join(parts[:depth])
            covered.update((prefix, line) for line in ref.lines)
    found: set[DottedRead] = imported
    from_bound = {name for imp in python.imports if imp.is_from for name, _ in imp.aliases}
    for ref in python.code_refs:
        head, dot, rest = ref.name.partition(".")
        if not dot or head not in stands_for:
            continue
        if head in from_bound:  # `DeviceMesh._concatenate(...)` uses the class it imports
            for target in stands_for[head]:
                found.add(DottedRead(_normal(target), head, ref.lines))
        lines = tuple(sorted({n for n in ref.lines if (ref.name, n) not in covered}))
        if not lines:
            continue
        for target in stands_for[head]:
            found.add(DottedRead(_normal(f"{target}.{rest}"), ref.name, lines))
    stars = [i.module for i in python.imports if i.star and i.module and i.module != "__future__"]
    for use in python.name_uses:  # `f(x)` after `from m import f`: a read of `m.f`
        head, dot, rest = use.name.partition(".")  # `Base.forward`: `super().forward`
        named = stands_for.get(head) or [f"{module}.{head}" for module in stars]
        written = use.written or use.name
        for target in named:
            found.add(DottedRead(_normal(f"{target}{dot}{rest}"), written, use.lines))
    return _merged(found)


def _merged(reads: set[DottedRead]) -> tuple[DottedRead, ...]:
    """One read per name and spelling, with all its lines (its import's, its calls',
    its other uses'), sorted."""
    lines: dict[tuple[str, str], set[int]] = {}
    for read in reads:
        lines.setdefault((read.name, read.written), set()).update(read.lines)
    return tuple(DottedRead(n, w, tuple(sorted(found))) for (n, w), found in sorted(lines.items()))
