"""The C-family idioms found on real trees, as data: each folder of `cfamily_units/` holds
source files and `expected`, every definition docgen must find in them (as Universal
Ctags keeps its `Units/`).  The macros are learned from the folder's own files, as a
build learns them from its tree's headers.

A line of `expected` is `FILE:LINE KIND QUALNAME`; `#` starts a comment.  To add a
case: a folder with the files and the `expected` lines, checked by hand against the
sources (`python tests/test_cfamily_units.py FOLDER` prints what docgen finds now).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import expected_lines

from docgen.scan.cfamily.preprocess.macros import macro_defs
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

UNITS = Path(__file__).resolve().parent / "cfamily_units"
CASES = sorted(p.name for p in UNITS.iterdir() if p.is_dir())


def found(case: Path) -> list[str]:
    """Every definition docgen finds in a case's files, as `expected` lines, sorted."""
    sources = sorted(p for p in case.iterdir() if p.name != "expected")
    defs = [
        d for p in sources if p.suffix in (".h", ".hpp", ".cuh") for d in macro_defs(p.read_bytes())
    ]
    settings = ScanSettings.learned(defs, "cpp")
    lines = []
    for source in sources:
        facts = scan(source.name, source.read_bytes(), settings).cfamily
        assert facts is not None, source.name
        lines += [f"{source.name}:{d.line} {d.kind} {d.qualname}" for d in facts.definitions]
    return sorted(lines)


def test_there_are_cases() -> None:
    assert len(CASES) >= 8


@pytest.mark.parametrize("name", CASES)
def test_a_case_finds_exactly_its_expected_definitions(name: str) -> None:
    assert found(UNITS / name) == expected_lines(UNITS / name)


if __name__ == "__main__":
    print("\n".join(found(UNITS / sys.argv[1])))
