"""Macros that make a string of their arguments (PyTorch's `jiterator_stringify`): what
they are given is no code, so no name of the file, and parses as nothing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_scan_cfamily import inventory

from docgen.scan.cfamily.preprocess.blanking import neutralise
from docgen.scan.cfamily.preprocess.macro_def import table_of
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros import attribute_macros, macro_defs
from docgen.scan.cfamily.preprocess.source import Calls
from docgen.scan.cfamily.preprocess.string_macros import string_macros, stringizes
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

DEFINES = """\
#define jiterator_stringify(...) std::string(#__VA_ARGS__);
#define STR(x) #x
#define TWO(a, b) "(" #a ", " #b ")"
#define PRAGMA(x) _Pragma(#x)
#if defined(STRIP_ERROR_MESSAGES)
#define CHECK_MSG(cond, ...) (#cond " failed")
#else
#define CHECK_MSG(cond, ...) (check_impl("Expected " #cond, ##__VA_ARGS__))
#endif
#define CALLS(x) call(#x, x)
#define QUIET(...) ((void)0)
"""


def test_stringizing_is_told_from_a_body_and_its_parameters() -> None:
    assert stringizes(" std::string(#__VA_ARGS__);", ["..."]) == 1
    assert stringizes(' "(" #a ", " # b ")"', ["a", "b"]) == 1
    assert stringizes(" call(#x, x)", ["x"]) == -1  # also used as code
    assert stringizes(" check(#c, ##__VA_ARGS__)", ["c", "..."]) == -1  # pasted: code
    assert stringizes(" x ## y", ["x", "y"]) == 0
    assert stringizes(" ((void)0)", ["..."]) == 0
    assert stringizes(" #args", ["args..."]) == 1  # GNU's named variadic parameter


def test_only_macros_every_reading_of_which_stringizes_are_learned() -> None:
    defs = macro_defs(DEFINES.encode())
    attributes = attribute_macros(defs)
    assert "PRAGMA()" in attributes  # a pragma leaves no code: blanked whole, as before
    # CHECK_MSG uses its arguments as code in the other branch; CALLS in its one body
    assert string_macros(defs, attributes) == ("STR", "TWO", "jiterator_stringify")
    settings = ScanSettings.learned(defs, "cpp")
    assert settings.named("string") == ("STR", "TWO", "jiterator_stringify")
    assert ScanSettings.from_json(settings.to_json()) == settings
    assert settings.key() != ScanSettings.learned(macro_defs(b"#define Q 1\n"), "cpp").key()


MATH = """\
#define jiterator_stringify(...) std::string(#__VA_ARGS__);
namespace at::native {
const auto gcd_string = jiterator_stringify(
  template <typename T>
  T gcd(const T a_in, const T b_in) {
    T a = ::abs(a_in); // "(" in a comment
    while (a != T{0}) { cudaDeviceSynchronize(); }
    return b;
  }
); // gcd_string

template <typename scalar_t>
static inline C10_HOST_DEVICE scalar_t calc_gcd(scalar_t a_in, scalar_t b_in) {
  return a_in;
}
}  // namespace at::native
"""


def test_the_arguments_of_a_stringizing_macro_hold_no_name_and_no_error() -> None:
    data = MATH.encode()
    c = scan("Math.cuh", data, ScanSettings.learned(macro_defs(data), "cpp")).cfamily
    assert c is not None and c.error_lines == ()
    assert {(kind, name) for kind, name, _ in inventory(c)} == {
        ("macro", "jiterator_stringify"),
        ("namespace", "at"),
        ("namespace", "at::native"),
        ("function", "at::native::calc_gcd"),
    }
    assert c.gpu_calls == ()  # a CUDA call in a string is no evidence
    # the macro is called as written: of it nothing is blanked but its arguments
    assert c.neutralised == ("C10_HOST_DEVICE",)


def test_only_the_arguments_are_blanked_offsets_and_lines_kept() -> None:
    table = MacroTable.of(table_of(string=["STR"]))
    data = b'auto s = STR(a, (b), ")");\nint x;\n#define Y STR(z)\n'
    blanked = neutralise(data, table)
    arguments = b'a, (b), ")"'
    assert blanked.data == data.replace(arguments, b" " * len(arguments), 1)
    assert blanked.spans == () and blanked.names == ()


def test_arguments_paired_across_directives_or_unclosed_are_left_alone() -> None:
    table = MacroTable.of(table_of(string=["STR"]))
    for data in (
        b"auto s = STR(a\n#if X\n, b\n#endif\n);\n",
        b"auto s = STR(a;\nint x;\n",
        b"auto s = STR;\n",
    ):
        assert neutralise(data, table).data == data


@given(st.text(alphabet="()\"'/*\n ab#", max_size=60))
def test_arguments_found_lie_inside_the_call_and_close_it(text: str) -> None:
    data = ("f(" + text).encode()
    inside = Calls(data).arguments(1)
    if inside is not None:
        start, close = inside
        assert start == 2 and data[close : close + 1] == b")" and close <= len(data)
