"""construct.maker: the same instances as the constructor, built faster."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, is_dataclass
from pathlib import Path

import pytest

from docgen.discover.tree import discover
from docgen.model import facts
from docgen.model.cfamily_facts import CDefinition
from docgen.model.construct import maker, rebuild, slot_setters
from docgen.model.facts import Problem
from docgen.scan.workers import scan_one

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def every_fact(value: object) -> list[object]:
    """`value` and every dataclass instance inside it."""
    found = []
    if is_dataclass(value) and not isinstance(value, type):
        found.append(value)
        for field in dataclasses.fields(value):
            found += every_fact(getattr(value, field.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            found += every_fact(item)
    return found


def test_made_facts_equal_constructed_ones_field_for_field() -> None:
    seen: set[type] = set()
    for source in discover(FIXTURES).files:
        for fact in every_fact(scan_one(source)):
            cls = type(fact)
            values = [getattr(fact, f.name) for f in dataclasses.fields(fact)]
            made = maker(cls)(*values)
            assert made == cls(*values) == fact
            assert hash(made) == hash(fact)
            seen.add(cls)
    assert len(seen) >= 15  # the samples reach most fact classes


def test_every_slotted_fact_class_has_a_maker_of_its_own() -> None:
    classes = [v for v in vars(facts).values() if isinstance(v, type) and is_dataclass(v)]
    slotted = [c for c in classes if "__slots__" in c.__dict__]
    assert slotted
    for cls in slotted:
        assert maker(cls) is not cls, cls.__name__
        setters = slot_setters(cls)
        assert setters is not None and len(setters) == len(dataclasses.fields(cls))


def test_made_facts_stay_frozen() -> None:
    values = ("function", "f", "ns::f", 3, 4, "int f()", True, "", (), (), None, False, "", "")
    made = maker(CDefinition)(*values)
    assert made == CDefinition(*values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "g"  # type: ignore[misc]
    assert rebuild(Problem, (3, "m", "error")) == Problem(3, "m", "error")
    assert pickle.loads(pickle.dumps(made)) == made


@dataclass(frozen=True)
class Plain:
    name: str


@dataclass(frozen=True, slots=True)
class Checked:
    size: int

    def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError("negative")


def test_classes_without_slots_or_with_post_init_keep_their_constructor() -> None:
    assert maker(Plain) is Plain
    assert maker(Checked) is Checked
    assert slot_setters(Plain) is None
    assert slot_setters(Checked) is None
    with pytest.raises(ValueError):
        rebuild(Checked, (-1,))
