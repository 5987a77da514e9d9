"""A relation's rows as the last build kept them, read no sooner than needed.

On a tree of thousands of headers most builds read none of the C-family relations'
rows, and an edit of one header reads the rows of the few files that share a name
with it: the state gives the stamps first, a file's rows when it is asked for, and
for a keyed relation the files that hold rows of given keys (`LazyKept`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Protocol, TypeVar

from docgen.state import StateDamaged

#: One row of a relation: a tuple of strings and integers (kept as a JSON array).
Row = TypeVar("Row", bound=tuple[str | int, ...])


class LazyKept(Protocol):
    """Rows a build kept, read when first needed (see `docgen.state.State.kept_stamps`)."""

    @property
    def stamps(self) -> Mapping[str, str]: ...

    def texts(self, paths: Collection[str] | None = None) -> Mapping[str, str]: ...

    def holding(self, keys: Collection[str]) -> set[str]: ...

    def close(self) -> None: ...


#: A relation's rows as the last build kept them: (stamp, text) by path, or read lazily.
Kept = Mapping[str, tuple[str, str]] | LazyKept


class InMemory:
    """Kept rows read whole already, as a `LazyKept` (with no keys kept)."""

    def __init__(self, kept: Mapping[str, tuple[str, str]]) -> None:
        self._kept = kept
        self.stamps = {p: stamp for p, (stamp, _) in kept.items()}

    def texts(self, paths: Collection[str] | None = None) -> Mapping[str, str]:
        wanted = self._kept if paths is None else paths
        return {p: self._kept[p][1] for p in wanted if p in self._kept}

    def holding(self, keys: Collection[str]) -> set[str]:
        raise NotImplementedError("rows read whole are searched by reading them")

    def close(self) -> None:
        """Nothing to close: the rows were read whole."""


class KeptRows(Mapping[str, tuple[Row, ...]]):
    """Each file's rows: those made by this build (`made`), and the kept ones (`held`),
    each decoded when first read; iterating reads them all at once."""

    def __init__(
        self,
        name: str,
        decode: Callable[[str], tuple[Row, ...] | None],
        held: list[str],
        made: dict[str, tuple[Row, ...]],
        texts: Callable[[Collection[str] | None], Mapping[str, str]],
        decoded: dict[str, tuple[Row, ...]] | None = None,
    ) -> None:
        self._name = name
        self._decode = decode
        self._held = frozenset(held)
        self.made = made
        self._texts = texts
        self._decoded: dict[str, tuple[Row, ...]] = decoded if decoded is not None else {}
        self.read = decoded is not None  # every kept row decoded

    def is_held(self, path: str) -> bool:
        """Whether the file's rows are the kept ones."""
        return path in self._held

    def _decoded_rows(self, path: str, text: str | None) -> tuple[Row, ...]:
        rows = self._decode(text) if text is not None else None
        if rows is None:  # `docgen.state.StateDamaged`: the build starts afresh
            raise StateDamaged(f"the kept {self._name} rows of {path} cannot be read")
        self._decoded[path] = rows
        return rows

    def read_all(self) -> None:
        """Decode every kept row at once (one query)."""
        if self.read:
            return
        wanted = self._held - self._decoded.keys()
        texts = self._texts(None) if wanted else {}
        for path in sorted(wanted):
            self._decoded_rows(path, texts.get(path))
        self.read = True

    def rows_of(self, paths: Collection[str]) -> dict[str, tuple[Row, ...]]:
        """The rows of these files (those with none left out), the kept ones read in one
        query."""
        wanted = [p for p in paths if p in self._held and p not in self._decoded]
        texts = self._texts(wanted) if wanted else {}
        for path in wanted:
            self._decoded_rows(path, texts.get(path))
        found = {p: self.made[p] for p in paths if p in self.made}
        found.update((p, self._decoded[p]) for p in paths if p in self._decoded)
        return found

    def __getitem__(self, path: str) -> tuple[Row, ...]:
        found = self.made.get(path)
        if found is not None:
            return found
        kept = self._decoded.get(path)
        if kept is not None:
            return kept
        if path not in self._held:
            raise KeyError(path)
        return self.rows_of([path])[path]

    def __iter__(self) -> Iterator[str]:
        self.read_all()
        return iter(sorted({*self._decoded, *self.made}))

    def __len__(self) -> int:
        return len(self._held) + len(self.made)
