"""Building frozen, slotted dataclasses from all their field values, fast.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`; a build
rebuilds hundreds of thousands of facts (received from the workers, or decoded from
the cache), so for those the fields are set through their slots' own setters, which
takes about half the time.  Only for values that a constructor made before (pickled
or cached facts): nothing is checked or defaulted here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from typing import Any

Maker = Callable[..., Any]


Setter = Callable[[object, object], None]


@cache
def slot_setters(cls: type) -> tuple[Setter, ...] | None:
    """The setters of `cls`'s field slots, in field order; None where an instance cannot
    be made by setting them alone (no slots, a `__post_init__`, a field not in `__init__`)."""
    fields = dataclasses.fields(cls)
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return None
    if not all(f.init for f in fields):
        return None
    return tuple(cls.__dict__[f.name].__set__ for f in fields)


@cache
def maker(cls: type) -> Maker:
    """A function of all of `cls`'s field values, in field order, that returns the
    instance `cls(*values)` would; `cls` itself where its fields have no slots."""
    setters = slot_setters(cls)
    if setters is None:
        return cls
    names = [f.name for f in dataclasses.fields(cls)]
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = [f"def make({', '.join(names)}):", "    made = new(cls)"]
    for i, (name, setter) in enumerate(zip(names, setters, strict=True)):
        scope[f"set{i}"] = setter
        lines.append(f"    set{i}(made, {name})")
    lines.append("    return made")
    exec(compile("\n".join(lines) + "\n", f"<maker of {cls.__qualname__}>", "exec"), scope)
    return scope["make"]  # type: ignore[no-any-return]


def rebuild(cls: type, values: Sequence[object]) -> object:
    """`cls(*values)` by its maker: what pickled facts are rebuilt with."""
    return maker(cls)(*values)


def pickled_by_fields(cls: type) -> None:
    """Pickle `cls` as its fields' values in order, rebuilt by `rebuild`: a slotted
    dataclass's own state methods look its fields up anew for every object, and facts
    cross from each worker to the build once per file."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    values: Callable[[Any], Any] = attrgetter(*names)

    def reduce(self: object) -> tuple[object, tuple[type, tuple[object, ...]]]:
        return rebuild, (cls, values(self))

    def reduce_one(self: object) -> tuple[object, tuple[type, tuple[object, ...]]]:
        return rebuild, (cls, (values(self),))  # one name: `attrgetter` gives the value alone

    cls.__reduce__ = reduce_one if len(names) == 1 else reduce  # type: ignore[assignment,method-assign]
