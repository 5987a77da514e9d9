"""C++ declarations and their out-of-line definitions, matched across files.

A header declares `void Foo::bar(int x) const;`, a source file defines
`void Foo::bar(int y) const { ... }`: the two match when their qualified names
and parameter types agree (parameter names and default values do not count).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from docgen.facts import CDefinition, ScannedFile
from docgen.scan.cfamily_macros import split_commas

#: kinds that can be declared in one place and defined in another
CALLABLE_KINDS = frozenset({"function", "method", "constructor", "destructor", "operator"})
_BRACKET = re.compile(r"[(<\[{)>\]}]")
_BRACKET_OR_EQUALS = re.compile(r"[(<\[{)>\]}=]")
_TRAILING_NAME = re.compile(r"^(.*?[\w>\]\*&)\s])\s*([A-Za-z_]\w*)$")
_TYPE_WORDS = frozenset(
    {
        "int",
        "long",
        "short",
        "char",
        "bool",
        "float",
        "double",
        "void",
        "unsigned",
        "signed",
        "const",
        "volatile",
        "auto",
    }
)


def _parameters(declaration: str, name: str) -> str | None:
    """The text between the parentheses that follow the name, or None."""
    at = declaration.find(name + "(")
    if at < 0:
        at = declaration.find(name)
        if at < 0:
            return None
    start = declaration.find("(", at + len(name))
    if start < 0:
        return None
    depth = 0
    for bracket in _BRACKET.finditer(declaration, start):  # the brackets alone, not every char
        if bracket.group() in "(<[{":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return declaration[start + 1 : bracket.start()]
    return None


def _parameter_type(parameter: str) -> str:
    """`const Foo& x = {}` -> `const Foo&`; `int` stays `int`."""
    depth = 0
    for found in _BRACKET_OR_EQUALS.finditer(parameter):
        ch = found.group()
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif depth == 0:  # "=": a default value follows
            parameter = parameter[: found.start()].strip()
            break
    match = _TRAILING_NAME.match(parameter)
    if match and match.group(2) not in _TYPE_WORDS and not match.group(1).endswith("::"):
        parameter = match.group(1)
    return parameter.replace(" ", "")


def signature_key(definition: CDefinition) -> str | None:
    """`qualname(types)`; None when the parameters cannot be read from the declaration."""
    params = _parameters(definition.declaration, definition.name)
    if params is None:
        return None
    types = [_parameter_type(p) for p in split_commas(params)]
    if types == ["void"]:
        types = []
    return f"{definition.qualname}({','.join(types)})"


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    kind: str
    qualname: str
    is_definition: bool


@dataclass(frozen=True)
class CppSymbols:
    """For every declaration its definitions and for every definition its declarations,
    by (path, line, qualified name); computed once per build."""

    counterparts_of: Mapping[tuple[str, int, str], tuple[Site, ...]]

    @classmethod
    def of(cls, files: Iterable[ScannedFile]) -> CppSymbols:
        candidates: list[tuple[str, CDefinition]] = []
        forms: dict[str, set[bool]] = {}
        for scanned in files:
            c = scanned.facts.cfamily
            if c is None:
                continue
            for d in c.definitions:
                if d.kind in CALLABLE_KINDS or d.kind == "kernel":
                    candidates.append((scanned.facts.path, d))
                    forms.setdefault(d.qualname, set()).add(d.is_definition)
        # Only a name both declared and defined somewhere can have a counterpart: the
        # signatures of the others are never read.
        found: dict[str, list[Site]] = {}
        for path, d in candidates:
            if len(forms[d.qualname]) < 2:
                continue
            key = signature_key(d)
            if key is not None:
                site = Site(path, d.line, d.kind, d.qualname, d.is_definition)
                found.setdefault(key, []).append(site)
        counterparts: dict[tuple[str, int, str], tuple[Site, ...]] = {}
        for sites in found.values():
            ordered = sorted(sites, key=lambda s: (s.path, s.line))
            for site in ordered:
                others = tuple(
                    s
                    for s in ordered
                    if s.is_definition != site.is_definition
                    and not (s.path == site.path and s.line == site.line)
                )
                if others:
                    counterparts[(site.path, site.line, site.qualname)] = others
        return cls(MappingProxyType(counterparts))

    def counterparts(self, path: str, definition: CDefinition) -> tuple[Site, ...]:
        """Where a declaration is defined, or a definition declared (never itself)."""
        return self.counterparts_of.get((path, definition.line, definition.qualname), ())
