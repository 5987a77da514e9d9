"""Where each C, C++ and CUDA name of the tree is used: the names a file's code writes
(`docgen.index.cfamily_use_rows`), looked up as a compiler would, within what the file
can see.

A use in file F of `name`, written in scope S with the `using`s U open there, is a
use of the declaration of qualified name Q when

- F itself, or a file F includes directly or through other headers, declares Q or
  declares it ahead (`class SymInt;`): nothing F cannot see can be what it names;
- Q is what C++'s lookup finds first (`docgen.index.cfamily_lookup`): `name`
  (`at::native::add_out` as written, or `add_out`) below S, then below each scope
  around S, then at file scope, each time also what a namespace's `using n::x;` makes
  the name there and the name in the namespaces a header's `using namespace` nominates
  (`namespace at { using namespace c10; }`: `at::Device` is `c10::Device`), then through
  each `using` of U; where two lead to different names, the use is none of them;
- a function, a method or an operator is called there (`name(` or `name<`) or named
  with its qualifier (`&at::native::add_out`): a bare word with no call is read as
  a local variable's; a `#define`'s body tells only the macros it names (the rest is
  read where the macro expands);
- Q is no constructor or destructor (a use of the class is its class's).

Members reached through `.` or `->` and names found through a class's bases or
through argument-dependent lookup are not resolved: a use docgen does not find is
left out, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from docgen.index.cfamily_lookup import alias_of, looked_up, namespace_directives, said_of
from docgen.index.cfamily_use_rows import DIRECTIVE_KEY, CUseRow, is_header, row_lines, use_key
from docgen.index.trace_line import TraceLine
from docgen.index.visibility import Visibility
from docgen.model.cfamily_facts import MACRO_BODY
from docgen.model.kinds import CALLABLE_KINDS
from docgen.model.languages import is_cfamily
from docgen.model.sites import DefinitionSite

#: what a use can be of: not a constructor or a destructor (a use of its class)
_NOT_TARGETS = frozenset({"constructor", "destructor", "namespace", "binding"})


@dataclass(frozen=True, order=True)
class CUse:
    """One file's lines that write a name one way, resolved to a qualified name."""

    qualname: str
    user: str
    written: str  # the name as the user writes it (`at::Device`, `DeviceGuard`)
    lines: tuple[int, ...]
    #: the files whose sections of `qualname` list the use (see `_listed_on`)
    listed_on: tuple[str, ...]


def resolved_uses(
    held: Mapping[str, Sequence[CUseRow]],
    keys: Collection[str],
    named: Callable[[str], Sequence[DefinitionSite]],
    visibility: Visibility,
    specialized: Collection[str] = (),
) -> list[CUse]:
    """The uses the rows of `held` (by the using file) make of the C-family names `keys`
    (last names), each with the files whose sections list it (see `_listed_on`;
    `specialized`: the class templates the tree specializes)."""
    tables: dict[str, dict[str, _Declared]] = {}
    found: dict[tuple[str, str, str], set[int]] = {}
    listed: dict[tuple[str, str, str], tuple[str, ...]] = {}
    directives = namespace_directives(held)
    said = said_of(held, visibility)
    for user, rows in sorted(held.items()):
        sees = visibility.seen_by(user)
        for row in rows:
            key = use_key(row)
            if key not in keys or row[3] > 1:
                continue  # another name, or what a namespace says of one
            table = tables.get(key)
            if table is None:
                table = tables[key] = _declared(named(key), visibility, said.forwards.get(key, {}))
            if not table:
                continue
            seen = partial(_visible, table, sees)
            aliases = said.usings.get(key, {})
            qualname = looked_up(row, seen, directives, partial(alias_of, aliases, sees))
            if qualname is None:
                continue
            declared = table[qualname]
            if not row[3] and "::" not in row[0] and declared.callable:
                continue  # a bare word where a function is meant: a local's name
            if row[1] == MACRO_BODY and not declared.macro:
                continue  # read where the macro expands: only a macro's name is told
            place = (qualname, user, row[0])
            found.setdefault(place, set()).update(row_lines(row))
            if place not in listed:
                seeing = {s.path for s in declared.sites if sees & visibility.bit(s.path)}
                if not seeing and not declared.callable:  # seen declared ahead only
                    defined = {s.path for s in declared.sites}
                    seeing = defined if len(defined) == 1 else set()
                listed[place] = _listed_on(declared, seeing, user, qualname in specialized)
    return sorted(
        CUse(*place, tuple(sorted(lines)), listed[place]) for place, lines in found.items()
    )


def _listed_on(
    declared: _Declared, seen: set[str], user: str, specialized: bool
) -> tuple[str, ...]:
    """The files whose section of a name lists a use of it: those declaring it that the
    user sees, and for a function declared in one of them, the source files defining it.
    No file where the use may be of another declaration than its own: the user declares the
    name itself (its own, as C++ finds it first), a function's overloads stand in two
    headers it sees, or a class template is specialized (which specialization is meant
    is in its arguments)."""
    if user in seen or (specialized and not declared.callable):
        return ()
    if not declared.callable:
        return tuple(sorted(seen))
    if len(seen) != 1:
        return ()
    defining = {s.path for s in declared.sites if not is_header(s.path)}
    return tuple(sorted(seen | defining))


def use_lines(
    name: str,
    named: Callable[[str], Sequence[DefinitionSite]],
    kept_of: Callable[[str], list[tuple[str, CUseRow]]],
    visibility: Callable[[Collection[str]], Visibility],
) -> list[TraceLine]:
    """Every use of the C-family declarations `name` names (its last name, or the one
    qualified name it spells: `c10::DeviceGuard`), as `path:line: use WRITTEN
    (QUALIFIED)`, sorted; a file's uses of its own declarations included."""
    last = name.rpartition("::")[2]
    qualname = name.lstrip(":") if "::" in name else ""
    wanted = {
        s.qualname
        for s in named(last)
        if is_cfamily(s.path) and s.kind not in _NOT_TARGETS and qualname in ("", s.qualname)
    }
    if not wanted:
        return []
    held: dict[str, list[CUseRow]] = {}
    for path, row in [*kept_of(last), *kept_of(DIRECTIVE_KEY)]:
        held.setdefault(path, []).append(row)
    found = {
        TraceLine(u.user, n, f"use {u.written} ({u.qualname})")
        for u in resolved_uses(held, {last}, named, visibility(held))
        if u.qualname in wanted
        for n in u.lines
    }
    return sorted(found, key=lambda t: (t.path, t.line, t.what))


def _visible(table: Mapping[str, _Declared], sees: int, qualname: str) -> bool:
    """Whether a file that sees the files `sees` (as bits) sees a declaration of `qualname`."""
    declared = table.get(qualname)
    return declared is not None and bool(declared.bits & sees)


@dataclass(frozen=True)
class _Declared:
    """One qualified name's declarations: where, as bits of `Visibility`, and whether
    every one is a function's."""

    sites: tuple[DefinitionSite, ...]
    bits: int
    callable: bool
    macro: bool  # every one is a macro's


def _declared(
    sites: Iterable[DefinitionSite], visibility: Visibility, forwards: Mapping[str, int]
) -> dict[str, _Declared]:
    """The C-family declarations of one last name, by qualified name, each seen where it
    is declared or declared ahead (`said`)."""
    by_name: dict[str, list[DefinitionSite]] = {}
    for s in sites:
        if s.kind not in _NOT_TARGETS and s.kind != "import" and is_cfamily(s.path):
            by_name.setdefault(s.qualname, []).append(s)
    found = {}
    for qualname, group in by_name.items():
        bits = 0
        for s in group:
            bits |= visibility.bit(s.path)
        bits |= forwards.get(qualname, 0)
        callable_ = all(s.kind in CALLABLE_KINDS for s in group)
        macro = all(s.kind == "macro" for s in group)
        found[qualname] = _Declared(tuple(group), bits, callable_, macro)
    return found
