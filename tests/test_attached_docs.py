"""The docstrings a module attaches at import (`docgen.scan.python.attached_docs`):
the idioms of PyTorch's tree as data, and the rules one by one.

Each folder of `attached_units/` holds source files excerpted from torch 2.13 and
`expected`: every attached docstring docgen must find, one per line as `FILE:LINE
TARGET [fields=ARGS] [bound=NAME]` (`#` starts a comment).  `python
tests/test_attached_docs.py FOLDER` prints what docgen finds now.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import expected_lines

from docgen.index.attached_rows import attached_key, attached_rows
from docgen.model.facts import PythonFacts
from docgen.scan.python.scanner import scan

UNITS = Path(__file__).resolve().parent / "attached_units"
CASES = sorted(p.name for p in UNITS.iterdir() if p.is_dir())


def python_of(name: str, text: str) -> PythonFacts:
    facts = scan(name, text.encode())
    assert facts.parsed and facts.python is not None, facts.problems
    return facts.python


def found(case: Path) -> list[str]:
    lines = []
    for source in sorted(case.glob("*.py")):
        python = python_of(source.name, source.read_text(encoding="utf-8"))
        for a in python.attached:
            assert a.text, (source.name, a.line)
            extra = f" fields={a.fields}" if a.fields else ""
            extra += f" bound={a.bound}" if a.bound else ""
            lines.append(f"{source.name}:{a.line} {a.target}{extra}")
    return sorted(lines)


def test_there_are_cases() -> None:
    assert len(CASES) >= 4


@pytest.mark.parametrize("name", CASES)
def test_a_case_finds_exactly_its_expected_docstrings(name: str) -> None:
    assert found(UNITS / name) == expected_lines(UNITS / name)


def test_the_text_is_kept_as_help_shows_it() -> None:
    python = python_of(
        "d.py",
        "from torch._C import _add_docstr\n"
        '_add_docstr(f, """\n    add(x) -> T\n\n    Adds.\n""")\n',
    )
    assert [a.text for a in python.attached] == ["add(x) -> T\n\nAdds."]


def test_a_bound_name_takes_the_text_as_its_docstring_unless_it_has_one() -> None:
    source = (
        "from torch._C import _add_docstr, _linalg\n"
        'cross = _add_docstr(_linalg.linalg_cross, "Cross product.")\n'
        'det = _add_docstr(_linalg.linalg_det, "Determinant.")\n'
        '"""Its own docstring."""\n'
    )
    python = python_of("linalg.py", source)
    docs = {a.name: a.docstring for a in python.attributes}
    assert docs == {"cross": "Cross product.", "det": "Its own docstring."}


def test_text_made_by_code_is_known_as_such() -> None:
    python = python_of("d.py", "from torch._C import _add_docstr\nDOC = 'x'\n_add_docstr(f, DOC)\n")
    assert [(a.target, a.text) for a in python.attached] == [("f", None)]


def test_calls_inside_functions_and_other_setters_are_not_read() -> None:
    source = (
        "from torch._C import _add_docstr\n"
        "from mylib import add_docstr\n"
        "def later():\n"
        "    _add_docstr(f, 'inside a function: runs when called, if ever')\n"
        "add_docstr(g, 'the setter of another library')\n"
    )
    assert python_of("d.py", source).attached == ()


def test_a_wrapper_needs_its_parameters_in_the_getattr_and_the_text() -> None:
    source = (
        "import torch._C\n"
        "from torch._C import _add_docstr as add_docstr\n"
        "def fixed(method, docstr):\n"
        "    add_docstr(getattr(torch._C.TensorBase, 'abs'), docstr)\n"
        "def wrapper(docstr, method):\n"
        "    add_docstr(getattr(torch._C.TensorBase, method), docstr)\n"
        "fixed('neg', 'x')\n"
        "wrapper('Text.', 'abs')\n"
    )
    found = [(a.target, a.text) for a in python_of("d.py", source).attached]
    assert found == [("torch._C.TensorBase.abs", "Text.")]


def test_rows_read_the_target_through_the_file_imports() -> None:
    source = (
        "from torch._C import _add_docstr, _linalg\n"
        'cross = _add_docstr(_linalg.linalg_cross, "Cross.")\n'
        "import torch\n"
        '_add_docstr(torch.add, "Add {x}.".format(**args))\n'
    )
    rows = attached_rows(python_of("linalg.py", source))
    assert rows == (
        (
            "_linalg.linalg_cross",
            "torch._C._linalg.linalg_cross",
            2,
            "Cross.",
            "",
            rows[0][5],
            "cross",
        ),
        ("torch.add", "", 4, "Add {x}.", "**args", rows[1][5], ""),
    )
    assert [attached_key(r) for r in rows] == ["linalg_cross", "add"]


if __name__ == "__main__":
    print("\n".join(found(UNITS / sys.argv[1])))
