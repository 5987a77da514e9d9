"""The plain text scanner."""

from __future__ import annotations

import hashlib

import pytest

import docgen.scan.text as text


def test_facts_of_a_plain_file() -> None:
    data = b"[tool]\nname = 'x'\n"
    facts = text.scan("pkg/pyproject.toml", data)
    assert facts.path == "pkg/pyproject.toml"
    assert facts.kind == "text"
    assert facts.language == "toml"
    assert facts.size == len(data)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    assert facts.line_count == 2
    assert facts.encoding == "utf-8"
    assert facts.parsed
    assert facts.problems == ()
    assert facts.python is None
    assert facts.markdown is None


def test_unknown_suffix_has_no_language() -> None:
    assert text.scan("LICENSE", b"MIT\n").language == ""
    assert text.scan("Makefile", b"all:\n").language == "make"


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"", 0),
        (b"a", 1),
        (b"a\n", 1),
        (b"\n", 1),
        (b"a\nb", 2),
        (b"a\n\n", 2),
        (b"a\r\nb\r\n", 2),
        (b"a\rb", 2),
        (b"a\x0cb\x0bc\n", 1),  # form feed and vertical tab do not end lines
        ("a\u2028b\n".encode(), 1),
    ],
)
def test_line_count(data: bytes, lines: int) -> None:
    assert text.scan("f.txt", data).line_count == lines


def test_bom_is_not_text_but_is_hashed() -> None:
    data = b"\xef\xbb\xbfhello\n"
    facts = text.scan("a.txt", data)
    assert facts.line_count == 1
    assert facts.parsed
    assert facts.size == len(data)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()


def test_invalid_utf8_is_a_problem_not_an_exception() -> None:
    facts = text.scan("a.txt", b"ok\nbad \xc3\x28\nmore\n")
    assert facts.parsed  # nothing to parse in plain text: the byte is only a problem
    assert facts.line_count == 3
    assert len(facts.problems) == 1
    assert facts.problems[0].line == 2


def test_count_lines_ignores_other_separators() -> None:
    assert text.count_lines("x\x1cy\x85z") == 1
    assert text.count_lines("x\ny\nz") == 3
