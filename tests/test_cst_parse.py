"""The parse without node checks: the same trees as libcst's own parse, and the checks
back on for every node built afterwards, however the parse ended."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings

from docgen.scan.python.cst_parse import parse_module, prepare_for_many, unchecked_inits

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# hypothesmith compiles what it generates; CPython's warnings about that code are noise here.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")


@pytest.fixture(params=[False, True], ids=["libcst-constructors", "unchecked-constructors"])
def many(request: pytest.FixtureRequest) -> bool:
    """Each parse test runs as a one-file edit parses (the node classes' own constructors)
    and as a process prepared for many files (the unchecked ones)."""
    if request.param:
        prepare_for_many()
    else:
        unchecked_inits.cache_clear()
    return bool(request.param)


def checks_are_on() -> bool:
    """Whether libcst still rejects a node built by hand that breaks its rules."""
    try:
        cst.Name("")
    except cst.CSTValidationError:
        return True
    return False


def assert_parsed_as_libcst_parses(text: str) -> None:
    """The same tree as `libcst.parse_module`, or the same exception, and the checks on
    afterwards."""
    try:
        expected = cst.parse_module(text)
    except Exception as exc:  # whatever libcst raises, the parse raises too
        with pytest.raises(type(exc)):
            parse_module(text)
    else:
        tree = parse_module(text)
        assert tree.deep_equals(expected)
        assert tree.code == expected.code
    assert checks_are_on()


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py")), ids=lambda p: p.name)
def test_the_tree_is_libcst_s_own(path: Path, many: bool) -> None:
    assert_parsed_as_libcst_parses(path.read_text(encoding="utf-8", errors="surrogateescape"))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_generated_source_parses_to_the_same_tree(text: str) -> None:
    unchecked_inits.cache_clear()
    assert_parsed_as_libcst_parses(text)
    prepare_for_many()
    assert_parsed_as_libcst_parses(text)


def test_without_preparing_a_parse_leaves_the_constructors_unmade() -> None:
    """A one-file edit's parse never pays for constructors only many parses repay."""
    unchecked_inits.cache_clear()
    assert_parsed_as_libcst_parses("def f(a, *, b=[1, 2]):\n    return {a: b}\n")
    assert unchecked_inits.cache_info().currsize == 0
    prepare_for_many()
    assert unchecked_inits.cache_info().currsize == 1


def test_checks_are_back_after_a_syntax_error(many: bool) -> None:
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def (:\n")
    assert checks_are_on()


def test_checks_are_on_before_any_parse_and_after_many(many: bool) -> None:
    assert checks_are_on()
    for _ in range(3):
        parse_module("x = 1\n")
    assert checks_are_on()


def test_parses_in_threads_leave_the_checks_on(many: bool) -> None:
    texts = [f"def f{i}(a, b=1):\n    return a + b\n" for i in range(40)]
    trees: list[cst.Module] = []

    def work() -> None:
        trees.extend(parse_module(t) for t in texts)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(trees) == 160
    assert all(t.code in texts for t in trees)
    assert checks_are_on()


def test_each_class_has_its_own_constructor_again_after_a_parse() -> None:
    owns = {cls: cls.__dict__["__init__"] for cls, _, _ in unchecked_inits()}
    parse_module("def f(a, *, b=[1, 2]):\n    return {a: b}\n")
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("class (:\n")
    assert all(cls.__dict__["__init__"] is own for cls, own in owns.items())


def test_the_classes_a_parse_builds_most_have_unchecked_constructors() -> None:
    covered = {cls for cls, _, _ in unchecked_inits()}
    built = {cst.Module, cst.Name, cst.Call, cst.Arg, cst.FunctionDef, cst.SimpleWhitespace}
    assert built <= covered


@pytest.mark.parametrize(
    ("cls", "fields"),
    [
        (cst.Name, {"value": "x"}),
        (cst.Integer, {"value": "42", "lpar": (cst.LeftParen(),), "rpar": (cst.RightParen(),)}),
        (cst.Call, {"func": cst.Name("f"), "args": (cst.Arg(cst.Name("a")),)}),
        (cst.Arg, {"value": cst.Name("a"), "keyword": cst.Name("k")}),
        (cst.SimpleStatementLine, {"body": (cst.Pass(),)}),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_an_unchecked_constructor_builds_the_node_libcst_builds(
    cls: type[cst.CSTNode], fields: dict[str, object]
) -> None:
    """Defaults and default factories included: each node gets its own factory value."""
    unchecked = {c: init for c, init, _ in unchecked_inits()}[cls]
    built, again = cls.__new__(cls), cls.__new__(cls)
    unchecked(built, **fields)
    unchecked(again, **fields)
    expected = cls(**fields)
    assert built.deep_equals(expected)
    for field in dataclasses.fields(cls):
        value = getattr(built, field.name)
        assert type(value) is type(getattr(expected, field.name))
        if field.default_factory is not dataclasses.MISSING and field.name not in fields:
            assert value is not getattr(again, field.name)  # one per node, as libcst makes


def test_an_unchecked_constructor_checks_nothing() -> None:
    unchecked = {c: init for c, init, _ in unchecked_inits()}[cst.Name]
    built = cst.Name.__new__(cst.Name)
    unchecked(built, "")  # an empty name: libcst's own constructor rejects it
    assert built.value == ""
    assert checks_are_on()
