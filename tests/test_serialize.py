"""Facts to JSON and back: every scanned fixture file round-trips, a mismatch is refused."""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, is_dataclass
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.discover.tree import discover
from docgen.model import facts
from docgen.model.construct import pickled_by_fields, rebuild
from docgen.model.facts import Problem, ScannedFile
from docgen.model.serialize import dumps, loads
from docgen.scan.workers import scan_one

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_every_fixture_file_round_trips() -> None:
    sources = discover(FIXTURES).files
    assert len(sources) > 50
    kinds = set()
    for source in sources:
        scanned = scan_one(source)
        kinds.add(scanned.facts.kind)
        assert loads(ScannedFile, dumps(scanned)) == scanned, source.path
    assert {"python", "markdown", "cfamily"} <= kinds


def test_facts_pickle_as_their_field_values() -> None:
    """Facts cross from each worker to the build as pickles of their fields' values."""
    for source in discover(FIXTURES).files:
        scanned = scan_one(source)
        constructor, (cls, values) = scanned.__reduce__()
        assert constructor is rebuild and cls is ScannedFile
        assert values == (scanned.facts, scanned.analysis)
        assert pickle.loads(pickle.dumps(scanned, pickle.HIGHEST_PROTOCOL)) == scanned
    assert Problem(3, "m").__reduce__() == (rebuild, (Problem, (3, "m", "warning")))


@dataclass(frozen=True, slots=True)
class OneField:
    name: str


def test_a_fact_of_one_field_pickles_as_a_tuple_of_one() -> None:
    pickled_by_fields(OneField)
    assert OneField("a").__reduce__() == (rebuild, (OneField, ("a",)))
    assert pickle.loads(pickle.dumps(OneField("a"))) == OneField("a")


def test_every_fact_class_pickles_by_its_fields() -> None:
    classes = [v for v in vars(facts).values() if isinstance(v, type) and is_dataclass(v)]
    assert len(classes) >= 27
    for cls in classes:
        assert "__reduce__" in vars(cls), cls.__name__


@dataclass(frozen=True)
class Leaf:
    name: str
    count: int
    flag: bool
    note: str | None = None


@dataclass(frozen=True)
class Tree:
    leaves: tuple[Leaf, ...]
    words: tuple[str, ...]
    pair: tuple[int, str]
    child: Leaf | None = None


leaves = st.builds(Leaf, st.text(), st.integers(), st.booleans(), st.none() | st.text())
trees = st.builds(
    Tree,
    st.lists(leaves, max_size=3).map(tuple),
    st.lists(st.text(), max_size=3).map(tuple),
    st.tuples(st.integers(), st.text()),
    st.none() | leaves,
)


@given(trees)
def test_any_tree_round_trips(tree: Tree) -> None:
    assert loads(Tree, dumps(tree)) == tree


@pytest.mark.parametrize(
    "data",
    [
        [[["a", 1, True, None]], ["w"], [1, "x"], None, "extra"],  # one field too many
        [[["a", "1", True, None]], ["w"], [1, "x"], None],  # a string for an int
        [[["a", 1, 1, None]], ["w"], [1, "x"], None],  # an int for a bool
        [[["a", 1, True, 3]], ["w"], [1, "x"], None],  # an int for an optional string
        [[["a", 1, True, None]], ["w", 2], [1, "x"], None],  # an int among strings
        {"leaves": [], "words": [], "pair": [1, "x"], "child": None},  # an object
    ],
)
def test_a_mismatch_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        loads(Tree, json.dumps(data))


@dataclass(frozen=True, slots=True)
class SlottedLeaf:
    kind: Literal["a", "b"]
    words: tuple[str, ...]
    doc: str | None = None


@dataclass(frozen=True, slots=True)
class SlottedTree:
    leaves: tuple[SlottedLeaf, ...]
    child: SlottedLeaf | None
    numbers: tuple[int, ...] = ()


slotted_leaves = st.builds(
    SlottedLeaf,
    st.sampled_from(["a", "b"]),
    st.lists(st.text(), max_size=3).map(tuple),
    st.none() | st.text(),
)


@given(
    st.builds(
        SlottedTree,
        st.lists(slotted_leaves, max_size=3).map(tuple),
        st.none() | slotted_leaves,
        st.lists(st.integers(), max_size=3).map(tuple),
    )
)
def test_any_slotted_tree_round_trips(tree: SlottedTree) -> None:
    """Slotted records are decoded through their slots' setters, not their constructor."""
    decoded = loads(SlottedTree, dumps(tree))
    assert decoded == tree
    assert type(decoded.leaves) is tuple and type(decoded.numbers) is tuple


@pytest.mark.parametrize(
    "data",
    [
        [[["c", [], None]], None, []],  # a kind the Literal does not allow
        [[[["a"], [], None]], None, []],  # a list for a Literal
        [[["a", "w", None]], None, []],  # a string for a tuple of strings
        [[["a", [1], None]], None, []],  # an int among strings
        [[], None, [1, "2"]],  # a string among ints
        [[], None],  # a field missing
    ],
)
def test_a_slotted_mismatch_is_refused(data: object) -> None:
    with pytest.raises((ValueError, TypeError)):
        loads(SlottedTree, json.dumps(data))
