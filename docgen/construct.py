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
from typing import Any

Maker = Callable[..., Any]


@cache
def maker(cls: type) -> Maker:
    """A function of all of `cls`'s field values, in field order, that returns the
    instance `cls(*values)` would; `cls` itself where its fields have no slots."""
    fields = dataclasses.fields(cls)
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return cls
    if not all(f.init for f in fields):
        return cls
    names = [f.name for f in fields]
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = [f"def make({', '.join(names)}):", "    made = new(cls)"]
    for i, name in enumerate(names):
        scope[f"set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    set{i}(made, {name})")
    lines.append("    return made")
    exec(compile("\n".join(lines) + "\n", f"<maker of {cls.__qualname__}>", "exec"), scope)
    return scope["make"]  # type: ignore[no-any-return]


def rebuild(cls: type, values: Sequence[object]) -> object:
    """`cls(*values)` by its maker: what pickled facts are rebuilt with."""
    return maker(cls)(*values)
