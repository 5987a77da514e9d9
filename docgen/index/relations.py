"""One way to keep a relation between files.

A relation is declared once (`Relation`): its name, and what one of its rows points
at.  Each file gives its own rows, made from its facts and from the relation's context
(what else they follow from, such as the module names of the tree); the state keeps
every file's rows with what they were made from (its `per_file` rows under the
relation's name).  A build makes again only the rows of the files whose `made_from`
changed, keeps those and forgets the rows of files gone (`RelationRows`), and `moved`
tells which keys (the files or names rows point at) gained or lost a row: their pages
are the only other ones an edit can change.  A new relation needs its rows and its
pages, nothing about caching.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

#: One row of a relation: a tuple of strings and integers (kept as a JSON array).
Row = TypeVar("Row", bound=tuple[str | int, ...])


@dataclass(frozen=True)
class Relation(Generic[Row]):
    """A relation between files, declared once."""

    name: str  # the kind of its rows in the state (`State.kept_per_file`)
    version: str  # changes whenever what its rows hold, or how they are made, changes
    key_of: Callable[[Row], str]  # what a row points at: a file, a name
    row_of: Callable[[list[str | int]], Row]  # a row back from its JSON array

    def context(self, *parts: object) -> str:
        """What every row of this build follows from besides its file's facts: the
        relation's version and `parts` (the tree's paths, the roots, docgen's code)."""
        text = json.dumps([self.name, self.version, *parts], separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def encode(self, rows: Iterable[Row]) -> str:
        return json.dumps([list(row) for row in rows], separators=(",", ":"))

    def decode(self, text: str) -> tuple[Row, ...] | None:
        """A file's rows as kept; None when they cannot be read (they are made again)."""
        try:
            return tuple(self.row_of(list(row)) for row in json.loads(text))
        except (ValueError, TypeError, KeyError, IndexError):
            return None


def made_from(context: str, digests: Mapping[str, str], paths: Iterable[str]) -> dict[str, str]:
    """What each file's rows are made from: the relation's context and the file's facts
    (by the digest of their JSON)."""
    return {path: f"{context}:{digests.get(path, '')}" for path in paths}


def stale_paths(kept: Mapping[str, tuple[str, str]], made: Mapping[str, str]) -> list[str]:
    """The files whose rows must be made again: kept from other facts, or not kept."""
    return sorted(p for p, by in made.items() if (row := kept.get(p)) is None or row[0] != by)


class RelationRows(Generic[Row]):
    """Every file's rows of one relation in this build: the kept ones where they were
    made from the same facts and context, and `make`'s for the others."""

    def __init__(
        self,
        relation: Relation[Row],
        kept: Mapping[str, tuple[str, str]],
        made_from: Mapping[str, str],
        make: Callable[[str], tuple[Row, ...]],
    ) -> None:
        self.relation = relation
        self._made_from = made_from
        self.rows: dict[str, tuple[Row, ...]] = {}
        #: the files whose rows were made again, with their rows before (None: not kept)
        self.before: dict[str, tuple[Row, ...] | None] = {}
        for path, source in made_from.items():
            row = kept.get(path)
            decoded = relation.decode(row[1]) if row is not None else None
            if row is not None and row[0] == source and decoded is not None:
                self.rows[path] = decoded
            else:
                self.rows[path] = make(path)
                self.before[path] = decoded
        #: the files whose rows were kept and are no longer in the tree
        self.gone = sorted(kept.keys() - made_from.keys())

    def moved(self, paths: Collection[str]) -> set[str] | None:
        """The keys that gained or lost a row of these files (an edit's files), None when
        one of them had no readable rows before (every page may then differ)."""
        keys: set[str] = set()
        key_of = self.relation.key_of
        for path in paths:
            if path not in self.before:
                continue  # rows kept as they were, or no rows of this relation
            before = self.before[path]
            if before is None:
                return None
            keys.update(key_of(row) for row in set(before) ^ set(self.rows[path]))
        return keys

    def to_keep(self) -> list[tuple[str, str, str]]:
        """(path, made from, rows) of the files whose rows were made again."""
        encode, made_from = self.relation.encode, self._made_from
        return [(path, made_from[path], encode(self.rows[path])) for path in sorted(self.before)]
