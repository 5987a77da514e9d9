"""Where a file's own function-like macros are in force.

`extern DECL_CASE(64, 64);` or `NOT_SUPPORTED(add);` in a class body read to the
grammar as functions named after the macro.  The preprocessor would expand
them, so a callable so named is a use of the macro when a `#define` of it
stands above, in the same branch of every conditional around it or in one
that encloses it, with no `#undef` between.  Only what is certain counts: a
`#define` in some other conditional (`#ifdef A` ... `#endif` then `#ifndef A`
... `#endif`) may not be in force, and the name is kept.
"""

from __future__ import annotations

import bisect
import itertools
import re

from docgen.scan.cfamily.preprocess.source import directives_matching

#: a function-like `#define`, an `#undef` or a conditional line, from its `#` (see
#: `cpp_source.directives_matching`)
_DIRECTIVE = re.compile(
    rb"#[ \t]*(?:define[ \t]+([A-Za-z_]\w*)\(|undef[ \t]+([A-Za-z_]\w*)"
    rb"|(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b)"
)
#: how many of a macro's `#define`s above a use are looked at (the nearest ones)
_NEAREST = 8


class FunctionMacros:
    """The function-like macros of one file, with the conditional branches each
    `#define` stands in; built in one pass over the file."""

    def __init__(self, data: bytes) -> None:
        self._defines: dict[str, list[tuple[int, tuple[int, ...]]]] = {}  # name -> (line, branch)
        self._undefs: dict[str, list[int]] = {}
        self._changes: list[int] = []  # lines where the branch changes
        self._branches: list[tuple[int, ...]] = [()]  # the branch from each change on
        if b"define" not in data:
            return
        branch: tuple[int, ...] = ()
        ids = itertools.count(1)
        line, counted = 1, 0
        for match in directives_matching(_DIRECTIVE, data):
            start = match.start()
            line += data.count(b"\n", counted, start)
            counted = start
            defined, undefined, word = match.groups()
            if defined:
                self._defines.setdefault(defined.decode("ascii"), []).append((line, branch))
            elif undefined:
                self._undefs.setdefault(undefined.decode("ascii"), []).append(line)
            else:
                if word.startswith(b"if"):
                    branch = (*branch, next(ids))
                elif word == b"endif":
                    branch = branch[:-1]
                else:  # another branch of the same conditional
                    branch = (*branch[:-1], next(ids))
                self._changes.append(line)
                self._branches.append(branch)

    def expands(self, name: str, line: int) -> bool:
        """Whether `name(` on `line` is certainly a use of this file's macro `name`."""
        defines = self._defines.get(name)
        if not defines:
            return False
        here = self._branches[bisect.bisect_right(self._changes, line)]
        undefs = self._undefs.get(name, [])
        above = bisect.bisect_left(defines, (line,))
        for defined_at, branch in reversed(defines[max(0, above - _NEAREST) : above]):
            if here[: len(branch)] != branch:
                continue  # in a conditional that does not hold the use
            after = bisect.bisect_right(undefs, defined_at)
            if after < len(undefs) and undefs[after] < line:
                continue  # undefined between them
            return True
        return False
