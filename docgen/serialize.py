"""Facts to JSON and back, so the cache never unpickles what it reads from disk.

The cache lives in the output folder, which may be shared (a CI cache, a
committed docs tree); pickle would run code from such a file.  JSON carries
only data, and decoding follows the dataclasses' own type hints.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")


@cache
def _field_names(kind: Any) -> tuple[str, ...]:
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not JSON data")
    return tuple(f.name for f in dataclasses.fields(kind))


def _as_object(value: Any) -> dict[str, object]:
    """One dataclass as a dict for the JSON encoder, which walks lists and scalars itself."""
    return {name: getattr(value, name) for name in _field_names(value.__class__)}


def dumps(value: object) -> str:
    """Dataclasses as objects, tuples as lists: the encoder walks the tree in C, calling
    back only once per dataclass."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_as_object)


Decoder = Callable[[object], Any]


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
            item = decoder(args[0])

            def homogeneous(data: object) -> Any:
                if type(data) is not list:
                    raise ValueError(f"expected a list for {kind}")
                return tuple(item(x) for x in data)

            return homogeneous
        items = [decoder(a) for a in args]

        def fixed(data: object) -> Any:
            if type(data) is not list or len(data) != len(items):
                raise ValueError(f"expected {len(items)} items for {kind}")
            return tuple(f(x) for f, x in zip(items, data, strict=True))

        return fixed
    if origin is typing.Literal:
        allowed = frozenset(get_args(kind))

        def literal(data: object) -> Any:
            if data not in allowed:
                raise ValueError(f"{data!r} is not one of {sorted(map(str, allowed))}")
            return data

        return literal
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        fields = {f.name: decoder(hints[f.name]) for f in dataclasses.fields(kind)}
        cls = kind

        def record(data: object) -> Any:
            if type(data) is not dict:
                raise ValueError(f"expected an object for {cls.__name__}")
            return cls(**{name: fields[name](value) for name, value in data.items()})

        return record
    if kind in (str, int, bool):

        def scalar(data: object) -> Any:
            if type(data) is not kind:
                raise ValueError(f"expected {kind.__name__}, got {type(data).__name__}")
            return data

        return scalar
    raise TypeError(f"cannot decode {kind}")


def from_data(kind: Any, data: object) -> Any:
    """Rebuild a value of type `kind` from the JSON data of `dumps` (ValueError on a mismatch)."""
    return decoder(kind)(data)


def loads(kind: type[T], text: str) -> T:
    result: T = from_data(kind, json.loads(text))
    return result
