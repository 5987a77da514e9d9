"""Catch2's and doctest's test cases, named by strings: read as test cases, not errors."""

from __future__ import annotations

from test_cfamily_units import UNITS

from docgen.analyze.tags import _cfamily_tags
from docgen.scan.cfamily.preprocess.test_cases import _WORDS, SECTION_MACROS, case_heads_blanked
from docgen.scan.cfamily.reader_macros import NAMED_TEST_MACROS
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS

CATCH2 = (UNITS / "catch2_test_cases/test_vector.cpp").read_bytes()


def test_heads_are_blanked_in_place() -> None:
    blanked = case_heads_blanked(CATCH2)
    assert len(blanked) == len(CATCH2)
    assert blanked.count(b"\n") == CATCH2.count(b"\n")  # offsets and lines kept
    lines = blanked.decode().split("\n")
    arguments = len('"vectors can be sized", "[vector]"')
    assert lines[2] == "TEST_CASE(" + " " * arguments + ") {"
    assert lines[4].strip() == "{"  # a section's head goes whole, its block stays
    assert lines[10].startswith("TEMPLATE_TEST_CASE(") and '"' not in lines[10]
    assert lines[14:] == CATCH2.decode().split("\n")[14:]  # the rest as written


def test_every_named_test_macro_is_found_by_the_quick_look() -> None:
    """`case_heads_blanked` reads only files that hold one of its words."""
    words = [w.decode() for w in _WORDS]
    assert all(any(w in name for w in words) for name in NAMED_TEST_MACROS | SECTION_MACROS)
    for name in sorted(NAMED_TEST_MACROS):
        source = f'{name}("n") {{\n}}\n'.encode()
        assert case_heads_blanked(source) == f"{name}(   ) {{\n}}\n".encode()
    for name in sorted(SECTION_MACROS):  # in a test macro docgen does not know
        source = f'MY_CASE("t") {{\n  {name}("n") {{\n  }}\n}}\n'.encode()
        blanked = source.replace(f'{name}("n")'.encode(), b" " * (len(name) + 5))
        assert case_heads_blanked(source) == blanked


def test_heads_without_a_block_or_a_string_stay() -> None:
    source = (
        b'TEST_CASE("declared only");\n'  # no block: not read as a case
        b"TEST_CASE(Suite, Name) {\n}\n"  # no string: the grammar reads it already
        b'  SECTION("s") REQUIRE(x);\n'
    )
    assert case_heads_blanked(source) == source
    assert case_heads_blanked(b"int f();\n") == b"int f();\n"


def test_cases_are_read_with_their_names_and_no_syntax_error() -> None:
    facts = scan("tests/vector_test.cpp", CATCH2, DEFAULT_SETTINGS)
    c = facts.cfamily
    assert c is not None
    assert facts.problems == ()  # every head an error before
    assert [(t.name, t.line) for t in c.test_cases] == [
        ('"vectors can be sized"', 3),
        ('"sums"', 11),
    ]
    # the bodies are not names of the file; what follows them is
    assert [(d.kind, d.qualname, d.line) for d in c.definitions] == [
        ("struct", "Kept", 15),
        ("field", "Kept::value", 16),
    ]


def test_a_fixture_case_is_named_by_its_string() -> None:
    source = b'TEST_CASE_FIXTURE(Registry, "every type is registered") {\n  CHECK(n > 0);\n}\n'
    c = scan("t.cpp", source, DEFAULT_SETTINGS).cfamily
    assert c is not None
    assert [(t.name, t.line) for t in c.test_cases] == [('"every type is registered"', 1)]


def test_test_tag_evidence_names_the_case_and_the_header() -> None:
    facts = scan("tests/vector_test.cpp", CATCH2, DEFAULT_SETTINGS)
    (tag,) = _cfamily_tags(facts, CATCH2.decode()).tags
    assert tag.name == "test"
    reasons = [(e.line, e.reason) for e in tag.evidence]
    assert (1, "includes catch2/catch_test_macros.hpp") in reasons
    assert (3, 'defines the test case "vectors can be sized"') in reasons


def test_a_trees_own_test_macro_called_with_a_string_is_a_test_case() -> None:
    # CCCL's `C2H_TEST("name", "[tag]", types) { ... }`, its wrapper of Catch2's
    source = (
        b'C2H_TEST("device reduce", "[reduce]", types)\n{\n'
        b"  using T = c2h::get<0, TestType>;\n"
        b'  SECTION("empty") { CHECK(true); }\n}\n'
        b'MY_CASE("not a test") {\n}\n'  # no TEST in its name: left as it is
        b'INSTANTIATE_TEST_SUITE_P(P, S, Values("a"));\n'  # no block
    )
    c = scan("reduce.cu", source, DEFAULT_SETTINGS).cfamily
    assert c is not None
    assert [(t.name, t.line) for t in c.test_cases] == [('"device reduce"', 1)]
    assert [d.name for d in c.definitions] == []  # `T` is the test body's own
    blanked = case_heads_blanked(source)
    arguments = len('"device reduce", "[reduce]", types')
    assert blanked.startswith(b"C2H_TEST(" + b" " * arguments + b")\n{")
    assert blanked.split(b"\n")[5:] == source.split(b"\n")[5:]
