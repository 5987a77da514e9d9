"""The Python attribute idioms found on real trees, as data: each folder of
`python_units/` holds source files and `expected`, every attribute docgen must find in
them, with what documents it.

A line of `expected` is `FILE:LINE SCOPE QUALNAME [doc|comment]`: `doc` when a
docstring or `#:` comment documents it, `comment` when the plain `#` lines above it do;
`#` at the start of a line makes it a comment.  To add a case: a folder with the files
and the `expected` lines, checked by hand against the sources
(`python tests/test_python_units.py FOLDER` prints what docgen finds now).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import expected_lines

from docgen.scan.python.scanner import scan

UNITS = Path(__file__).resolve().parent / "python_units"
CASES = sorted(p.name for p in UNITS.iterdir() if p.is_dir())


def found(case: Path) -> list[str]:
    """Every attribute docgen finds in a case's files, as `expected` lines, sorted."""
    lines = []
    for source in sorted(case.glob("*.py")):
        facts = scan(source.name, source.read_bytes())
        assert facts.parsed and not facts.problems, (source.name, facts.problems)
        assert facts.python is not None
        for a in facts.python.attributes:
            told = " doc" if a.docstring else " comment" if a.comment else ""
            lines.append(f"{source.name}:{a.line} {a.scope} {a.qualname}{told}")
    return sorted(lines)


def test_there_are_cases() -> None:
    assert len(CASES) >= 4


@pytest.mark.parametrize("name", CASES)
def test_a_case_finds_exactly_its_expected_attributes(name: str) -> None:
    assert found(UNITS / name) == expected_lines(UNITS / name)


if __name__ == "__main__":
    print("\n".join(found(UNITS / sys.argv[1])))
