"""Macro uses the tree does not define: a macro call given a value in a class body
(`TORCH_ARG(size_t, batch_size) = 1;` in torch's C++ options classes), and attribute
macros shown by where they stand (generated flatbuffers and protobuf headers, CUTLASS)."""

from __future__ import annotations

from test_scan_cfamily import by_qualname, facts, inventory

from docgen.scan.cfamily.preprocess.blanking import lone_macros_blanked
from docgen.scan.cfamily.preprocess.macros_in_use import macros_in_use

OPTIONS = """\
namespace torch::optim {
struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(bool, amsgrad) = false;
  TORCH_ARG(std::optional<size_t>, max_jobs);
  double get_lr() const override;
};
} // namespace torch::optim
"""


def test_options_classes_keep_their_scope_and_no_macro_is_a_method() -> None:
    c = facts(OPTIONS, "torch/optim/adam.h", frozenset({"TORCH_API"}))
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "torch", 1),
        ("namespace", "torch::optim", 1),
        ("struct", "torch::optim::AdamOptions", 2),
        ("constructor", "torch::optim::AdamOptions::AdamOptions", 3),
        ("typedef", "torch::optim::AdamOptions::betas_t", 5),
        ("method", "torch::optim::AdamOptions::get_lr", 9),
    }
    assert "TORCH_ARG" in c.neutralised


def test_the_call_and_its_value_are_blanked_to_the_semicolon() -> None:
    source = b"  TORCH_ARG(double, lr) = 1e-3;  // rate\n  bool same = A(x) == B(y);\n"
    blanked, names = lone_macros_blanked(source)
    assert blanked == b" " * 31 + b"  // rate\n  bool same = A(x) == B(y);\n"
    assert names == frozenset({"TORCH_ARG"})


def test_after_a_macro_call_line_a_value_on_the_next_lines_is_blanked_too() -> None:
    """torch's `nn/options/loss.h` (43 syntax errors): the first `TORCH_ARG` follows a
    line ending in `)`, so it stood where an attribute of that line's declaration
    would; and a value may go on to the next line."""
    source = (
        "struct TORCH_API L1LossOptions {\n"
        "  TORCH_OPTIONS_CTOR_VARIANT_ARG3(L1LossOptions, reduction, kNone, kMean, kSum)\n"
        "\n"
        "  TORCH_ARG(reduction_t, reduction) = torch::kMean;\n"
        "  TORCH_ARG(std::optional<distance_function_t>, distance_function) =\n"
        "      std::nullopt;\n"
        "  double margin() const;\n"
        "};\n"
    )
    c = facts(source, "torch/nn/options/loss.h", frozenset({"TORCH_API"}))
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "L1LossOptions", 1),
        ("method", "L1LossOptions::margin", 7),
    }
    # an attribute on the line after a declaration is still one (`= 0;` a pure virtual)
    annotated = (
        b"virtual void f()\n    EXCLUSIVE(mu) = 0;\nvoid g(int x)\n    LOCKS_EXCLUDED(mu_);\n"
    )
    assert macros_in_use(annotated) == {"EXCLUSIVE", "LOCKS_EXCLUDED"}


def test_a_comparison_or_a_call_with_code_after_it_is_no_such_use() -> None:
    source = b"FOO(x) == 1;\nBAR(y) = 2; int z;\n"
    assert lone_macros_blanked(source) == (source, frozenset())


def test_attribute_macros_shown_by_where_they_stand() -> None:
    source = b"""\
enum FlatBuffersVTableOffset FLATBUFFERS_VTABLE_UNDERLYING_TYPE {
  static cutlass::MatrixCoord CUTLASS_DEVICE get_lane_offset(int lane);
  PROTOBUF_ALWAYS_INLINE bool MaybeAllocateAligned(size_t n, void** out) {
CUTLASS_DEVICE static void invoke(Args&&... args) {
"""
    assert macros_in_use(source) == {
        "FLATBUFFERS_VTABLE_UNDERLYING_TYPE",
        "CUTLASS_DEVICE",
        "PROTOBUF_ALWAYS_INLINE",
    }


def test_an_upper_case_type_is_no_attribute() -> None:
    # The type itself, or a calling convention after a Windows type, is not taken.
    source = b"const MY_TYPE value(42);\nDWORD WINAPI ThreadProc(void* p);\nstatic INT64 f(int);\n"
    assert macros_in_use(source) == set()


def test_a_generated_flatbuffers_enum_and_its_values_are_read() -> None:
    c = facts(
        "namespace torch::jit::mobile::serialization {\n"
        "enum FlatBuffersVTableOffset FLATBUFFERS_VTABLE_UNDERLYING_TYPE {\n"
        "  VT_QSCHEME = 4,\n  VT_SCALE = 6\n};\n}\n",
        "mobile_bytecode_generated.h",
    )
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "torch", 1),
        ("namespace", "torch::jit", 1),
        ("namespace", "torch::jit::mobile", 1),
        ("namespace", "torch::jit::mobile::serialization", 1),
        ("enum", "torch::jit::mobile::serialization::FlatBuffersVTableOffset", 2),
        ("enumerator", "torch::jit::mobile::serialization::FlatBuffersVTableOffset::VT_QSCHEME", 3),
        ("enumerator", "torch::jit::mobile::serialization::FlatBuffersVTableOffset::VT_SCALE", 4),
    }


def test_an_attribute_call_after_an_array_declarator_takes_its_arguments_along() -> None:
    c = facts(
        "struct PROTOBUF_EXPORT TableStruct {\n"
        "  static const ParseTableField entries[]\n"
        "    PROTOBUF_SECTION_VARIABLE(protodesc_cold);\n"
        "  static const uint32_t offsets[] PROTOBUF_SECTION_VARIABLE(protodesc_cold);\n"
        "};\n",
        "any.pb.h",
    )
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "TableStruct", 1),
        ("field", "TableStruct::entries", 2),
        ("field", "TableStruct::offsets", 4),
    }


def test_a_variable_with_an_upper_case_name_and_comments_are_no_macros() -> None:
    source = b"""\
Lexer LC(cie_data);
// constexpr variable if we aren't on MSVC (see the docs)
/* struct instead of using here to help MSVC: */
"""
    assert macros_in_use(source) == set()


def test_an_attribute_call_in_a_class_head_goes_with_its_arguments() -> None:
    c = facts(
        "namespace google::protobuf {\n"
        "class PROTOBUF_EXPORT PROTOBUF_ALIGNAS(8) Arena final {\n"
        " public:\n  Arena();\n  void* hooks_cookie_;\n};\n}\n",
        "google/protobuf/arena.h",
    )
    assert c.error_lines == ()
    arena = by_qualname(c, "google::protobuf::Arena")
    assert (arena.kind, arena.line, arena.attributes) == (
        "class",
        2,
        ("PROTOBUF_EXPORT", "PROTOBUF_ALIGNAS(8)"),
    )
    assert ("field", "google::protobuf::Arena::hooks_cookie_", 5) in inventory(c)


ZSTD_STYLE = """\
#define FORCE_INLINE_TEMPLATE static inline
typedef unsigned U32;
FORCE_INLINE_TEMPLATE U32
row_width(const U32 entries)
{
    return entries;
}
template <typename DST_T>
TORCH_API DST_T
requantize(double multiplier);
"""


def test_a_word_left_alone_on_its_line_by_a_blanked_macro_is_no_macro() -> None:
    # the return type of a function whose name starts the next line, after an attribute
    # macro: blanked as a lone macro, it took the function with it (zstd's `zstd_lazy.c`)
    c = facts(ZSTD_STYLE, "lazy.cpp", frozenset({"FORCE_INLINE_TEMPLATE", "TORCH_API"}))
    assert c.error_lines == ()
    assert (
        by_qualname(c, "row_width").declaration
        == "FORCE_INLINE_TEMPLATE U32 row_width(const U32 entries)"
    )
    assert (
        by_qualname(c, "requantize").declaration == "TORCH_API DST_T requantize(double multiplier)"
    )
    blanked, names = lone_macros_blanked(b"  U32\nFOO\n", b"A U32\nFOO\n")
    assert (blanked, names) == (b"  U32\n   \n", frozenset({"FOO"}))


def test_a_python_object_head_is_a_lone_macro_and_its_fields_keep_their_names() -> None:
    # torch/csrc/Device.h: the field after `PyObject_HEAD` had been listed as `at`
    source = "struct TORCH_API THPDevice {\n  PyObject_HEAD\n  at::Device device;\n};\n"
    c = facts(source, "torch/csrc/Device.h", frozenset({"TORCH_API"}))
    assert c.error_lines == ()
    assert inventory(c) == {("struct", "THPDevice", 1), ("field", "THPDevice::device", 3)}
    assert "PyObject_HEAD" in c.neutralised


def test_after_an_empty_line_nothing_goes_on_with_a_lone_call() -> None:
    # ATen/autocast_mode.h: a table macro applied at file scope, then a declaration
    # that starts with `const`, which had read as the call's qualifier
    source = b"AT_FORALL_BACKENDS(DECLARE_APIS)\n\nconst int devices{1};\n"
    assert lone_macros_blanked(source) == (
        b" " * 32 + source[32:],
        frozenset({"AT_FORALL_BACKENDS"}),
    )
    going_on = b"DECLARE_METHOD(f)\nconst;\n"
    assert lone_macros_blanked(going_on) == (going_on, frozenset())


HELPER = """\
#define binop_helper(op, name) \\
  inline float name(half a, float b) { return float(a) op b; }

binop_helper(+, operator+)
binop_helper(-, operator-)

template <typename T>
constexpr bool is_complex = false;
struct After {};
"""


def test_a_lower_case_macro_of_the_file_called_alone_at_file_scope_is_blanked() -> None:
    # MLX's half_types.h: the calls, each alone on its line, had taken the namespace
    # around them and what follows them into a syntax error
    blanked, names = lone_macros_blanked(HELPER.encode())
    lines = blanked.decode().split("\n")
    assert lines[3:5] == [" " * len("binop_helper(+, operator+)")] * 2
    assert lines[:3] == HELPER.split("\n")[:3] and lines[5:] == HELPER.split("\n")[5:]
    assert names == {"binop_helper"}
    c = facts("namespace mlx::core {\n" + HELPER + "} // namespace mlx::core\n", "h.h")
    assert c.error_lines == ()
    assert ("struct", "mlx::core::After", 10) in inventory(c)


def test_a_lower_case_call_indented_or_followed_or_not_defined_here_stays() -> None:
    source = (
        b"#define check(x) do_check(x)\n"
        b"void f() {\n  check(cudaMalloc(&p, 4))\n}\n"  # indented: a statement, evidence
        b"check(a) const;\n"  # something follows it on its line
        b"other(b)\n"  # a macro defined elsewhere, or none
    )
    assert lone_macros_blanked(source) == (source, frozenset())


def test_an_upper_case_class_defaulting_its_constructors_keeps_them() -> None:
    # Taskflow's `struct UUID`: `= default;` ends a constructor, it is no value given
    source = "struct UUID {\n  UUID(const UUID&) = default;\n  UUID(UUID&&) = delete;\n};\n"
    assert lone_macros_blanked(source.encode()) == (source.encode(), frozenset())
    assert {("constructor", "UUID::UUID", 2), ("constructor", "UUID::UUID", 3)} <= inventory(
        facts(source, "uuid.hpp")
    )
    given = b"struct Options {\n  TORCH_ARG(int64_t, padding) = 0;\n};\n"
    assert lone_macros_blanked(given)[1] == {"TORCH_ARG"}  # a value: the macro's use


def test_an_upper_case_class_name_after_an_alignment_is_no_attribute() -> None:
    # Highway's `struct alignas(16) K64V64 {`: the word after a `)` and before a body is
    # an attribute after a function's parameters, a class's name after `alignas(...)`
    source = (
        b"struct alignas(16) K64V64 {\n  int key;\n};\n"
        b"struct __attribute__((aligned(8))) KEYV {\n  int k;\n};\n"
        b"class __declspec(dllexport) WIDGET {\n  int w;\n};\n"
        b"void f() GUARDED {\n}\n"
    )
    assert macros_in_use(source) == {"GUARDED"}
    kinds = inventory(facts(source.decode(), "base.h"))
    assert {("struct", "K64V64", 1), ("struct", "KEYV", 4), ("class", "WIDGET", 7)} <= kinds
    assert ("function", "f", 10) in kinds


def test_an_upper_case_scoped_enum_is_no_attribute_of_the_word_class() -> None:
    # FBGEMM's `enum class QKV { Q, K, V };`: `class` is no enum's name for QKV to follow
    source = (
        b"enum class QKV { Q, K, V };\nenum Vt MY_TYPE { X };\nenum class Kind MY_TYPE2 { Y };\n"
    )
    assert macros_in_use(source) == {"MY_TYPE", "MY_TYPE2"}
    assert ("enum", "QKV", 1) in inventory(facts(source.decode(), "kv.cu"))


def test_an_upper_case_word_after_a_whole_type_keyword_is_an_attribute() -> None:
    # mem_eff_attention's `static void CUTLASS_DEVICE accumToSmem(`: six fake fields named
    # CUTLASS_DEVICE; after `const` the word is still the type (`const FOO f(`)
    source = b"struct B {\n  static void MY_DEVICE accum(int lane);\n  const FOO make(int n);\n};\n"
    assert macros_in_use(source) == {"MY_DEVICE"}


def test_a_lone_word_with_one_underscore_before_it_is_a_macro_s_use_too() -> None:
    """libcudacxx opens and closes its namespaces with `_CCCL_BEGIN_NAMESPACE_CUDA` and
    `_CCCL_END_NAMESPACE_CUDA` on lines of their own: left as written, the last word of
    a file was a syntax error that lost classes (CCCL: 1,000 files with a syntax error
    fewer, classes found by Universal Ctags from 90.1 to 99.6 %)."""
    source = b"_CCCL_BEGIN_NAMESPACE_CUDA\nclass barrier {};\n_CCCL_END_NAMESPACE_CUDA\n"
    blanked, names = lone_macros_blanked(source)
    assert names == frozenset({"_CCCL_BEGIN_NAMESPACE_CUDA", "_CCCL_END_NAMESPACE_CUDA"})
    assert blanked.split(b"\n")[1] == b"class barrier {};"
    c = facts(source.decode(), "barrier.h")
    assert c.error_lines == ()
    assert inventory(c) == {("class", "barrier", 2)}
    # a name with lower-case letters, or two underscores before it, is left alone
    for kept in (b"_Tp\n", b"__FOO\n", b"_foo_BAR\n"):
        assert lone_macros_blanked(kept) == (kept, frozenset())


def test_a_word_over_a_function_s_name_is_its_type() -> None:
    """C's GNU style puts a function's type on the line above its name: pcre2's `BOOL`
    / `PRIV(ckd_smul)(...)`, both from the first column.  The type of a pointer's
    declaration (`void (*hook)() = NULL;`) or a call in upper case is no such name."""
    kept = b"BOOL\nckd_smul(size_t *r, int a, int b)\n{\n  return 0;\n}\n"
    assert lone_macros_blanked(kept) == (kept, frozenset())
    for source in (
        b"JEMALLOC_EXPORT\nvoid (*hook)() = NULL;\n",
        b"FOO\nBAR(x);\n",
        b"  BOOL\n  f(x)\n",
    ):
        blanked, names = lone_macros_blanked(source)
        assert names and blanked != source, source
