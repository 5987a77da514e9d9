"""One way to keep a relation: each file's rows kept with what they were made from, made
again only where that changed, and the keys whose rows moved."""

from __future__ import annotations

from collections.abc import Collection

from docgen.index.relations import Relation, RelationRows, made_from, stale_paths


def _row(data: list[str | int]) -> tuple[str, int]:
    name, line = data
    if not isinstance(name, str) or not isinstance(line, int):
        raise TypeError("a use is (name, line)")
    return name, line


USES: Relation[tuple[str, int]] = Relation("uses", "1", lambda row: row[0], _row)


def _kept(rows: dict[str, tuple[tuple[str, int], ...]], context: str) -> dict[str, tuple[str, str]]:
    sources = made_from(context, {p: p + "-facts" for p in rows}, rows)
    return {p: (sources[p], USES.encode(r)) for p, r in rows.items()}


def test_rows_made_from_the_same_facts_are_kept_and_the_others_made_again() -> None:
    context = USES.context("tree")
    kept = _kept({"a.py": (("x", 1),), "b.py": (("y", 2),), "gone.py": (("z", 3),)}, context)
    digests = {"a.py": "a.py-facts", "b.py": "b.py-edited", "new.py": "new"}
    sources = made_from(context, digests, digests)
    assert stale_paths(kept, sources) == ["b.py", "new.py"]
    made: list[str] = []

    def make(path: str) -> tuple[tuple[str, int], ...]:
        made.append(path)
        return {"b.py": (("y", 2), ("w", 5)), "new.py": (("x", 9),)}[path]

    rows = RelationRows(USES, kept, sources, make)
    assert made == ["b.py", "new.py"]
    assert rows.rows == {"a.py": (("x", 1),), "b.py": (("y", 2), ("w", 5)), "new.py": (("x", 9),)}
    assert rows.before == {"b.py": (("y", 2),), "new.py": None}
    assert rows.moved(["b.py"]) == {"w"}  # a row gained; ("y", 2) stayed
    assert rows.moved(["a.py"]) == set()  # kept as it was
    assert rows.moved(["b.py", "new.py"]) is None  # no rows of new.py were kept
    keep = rows.to_keep()
    assert [(p, by) for p, by, _ in keep] == [
        ("b.py", sources["b.py"]),
        ("new.py", sources["new.py"]),
    ]
    assert USES.decode(keep[0][2]) == (("y", 2), ("w", 5))


def test_another_context_makes_every_row_again() -> None:
    kept = _kept({"a.py": (("x", 1),)}, USES.context("tree"))
    sources = made_from(USES.context("another tree"), {"a.py": "a.py-facts"}, ["a.py"])
    assert stale_paths(kept, sources) == ["a.py"]
    rows = RelationRows(USES, kept, sources, lambda path: (("x", 1), ("q", 2)))
    assert rows.moved(["a.py"]) == {"q"}


def test_rows_that_cannot_be_read_are_made_again() -> None:
    context = USES.context("tree")
    sources = made_from(context, {"a.py": "f"}, ["a.py"])
    for damaged in ("[[1, 2", '[["x"]]', '[[1, "x"]]', '{"a": 1}'):
        kept = {"a.py": (sources["a.py"], damaged)}
        assert USES.decode(damaged) is None
        rows = RelationRows(USES, kept, sources, lambda path: (("x", 1),))
        assert rows.rows == {"a.py": (("x", 1),)} and rows.before == {"a.py": None}
        assert rows.moved(["a.py"]) is None


def test_the_context_follows_the_relation_and_what_it_is_given() -> None:
    other = Relation("uses", "2", USES.key_of, USES.row_of)
    assert USES.context("t") == USES.context("t")
    assert USES.context("t") != USES.context("u") != other.context("t")


class _KeyedKept:
    """Kept rows with the keys the state keeps for them, as `State.kept_stamps` reads."""

    def __init__(self, kept: dict[str, str], keys: dict[str, set[str]]) -> None:
        self.stamps = {p: "s" for p in kept}
        self._kept, self._keys = kept, keys

    def texts(self, paths: Collection[str] | None = None) -> dict[str, str]:
        wanted = self._kept if paths is None else paths
        return {p: self._kept[p] for p in wanted if p in self._kept}

    def holding(self, keys: Collection[str]) -> set[str]:
        return {p for p, held in self._keys.items() if held & set(keys)}

    def close(self) -> None:
        """Nothing to close."""


def test_the_kept_rows_of_one_key_are_read_from_the_files_the_keys_name() -> None:
    kept = _KeyedKept(
        {
            "b.py": USES.encode([("add", 3), ("sub", 4)]),
            "a.py": USES.encode([("add", 1)]),
            "c.py": "not json",  # damaged: none of its rows
            "d.py": USES.encode([("add", 9)]),  # its keys name no `add`: not read
        },
        {"a.py": {"add"}, "b.py": {"add", "sub"}, "c.py": {"add"}, "d.py": {"mul"}},
    )
    assert USES.kept_of(kept, "add") == [("a.py", ("add", 1)), ("b.py", ("add", 3))]
    assert USES.kept_of(kept, "sub") == [("b.py", ("sub", 4))]
    assert USES.kept_of(kept, "div") == []
