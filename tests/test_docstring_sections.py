"""docstring_sections: where each convention's sections are, and the doctest blocks."""

from __future__ import annotations

from docgen.render.docstring_sections import (
    dangling_labels,
    doctest_blocks,
    google_sections,
    numpy_sections,
    rest_sections,
)


def split(text: str) -> list[str]:
    return text.split("\n")


def test_each_convention_finds_its_own_sections_and_no_other() -> None:
    google = split("Add.\n\nArgs:\n    x: one\n    y: two\n\nReturns:\n    the sum")
    numpy = split("Add.\n\nParameters\n----------\nx : int\n    one\n\nReturns\n-------\nint")
    rest = split("Add.\n\n:param x: one\n    more on x\n:rtype: int")
    found = google_sections(google, google, frozenset())
    assert [(s.title, s.kind, s.start, s.end) for s in found] == [
        ("Args", "params", 2, 5),
        ("Returns", "returns", 6, 8),
    ]
    assert found[0].body == ("    x: one", "    y: two")
    found = numpy_sections(numpy, numpy, frozenset())
    assert [(s.title, s.kind, s.start, s.end) for s in found] == [
        ("Parameters", "params", 2, 7),
        ("Returns", "returns", 7, 10),
    ]
    found = rest_sections(rest, rest, frozenset())
    assert [(s.field, s.argument, s.first, s.start, s.end) for s in found] == [
        ("param", "x", "one", 2, 4),
        ("rtype", "", "int", 4, 5),
    ]
    for lines in (numpy, rest):
        assert google_sections(lines, lines, frozenset()) == []
    assert numpy_sections(google, google, frozenset()) == []
    assert rest_sections(google, google, frozenset()) == []


def test_prose_that_says_args_is_no_section() -> None:
    lines = split("Takes args: and returns them.\nArgs:\nno indented block follows")
    assert google_sections(lines, lines, frozenset()) == []


def test_doctest_output_runs_past_a_blank_line_only_when_indented_deeper() -> None:
    lines = split("Example::\n\n    >>> t\n    tensor([[1],\n\n            [2]])\n\nAfter.")
    blocks = doctest_blocks(lines)
    assert blocks == [range(2, 6)]
    hidden = frozenset(i for block in blocks for i in block)
    assert dangling_labels(lines, hidden) == frozenset({0})  # nothing left to label
    lines = split(">>> 1\n1\n\nprose")
    assert doctest_blocks(lines) == [range(0, 2)]
