"""C++'s lookup of a name as a file writes it, among the declarations the file sees:
from the scope it stands in out to file scope, through the `using`s open there, the
`using n::x;` and `using namespace n;` that namespaces say in the headers it sees
(`namespace at { using namespace c10; }` of PyTorch's `Macros.h`), and the classes
declared ahead (`class SymInt;`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from docgen.index.cfamily_use_rows import DIRECTIVE, FORWARD, USING, CUseRow, is_header
from docgen.index.visibility import Visibility


def namespace_directives(held: Mapping[str, Sequence[CUseRow]]) -> dict[str, tuple[str, ...]]:
    """The namespaces each namespace nominates by a header's `using namespace` at its
    scope (`namespace at { using namespace c10; }` of PyTorch's `Macros.h`), directly or
    through the namespaces it nominates: read in every file that names one of them (a
    file that cannot see the header cannot see the declarations it is read for)."""
    direct: dict[str, set[str]] = {}
    for path, rows in held.items():
        if is_header(path):
            for row in rows:
                if row[3] == DIRECTIVE:
                    direct.setdefault(row[1], set()).add(row[0])
    found: dict[str, tuple[str, ...]] = {}
    for namespace in sorted(direct):
        reached: list[str] = []
        stack = sorted(direct[namespace], reverse=True)
        while stack:
            other = stack.pop()
            if other != namespace and other not in reached:
                reached.append(other)
                stack.extend(sorted(direct.get(other, ()), reverse=True))
        found[namespace] = tuple(reached)
    return found


def looked_up(
    row: CUseRow,
    seen: Callable[[str], bool],
    directives: Mapping[str, Sequence[str]] = {},
    alias_of: Callable[[str], str | None] = lambda _: None,
) -> str | None:
    """The qualified name C++'s lookup finds for the row among those the file `seen`s
    declared, None when none or two: at each scope from the innermost out, the name
    there, what a `using n::x;` of that namespace makes it (`alias_of`), or the name in
    a namespace that one nominates (`directives`)."""
    written, scope, usings, _, _ = row
    if written.startswith("::"):
        return _at(written[2:], seen, directives, alias_of)
    while True:
        found = _at(f"{scope}::{written}" if scope else written, seen, directives, alias_of)
        if found is not None:
            return found
        if not scope:
            break
        scope = scope.rpartition("::")[0]
    through: set[str] = set()
    head, _, rest = written.partition("::")
    for opened in usings.split("\n") if usings else ():
        if opened.endswith("::"):
            found = opened + written
        elif opened.rpartition("::")[2] == head:
            found = f"{opened}::{rest}" if rest else opened
        else:
            continue
        if seen(found):
            through.add(found)
    return through.pop() if len(through) == 1 else None


def _at(
    qualname: str,
    seen: Callable[[str], bool],
    directives: Mapping[str, Sequence[str]],
    alias_of: Callable[[str], str | None],
) -> str | None:
    """`qualname` when seen, else what a `using` seen makes it, else the one seen in a
    namespace its namespace nominates."""
    if seen(qualname):
        return qualname
    target = alias_of(qualname)
    if target is not None and seen(target):
        return target
    namespace, _, last = qualname.rpartition("::")
    found = [f"{n}::{last}" for n in directives.get(namespace, ()) if seen(f"{n}::{last}")]
    return found[0] if len(found) == 1 else None


@dataclass
class Said:
    """What the namespaces' own lines say of names, by last name: the files declaring a
    qualified name ahead (`class X;`), as bits; what a `using n::x;` makes a qualified
    name (what it names, the files saying so as bits)."""

    forwards: dict[str, dict[str, int]] = field(default_factory=dict)
    usings: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)


def said_of(held: Mapping[str, Sequence[CUseRow]], visibility: Visibility) -> Said:
    """What the namespaces of the files `held` say of names besides declaring them."""
    found = Said()
    for path, rows in held.items():
        bit = visibility.bit(path)
        for written, scope, _, kind, _ in rows:
            if kind == FORWARD:
                qualname = f"{scope}::{written}" if scope else written
                forward = found.forwards.setdefault(written, {})
                forward[qualname] = forward.get(qualname, 0) | bit
            elif kind == USING:
                target = written.lstrip(":")
                last = target.rpartition("::")[2]
                made = f"{scope}::{last}" if scope else last
                using = found.usings.setdefault(last, {})
                known = using.get(made)
                if known is None or known[0] == target:
                    using[made] = (target, (known[1] if known else 0) | bit)
                else:
                    using[made] = ("", 0)  # two namespaces' names: neither
    return found


def alias_of(aliases: Mapping[str, tuple[str, int]], sees: int, qualname: str) -> str | None:
    """What `qualname` names through a `using n::x;` the file sees, if one makes it."""
    made = aliases.get(qualname)
    return made[0] if made is not None and made[0] and made[1] & sees else None
