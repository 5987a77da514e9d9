"""Bare-name uses of import-bound names (`docgen.scan.python.name_uses`), as data: each
folder of `name_uses_units/` holds source files and `expected`, every use docgen must
find in them, as `FILE:LINE NAME call|read` (`#` starts a comment line), checked by
hand against the sources (`python tests/test_name_uses.py FOLDER` prints what docgen
finds now).  The cases are excerpts of torch 2.13's sources where a local name shadows
an import, and the scoping rules Python's own reference gives."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from conftest import expected_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.analyze.dotted_reads import dotted_reads
from docgen.model.binding_facts import DottedRead
from docgen.scan.python.name_uses import module_uses, name_uses
from docgen.scan.python.scanner import scan

UNITS = Path(__file__).resolve().parent / "name_uses_units"
CASES = sorted(p.name for p in UNITS.iterdir() if p.is_dir())


def found(case: Path) -> list[str]:
    lines = []
    for source in sorted(case.glob("*.py")):
        for use in name_uses(ast.parse(source.read_bytes())):
            kind = "call" if use.call else "read"
            lines.extend(f"{source.name}:{line} {use.name} {kind}" for line in use.lines)
    return sorted(lines)


def test_there_are_cases() -> None:
    assert len(CASES) >= 3


@pytest.mark.parametrize("name", CASES)
def test_a_case_finds_exactly_its_expected_uses(name: str) -> None:
    assert found(UNITS / name) == expected_lines(UNITS / name)


def test_module_level_imports_bind_their_names_but_not_future_imports() -> None:
    tree = ast.parse(
        "from __future__ import annotations\nimport a.b\nimport c.d as e\n"
        "if X:\n    from g import h as i\ndef k():\n    import l\n"
        "def use():\n    return a, c, e, f, g, h, i, l, annotations\n"
    )
    assert {use.name for use in name_uses(tree)} == {"a", "e", "i"}


def test_a_star_import_may_bind_any_name_the_module_does_not() -> None:
    source = b"from .c10d import *\nfrom torch import *\nX = 1\n\ndef f():\n"
    source += b"    return get_rank(X, len([]))\n"
    python = scan("m/__init__.py", source).python
    assert python is not None
    assert dotted_reads(python) == (
        DottedRead(".c10d.get_rank", "get_rank", (6,)),
        DottedRead("torch.get_rank", "get_rank", (6,)),
    )


def test_a_bare_use_after_a_from_import_is_a_read_of_the_dotted_name() -> None:
    source = b"from torch._C import _cuda_init\n\ndef f():\n    _cuda_init()\n"
    source += b"    return _cuda_init\n"
    python = scan("m.py", source).python
    assert python is not None
    assert dotted_reads(python) == (DottedRead("torch._C._cuda_init", "_cuda_init", (1, 4, 5)),)


names = st.sampled_from(["f", "g", "h"])


@settings(max_examples=100, deadline=None)
@given(names, st.lists(st.tuples(names, st.booleans()), max_size=6))
def test_a_name_no_function_binds_is_a_use_wherever_it_is_read(
    imported: str, functions: list[tuple[str, bool]]
) -> None:
    """Functions that read `imported`, each with a parameter named `param`: the read is
    a use exactly where the parameter is not named as the import."""
    text = f"from m import {imported}\n"
    expected = []
    for number, (param, calls) in enumerate(functions):
        text += f"def fn{number}({param}):\n    return {imported}{'()' if calls else ''}\n"
        if param != imported:
            expected.append((imported, 2 * number + 3, calls))
    uses = [(u.name, line, u.call) for u in name_uses(ast.parse(text)) for line in u.lines]
    assert sorted(uses) == sorted(expected)


if __name__ == "__main__":
    print("\n".join(found(UNITS / sys.argv[1])))


def test_a_method_s_self_reads_are_its_class_s_own_names_or_its_first_base_s() -> None:
    source = (
        "from torch.nn import Module\n\n"  # 1-2
        "class Linear(Module):\n"  # 3
        "    scale = 2\n"  # 4
        "    def __init__(self):\n"  # 5
        "        self.bias = 1\n"  # 6
        "        self.reset()\n"  # 7
        "        self.bias, self.scale\n"  # 8
        "        def later():\n"  # 9
        "            self.cuda()\n"  # 10
        "    def reset(this):\n"  # 11
        "        this.to(None)\n"  # 12
        "    @staticmethod\n"  # 13
        "    def make(self):\n"  # 14
        "        self.half()\n"  # 15
    )
    imported, own = module_uses(ast.parse(source))
    assert [(u.name, u.lines, u.call) for u in imported] == [
        ("Module", (3,), False),
        ("Module.cuda", (10,), True),  # from a function inside the method
        ("Module.to", (12,), True),  # the first parameter, whatever its name
    ]
    assert [(u.name, u.lines, u.call) for u in own] == [
        ("Linear.reset", (7,), True),
        ("Linear.scale", (8,), False),
    ]
