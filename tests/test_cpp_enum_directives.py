"""`#define` and `#undef` among an enum's enumerators (X-macros: torch's `ivalue.h`,
`DispatchKey.h`, `lexer.h`; curl's `curl.h`, CUTLASS's `floating_point_nvrtc.h`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cfamily_units import UNITS
from test_scan_cfamily import facts, inventory

from docgen.scan.cfamily.preprocess.enum_directives import directives_alone, enum_directives_blanked

IVALUE = (UNITS / "enum_x_macros/ivalue.h").read_text(encoding="utf-8")


def test_the_enum_reads_without_errors_and_its_macro_is_listed_in_place() -> None:
    c = facts(IVALUE, "ATen/core/ivalue.h")
    assert c.error_lines == ()
    assert [(d.kind, d.qualname, d.line) for d in c.definitions] == [
        ("namespace", "c10", 1),
        ("struct", "c10::IValue", 2),
        ("enum", "c10::IValue::Tag", 3),
        ("macro", "DEFINE_TAG", 4),
        ("method", "c10::IValue::isNone", 8),
    ]
    assert next(d for d in c.definitions if d.kind == "macro").declaration == (
        "#define DEFINE_TAG(x)"
    )


def test_an_enumerator_s_value_defined_between_its_lines() -> None:
    source = "namespace cutlass {\nenum {\n  FP_NAN =\n# define FP_NAN 0\n    FP_NAN,\n};\n"
    source += "int fpclassify(float const& f) { return 0; }\n}\n"
    c = facts(source, "floating_point_nvrtc.h")
    assert ("function", "cutlass::fpclassify", 7) in inventory(c)
    assert ("macro", "FP_NAN", 4) in inventory(c)


def test_directives_outside_enum_bodies_stay_where_they_are() -> None:
    source = b"#define A 1\nenum E { X };\n#undef A\nstruct S {\n#define B 2\n};\n"
    assert enum_directives_blanked(source) == (source, ())


#: enum heads and ends, enumerators, directives (one continued) and other lines
LINES = (b"enum E {", b"enum class F : int {", b"};", b"  A,", b"#define M(x) x,", b"#undef M")
LINES += (b"#define N \\", b"  2", b"// enum G {", b"int f();")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(LINES),
        max_size=12,
    )
)
def test_the_directives_taken_out_go_back_in_place_and_nothing_else_moves(
    lines: list[bytes],
) -> None:
    source = b"\n".join(lines) + b"\n"
    parsed, taken = enum_directives_blanked(source)
    assert len(parsed) == len(source) and parsed.count(b"\n") == source.count(b"\n")
    for start, text in taken:
        assert source[start : start + len(text)] == text
        assert text.lstrip().startswith(b"#")
    restored = bytearray(parsed)
    for start, text in taken:
        restored[start : start + len(text)] = text
    assert bytes(restored) == source
    alone = directives_alone(parsed, taken)
    assert len(alone) == len(source)
    assert all(alone[i] in (source[i], ord(" ")) for i in range(len(source)))
