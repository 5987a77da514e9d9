"""Conditionals the grammars cannot read as written: `#if 0` branches, code commented
out for the preprocessor, which no build compiles (curl's test servers, CUTLASS, folly,
torch's `c10/core/TensorImpl.h`): none of its names, macros or includes exist, and it is
often no longer valid code; and conditionals inside parentheses (torch's
`DispatchStub.h`), read with every branch."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cfamily_units import UNITS
from test_scan_cfamily import facts, inventory

from docgen.scan.cfamily.preprocess.conditionals import (
    disabled_branches_blanked,
    null_directives_blanked,
    parenthesized_conditionals_blanked,
)
from docgen.scan.cfamily.preprocess.macros import macro_defs

DNSD = (UNITS / "disabled_branches/dnsd.c").read_text(encoding="utf-8")


def test_no_name_of_an_if_0_branch_is_listed_and_the_other_branches_are() -> None:
    c = facts(DNSD, "tests/server/dnsd.c")
    names = {name for _, name, _ in inventory(c)}
    assert "old_dump" not in names
    assert "HTTPS_RR_CODE_MANDATORY" not in names
    assert "trace" not in names
    assert {"HTTPS_RR_CODE_ALPN", "trace_on", "trace_off", "main"} <= names
    assert [i.target for i in c.includes] == ["stdio.h"]
    assert c.error_lines == ()  # the unfinished `old_dump` head was a syntax error


def test_a_branch_with_conditionals_inside_ends_at_its_own_endif() -> None:
    source = b"#if 0\n#ifdef X\nint a;\n#else\nint b;\n#endif\nint c;\n#endif\nint d;\n"
    blanked = disabled_branches_blanked(source)
    assert blanked.split(b"\n")[1:7] == [b" " * len(line) for line in source.split(b"\n")[1:7]]
    assert blanked.endswith(b"#endif\nint d;\n")


def test_other_conditions_and_unclosed_branches_are_left_as_written() -> None:
    for source in (
        b"#if 0 && defined(X)\nint a;\n#endif\n",
        b"#if 01\nint a;\n#endif\n",
        b"#ifdef ZERO\nint a;\n#endif\n",
        b"/*\n#if 0\nint a;\n*/\n",  # no #endif follows: not taken for a branch
        b"int x = 0; // #if 0\nint a;\n#endif\n",  # not first on its line
    ):
        assert disabled_branches_blanked(source) == source


def test_a_macro_defined_only_in_an_if_0_branch_is_never_learned() -> None:
    source = b"#if 0\n#define OLD_API __attribute__((visibility))\n#endif\n#define NEW_API\n"
    assert [d.name for d in macro_defs(source)] == ["NEW_API"]


def blanked_lines(lines: list[str]) -> set[int]:
    """The lines the preprocessor skips as part of an `#if 0` branch (its directives
    included), by a line-by-line model; an `#if 0` never closed skips nothing."""
    skipped: set[int] = set()
    i = 0
    while i < len(lines):
        if lines[i].startswith("#if 0"):
            depth, j = 0, i + 1
            while j < len(lines):
                word = lines[j].split(" ")[0]
                if word.startswith("#if"):
                    depth += 1
                elif word in ("#else", "#elif", "#endif") and depth == 0:
                    break
                elif word == "#endif":
                    depth -= 1
                j += 1
            if j < len(lines):
                skipped.update(range(i + 1, j))
                i = j
                continue
        i += 1
    return skipped


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["#if 0", "#if 0 // x", "#ifdef A", "#if B", "#else", "#elif C", "#endif", "int a;", ""]
        ),
        max_size=14,
    ),
    st.sampled_from(["\n", "\r\n"]),
)
def test_the_lines_of_if_0_branches_turn_to_spaces_and_nothing_else_changes(
    lines: list[str], newline: str
) -> None:
    source = newline.join(lines).encode()
    blanked = disabled_branches_blanked(source)
    assert len(blanked) == len(source)
    skipped = blanked_lines(lines)
    for i, (before, after) in enumerate(
        zip(source.split(b"\n"), blanked.split(b"\n"), strict=True)
    ):
        expected = before.rstrip(b"\r")
        if i in skipped:
            expected = b" " * len(expected)
        assert after == expected + (b"\r" if before.endswith(b"\r") else b"")


DISPATCH_STUB = """\
struct DispatchStubImpl {
  void* try_get_call_ptr(
      int device_type
      , void *DEFAULT
#ifdef HAVE_AVX512_CPU_DEFINITION
      , void *AVX512
#else
      , void *AVX512_FALLBACK
#endif
#ifdef HAVE_AVX2_CPU_DEFINITION
      , void *AVX2
#endif
  );
#ifdef USE_CUDA
  void* cuda_dispatch_ptr = nullptr;
#else
  void* other_ptr = nullptr;
#endif
};
"""


def test_conditionals_inside_parentheses_are_read_with_every_branch() -> None:
    c = facts(DISPATCH_STUB, "ATen/native/DispatchStub.h")
    assert c.error_lines == ()
    assert {
        ("struct", "DispatchStubImpl", 1),
        ("method", "DispatchStubImpl::try_get_call_ptr", 2),
        ("field", "DispatchStubImpl::cuda_dispatch_ptr", 15),
    } <= inventory(c)


def test_only_the_conditional_lines_inside_parentheses_are_blanked() -> None:
    blanked = parenthesized_conditionals_blanked(DISPATCH_STUB.encode())
    source = DISPATCH_STUB.encode().split(b"\n")
    for before, after in zip(source, blanked.split(b"\n"), strict=True):
        assert after in (before, b" " * len(before))
    lines = blanked.split(b"\n")
    assert lines[4].strip() == lines[6].strip() == lines[8].strip() == b""  # in the call
    assert lines[13] == b"#ifdef USE_CUDA" and lines[15] == b"#else"  # outside: kept
    # parentheses in comments, literals and directives count for nothing
    source = b"#if defined(A) // (\nint f(char c = '(', const char* s = \")(\");\n#endif\n"
    assert parenthesized_conditionals_blanked(source) is source


def test_null_directives_are_blanked_and_nothing_else() -> None:
    # fast_float.h (redis) separates its directives with a `#` alone: each was an error
    source = b"#\n#ifndef X\n#define X 0\n#endif\n  #  // gap\n# /* gap */\nint after;\n#"
    assert null_directives_blanked(source) == (
        b" \n#ifndef X\n#define X 0\n#endif\n     // gap\n  /* gap */\nint after;\n "
    )
    for kept in (b"#\\\ndefine B 1\n", b"int a; # x\n", b"#define Y\n", b'"#"\n'):
        assert null_directives_blanked(kept) == kept
    c = facts(source.decode(), "fast_float.h")
    assert c.error_lines == ()
    assert {(d.kind, d.name) for d in c.definitions} == {("macro", "X")}
