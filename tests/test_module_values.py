"""The lists a module-level name holds where each test is defined, and the class-level
`@pytest.mark.parametrize` that uses them (PyTorch's `test/torch_np/test_basic.py`)."""

from __future__ import annotations

import ast

from docgen.analyze.module_values import values_at_definitions, with_values
from docgen.analyze.suite import collect


def _lists(source: str) -> dict[str, dict[str, list[str] | None]]:
    """What each definition sees, with the items unparsed."""
    tree = ast.parse(source)
    names = {n.lineno: n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    return {
        names[line]: {
            k: None if v is None else [ast.unparse(e) for e in v] for k, v in seen.items()
        }
        for line, seen in values_at_definitions(tree).items()
    }


def test_copies_additions_and_appends_are_followed_in_order() -> None:
    seen = _lists(
        "funcs = [w.argmax, w.sum]\n"
        "def test_a(): pass\n"
        "more = funcs[:]\n"
        "more += [w.expand_dims]\n"
        "more.append(w.flip)\n"
        "both = list(funcs) + (1, 2)\n"
        "class TestB: pass\n"
    )
    assert seen["test_a"] == {"funcs": ["w.argmax", "w.sum"]}
    assert seen["TestB"]["more"] == ["w.argmax", "w.sum", "w.expand_dims", "w.flip"]
    assert seen["TestB"]["both"] == ["w.argmax", "w.sum", "1", "2"]
    assert seen["TestB"]["test_a"] is None  # a def binds its name


def test_what_cannot_be_read_is_unknown_from_there_on() -> None:
    seen = _lists(
        "names = list_of_ufuncs\n"
        "funcs = [a]\n"
        "funcs += [getattr(u, n) for n in names]\n"
        "kept = [b]\n"
        "kept.remove(b)\n"
        "shuffled = [c, d]\n"
        "random.shuffle(shuffled)\n"
        "starred = [*funcs]\n"
        "if flag:\n"
        "    other = [e]\n"
        "from m import imported\n"
        "changed = [f]\n"
        "changed[0] = g\n"
        "class TestC: pass\n"
    )
    assert seen["TestC"] == {
        "names": None,
        "funcs": None,
        "kept": None,
        "shuffled": None,
        "starred": None,
        "other": None,
        "imported": None,
        "changed": None,
    }


def test_a_name_is_replaced_by_its_list_only_where_known() -> None:
    call = ast.parse('p("f", funcs, ids=x)', mode="eval").body
    assert isinstance(call, ast.Call)
    replaced = with_values(call, {"funcs": (ast.Constant(1), ast.Constant(2))})
    assert ast.unparse(replaced) == "p('f', [1, 2], ids=x)"
    assert with_values(call, {"funcs": None}) is call
    assert with_values(call, {}) is call


SUITE = """import pytest
import torch._numpy as w

axis_funcs = [w.argmax, w.argmin, w.prod]
ufuncs = list(w._unary)
funcs = [w.asarray] + ufuncs


class _Base:
    def test_tensor(self, func, axis):
        pass

    def test_list(self, func, axis):
        pass


@pytest.mark.parametrize("func", axis_funcs)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
class TestAxis(_Base):
    pass


not_none = axis_funcs[:]
not_none += [w.expand_dims]


@pytest.mark.parametrize("func", not_none)
@pytest.mark.parametrize("axis", [0, 1, -1])
class TestAxisNotNone(_Base):
    @pytest.mark.parametrize("keep", [True, False])
    def test_keep(self, func, axis, keep):
        pass


@pytest.mark.parametrize("shape", [(1, 2), 3])
class TestShape:
    @pytest.mark.parametrize("dt", ["float32", None])
    def test_shape(self, shape, dt):
        pass


@pytest.mark.parametrize("func", funcs)
class TestUnread:
    def test_one(self, func):
        pass
"""


def test_class_parametrizations_apply_to_each_test_with_module_lists() -> None:
    suite = collect(SUITE)
    assert suite is not None
    tests = {(c.name, t.name): t for c in suite.classes for t in c.tests}
    # 3 functions whose ids pytest takes from `__name__`: counted, one row
    assert tests["TestAxis", "test_tensor"].cases == 3 * 4
    assert tests["TestAxis", "test_tensor"].defined_in == "_Base"
    assert tests["TestAxisNotNone", "test_list"].cases == 4 * 3
    assert tests["TestAxisNotNone", "test_keep"].cases == 2 * 4 * 3
    # literal values: listed, the test's own ids first, then the class's
    shape = sorted(n for (c, n) in tests if c == "TestShape")
    assert shape == [
        "test_shape[None-3]",
        "test_shape[None-shape0]",
        "test_shape[float32-3]",
        "test_shape[float32-shape0]",
    ]
    unread = tests["TestUnread", "test_one"]
    assert not unread.expanded and unread.cases == 1


def test_a_base_class_parametrization_comes_before_the_class_own() -> None:
    """As `pytest --collect-only` names them: `TestSub::test_b[1-a]`."""
    suite = collect(
        "import pytest\n"
        "@pytest.mark.parametrize('x', [1, 2])\n"
        "class TestBase:\n"
        "    def test_b(self, x, y): pass\n"
        "@pytest.mark.parametrize('y', ['a'])\n"
        "class TestSub(TestBase): pass\n"
    )
    assert suite is not None
    names = {c.name: sorted(t.name for t in c.tests) for c in suite.classes}
    assert names["TestSub"] == ["test_b[1-a]", "test_b[2-a]"]
