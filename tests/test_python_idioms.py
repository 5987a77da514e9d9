"""Idioms and loop costs found in a module's `ast` tree, with the decoys that must not count."""

from __future__ import annotations

import ast
import textwrap
import warnings

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings

from docgen.model.facts import Finding
from docgen.scan.python.idioms import idiom_findings


def findings(source: str) -> list[Finding]:
    tree = ast.parse(textwrap.dedent(source))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    return idiom_findings(tree, calls)


def torch_file(source: str) -> str:
    """The source importing torch on its first, blank line, so lines keep their numbers."""
    text = textwrap.dedent(source)
    assert text.startswith("\n")
    return "import torch" + text


def claims(source: str, kind: str) -> list[tuple[int, str]]:
    """(line, subject) of every finding of one kind."""
    return [(f.line, f.subject) for f in findings(source) if f.kind == kind]


def only(source: str, kind: str) -> Finding:
    found = [f for f in findings(source) if f.kind == kind]
    assert len(found) == 1, found
    return found[0]


# --- nn-module ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("imports", "base"),
    [
        ("from torch import nn", "nn.Module"),
        ("import torch.nn as nn", "nn.Module"),
        ("import torch", "torch.nn.Module"),
        ("import torch.nn", "torch.nn.Module"),
        ("from torch.nn import Module", "Module"),
        ("from torch.nn import Module as Base", "Base"),
        ("from torch.nn.modules.module import Module", "Module"),
    ],
)
def test_nn_module_through_imports(imports: str, base: str) -> None:
    source = f"{imports}\n\nclass Net({base}):\n    pass\n"
    finding = only(source, "nn-module")
    assert (finding.category, finding.line, finding.subject) == ("pattern", 3, "Net")
    assert f"`{base}`" in finding.message


@pytest.mark.parametrize(
    "source",
    [
        "class Module:\n    pass\n\nclass Net(Module):\n    pass\n",  # our own Module
        "from mylib import Module\n\nclass Net(Module):\n    pass\n",
        "from mylib import nn\n\nclass Net(nn.Module):\n    pass\n",
        "from .module import Module\n\nclass Net(Module):\n    pass\n",  # relative: unknown
        "from torch import nn\n\nclass Net(Base):\n    pass\n",  # a subclass of another class
        "from torch.nn import Module\nfrom mylib import Module\n\nclass Net(Module):\n    pass\n",
        "class Net(Module):\n    pass\n",  # Module from nowhere
        "from mylib import torch\n\nclass Net(torch.nn.Module):\n    pass\n",
        "from torch.nn import Module\n\nclass Module:\n    pass\n\nclass Net(Module):\n    pass\n",
    ],
)
def test_nn_module_decoys(source: str) -> None:
    assert claims(source, "nn-module") == []


def test_nested_class_has_qualified_subject() -> None:
    source = """
    from torch import nn

    class Outer:
        class Inner(nn.Module):
            pass

        def build(self):
            class Local(nn.Module):
                pass
    """
    assert claims(source, "nn-module") == [(5, "Outer.Inner"), (9, "Outer.build.Local")]


def test_nn_module_through_a_base_of_the_same_file() -> None:
    source = """
    from torch.nn import Module
    from abc import ABC

    class Linear(Module):
        pass

    class LazyLinear(Linear):
        pass

    class Lazier(LazyLinear):
        pass

    class Base(ABC):
        pass

    class Concrete(Base):
        pass
    """
    assert claims(source, "nn-module") == [(5, "Linear"), (8, "LazyLinear"), (11, "Lazier")]
    lazier = [f for f in findings(source) if f.subject == "Lazier"]
    assert lazier[0].message == (
        "`Lazier` subclasses `Module` (through `LazyLinear`, a class of this file)."
    )
    assert [f.subject for f in findings(source) if f.kind == "abc"] == ["Base"]


def test_a_nested_class_lends_no_role_to_a_module_level_name() -> None:
    source = """
    from torch import nn

    class Outer:
        class Inner(nn.Module):
            pass

    class Other(Inner):
        pass
    """
    assert claims(source, "nn-module") == [(5, "Outer.Inner")]


# --- dataclass, named tuple, typed dict -----------------------------------------


def test_dataclass_forms() -> None:
    source = """
    import dataclasses
    from dataclasses import dataclass, field
    from dataclasses import dataclass as dc

    @dataclass
    class A:
        x: int

    @dataclass(frozen=True)
    class B:
        x: int

    @dataclasses.dataclass(slots=True)
    class C:
        x: int

    @dc
    class D:
        x: int

    @field
    class NotOne:
        x: int
    """
    assert claims(source, "dataclass") == [(7, "A"), (11, "B"), (15, "C"), (19, "D")]
    frozen = [f.message for f in findings(source) if f.kind == "dataclass" and f.subject == "B"]
    assert frozen == ["`B` is a frozen dataclass."]


def test_dataclass_decoys() -> None:
    source = """
    from attrs import dataclass

    @dataclass
    class A:
        x: int

    @dataclass
    def not_a_class():
        pass
    """
    assert claims(source, "dataclass") == []
    assert claims("@dataclass\nclass A:\n    x: int\n", "dataclass") == []  # never imported


def test_named_tuple_and_typed_dict() -> None:
    source = """
    import typing
    from typing import NamedTuple
    from typing_extensions import TypedDict

    class Point(NamedTuple):
        x: int

    class Options(TypedDict, total=False):
        name: str

    class Pair(typing.NamedTuple):
        a: int

    class Sub(Point):
        pass
    """
    assert claims(source, "named-tuple") == [(6, "Point"), (12, "Pair")]
    assert claims(source, "typed-dict") == [(9, "Options")]


def test_named_tuple_and_typed_dict_decoys() -> None:
    source = """
    from mylib import NamedTuple, TypedDict
    from typing import NamedTuple as NT

    class Point(NamedTuple):
        x: int

    class Options(TypedDict):
        name: str

    Pair = NT("Pair", [("a", int)])
    """
    assert findings(source) == []


# --- enum, abc, protocol --------------------------------------------------------


def test_enum_bases() -> None:
    source = """
    import enum
    from enum import Enum, IntFlag

    class Color(Enum):
        RED = 1

    class Mode(str, enum.Enum):
        A = "a"

    class Perm(IntFlag):
        R = 4

    class Level(enum.IntEnum):
        LOW = 0
    """
    assert claims(source, "enum") == [(5, "Color"), (8, "Mode"), (11, "Perm"), (14, "Level")]
    messages = {f.subject: f.message for f in findings(source) if f.kind == "enum"}
    assert messages["Mode"] == "`Mode` is an enumeration (`enum.Enum`)."


def test_enum_decoys() -> None:
    source = """
    class Enum:
        pass

    class Color(Enum):
        RED = 1

    class MyEnum(Base):
        A = 1

    class Sub(Color):
        B = 2
    """
    assert claims(source, "enum") == []
    assert claims("from myenum import Enum\n\nclass C(Enum):\n    A = 1\n", "enum") == []


def test_abc_forms_and_counts() -> None:
    source = """
    import abc
    from abc import ABC, ABCMeta, abstractmethod

    class Base(ABC):
        @abstractmethod
        def run(self): ...

        @property
        @abstractmethod
        def name(self): ...

        def helper(self): ...

    class Meta(metaclass=abc.ABCMeta):
        @abc.abstractmethod
        def go(self): ...

    class Marker(ABC):
        pass

    class Loose:
        @abstractmethod
        def f(self): ...
    """
    found = {f.subject: (f.line, f.message) for f in findings(source) if f.kind == "abc"}
    assert found == {
        "Base": (5, "`Base` is an abstract base class (`ABC`) with 2 abstract methods."),
        "Meta": (
            15,
            "`Meta` is an abstract base class (`metaclass=abc.ABCMeta`) with 1 abstract method.",
        ),
        "Marker": (19, "`Marker` is an abstract base class (`ABC`)."),
        "Loose": (22, "`Loose` declares 1 abstract method."),
    }


def test_abc_decoys() -> None:
    source = """
    from mylib import ABC, abstractmethod

    class Base(ABC):
        @abstractmethod
        def run(self): ...

    class Plain:
        def run(self): ...
    """
    assert claims(source, "abc") == []


def test_abstract_method_of_nested_function_is_not_the_class_s() -> None:
    source = """
    from abc import abstractmethod

    class Holder:
        def make(self):
            @abstractmethod
            def inner(): ...
    """
    assert claims(source, "abc") == []


def test_protocol() -> None:
    source = """
    from typing import Protocol, TypeVar
    import typing_extensions

    T = TypeVar("T")

    class Reader(Protocol):
        def read(self) -> bytes: ...

    class Box(typing_extensions.Protocol[T]):
        def get(self) -> T: ...

    class Impl(Reader):
        def read(self) -> bytes: ...
    """
    assert claims(source, "protocol") == [(7, "Reader"), (10, "Box")]


def test_relative_import_named_like_a_standard_module_is_not_it() -> None:
    source = """
    from .typing import Protocol
    from ..enum import Enum

    class R(Protocol, Enum):
        pass
    """
    assert findings(source) == []


def test_protocol_from_either_typing_module_in_a_fallback_import() -> None:
    source = """
    try:
        from typing import Protocol
    except ImportError:
        from typing_extensions import Protocol

    class Reader(Protocol):
        pass
    """
    assert claims(source, "protocol") == [(7, "Reader")]


# --- context managers, generators, async ----------------------------------------


def test_context_manager_classes() -> None:
    source = """
    class Timer:
        def __enter__(self): ...
        def __exit__(self, *exc): ...

    class Session:
        async def __aenter__(self): ...
        async def __aexit__(self, *exc): ...

    class Half:
        def __enter__(self): ...

    class Both:
        def __enter__(self): ...
        def __exit__(self, *exc): ...
        async def __aenter__(self): ...
        async def __aexit__(self, *exc): ...

    class Outer:
        def method(self):
            def __enter__(): ...
            def __exit__(): ...
    """
    found = {f.subject: f.message for f in findings(source) if f.kind == "context-manager"}
    assert found == {
        "Timer": "`Timer` is a context manager: it defines `__enter__` and `__exit__`.",
        "Session": "`Session` is a context manager: it defines `__aenter__` and `__aexit__`.",
        "Both": "`Both` is a context manager: it defines `__enter__` and `__exit__` "
        "and `__aenter__` and `__aexit__`.",
    }


def test_context_manager_functions() -> None:
    source = """
    import contextlib
    from contextlib import asynccontextmanager, contextmanager

    @contextmanager
    def opened():
        yield 1

    @contextlib.contextmanager
    def locked():
        yield

    @asynccontextmanager
    async def session():
        yield

    @mylib.contextmanager
    def other():
        yield
    """
    found = {f.subject: f.message for f in findings(source) if f.kind == "context-manager"}
    assert found == {
        "opened": "`opened` is a context manager made by `@contextmanager`.",
        "locked": "`locked` is a context manager made by `@contextlib.contextmanager`.",
        "session": "`session` is an async context manager made by `@asynccontextmanager`.",
    }


def test_generators_at_any_depth_and_only_their_own_body() -> None:
    source = """
    def plain():
        return 1

    def gen():
        for i in range(3):
            yield i

    def delegating():
        result = yield from gen()
        return result

    def both():
        yield 1
        yield from gen()

    def outer():
        def inner():
            yield 1
        return inner

    class Reader:
        def lines(self):
            if self.ok:
                yield "x"

    async def stream():
        yield 1

    def holds_lambda():
        return lambda: (yield)
    """
    found = {f.subject: (f.line, f.message) for f in findings(source) if f.kind == "generator"}
    assert found == {
        "gen": (5, "`gen` is a generator: it uses `yield`."),
        "delegating": (9, "`delegating` is a generator: it uses `yield from`."),
        "both": (13, "`both` is a generator: it uses `yield` and `yield from`."),
        "outer.inner": (18, "`outer.inner` is a generator: it uses `yield`."),
        "Reader.lines": (23, "`Reader.lines` is a generator: it uses `yield`."),
        "stream": (27, "`stream` is an async generator: an `async def` that uses `yield`."),
    }


def test_async_functions() -> None:
    source = """
    async def fetch():
        await go()

    class Client:
        async def get(self):
            async def retry():
                pass

    def sync():
        pass
    """
    assert claims(source, "async") == [(2, "fetch"), (6, "Client.get"), (7, "Client.get.retry")]
    assert only(source.split("class")[0], "async").message == "`fetch` is defined with `async def`."


# --- decorators -------------------------------------------------------------------


def test_registering_decorators() -> None:
    source = """
    @register_backend("gloo")
    def gloo(): ...

    @OPS.register
    def add(): ...

    @registry.add("x")
    class Thing: ...

    @torch.library.register_fake("ns::op")
    def fake(): ...

    @my_decorator
    def plain(): ...

    @functools.wraps(f)
    def wrapper(): ...

    @property
    def value(self): ...
    """
    found = {f.subject: (f.line, f.message) for f in findings(source) if f.kind != "generator"}
    assert found == {
        "gloo": (3, "`gloo` is registered by the decorator `@register_backend(...)`."),
        "add": (6, "`add` is registered by the decorator `@OPS.register`."),
        "Thing": (9, "`Thing` is registered by the decorator `@registry.add(...)`."),
        "fake": (12, "`fake` is registered by the decorator `@torch.library.register_fake(...)`."),
    }


def test_single_dispatch_and_its_registrations() -> None:
    source = """
    import functools
    from functools import singledispatch, singledispatchmethod

    @singledispatch
    def show(x): ...

    @show.register
    def _(x: int): ...

    @show.register(str)
    def _(x): ...

    @functools.singledispatch
    def size(x): ...

    class Printer:
        @singledispatchmethod
        def emit(self, x): ...

        @emit.register
        def _(self, x: int): ...
    """
    found = [(f.line, f.subject, f.message) for f in findings(source)]
    assert found == [
        (6, "show", "`show` is a single-dispatch generic function (`@singledispatch`)."),
        (9, "_", "`_` is an implementation registered on the single-dispatch `show`."),
        (12, "_", "`_` is an implementation registered on the single-dispatch `show`."),
        (15, "size", "`size` is a single-dispatch generic function (`@functools.singledispatch`)."),
        (
            19,
            "Printer.emit",
            "`Printer.emit` is a single-dispatch generic function (`@singledispatchmethod`).",
        ),
        (
            22,
            "Printer._",
            "`Printer._` is an implementation registered on the single-dispatch `emit`.",
        ),
    ]
    assert {f.kind for f in findings(source)} == {"dispatch"}


def test_register_of_an_ordinary_function_is_a_registry_not_dispatch() -> None:
    source = "@hooks.register\ndef on_save(): ...\n"
    assert [f.kind for f in findings(source)] == ["decorator-registry"]


# --- __all__ ----------------------------------------------------------------------


def test_dunder_all_statements() -> None:
    source = """
    __all__ = ["a", "b", "c"]
    __all__ += ("d",)
    if True:
        __all__ += helpers()
    __all__: list[str] = sorted(names)
    __all__: list[str]

    def f():
        __all__ = ["x"]

    class C:
        __all__ = ["y"]
    """
    found = [(f.line, f.message) for f in findings(source) if f.kind == "dunder-all"]
    assert found == [
        (2, "`__all__` lists 3 names."),
        (3, "`__all__` is extended with 1 name."),
        (5, "`__all__` is extended."),
        (6, "`__all__` is assigned from an expression."),
    ]


# --- loops ------------------------------------------------------------------------


def test_sync_calls_in_loops() -> None:
    source = """
    import torch

    def train(batches, model):
        for batch in batches:
            loss = model(batch)
            total += loss.item()
            preds = model(batch).argmax(-1).cpu()
            rows = preds.tolist()
            torch.cuda.synchronize()
        while not done.item():
            arr = x.numpy()
    """
    assert claims(source, "sync-in-loop") == [
        (7, "loss.item"),
        (8, ".cpu"),
        (9, "preds.tolist"),
        (10, "torch.cuda.synchronize"),
        (11, "done.item"),
        (12, "x.numpy"),
    ]
    assert claims(source, "copy-in-loop") == []
    first = findings(source)[0]
    assert first.category == "performance"
    assert first.message == (
        "`loss.item()` inside a loop waits for the GPU on every iteration "
        "when called on a GPU tensor."
    )


def test_synchronize_through_imports() -> None:
    source = """
    from torch.cuda import synchronize
    from torch import cuda

    for step in range(10):
        synchronize()
        cuda.synchronize()
        stream.synchronize()
    """
    assert claims(source, "sync-in-loop") == [(6, "synchronize"), (7, "cuda.synchronize")]


def test_sync_decoys() -> None:
    source = """
    import torch

    value = loss.item()
    for batch in batches:
        getter = batch.item
        picked = batch.item(0)
        moved = batch.cpu(memory_format=fmt)
        f = lambda: batch.item()

        def later():
            return batch.item()

        class Holder:
            total = batch.item()
    else:
        done = flag.item()
    for row in table.tolist():
        pass
    torch.cuda.synchronize()
    """
    assert claims(source, "sync-in-loop") == []


def test_copies_in_loops() -> None:
    source = """
    import torch

    for x, y in loader:
        x = x.cuda()
        y = y.cuda(non_blocking=True)
        a = x.to("cuda")
        b = x.to(device="cuda:1", non_blocking=True)
        c = x.to(torch.device("cuda:0"))
        d = x.to(torch.device(type="cuda"))
        e = x.to(device)
        f = x.to("cpu")
        g = x.to(torch.float16)
    x.cuda()
    """
    assert claims(source, "copy-in-loop") == [
        (5, "x.cuda"),
        (6, "y.cuda"),
        (7, "x.to"),
        (8, "x.to"),
        (9, "x.to"),
        (10, "x.to"),
    ]
    messages = [f.message for f in findings(source) if f.line in (5, 8)]
    assert messages == [
        "`x.cuda()` inside a loop copies to the GPU on every iteration.",
        "`x.to` inside a loop copies to `cuda:1` on every iteration.",
    ]


@pytest.mark.parametrize(
    ("header", "claimed"),
    [
        ("import torch", True),
        ("import torch.nn.functional as F", True),
        ("from torch.utils.data import DataLoader", True),
        ("import numpy as np", False),  # numpy arrays have `.item()` and `.tolist()` too
        ("from . import torch", False),
        ("import torchvision", False),
    ],
)
def test_loop_claims_need_a_file_that_imports_torch(header: str, claimed: bool) -> None:
    source = f"{header}\n\nfor row in rows:\n    values = row.tolist()\n    row.cuda()\n"
    expected = [(4, "sync-in-loop"), (5, "copy-in-loop")] if claimed else []
    assert [(f.line, f.kind) for f in findings(source) if f.category == "performance"] == expected


def test_torch_device_of_another_module_is_no_device() -> None:
    source = """
    import torch
    from mylib import device

    for x in xs:
        x.to(device("cuda"))
        x.to(torch.device("cuda"))
    """
    assert claims(source, "copy-in-loop") == [(7, "x.to")]


def test_comprehension_elements_repeat_but_the_first_iterable_does_not() -> None:
    source = """
    values = [t.item() for t in tensors]
    total = sum(t.item() for t in tensors)
    table = {k: v.tolist() for k, v in items}
    firsts = [x for x in batch.cpu()]
    pairs = [y for x in xs for y in x.tolist()]
    kept = [x for x in xs if x.item() > 0]
    """
    source = torch_file(source)
    assert claims(source, "sync-in-loop") == [
        (2, "t.item"),
        (3, "t.item"),
        (4, "v.tolist"),
        (6, "x.tolist"),
        (7, "x.item"),
    ]


def test_lambda_in_a_comprehension_is_a_boundary_and_a_comprehension_in_a_lambda_a_loop() -> None:
    source = """
    fs = [lambda: t.item() for t in tensors]
    g = lambda ts: [t.item() for t in ts]
    """
    source = torch_file(source)
    assert claims(source, "sync-in-loop") == [(3, "t.item")]


def test_loop_inside_a_nested_function_belongs_to_that_function() -> None:
    source = """
    def outer(xs):
        first = xs[0].item()

        def inner():
            for x in xs:
                x.item()

        return inner
    """
    source = torch_file(source)
    assert claims(source, "sync-in-loop") == [(7, "x.item")]


def test_calls_in_f_strings_inside_loops() -> None:
    source = """
    for step, loss in enumerate(losses):
        print(f"step {step}: {loss.item():.3f} {other.item()}")
    print(f"{final.item()}")
    """
    source = torch_file(source)
    assert claims(source, "sync-in-loop") == [(3, "loss.item"), (3, "other.item")]


def test_line_of_a_call_chained_over_lines_is_the_method_s() -> None:
    source = """
    for x in xs:
        value = (
            model(x)
            .sum()
            .item()
        )
    """
    source = torch_file(source)
    assert claims(source, "sync-in-loop") == [(6, ".item")]


def test_long_bodies_are_searched_by_bisection_without_losing_calls() -> None:
    lines = [f"a{i} = {i}" for i in range(50)]
    lines[30] = "for x in xs:\n    x.item()"
    lines[40] = "y = [t.cpu() for t in ts]"
    body = "\n".join(f"    {line}".replace("\n", "\n    ") for line in lines)
    tail = "for z in zs:\n    @register(z.item())\n    def g():\n        pass\n"
    source = f"import torch\n@decorator\ndef f():\n{body}\n\n{tail}"
    found = claims(source, "sync-in-loop")
    assert found == [(35, "x.item"), (45, "t.cpu"), (57, "z.item")]


# --- the list as a whole ------------------------------------------------------------


def test_output_is_sorted_and_without_duplicates() -> None:
    source = """
    import torch
    from torch import nn
    from dataclasses import dataclass

    __all__ = ["Net"]

    for x in xs:
        y = x.item() + x.item()

    @dataclass
    class Net(nn.Module):
        async def run(self):
            yield 1
    """
    found = findings(source)
    assert found == sorted(found, key=lambda f: (f.category, f.line, f.kind, f.subject))
    assert len(found) == len(set(found))
    assert [(f.category, f.kind, f.line) for f in found] == [
        ("pattern", "dunder-all", 6),
        ("pattern", "dataclass", 12),
        ("pattern", "nn-module", 12),
        ("pattern", "async", 13),
        ("pattern", "generator", 13),
        ("performance", "sync-in-loop", 9),
    ]


def test_empty_module_and_no_calls() -> None:
    assert findings("") == []
    tree = ast.parse("import torch\nfor x in xs:\n    x.item()\n")
    assert idiom_findings(tree, []) == []  # loop claims start from the calls given


def test_a_tree_without_positions_still_gives_the_loop_claims() -> None:
    tree = ast.parse("import torch\nfor x in xs:\n    x.item()\nclass A:\n    pass\n")
    for node in ast.walk(tree):
        for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(node, name):
                delattr(node, name)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    found = idiom_findings(tree, calls)
    assert [(f.kind, f.line, f.subject) for f in found] == [("sync-in-loop", 0, "x.item")]


SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SETTINGS
@given(hypothesmith.from_grammar())
def test_never_raises_and_stays_sorted_on_generated_code(source: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ast.parse(source)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    found = idiom_findings(tree, calls)
    assert found == sorted(found, key=lambda f: (f.category, f.line, f.kind, f.subject, f.message))
    assert all(f.line >= 1 for f in found)


def test_positions_find_every_call_without_the_unpruned_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import docgen.scan.python.loops as loops

    searches: list[bool] = []
    search = loops._search

    Span = tuple[tuple[int, int], tuple[int, int]]

    def recording(root: ast.AST, call: ast.Call, span: Span | None) -> bool | None:
        searches.append(span is not None)
        return search(root, call, span)

    monkeypatch.setattr(loops, "_search", recording)
    statements = "\n".join(f"a{i} = {i}" for i in range(12))
    source = f"""import torch
{statements}
@register([t.item() for t in ts])
def f():
    pass
for x in xs:
{textwrap.indent(statements, "    ")}
    print(f"{{x.item()}} {{y.cpu()}}")
"""
    assert claims(source, "sync-in-loop") == [(14, "t.item"), (30, "x.item"), (30, "y.cpu")]
    assert searches == [True, True, True]


def test_relative_imports_resolve_against_the_package() -> None:
    source = (
        "from .module import Module\n"
        "from ..x import Module as Other\n\n\n"
        "class Linear(Module):\n    pass\n\n\n"
        "class Odd(Other):\n    pass\n"
    )
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    found = idiom_findings(tree, calls, "torch.nn.modules")
    assert [(f.kind, f.subject) for f in found] == [("nn-module", "Linear")]
    assert idiom_findings(tree, calls) == []  # without the package, nothing is claimed
    assert idiom_findings(tree, calls, "other.pkg") == []  # other.pkg.module is not torch's
