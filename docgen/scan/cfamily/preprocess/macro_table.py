"""The macros a build rewrites before parsing, prepared once for all its files.

Learned from the tree's `#define`s (see `cpp_macros`) and read by `cpp_blanking`,
which rewrites each file with them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from docgen.scan.cfamily.preprocess.builtin_macros import BUILTIN_MACROS
from docgen.scan.cfamily.preprocess.macro_def import ByMeaning, Macro
from docgen.scan.cfamily.preprocess.macros import CANDIDATE


@dataclass(frozen=True)
class MacroTable:
    """Every macro `neutralise` rewrites, prepared once for all the files of a build."""

    function_like: Mapping[str, bool]  # name -> whether its argument list goes with it
    opening: Mapping[str, str]  # namespace macro -> its expansion (see `namespace_macros`)
    unusual: tuple[str, ...]  # names `CANDIDATE` cannot find (`really_inline`)
    #: wrapping macro -> the place of the argument it keeps (see `wrapper_macros`)
    keeps: Mapping[str, int] = field(default_factory=dict)
    #: macros that open a loop or a condition, written as `if` (see `statement_macros`)
    statements: frozenset[str] = frozenset()
    #: macro -> the one name it stands for (see `name_macros`)
    names: Mapping[str, str] = field(default_factory=dict)
    #: macro -> the access specifier it stands for (see `access_macros`)
    access: Mapping[str, str] = field(default_factory=dict)
    #: macros whose arguments become a string, blanked (see `cpp_string_macros`)
    strings: frozenset[str] = frozenset()
    #: macros that make a type, read as a type of their own name (see `type_macros`)
    types: frozenset[str] = frozenset()
    #: macros that make a pointer declarator of their argument (see `pointer_macros`)
    pointers: frozenset[str] = frozenset()
    #: macro -> the name of the function it declares (see `written_macros`)
    writes: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def any_unusual(self) -> re.Pattern[bytes] | None:
        """Finds any of `unusual` (one scan of a file instead of one per name); None if none."""
        if not self.unusual:
            return None
        return re.compile(_alternatives([n.encode() for n in self.unusual]))

    @classmethod
    def of(cls, macros: ByMeaning | Iterable[Macro]) -> MacroTable:
        """The rewriting table of a tree's macros (see `macro_def.MEANINGS`)."""
        grouped = macros if isinstance(macros, ByMeaning) else ByMeaning(macros)
        named, values = grouped.named, grouped.values
        keeps = {name.removesuffix("()"): int(place) for name, place in values("wrapper")}
        opens = frozenset(named("statement"))
        specifiers = dict(values("access"))
        stringized = frozenset(named("string"))
        typing = frozenset(named("type"))
        declaring = frozenset(named("pointer"))
        writes = dict(values("written"))
        namespaces = values("namespace")
        # A name defined both ways (`#define X` and `#define X(a)` in other branches) is
        # function-like: its arguments go with it only where `(` follows.  Sorted, so the
        # table never depends on the order of a set.
        every = {*BUILTIN_MACROS, *named("attribute"), *(n for n, _ in namespaces)}
        every.update(keeps, opens, specifiers)
        every.update(f"{name}()" for name in stringized | typing | declaring | writes.keys())
        table: dict[str, bool] = {}
        for name in sorted(every):
            bare_name = name.removesuffix("()")
            table[bare_name] = table.get(bare_name, False) or name.endswith("()")
        opening = {name.removesuffix("()"): expansion for name, expansion in namespaces}
        unusual = tuple(sorted(n for n in table if not CANDIDATE.fullmatch(n.encode())))
        return cls(
            table,
            opening,
            unusual,
            keeps,
            opens,
            dict(values("name")),
            specifiers,
            stringized,
            typing,
            declaring,
            writes,
        )


#: byte -> the words' tree after it; -1 marks where a word ends
_Trie = dict[int, "_Trie"]


def _alternatives(words: list[bytes]) -> bytes:
    """A pattern that matches any of `words`, as a tree of their common prefixes: the
    regular expression engine tries each alternative at each byte, and most fail at
    the first."""
    tree: _Trie = {}
    for word in words:
        node = tree
        for byte in word:
            node = node.setdefault(byte, {})
        node[-1] = {}  # a word ends here

    def pattern(node: _Trie) -> bytes:
        branches = [re.escape(bytes([b])) + pattern(node[b]) for b in sorted(node) if b >= 0]
        if not branches:
            return b""
        if len(branches) == 1 and -1 not in node:
            return branches[0]
        return b"(?:" + b"|".join(branches) + b")" + (b"?" if -1 in node else b"")

    return pattern(tree)
