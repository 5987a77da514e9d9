"""Facts to JSON and back, so the cache never unpickles what it reads from disk.

The cache lives in the output folder, which may be shared (a CI cache, a
committed docs tree); pickle would run code from such a file.  JSON carries
only data, and decoding follows the dataclasses' own type hints.

A dataclass is written as the list of its field values, in field order: the
type hints say what each position holds, so names need not be repeated in
every object, and a list decodes faster than an object.  Every incremental
build decodes the facts of the whole repository, so the decoder of each
dataclass is generated once as straight-line code with the checks of its
scalar fields inlined.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from docgen.model.construct import slot_setters

T = TypeVar("T")


@cache
def field_names(kind: Any) -> tuple[str, ...]:
    """A dataclass's fields in the order `dumps` lists their values."""
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not JSON data")
    return tuple(f.name for f in dataclasses.fields(kind))


def _as_list(value: Any) -> list[object]:
    """One dataclass as the list of its field values, for the JSON encoder (which walks
    lists and scalars itself)."""
    return [getattr(value, name) for name in field_names(value.__class__)]


def dumps(value: object) -> str:
    """Dataclasses as lists of field values, tuples as lists: the encoder walks the tree
    in C, calling back only once per dataclass."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_as_list)


Decoder = Callable[[object], Any]

_SCALARS = (str, int, bool)


def _mismatch(expected: str, data: object) -> Any:
    raise ValueError(f"expected {expected}, got {type(data).__name__}")


def _optional_scalar(kind: Any) -> type | None:
    """`str | None` -> str (likewise int, bool); None for any other type."""
    if get_origin(kind) in (Union, types.UnionType):
        options = [o for o in get_args(kind) if o is not type(None)]
        if len(options) == 1 and len(get_args(kind)) == 2 and options[0] in _SCALARS:
            return typing.cast(type, options[0])
    return None


def _scalar_items(kind: Any) -> type | None:
    """`tuple[str, ...]` -> str (likewise int, bool); None for any other type."""
    args = get_args(kind)
    if get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0] if args[0] in _SCALARS else None
    return None


def _checked(i: int, hint: Any, scope: dict[str, Any]) -> str:
    """The expression that decodes `data[i]` as `hint`, scalars checked inline; what it
    calls is put in `scope`."""
    value = f"data[{i}]"
    if hint in _SCALARS:
        scope[f"t{i}"] = hint
        test = f"type({value}) is t{i}"
        checked = f"{value} if {test} else mismatch({hint.__name__!r}, {value})"
    elif (inner := _optional_scalar(hint)) is not None:
        scope[f"t{i}"] = inner
        test = f"{value} is None or type({value}) is t{i}"
        checked = f"{value} if {test} else mismatch({inner.__name__!r}, {value})"
    elif get_origin(hint) is typing.Literal:
        scope[f"a{i}"] = frozenset(get_args(hint))
        expected = f"one of {sorted(map(str, get_args(hint)))}"
        checked = f"{value} if {value} in a{i} else mismatch({expected!r}, {value})"
    elif _scalar_items(hint) is not None:
        # Most such tuples are empty: no call for those.
        scope[f"d{i}"] = decoder(hint)
        checked = f"() if type({value}) is list and not {value} else d{i}({value})"
    else:
        scope[f"d{i}"] = decoder(hint)
        checked = f"d{i}({value})"
    return f"({checked})"


def _head(name: str, length: int, what: str) -> str:
    """A generated decoder's first lines: its data must be a list of `length` values."""
    return (
        f"def {name}(data):\n"
        f"    if type(data) is not list or len(data) != {length}:\n"
        f"        mismatch({f'a list of {length} for {what}'!r}, data)\n"
    )


def _record_decoder(cls: type) -> Decoder:
    """Straight-line code for one dataclass: `cls(check(data[0]), ...)`, or its slots
    set one by one where `construct.slot_setters` allows (a whole repository's facts
    are decoded on every build)."""
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    scope: dict[str, Any] = {"cls": cls, "mismatch": _mismatch, "list": list}
    arguments = [_checked(i, hints[field.name], scope) for i, field in enumerate(fields)]
    head = _head("record", len(fields), cls.__name__)
    setters = slot_setters(cls)
    if setters is None:  # the constructor itself
        body = ",\n        ".join(arguments)
        source = f"{head}    return cls(\n        {body}\n    )\n"
    else:  # the slots' setters, inline: no constructor call for each of many records
        scope["new"] = object.__new__
        lines = ["    made = new(cls)\n"]
        for i, (setter, argument) in enumerate(zip(setters, arguments, strict=True)):
            scope[f"set{i}"] = setter
            lines.append(f"    set{i}(made, {argument})\n")
        source = head + "".join(lines) + "    return made\n"
    exec(compile(source, f"<decoder of {cls.__qualname__}>", "exec"), scope)
    return typing.cast(Decoder, scope["record"])


@cache
def decoder(kind: Any) -> Decoder:
    """A function that rebuilds a value of type `kind` from the JSON data of `dumps`.

    Built once per type from the dataclasses' type hints, so decoding a cache
    of thousands of files does no type inspection per value.  A mismatch
    raises ValueError (or TypeError), never returns a half-built value.
    """
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [option for option in get_args(kind) if option is not type(None)]
        optional = len(options) < len(get_args(kind))
        if len(options) != 1:
            raise TypeError(f"unions other than X | None are not supported: {kind}")
        inner = decoder(options[0])

        def union(data: object) -> Any:
            return None if data is None and optional else inner(data)

        return union
    if origin is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return _homogeneous(kind, args[0])
        return _fixed_decoder(kind, args)
    if origin is typing.Literal:
        allowed = frozenset(get_args(kind))

        def literal(data: object) -> Any:
            if data not in allowed:
                raise ValueError(f"{data!r} is not one of {sorted(map(str, allowed))}")
            return data

        return literal
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _record_decoder(kind)
    if kind in _SCALARS:

        def scalar(data: object) -> Any:
            if type(data) is not kind:
                raise ValueError(f"expected {kind.__name__}, got {type(data).__name__}")
            return data

        return scalar
    raise TypeError(f"cannot decode {kind}")


def _fixed_decoder(kind: Any, args: tuple[Any, ...]) -> Decoder:
    """`tuple[X, Y]`: straight-line code as for a dataclass (such pairs are among the
    most numerous values of a repository's facts)."""
    scope: dict[str, Any] = {"mismatch": _mismatch, "list": list}
    items = "".join(_checked(i, arg, scope) + ", " for i, arg in enumerate(args))
    source = _head("fixed", len(args), str(kind)) + f"    return ({items})\n"
    exec(compile(source, f"<decoder of {kind}>", "exec"), scope)
    return typing.cast(Decoder, scope["fixed"])


def _homogeneous(kind: Any, item_kind: Any) -> Decoder:
    """`tuple[X, ...]`: a list of X, each checked (scalars in one pass, without calls)."""
    if item_kind in _SCALARS:

        def scalars(data: object) -> Any:
            if type(data) is not list or any(type(x) is not item_kind for x in data):
                raise ValueError(f"expected a list for {kind}")
            return tuple(data)

        return scalars
    item = decoder(item_kind)

    def homogeneous(data: object) -> Any:
        if type(data) is not list:
            raise ValueError(f"expected a list for {kind}")
        return tuple([item(x) for x in data])

    return homogeneous


def from_data(kind: Any, data: object) -> Any:
    """Rebuild a value of type `kind` from the JSON data of `dumps` (ValueError on a mismatch)."""
    return decoder(kind)(data)


def loads(kind: type[T], text: str) -> T:
    result: T = from_data(kind, json.loads(text))
    return result
