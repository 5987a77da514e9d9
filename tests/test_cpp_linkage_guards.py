"""`extern "C" {` opened and closed in `#ifdef __cplusplus` blocks of their own (the
guard of nearly every C header written for C++ too: protobuf's `stubs/port.h`,
cpuinfo, dnnl, dlpack in the torch wheel)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cfamily_units import UNITS
from test_scan_cfamily import facts, inventory

from docgen.scan.cfamily.preprocess.conditionals import linkage_guards_blanked

PORT = (UNITS / "protobuf_linkage_guard/port.h").read_text(
    encoding="utf-8"
)  # one of the data cases


def test_the_guarded_linkage_keeps_the_scopes_around_it() -> None:
    c = facts(PORT, "google/protobuf/stubs/port.h")
    assert c.error_lines == ()
    assert inventory(c) >= {
        ("namespace", "google::protobuf", 2),
        ("function", "google::protobuf::__sanitizer_unaligned_load16", 7),
        ("class", "google::protobuf::Bits", 12),
        ("method", "google::protobuf::Bits::Log2FloorNonZero", 14),
    }


def test_only_the_braces_of_the_linkage_are_blanked() -> None:
    source = (
        b'#if defined(__cplusplus)\nextern "C" {\n#endif\nint f(void);\n'
        b"#ifdef __cplusplus\n}\n#endif\n"
    )
    blanked = linkage_guards_blanked(source)
    assert blanked == source.replace(b'extern "C" {', b" " * 12).replace(b"\n}\n", b"\n \n")


def test_an_opening_without_its_closing_is_left_alone() -> None:
    source = b'#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n'
    assert linkage_guards_blanked(source) is source
    # A closing before its opening pairs nothing either.
    swapped = b'#ifdef __cplusplus\n}\n#endif\n#ifdef __cplusplus\nextern "C" {\n#endif\n'
    assert linkage_guards_blanked(swapped) is swapped


EVAL_FRAME = """\
#ifdef __cplusplus

extern "C" {

#endif

PyObject* torch_c_dynamo_eval_frame_init(void);

#ifdef __cplusplus

} // extern "C"

#endif
"""


def test_blank_lines_inside_the_guards_are_no_obstacle() -> None:
    c = facts(EVAL_FRAME, "torch/csrc/dynamo/eval_frame.h")
    assert c.error_lines == ()
    assert ("function", "torch_c_dynamo_eval_frame_init", 7) in inventory(c)


def test_declarations_after_the_opening_in_its_guard_stay_and_are_read() -> None:
    """torch's `dynamo/eval_frame.h` declares its first function inside the guard that
    opens the linkage: only the braces are blanked, the declaration is read."""
    source = EVAL_FRAME.replace(
        'extern "C" {\n\n#endif\n\nPyObject* torch_c_dynamo_eval_frame_init(void);\n',
        'extern "C" {\n\nPyObject* torch_c_dynamo_eval_frame_init(void);\n\n#endif\n',
    )
    assert source != EVAL_FRAME
    c = facts(source, "torch/csrc/dynamo/eval_frame.h")
    assert c.error_lines == ()
    assert ("function", "torch_c_dynamo_eval_frame_init", 5) in inventory(c)
    blanked = linkage_guards_blanked(source.encode())
    assert b"PyObject* torch_c_dynamo_eval_frame_init(void);" in blanked
    assert b'extern "C" {' not in blanked and b"}" not in blanked


def test_a_brace_or_a_directive_after_the_opening_leaves_the_guards_alone() -> None:
    """A struct opened in the same guard, or a `#define` there, is more than a linkage."""
    closing = b'#ifdef __cplusplus\n} // extern "C"\n#endif\n'
    for inside in (b"struct S {\n", b"#define X 1\n"):
        source = b'#ifdef __cplusplus\nextern "C" {\n' + inside + b"#endif\n" + closing
        assert linkage_guards_blanked(source) is source


def test_a_guard_of_another_condition_is_read_when_both_braces_share_it() -> None:
    mobile = 'namespace nnc {\n#ifdef C10_MOBILE\nextern "C" {\n#endif\nvoid f();\n'
    closing = '#ifdef C10_MOBILE\n} // extern "C"\n#endif\n} // namespace nnc\n'
    c = facts(mobile + closing, "external_functions.h")
    assert c.error_lines == ()
    assert ("function", "nnc::f", 5) in inventory(c)
    # Under different conditions, one brace may be there without the other: left alone.
    other = (mobile + closing).replace("#ifdef C10_MOBILE\n}", "#ifdef C10_OTHER\n}").encode()
    assert linkage_guards_blanked(other) is other


def test_a_c_header_reads_the_same() -> None:
    source = PORT.split("class Bits")[0].replace("namespace google {\nnamespace protobuf {\n", "")
    c = facts(source, "port.h")
    assert ("function", "__sanitizer_unaligned_load16", 5) in inventory(c)


#: guards, the braces alone and other code, in any order and number
PIECES = (
    b'#ifdef __cplusplus\nextern "C" {\n#endif\n',
    b"#ifdef __cplusplus\n} // extern\n#endif\n",
    b'#if defined(__cplusplus)\n\nextern "C" {\n// C linkage\n#endif\n',
    b"#ifdef X\n}\n\n#endif\n",
    b"int f(void);\n",
    b"#ifdef __cplusplus\nint g();\n#endif\n",
    b'#ifdef __cplusplus\nextern "C" {\nint h(void);\n#endif\n',
    b"}\n",
)


@settings(max_examples=120, deadline=None)  # derandomized by the test profile
@given(st.lists(st.sampled_from(PIECES), max_size=10).map(b"".join))
def test_blanking_keeps_every_byte_in_place_and_pairs_openings_with_closings(data: bytes) -> None:
    blanked = linkage_guards_blanked(data)
    assert len(blanked) == len(data)
    assert blanked.count(b"\n") == data.count(b"\n")
    changed = [i for i, (a, b) in enumerate(zip(data, blanked, strict=True)) if a != b]
    assert all(blanked[i] == ord(" ") for i in changed)
    if changed:  # as many `{` as `}` blanked: the braces still balance
        assert sum(data[i] == ord("{") for i in changed) == sum(
            data[i] == ord("}") for i in changed
        )
