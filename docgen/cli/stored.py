"""What the commands that read an output folder read of the last build's state, each
part read once when first asked for."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING, Generic

from docgen.index.kept_rows import LazyKept, Row

if TYPE_CHECKING:
    from docgen.analyze.summary import FileSummary
    from docgen.index.relations import Relation
    from docgen.index.visibility import Visibility
    from docgen.model.facts import ScannedFile
    from docgen.state import State


def kept_rows(state: State, relation: Relation[Row]) -> Iterator[tuple[str, Row]]:
    """Every file's kept rows of `relation`, with their files, by path."""
    for path, text in sorted(state.kept_stamps(relation.name).texts().items()):
        for row in relation.decode(text) or ():
            yield path, row


class StoredSummaries:
    """The stored summaries, each read once when first asked for."""

    def __init__(self, state: State) -> None:
        self._state = state
        self._read: dict[str, FileSummary | None] = {}

    def get(self, path: str) -> FileSummary | None:
        from docgen.analyze.summary import read_summary

        if path not in self._read:
            text = self._state.stored_summaries([path]).get(path)
            try:
                self._read[path] = read_summary(text) if text is not None else None
            except (ValueError, TypeError, KeyError):  # a damaged row: the file is passed by
                self._read[path] = None
        return self._read[path]


class StoredFacts(Mapping[str, "ScannedFile"]):
    """The stored facts of the files asked for (the test files, the files their test
    classes' bases lead to), read once each."""

    def __init__(self, state: State) -> None:
        self._state = state
        self._read: dict[str, ScannedFile | None] = {}

    def get(self, path: str, default: object = None) -> ScannedFile | None:  # type: ignore[override]
        if path not in self._read:
            self._read[path] = self._state.stored_file(path)
        return self._read[path]

    def __getitem__(self, path: str) -> ScannedFile:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.get(path) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(p for p, f in self._read.items() if f is not None))

    def __len__(self) -> int:
        return sum(1 for f in self._read.values() if f is not None)


class KeptUses(Generic[Row]):
    """The kept rows of a keyed relation of uses (`docgen.index.native_calls`,
    `docgen.index.cfamily_uses`) of the files holding some last names, found by the
    state's keys: each file's rows read once."""

    def __init__(self, kept: LazyKept, relation: Relation[Row]) -> None:
        self._kept = kept
        self._relation = relation
        self._rows: dict[str, dict[str, list[Row]]] = {}  # path -> last name -> rows

    def __call__(self, keys: Collection[str]) -> Iterator[tuple[str, Row]]:
        paths = sorted(self._kept.holding(keys))
        unread = [p for p in paths if p not in self._rows]
        key_of = self._relation.key_of
        for path, text in self._kept.texts(unread).items():
            by_key: dict[str, list[Row]] = {}
            for row in self._relation.decode(text) or ():
                by_key.setdefault(key_of(row), []).append(row)
            self._rows[path] = by_key
        wanted = set(keys)
        for path in paths:
            for key, rows in self._rows.get(path, {}).items():
                if key in wanted:
                    for row in rows:
                        yield path, row


def stored_visibility(state: State, users: Collection[str]) -> Visibility:
    """Which files each of `users` sees through its includes, from the files each kept
    include row names (the state's keys of the include rows: one query, no row decoded)."""
    from docgen.index.cfamily_rows import INCLUDES
    from docgen.index.visibility import Visibility

    includes = state.kept_stamps(INCLUDES.name).keyed()
    return Visibility(users, lambda path: includes.get(path, ()))
