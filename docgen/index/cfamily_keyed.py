"""The include graph and the declaration pairs read from the kept rows, file by file.

After an edit of one header, a page needs the includes of its own file, the files
that include it and the pairs of the names it declares: the rows of a few files,
found through the keys the state keeps for the includes and declarations relations
(`docgen.index.relations.RelationRows.holding`), where making the whole include graph
and every pair would read the rows of every C-family file of the tree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from docgen.index.includes import ResolvedInclude
from docgen.index.relations import RelationRows
from docgen.index.symbols import CppSymbols, DeclarationRow, Site
from docgen.model.cfamily_facts import CDefinition

#: (line, target as written, 1 for `<...>`, the file it names or "", how it was found)
#: (line, target, system, path, how, the other candidates joined by newlines)
IncludeRow = tuple[int, str, int, str, str, str]


class Includes(Protocol):
    """Who includes whom (`docgen.index.includes.IncludeGraph` or `KeyedIncludes`)."""

    @property
    def includes(self) -> Mapping[str, tuple[ResolvedInclude, ...]]: ...

    @property
    def included_by(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def roots(self) -> tuple[str, ...]: ...

    @property
    def guessed(self) -> bool: ...

    def includes_of(self, path: str) -> tuple[str, ...]: ...

    def lines_including(self, includer: str, target: str) -> tuple[int, ...]: ...


class Pairs(Protocol):
    """Where a declaration is defined, or a definition declared."""

    def counterparts(self, path: str, definition: CDefinition) -> tuple[Site, ...]: ...


class _IncludesOf(Mapping[str, tuple[ResolvedInclude, ...]]):
    """Each file's includes as resolved, from its rows (files with none left out)."""

    def __init__(self, rows: RelationRows[IncludeRow]) -> None:
        self._rows = rows

    def __getitem__(self, path: str) -> tuple[ResolvedInclude, ...]:
        found = self._rows.rows[path]
        if not found:
            raise KeyError(path)
        return tuple(
            ResolvedInclude(n, t, bool(s), p, how, tuple(o.split("\n")) if o else ())
            for n, t, s, p, how, o in found
        )

    def __iter__(self) -> Iterator[str]:
        rows = self._rows.rows
        return (path for path in rows if rows[path])

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _IncludedBy(Mapping[str, tuple[str, ...]]):
    """The files that include each file, sorted, found through the rows' keys."""

    def __init__(self, rows: RelationRows[IncludeRow]) -> None:
        self._rows = rows
        self._found: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, path: str) -> tuple[str, ...]:
        found = self._found.get(path)
        if found is None:
            found = self._found[path] = tuple(sorted(self._rows.holding({path}))) if path else ()
        if not found:
            raise KeyError(path)
        return found

    def __iter__(self) -> Iterator[str]:
        rows = self._rows.rows
        return iter(sorted({r[3] for path in rows for r in rows[path] if r[3]}))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class KeyedIncludes:
    """Who includes whom, read for each file asked about (an `Includes`)."""

    def __init__(self, rows: RelationRows[IncludeRow], roots: tuple[str, ...], guessed: bool):
        self._rows = rows
        self._roots, self._guessed = roots, guessed
        self._includes = _IncludesOf(rows)
        self._included_by = _IncludedBy(rows)

    @property
    def includes(self) -> Mapping[str, tuple[ResolvedInclude, ...]]:
        return self._includes

    @property
    def included_by(self) -> Mapping[str, tuple[str, ...]]:
        return self._included_by

    @property
    def roots(self) -> tuple[str, ...]:
        return self._roots

    @property
    def guessed(self) -> bool:
        return self._guessed

    def includes_of(self, path: str) -> tuple[str, ...]:
        return tuple(sorted({row[3] for row in self._rows.rows.get(path, ()) if row[3]}))

    def lines_including(self, includer: str, target: str) -> tuple[int, ...]:
        return tuple(row[0] for row in self._rows.rows.get(includer, ()) if row[3] == target)


class KeyedPairs:
    """The declaration pairs of each file asked about, made from the rows of the files
    that hold a row of one of its names (a `Pairs`)."""

    def __init__(
        self, rows: RelationRows[DeclarationRow], specialized: frozenset[tuple[str, str]]
    ) -> None:
        self._rows = rows
        self._specialized = specialized
        self._of: dict[str, Mapping[tuple[str, int, str], tuple[Site, ...]]] = {}

    def counterparts(self, path: str, definition: CDefinition) -> tuple[Site, ...]:
        found = self._of.get(path)
        if found is None:
            found = self._of[path] = self._pairs_of(path)
        return found.get((path, definition.line, definition.qualname), ())

    def _pairs_of(self, path: str) -> Mapping[tuple[str, int, str], tuple[Site, ...]]:
        own = self._rows.rows.get(path, ())
        names = {row[0] for row in own}
        if not names:
            return {}
        holders = self._rows.holding(names) | {path}
        rows = self._rows.rows.rows_of(holders)
        shared = {p: tuple(r for r in found if r[0] in names) for p, found in rows.items()}
        return CppSymbols.from_rows(shared, self._specialized).counterparts_of
