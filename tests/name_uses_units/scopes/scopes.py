import functools
from os import path as ospath, sep
from typing import Any

try:
    from json import loads
except ImportError:
    loads = None

counter = Any


class Holder:
    sep = ":"
    joined = sep + "x"

    def method(self, value=sep):
        return sep + value

    @functools.cache
    def cached(self):
        return [sep for sep in "ab"], [ospath for _ in sep]


def uses_global():
    global sep
    sep = "/"
    return sep


def lambdas(items):
    key = lambda sep=sep: sep
    return sorted(items, key=key), loads(items)


def nested(loads):
    def inner():
        return loads
    return inner
