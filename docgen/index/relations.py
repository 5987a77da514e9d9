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
from typing import Generic

from docgen.index.kept_rows import InMemory, Kept, KeptRows, LazyKept, Row

__all__ = ["Kept", "LazyKept", "Relation", "RelationRows", "Row", "made_from", "stale_paths"]


@dataclass(frozen=True)
class Relation(Generic[Row]):
    """A relation between files, declared once."""

    name: str  # the kind of its rows in the state (`State.kept_per_file`)
    version: str  # changes whenever what its rows hold, or how they are made, changes
    key_of: Callable[[Row], str]  # what a row points at: a file, a name
    row_of: Callable[[list[str | int]], Row]  # a row back from its JSON array
    #: the state keeps which files hold rows of each key, so that those files are found
    #: without reading every file's rows (see `RelationRows.holding`)
    keyed: bool = False

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

    def kept_of(self, kept: LazyKept, key: str) -> list[tuple[str, Row]]:
        """The rows of one key the last build kept, with their files, by path: for a
        `keyed` relation, from the state's keys, for a command that makes no index
        (`docgen find NAME --trace`); rows that cannot be read are none."""
        found: list[tuple[str, Row]] = []
        for path, text in sorted(kept.texts(kept.holding([key])).items()):
            found.extend((path, row) for row in self.decode(text) or () if self.key_of(row) == key)
        return found


def made_from(context: str, digests: Mapping[str, str], paths: Iterable[str]) -> dict[str, str]:
    """What each file's rows are made from: the relation's context and the file's facts
    (by the digest of their JSON)."""
    return {path: f"{context}:{digests.get(path, '')}" for path in paths}


def stale_paths(kept: Kept, made: Mapping[str, str]) -> list[str]:
    """The files whose rows must be made again: kept from other facts, or not kept."""
    stamps = stamps_of(kept)
    return sorted(p for p, by in made.items() if stamps.get(p) != by)


def stamps_of(kept: Kept) -> Mapping[str, str]:
    """What each kept file's rows were made from."""
    return InMemory(kept).stamps if isinstance(kept, Mapping) else kept.stamps


class RelationRows(Generic[Row]):
    """Every file's rows of one relation in this build: the kept ones where they were
    made from the same facts and context, and `make`'s for the others.

    `kept` as (stamp, text) by path is decoded at once, a damaged row made again; as a
    `LazyKept` only when a row kept is first read (`rows`), a damaged one then being
    the state damaged: on a tree of thousands of files, most builds read none."""

    def __init__(
        self,
        relation: Relation[Row],
        kept: Kept,
        made_from: Mapping[str, str],
        make: Callable[[str], tuple[Row, ...]],
        unchanged: Collection[str] = (),
    ) -> None:
        """`unchanged`: files whose facts changed but whose rows the caller knows are the
        kept ones (a header edit that kept its includes): those are read, not made."""
        self.relation = relation
        self._made_from = made_from
        made: dict[str, tuple[Row, ...]] = {}
        #: the files whose rows were made again, with their rows before (None: not kept)
        self.before: dict[str, tuple[Row, ...] | None] = {}
        decoded: dict[str, tuple[Row, ...]] | None = None
        if isinstance(kept, Mapping):  # read already: decoded now, a damaged row made again
            decoded = {}
            for path, source in made_from.items():
                row = kept.get(path)
                rows = relation.decode(row[1]) if row is not None and row[0] == source else None
                if rows is not None:
                    decoded[path] = rows
            lazy: LazyKept = InMemory(kept)
            held = list(decoded)
        else:
            lazy = kept
            held = [p for p, source in made_from.items() if kept.stamps.get(p) == source]
        stamps, texts = lazy.stamps, lazy.texts
        self._kept = lazy
        self.rows = KeptRows(relation.name, relation.decode, held, made, texts, decoded)
        held_paths = set(held)
        stale = [p for p in made_from if p not in held_paths]
        was_kept = [p for p in stale if p in stamps]
        previous = texts(was_kept) if was_kept else {}
        for path in stale:
            text = previous.get(path)
            before = relation.decode(text) if text is not None else None
            self.before[path] = before
            made[path] = before if before is not None and path in unchanged else make(path)
        #: the files whose rows were kept and are no longer in the tree
        self.gone = sorted(stamps.keys() - made_from.keys())

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

    def holding(self, keys: Collection[str]) -> set[str]:
        """The files whose rows of this build point at any of `keys`: for a `keyed`
        relation, those the state's keys name, their rows read to confirm it (a key kept
        for rows since made again without their old ones known may linger), without
        reading the other files' rows; else by reading every row."""
        key_of = self.relation.key_of
        wanted = set(keys)
        found = {p for p, rows in self.rows.made.items() if any(key_of(r) in wanted for r in rows)}
        if self.relation.keyed and not isinstance(self._kept, InMemory) and not self.rows.read:
            named = [p for p in self._kept.holding(wanted) if self.rows.is_held(p)]
            held = self.rows.rows_of(named)
        else:
            held = {p: self.rows[p] for p in self.rows if p not in self.rows.made}
        return found | {p for p, rows in held.items() if any(key_of(r) in wanted for r in rows)}

    def to_keep(self) -> list[tuple[str, str, str]]:
        """(path, made from, rows) of the files whose rows were made again."""
        encode, made_from = self.relation.encode, self._made_from
        return [(path, made_from[path], encode(self.rows[path])) for path in sorted(self.before)]

    def keys_to_keep(self) -> list[tuple[str, list[str], list[str]]] | None:
        """(path, the keys its rows no longer point at, the keys they now point at) of the
        files whose rows were made again or are gone, for a `keyed` relation (None for
        another)."""
        if not self.relation.keyed:
            return None
        key_of = self.relation.key_of

        def keys(rows: Iterable[Row] | None) -> set[str]:
            return {k for r in rows or () if (k := key_of(r))}

        changed = []
        for path in sorted(self.before):
            old, new = keys(self.before[path]), keys(self.rows[path])
            if old != new:
                changed.append((path, sorted(old - new), sorted(new - old)))
        if self.gone:
            texts = self._kept.texts(self.gone)
            for path in self.gone:
                text = texts.get(path)
                old = keys(self.relation.decode(text) if text is not None else None)
                if old:
                    changed.append((path, sorted(old), []))
        return changed
