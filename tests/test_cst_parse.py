"""The parse without node checks: the same trees as libcst's own parse, and the checks
back on for every node built afterwards, however the parse ended."""

from __future__ import annotations

import threading
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings

from docgen.scan.cst_parse import parse_module

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# hypothesmith compiles what it generates; CPython's warnings about that code are noise here.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")


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
def test_the_tree_is_libcst_s_own(path: Path) -> None:
    assert_parsed_as_libcst_parses(path.read_text(encoding="utf-8", errors="surrogateescape"))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(hypothesmith.from_grammar())
def test_generated_source_parses_to_the_same_tree(text: str) -> None:
    assert_parsed_as_libcst_parses(text)


def test_checks_are_back_after_a_syntax_error() -> None:
    with pytest.raises(cst.ParserSyntaxError):
        parse_module("def (:\n")
    assert checks_are_on()


def test_checks_are_on_before_any_parse_and_after_many() -> None:
    assert checks_are_on()
    for _ in range(3):
        parse_module("x = 1\n")
    assert checks_are_on()


def test_parses_in_threads_leave_the_checks_on() -> None:
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
