"""Properties of the C-family scanner on generated and arbitrary input.

It never raises; no name is a keyword, a blanked macro or empty; every line
is inside the file; blanking never moves a byte.
"""

from __future__ import annotations

import re

import tree_sitter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.scan.cfamily.preprocess.blanking import neutralise
from docgen.scan.cfamily.preprocess.conditionals import directive_comments_blanked, first_branches
from docgen.scan.cfamily.preprocess.macro_def import table_of
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros import _DEFINE
from docgen.scan.cfamily.preprocess.source import LinePattern, directives_matching
from docgen.scan.cfamily.scanner import language, scan
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.cfamily.source import KEYWORDS

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

FRAGMENTS = st.sampled_from(
    [
        "namespace a {",
        "namespace a::b {",
        "namespace {",
        "}",
        "};",
        "class TORCH_API Foo : public Bar {",
        "struct C10_API S {",
        "template <typename T>",
        "public:",
        "Foo();",
        "~Foo();",
        "void m() const;",
        "int x = 1;",
        "static int s;",
        "bool operator==(const Foo&) const;",
        "void Foo::m() const { while (x) { if (y) break; } }",
        "Foo::Foo() : x(1) {}",
        "TORCH_API void f(int a);",
        "C10_HOST_DEVICE inline int g() { return 1; }",
        "__global__ void k(float* p) { p[0] = 0; }",
        "void run() { k<<<1, 2>>>(p); cudaMalloc(&p, 4); }",
        'TORCH_LIBRARY(aten, m) { m.def("add(Tensor a) -> Tensor"); }',
        "REGISTER_DISPATCH(add_stub, &add_kernel);",
        "TEST(Suite, Case) { EXPECT_TRUE(true); }",
        "#define MAX(a, b) ((a) > (b) ? (a) : (b))",
        '#include "x/y.h"',
        "#include <vector>",
        "#if defined(FOO)",
        "#endif",
        "/// doc comment for class while",
        "// class for if while",
        '"class NotAClass {};"',
        "typedef struct { int a; } anon_t;",
        "using X = std::vector<int>;",
        "enum class E : int { A, B };",
        'extern "C" {',
        "C10_LAUNCH_BOUNDS_1(128)",
        "(((",
        ")))",
        "#define CHECK(x) \\\n  do { /* note */ \\\n  } while (0)",
        '#define PATTERN "/*" \\\n  "*/"',
        'WRAP(int w(int a), "hint (a, b)");',
        "WRAP(",
        "namespace a::inline b {",
    ]
)
SOURCES = st.lists(FRAGMENTS, max_size=25).map("\n".join)


#: `WRAP(declaration, hint)` keeps its first argument (see `cpp_macros.wrapper_macros`)
WRAPPING = ScanSettings.of("cpp", wrapper=[("WRAP()", 1)])


def check(path: str, data: bytes) -> None:
    result = scan(path, data, WRAPPING)
    c = result.cfamily
    assert c is not None
    for d in c.definitions:
        assert d.name and d.name not in KEYWORDS, d
        assert d.name not in c.neutralised or d.kind == "macro", d
        assert 1 <= d.line <= max(result.line_count, 1), d
        assert d.line <= d.end_line
    for inc in c.includes:
        assert 1 <= inc.line <= result.line_count


@SETTINGS
@given(SOURCES, st.sampled_from(["x.cpp", "x.h", "x.cu", "x.c"]))
def test_fragments_never_raise_and_names_are_true(source: str, path: str) -> None:
    check(path, source.encode())


@SETTINGS
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    check("x.cpp", data.replace(b"\0", b" "))


@SETTINGS
@given(SOURCES)
def test_blanking_keeps_length_and_lines(source: str) -> None:
    data = source.encode()
    blanked = neutralise(
        data, MacroTable.of(table_of(attribute={"FOO_API", "BAR()"}, wrapper=[("WRAP()", 1)]))
    )
    assert len(blanked.data) == len(data)
    assert blanked.data.count(b"\n") == data.count(b"\n")
    for start, end, _ in blanked.spans:
        assert blanked.data[start:end].strip() == b""


def test_deep_nesting_costs_nothing_but_time() -> None:
    depth = 5000
    source = "void f() {" + "{" * depth + "}" * depth + "}\n" + "namespace n {" * 300 + "}" * 300
    check("deep.cpp", source.encode())


BRANCHY = st.lists(
    st.one_of(FRAGMENTS, st.sampled_from(["#else", "#elif X", "#ifdef Y", "#  endif"])),
    max_size=30,
).map("\n".join)


@SETTINGS
@given(BRANCHY)
def test_first_branches_reread_equals_a_fresh_parse(source: str) -> None:
    """The retry reads again only the blanked lines; the tree must be the one a fresh
    parse of the same bytes gives."""
    data = source.encode()
    parser = tree_sitter.Parser(language("cpp"))
    tree = parser.parse(data)
    retry, changed = first_branches(data)
    assert len(retry) == len(data)
    for row, start, end in changed:
        assert retry[start:end].strip() == b""
        assert data.count(b"\n", 0, start) == row
        width = end - start
        tree.edit(start, end, end, (row, 0), (row, width), (row, width))
    assert str(parser.parse(retry, tree).root_node) == str(parser.parse(retry).root_node)


#: what `directives_matching(_DEFINE, ...)` must find: directives from the start of a line
_LINE_DEFINE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?((?:[^\n]*\\\r?\n)*[^\n]*)", re.MULTILINE
)
_BLANKS = st.sampled_from([b"", b" ", b"\t", b"  \t"])
_DEFINE_LINES = st.one_of(
    st.tuples(
        st.sampled_from([b"", b"int a; ", b"// ", b"x"]),  # only blanks make a directive
        _BLANKS,
        st.sampled_from([b"#", b"# ", b"#\t"]),
        st.sampled_from([b"define", b"defin", b"undef"]),
        st.sampled_from([b" ", b"\t", b""]),
        st.sampled_from([b"A", b"x_1", b"_B(", b"9"]),
        st.sampled_from([b"", b" __attribute__((x))", b" a \\", b" \\\r", b"#define C"]),
    ).map(b"".join),
    st.sampled_from([b"", b"int f();", b"\\", b"#if X"]),
)


@given(st.lists(_DEFINE_LINES, max_size=8).map(b"\n".join))
def test_defines_are_the_directives_a_line_anchored_search_finds(data: bytes) -> None:
    expected = []
    for match in _LINE_DEFINE.finditer(data):
        hash_at = match.start() + match.group(0).index(b"#")  # the match starts at the `#`
        expected.append(((hash_at, match.end()), match.groups()))
    found = directives_matching(_DEFINE, data)
    assert [(m.span(), m.groups()) for m in found] == expected


#: patterns of the scanner written without `^`, each read from the start of a line
_LINE_BODIES = (
    rb"[ \t]*#",
    rb"[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9])[ \t]*(?://[^\n]*)?(?=\r?(?:\n|\Z))",
    rb"[ \t]*([A-Z][A-Z0-9_]*[A-Z0-9_])[ \t]*\(",
    rb"[ \t]*#[ \t]*(?:elif|else)\b",
)
_LINE_TEXT = st.lists(
    st.sampled_from([b"", b" ", b"\t", b"#", b"# else", b"AB", b"C_D", b"(", b"x", b"//c", b"\r"]),
    max_size=24,
).map(b"".join)


@given(st.lists(_LINE_TEXT, max_size=6).map(b"\n".join), st.sampled_from(_LINE_BODIES))
def test_a_line_pattern_finds_what_a_multiline_anchor_finds(data: bytes, body: bytes) -> None:
    anchored = re.compile(b"^" + body.replace(rb"(?=\r?(?:\n|\Z))", rb"(?=\r?$)"), re.MULTILINE)
    expected = [(m.start(), m.end(), m.groups()) for m in anchored.finditer(data)]
    pattern = LinePattern(body)
    found = [(pattern.line_start(m), m.end(), m.groups()) for m in pattern.finditer(data)]
    assert found == expected
    first = pattern.search(data)
    assert (first and pattern.line_start(first)) == (expected[0][0] if expected else None)


_DIRECTIVE_PIECES = st.sampled_from(
    [
        b"#define A(x) \\\n",
        b"#define B 1\n",
        b"  x /* c */ \\\n",
        b"/* a \\\n b */",
        b'"/*"',
        b"'/'",
        b"\\\r\n",
        b"// x \\\n",
        b"int y; /* z */\n",
        b"\n",
        b"*/",
        b"/*",
        b"y = 1; #define C \\\n",
    ]
)


@SETTINGS
@given(st.lists(_DIRECTIVE_PIECES, max_size=20).map(b"".join))
def test_comment_blanking_keeps_lines_splices_and_code(data: bytes) -> None:
    blanked = directive_comments_blanked(data)
    assert len(blanked) == len(data)
    for i, (before, after) in enumerate(zip(data, blanked, strict=True)):
        if before != after:  # only ever blanked, and never a line end or a splice
            assert after == ord(" ") and before not in b"\r\n", (i, data)
            assert not data.startswith(b"\\\n", i) and not data.startswith(b"\\\r\n", i)
    # what lies outside a continued #define is never touched
    first = data.find(b"#define")
    assert blanked[: max(first, 0)] == data[: max(first, 0)]
