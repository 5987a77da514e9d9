"""Dispatch-stub calls on lines of their own, read from the text (cases from
`ATen/native/UnaryOps.h` and `ConvUtils.h` of the torch wheel)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cfamily_units import UNITS
from test_scan_cfamily import facts, inventory

from docgen.scan.cfamily.preprocess.stub_lines import stub_lines_blanked, stub_registrations

UNARY_OPS = (UNITS / "aten_dispatch_stubs/UnaryOps.h").read_text(
    encoding="utf-8"
)  # one of the data cases


def test_a_run_of_stubs_without_semicolons_is_read_whole() -> None:
    c = facts(UNARY_OPS, "ATen/native/UnaryOps.h", frozenset({"TORCH_API"}))
    assert c.error_lines == ()
    assert [(r.macro, r.name, r.line, r.end_line, r.target) for r in c.registrations] == [
        ("DECLARE_DISPATCH", "abs_stub", 5, 5, "unary_fn"),
        ("DECLARE_DISPATCH", "angle_stub", 6, 6, "unary_fn"),
        ("DECLARE_DISPATCH", "acos_stub", 7, 7, "unary_fn"),
        ("DECLARE_DISPATCH", "clamp_stub", 8, 9, "void(*)(TensorIteratorBase&, const Scalar&)"),
    ]
    # What follows the stubs keeps its name and scope; no stub is a function.
    assert ("function", "at::native::rsqrt_kernel", 11) in inventory(c)
    assert not any(d.name.endswith("_stub") for d in c.definitions)


def test_register_names_its_stub_first() -> None:
    c = facts("namespace at::native {\nREGISTER_DISPATCH(abs_stub, &abs_kernel);\n}\n")
    assert [(r.macro, r.name, r.target) for r in c.registrations] == [
        ("REGISTER_DISPATCH", "abs_stub", "&abs_kernel")
    ]


def test_blanking_keeps_every_byte_in_place_and_spans_the_semicolon() -> None:
    source = b"int a;\nDEFINE_DISPATCH(x_stub);  // note\n  REGISTER_AVX2_DISPATCH(y_stub, &k)\n"
    blanked, spans = stub_lines_blanked(source)
    assert len(blanked) == len(source)
    assert blanked.split(b"\n")[0] == b"int a;"
    assert blanked.split(b"\n")[1] == b" " * 24 + b"  // note"
    assert [source[s:e] for s, e in spans] == [
        b"DEFINE_DISPATCH(x_stub);",
        b"REGISTER_AVX2_DISPATCH(y_stub, &k)",
    ]
    assert [(r.name, r.line) for r in stub_registrations(source, spans)] == [
        ("x_stub", 2),
        ("y_stub", 3),
    ]


def test_calls_with_code_after_them_or_in_a_define_are_left_to_the_grammar() -> None:
    source = (
        b"DEFINE_DISPATCH(a_stub); int after;\n"
        b"#define DECL(name) \\\n  DECLARE_DISPATCH(fn, name)\n"
        b"x = DEFINE_DISPATCH(b_stub);\n"
        b"DECLARE_DISPATCH(unclosed, c_stub\n"
    )
    assert stub_lines_blanked(source) == (source, ())


def test_a_file_without_stubs_is_returned_as_it_is() -> None:
    source = b"void f();\n"
    assert stub_lines_blanked(source)[0] is source


LINES = st.lists(
    st.sampled_from(
        [
            b"DECLARE_DISPATCH(fn, s)",
            b"DEFINE_DISPATCH(s);",
            b"REGISTER_DISPATCH(s, &k);",
            b"DECLARE_DISPATCH(",
            b"  fn, s)",
            b"int x;",
            b"#define D DECLARE_DISPATCH(a, b)",
            b"// DEFINE_DISPATCH(c);",
            b"",
        ]
    ),
    max_size=12,
).map(b"\n".join)


@settings(max_examples=120, deadline=None)  # derandomized by the test profile
@given(LINES)
def test_blanking_keeps_length_and_lines_and_reads_each_span_once(data: bytes) -> None:
    blanked, spans = stub_lines_blanked(data)
    assert len(blanked) == len(data)
    assert blanked.count(b"\n") == data.count(b"\n")
    for start, end in spans:
        assert blanked[start:end].strip() == b""
        assert b"DISPATCH(" in data[start:end]
    assert len(stub_registrations(data, spans)) == len(spans)
