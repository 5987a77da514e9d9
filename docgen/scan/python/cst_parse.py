"""libcst's parse, without the checks it makes of every node it builds.

libcst checks each node as it is constructed (`CSTNode._validate`): a guard for trees
built by hand.  A tree its own parser made from source passes those checks by
construction, yet they are about a sixth of the parse (torch/distributed, one
process: 6.5 s with them, 5.4 s without; libcst's own source notes they could leave
the parse for that reason).  They are switched off only while the parser builds one
tree, and back on however the parse ends, so every node built elsewhere is checked.

For the same reason each node class gets, for that time, a constructor that stores
its fields and does nothing else (`unchecked_inits`): a frozen dataclass's own
stores each field through `object.__setattr__` and then calls the check, and the
parser builds hundreds of thousands of nodes.  Making those constructors costs about
10 ms, once per process, and they save about a twentieth of a parse: they repay that
over hundreds of kilobytes of source, not in a one-file edit's parse.  So they are
made only for a process that will scan many files (`prepare_for_many`), and a parse
uses them once they are made.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import types
from collections.abc import Callable

import libcst as cst

#: parses in threads (a cluster worker may run several) take turns at the switch
_SWITCH = threading.Lock()

Init = Callable[..., None]


def _unchecked(node: cst.CSTNode) -> None:
    """Stands in for `CSTNode.__post_init__` while the parser builds a tree."""


def _node_classes() -> list[type]:
    """Every live node class of libcst, in a fixed order."""
    found: dict[type, None] = {}
    todo: list[type] = [cst.CSTNode]
    while todo:
        subclasses: list[type] = todo.pop().__subclasses__()
        for sub in subclasses:
            if sub not in found:
                found[sub] = None
                todo.append(sub)
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def _slot(cls: type, name: str) -> types.MemberDescriptorType | None:
    """The slot that holds field `name` of `cls`, or None when it is held otherwise."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            held = klass.__dict__[name]
            return held if isinstance(held, types.MemberDescriptorType) else None
    return None


def _init_source(i: int, cls: type, names: dict[str, object]) -> str | None:
    """Source of a constructor for `cls` with its dataclass signature that stores each
    field in its slot; None for a class whose fields are not all plain slots."""
    if not dataclasses.is_dataclass(cls) or "__init__" not in cls.__dict__:
        return None
    params: list[str] = []
    body: list[str] = []
    for j, field in enumerate(dataclasses.fields(cls)):
        slot = _slot(cls, field.name)
        if slot is None or not field.init or field.kw_only:
            return None
        store, value = f"_s{i}_{j}", field.name
        names[store] = slot.__set__
        if field.default is not dataclasses.MISSING:
            names[f"_d{i}_{j}"] = field.default
            params.append(f"{field.name}=_d{i}_{j}")
        elif field.default_factory is not dataclasses.MISSING:
            names[f"_f{i}_{j}"] = field.default_factory
            params.append(f"{field.name}=_FACTORY")
            value = f"_f{i}_{j}() if {field.name} is _FACTORY else {field.name}"
        else:
            params.append(field.name)
        body.append(f"    {store}(self, {value})")
    return f"def _init{i}(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])


@functools.cache
def unchecked_inits() -> tuple[tuple[type, Init, Init], ...]:
    """(class, unchecked constructor, its own) for every node class whose fields are
    slots: made once per process, in one compiled module, as dataclasses makes its own."""
    names: dict[str, object] = {"_FACTORY": object()}
    sources: list[str] = []
    made: list[tuple[int, type]] = []
    for i, cls in enumerate(_node_classes()):
        source = _init_source(i, cls, names)
        if source is not None:
            sources.append(source)
            made.append((i, cls))
    exec(compile("\n".join(sources), "<docgen unchecked inits>", "exec"), names)
    inits: list[tuple[type, Init, Init]] = []
    for i, cls in made:
        init = names[f"_init{i}"]
        assert isinstance(init, types.FunctionType)
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        inits.append((cls, init, cls.__dict__["__init__"]))
    return tuple(inits)


def prepare_for_many() -> None:
    """Make the unchecked constructors now, for the many parses this process will make."""
    unchecked_inits()


def parse_module(text: str) -> cst.Module:
    """`libcst.parse_module` of decoded source; raises what it raises."""
    with _SWITCH:  # read inside: another thread's switch may be on until it ends
        checked = cst.CSTNode.__dict__.get("__post_init__")
        if checked is None:  # a libcst that checks elsewhere: nothing to switch
            return cst.parse_module(text)
        inits = unchecked_inits() if unchecked_inits.cache_info().currsize else ()
        setattr(cst.CSTNode, "__post_init__", _unchecked)  # noqa: B010 (mypy: method assign)
        try:
            for cls, unchecked, _ in inits:
                setattr(cls, "__init__", unchecked)  # noqa: B010
            return cst.parse_module(text)
        finally:
            for cls, _, own in inits:
                setattr(cls, "__init__", own)  # noqa: B010
            setattr(cst.CSTNode, "__post_init__", checked)  # noqa: B010
