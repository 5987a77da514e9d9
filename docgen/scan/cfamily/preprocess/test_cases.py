"""Catch2's and doctest's test cases, named by a string: made readable to the grammar.

`TEST_CASE("adds two numbers") { ... }` reads to tree-sitter as a call with its `;`
missing and a block of code at file scope: a syntax error at every test case, and
the names after it at risk.  With the string blanked (offsets kept), the head reads
as googletest's `TEST(Suite, Name) { ... }` does, a macro's block, which the walk
records as a test case (its name cut from the original bytes).  The sections inside
a case (`SECTION("...") { ... }`, doctest's `SUBCASE`, Catch2's `GIVEN`/`WHEN`/`THEN`)
are blanked whole, leaving the block they open.
"""

from __future__ import annotations

from docgen.scan.cfamily.preprocess.source import BLANKED, Calls, LinePattern
from docgen.scan.cfamily.reader_macros import names_a_test

#: macros that open a section of a test case with a name: `SECTION("empty") { ... }`
SECTION_MACROS: frozenset[str] = frozenset(
    {
        "SECTION",
        "DYNAMIC_SECTION",
        "SUBCASE",
        "GIVEN",
        "AND_GIVEN",
        "WHEN",
        "AND_WHEN",
        "THEN",
        "AND_THEN",
    }
)
#: an upper-case call at a line's start: a test macro's or a section's when its name says
_HEAD = LinePattern(rb"[ \t]*([A-Z_][A-Z0-9_]*)[ \t]*\(")
#: a word of every such macro's name (tested): a file without any is left as it is
_WORDS = (b"TEST", b"SCENARIO", b"SECTION", b"SUBCASE", b"GIVEN", b"WHEN", b"THEN")
#: what may stand between a head's `)` and its block's `{`
_BLANKS = b" \t\r\n"


def case_heads_blanked(parsed: bytes) -> bytes:
    """`parsed` with each named test case's arguments blanked (`TEST_CASE(     ) {`, and
    a tree's own `C2H_TEST(...) {`, see `names_a_test`) and each section's head blanked
    whole: only where a string names it and a block follows its `)`.  The same bytes
    when there is none."""
    if not any(word in parsed for word in _WORDS):
        return parsed
    heads = [m for m in _HEAD.finditer(parsed) if b'"' in parsed[m.end() : m.end() + 200]]
    if not heads:
        return parsed
    calls = Calls(parsed)
    out = bytearray(parsed)
    for head in heads:
        name = head.group(1).decode("ascii")
        span = calls.arguments(head.end(1))
        if span is None or b'"' not in parsed[span[0] : span[1]]:
            continue
        arguments = parsed[span[0] - 1 : span[1] + 1].decode("utf-8", "replace")
        if name not in SECTION_MACROS and not names_a_test(name, arguments):
            continue
        after = span[1] + 1
        while after < len(parsed) and parsed[after] in _BLANKS:
            after += 1
        if after >= len(parsed) or parsed[after] != ord("{"):
            continue  # no block: a use docgen does not read (a declaration, a call)
        start, end = (head.start(1), span[1] + 1) if name in SECTION_MACROS else span
        out[start:end] = parsed[start:end].translate(BLANKED)
    return bytes(out)
