"""A test file whose parametrized tests are too many to list, or depend on a condition,
as its page tells them: every case counted, the condition named, both ways."""

from __future__ import annotations

from pathlib import Path

from docgen.build import build
from docgen.cli.build_options import resolve_options

SOURCE = """import pytest
import torch

is_sm75 = torch.cuda.get_device_capability("cuda") == (7, 5)


@pytest.mark.parametrize("p0", list(range(3)))
def test_unread(p0):
    pass


@pytest.mark.parametrize("dtype", [torch.float16] if is_sm75 else [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("d", [32, 64, 96])
def test_dtype(d, dtype):
    pass


@pytest.mark.parametrize("a", VALUES)
def test_named(a):
    pass
"""
MANY = "".join(f'@pytest.mark.parametrize("p{n}", [1, 2, 3, 4])\n' for n in range(5))
SOURCE += f"\n\n{MANY}def test_many(p0, p1, p2, p3, p4):\n    pass\n"


def docs_page(tmp_path: Path, name: str, source: str) -> str:
    """The docs page of `tests/NAME` in a repository of that one file."""
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / name).write_text(source, encoding="utf-8")
    out = tmp_path / "out"
    build(resolve_options(repo, out, 1))
    return (out / "tests" / f"{name}_docs.md").read_text(encoding="utf-8")


def test_the_page_counts_every_case_and_names_the_condition(tmp_path: Path) -> None:
    page = docs_page(tmp_path, "test_cases.py", SOURCE)
    assert (
        "A runner collects at least 1,032 tests from this file where `is_sm75` is false, "
        "1,029 where it is true (2 parametrized tests counted once: their values are known "
        "only when it runs)."
    ) in page
    assert "(parametrized: 6 cases where `is_sm75` is false, 3 where it is true; one row" in page
    assert "`test_many`](#function-test_many) (1,024 parametrized cases, one row for all)" in page
    assert "`test_unread`](#function-test_unread) (parametrized with values docgen" in page


def test_the_page_counts_what_a_module_level_fallback_hides(tmp_path: Path) -> None:
    page = docs_page(
        tmp_path,
        "test_trace.py",
        "import unittest\nfrom torch.testing._internal.common_utils import NoTest, TEST_CUDA\n"
        "TestCase = unittest.TestCase\n"
        "if not TEST_CUDA:\n    TestCase = NoTest\n\n\n"
        "class TestTrace(TestCase):\n    def test_a(self):\n        pass\n\n"
        "    def test_b(self):\n        pass\n\n\n"
        "class TestPlain(unittest.TestCase):\n    def test_c(self):\n        pass\n",
    )
    assert (
        "A runner collects 3 tests from this file, 1 on a machine where its fallback "
        "`if not TEST_CUDA: TestCase = NoTest` applies (it hides the classes of 2 tests)"
    ) in page
