"""Valid C++ the pinned grammar cannot read: braced default arguments and deleted free
functions, rewritten in place before the parse (cases from PyTorch's generated headers,
pybind11 and fmt)."""

from __future__ import annotations

import re

import tree_sitter
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_scan_cfamily import by_qualname, facts, inventory

from docgen.scan.cfamily.preprocess.grammar_gaps import (
    _UNNAMED_POINTER_DEFAULT,
    grammar_gaps_blanked,
)
from docgen.scan.cfamily.scanner import language

SETTINGS = settings(max_examples=120, deadline=None)  # derandomized by the test profile

#: from ATen/ops/clamp_cpu_dispatch.h: every such line was a syntax error
OPTIONAL = "const ::std::optional<at::Tensor> &"
DISPATCH = f"""\
namespace at {{
namespace cpu {{
TORCH_API at::Tensor clamp(const at::Tensor & self, {OPTIONAL} min={{}}, {OPTIONAL} max={{}});
TORCH_API at::Tensor & clamp_(at::Tensor & self, {OPTIONAL} min={{}}, {OPTIONAL} max={{}});
}} // namespace cpu
}} // namespace at
"""


def has_error(source: bytes) -> bool:
    tree = tree_sitter.Parser(language("cpp")).parse(source)
    return tree.root_node.has_error


def test_the_grammar_itself_refuses_these_forms() -> None:
    # The reason for the module: if a newer grammar reads them, it can go.
    assert has_error(b"void f(int a={});")
    assert has_error(b"void f(int a = {0, 0});")
    assert has_error(b"void f(int a) = delete;")
    assert has_error(b"int f() { return this->operator[](i); }")
    assert has_error(b"class A {\n enum : int { k = 0 };\n};\n")
    assert has_error(b'#if HAS_WARNING("-Wshorten")\nint x;\n#endif\n')
    assert has_error(b"struct A : B<int> {\n  using typename B<int>::T;\n};\n")
    assert has_error(b"struct a {\n  ql_head(tcache_t) tcache_ql;\n};\n")
    assert has_error(b"template <class R, class C>\nstruct K<R (C::*)() const> {};\n")
    assert has_error(b"template <class T, class C>\nstruct K<T C::*> {};\n")
    assert has_error(b"void f() { auto g = [] __device__ (int i) { return i; }; }")
    assert has_error(b"template struct HeapArray<CMin<float, int64_t>>;")
    assert has_error(b'void f() { printf("%" PRId64 " points", n); }')


def test_braced_defaults_read_as_zero_with_every_byte_in_place() -> None:
    source = b"void f(const Foo& a={}, Id id = {0, {1, 2}}, int n=3);"
    rewritten = grammar_gaps_blanked(source)
    assert rewritten == b"void f(const Foo& a=0 , Id id = 0          , int n=3);"
    assert not has_error(rewritten)


def test_a_default_over_several_lines_keeps_its_lines() -> None:
    source = b"void f(Options o = {\n  1,\n  2});\nint g();\n"
    rewritten = grammar_gaps_blanked(source)
    assert len(rewritten) == len(source)
    assert [i for i, b in enumerate(rewritten) if b == 10] == [
        i for i, b in enumerate(source) if b == 10
    ]
    assert not has_error(rewritten)


def test_initializers_and_comparisons_are_left_alone() -> None:
    source = (
        b"int x = {1};\n"
        b"std::vector<int> v = {1, 2};\n"
        b"bool b = a <= c;\n"
        b"void g() { if (a == b) { return; } x += {1}; }\n"
        b"struct S { int a{}; S() = default; };\n"
    )
    assert grammar_gaps_blanked(source) == source


def test_deleted_free_functions_are_blanked_to_declarations() -> None:
    source = b"void f(const char* name) = delete;\ntemplate <class T> T g(T) const = delete;\n"
    rewritten = grammar_gaps_blanked(source)
    assert rewritten == (
        b"void f(const char* name)         ;\ntemplate <class T> T g(T) const         ;\n"
    )
    assert not has_error(rewritten)


def test_operators_called_by_name_read_as_one_name_called() -> None:
    source = (
        b"int f() { return this->operator[](i) + x.operator()(j); }\n"
        b"bool g() { return a.operator==(b) && p->operator bool(); }\n"
    )
    rewritten = grammar_gaps_blanked(source)
    assert rewritten == (
        b"int f() { return this->operator__(i) + x.operator__(j); }\n"
        b"bool g() { return a.operator__(b) && p->operator_____(); }\n"
    )
    assert not has_error(rewritten)
    # Declaring or calling an operator unqualified the grammar reads already.
    declared = b"bool operator==(const A& a) const; int h() { return operator[](1); }"
    assert grammar_gaps_blanked(declared) is declared


def test_a_file_with_neither_is_returned_as_it_is() -> None:
    source = b"int f(int a = 1);\n"
    assert grammar_gaps_blanked(source) is source


def test_generated_dispatch_declarations_parse_and_keep_their_text() -> None:
    c = facts(DISPATCH, "ATen/ops/clamp_cpu_dispatch.h", frozenset({"TORCH_API"}))
    assert c.error_lines == ()
    assert ("function", "at::cpu::clamp_", 4) in inventory(c)
    clamp = by_qualname(c, "at::cpu::clamp")
    # What the page shows is the file's own text, braces and all.
    assert "const ::std::optional<at::Tensor> & min={}" in clamp.declaration
    assert clamp.attributes == ("TORCH_API",)


def test_members_after_a_braced_default_keep_their_scope() -> None:
    # pybind11/detail/common.h: the error had cut `pybind11::` from what followed.
    source = """\
namespace pybind11 {
namespace detail {
struct cast_impl {
    constexpr auto operator()(int (*pf)(int), std::false_type = {}) const noexcept -> int;
};
class any_container {
public:
    any_container() = default;
    int size() const;
};
}
}
"""
    c = facts(source, "common.h")
    assert c.error_lines == ()
    assert ("method", "pybind11::detail::any_container::size", 9) in inventory(c)
    assert ("class", "pybind11::detail::any_container", 6) in inventory(c)


def test_c_files_are_read_as_written() -> None:
    c = facts("int f(int a);\n", "x.c")
    assert c.error_lines == ()


PIECES = st.lists(
    st.sampled_from(
        [
            *(b"=", b" = ", b"{", b"}", b"(", b")", b",", b";", b"\n", b"a", b"<", b">", b"]"),
            *(b" delete", b" const", b"==", b"x={}", b'"={}"', b".operator", b"->operator"),
            *(b" b", b"typedef ", b"m(T) t;\n", b"(C::*)", b"T C::*", b"ns::"),
        ]
    ),
    max_size=40,
).map(b"".join)


@SETTINGS
@given(PIECES)
def test_rewriting_keeps_length_lines_and_everything_outside_braces_and_deletes(
    data: bytes,
) -> None:
    rewritten = grammar_gaps_blanked(data)
    assert len(rewritten) == len(data)
    for before, after in zip(data, rewritten, strict=True):
        if before != after:
            # Only braces, their insides, `= delete`, an operator's token and a type
            # macro's parentheses change.
            assert after in b" 0_" or (before, after) in (
                (ord("("), ord("<")),
                (ord(")"), ord(">")),
            )
            assert before != ord("\n")


#: from protobuf's generated `descriptor.pb.h` (27 syntax errors) and c10's `StringUtil.h`
PROTOBUF = """\
#if C10_CLANG_HAS_WARNING("-Wshorten-64-to-32") && defined(X)
#endif
namespace google::protobuf {
class FileDescriptorSet final : public Message {
 public:
  enum : int {
    kFileFieldNumber = 1,
  };
  enum class Kind : int { kA };
  int file_size() const;
};
}  // namespace google::protobuf
"""


def test_an_anonymous_enum_s_type_and_a_conditional_s_strings_are_read_around() -> None:
    c = facts(PROTOBUF, "descriptor.pb.h")
    assert c.error_lines == ()
    assert {(k, q) for k, q, _ in inventory(c) if k != "namespace"} == {
        ("class", "google::protobuf::FileDescriptorSet"),
        ("enum", "google::protobuf::FileDescriptorSet::Kind"),
        ("enumerator", "google::protobuf::FileDescriptorSet::Kind::kA"),
        ("method", "google::protobuf::FileDescriptorSet::file_size"),
        # the anonymous enum's value is its class's name
        ("enumerator", "google::protobuf::FileDescriptorSet::kFileFieldNumber"),
    }  # the anonymous enum is no type; `fmt`'s `enum : ullong {` had read as `ullong`
    rewritten = grammar_gaps_blanked(PROTOBUF.encode())
    assert len(rewritten) == len(PROTOBUF.encode())
    string = b'"-Wshorten-64-to-32"'
    assert rewritten.startswith(b"#if C10_CLANG_HAS_WARNING(" + b"0".ljust(len(string)) + b")")
    assert b"enum       {" in rewritten and b"enum class Kind : int {" in rewritten


#: torch/csrc/api's data loaders, folly's F14 containers
USING_TYPENAME = """\
template <typename Dataset>
class StatefulDataLoader : public DataLoaderBase<Dataset> {
 public:
  using super = DataLoaderBase<Dataset>;
  using typename super::BatchRequestType;
  void reset() override;
};
"""


def test_using_typename_reads_as_a_using_declaration() -> None:
    c = facts(USING_TYPENAME, "stateful.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("class", "StatefulDataLoader", 2),
        ("alias", "StatefulDataLoader::super", 4),
        ("method", "StatefulDataLoader::reset", 6),
    }
    rewritten = grammar_gaps_blanked(USING_TYPENAME.encode())
    assert b"  using          super::BatchRequestType;" in rewritten


def test_a_header_s_name_in_a_test_reads_as_0() -> None:
    # pybind11's detail/common.h: the macros defined under `#if __has_include(<optional>)`
    source = b"#if defined(X) && __has_include(<optional>)\n#  define HAS_OPTIONAL 1\n#endif\n"
    assert has_error(source)
    rewritten = grammar_gaps_blanked(source)
    assert rewritten == source.replace(b"<optional>", b"0         ")
    assert inventory(facts(source.decode(), "common.h")) == {("macro", "HAS_OPTIONAL", 2)}


#: jemalloc's `ql.h` and `rb.h` make a list head's and a tree's types with macros
#: (`arena_structs.h`, `prof_structs.h`, read as C++ in a tree with C++ sources)
TYPE_MACROS = """\
struct arena_s {
\tql_head(tcache_slow_t)\t\t\ttcache_ql;
\tql_elm(edata_t, x)\tlink;
\tunsigned ind;
};
typedef rb_tree(prof_tctx_t) prof_tctx_tree_t;
"""


def test_a_type_macro_s_declaration_is_read_with_its_own_name() -> None:
    c = facts(TYPE_MACROS, "internal/arena_structs.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "arena_s", 1),
        ("field", "arena_s::tcache_ql", 2),
        ("field", "arena_s::link", 3),
        ("field", "arena_s::ind", 4),
        ("typedef", "prof_tctx_tree_t", 6),
    }
    # the page shows the declaration as written
    assert by_qualname(c, "arena_s::tcache_ql").declaration == "ql_head(tcache_slow_t) tcache_ql"
    rewritten = grammar_gaps_blanked(TYPE_MACROS.encode())
    assert b"ql_head<tcache_slow_t>" in rewritten and b"rb_tree<prof_tctx_t>" in rewritten


def test_statements_and_declarations_like_a_type_macro_are_left_alone() -> None:
    """`if (x) continue;`, a constructor `Foo(int) noexcept;`, `Foo(Bar) override;`:
    a keyword on either side means no type macro."""
    source = (
        b"void f() {\n  if (x) break;\n  while (y) continue;\n}\n"
        b"struct Foo {\n  Foo(int) noexcept;\n  g(Bar) override;\n};\n"
    )
    assert grammar_gaps_blanked(source) is source


#: pybind11's `detail/common.h` and c10's `FunctionTraits.h`: member pointers without
#: a name, in template arguments, which the grammar reads only with a name
MEMBER_POINTERS = """\
template <typename T> struct remove_class {};
template <typename C, typename R, typename... A>
struct remove_class<R (C::*)(A...) const> {
    using type = R(A...);
};
template <typename T, typename ClassType>
struct function_traits<T ns::Outer<A, B>::*> : public function_traits<T> {};
template <typename S>
void check(const S& simd) {
    static_assert(std::is_same<void (S::*)(int*) const, decltype(&S::store)>::value, "T");
}
"""


def test_a_member_pointer_without_a_name_reads_as_a_pointer() -> None:
    c = facts(MEMBER_POINTERS, "common.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "remove_class", 1),
        ("struct", "remove_class", 3),
        ("alias", "remove_class::type", 4),
        ("struct", "function_traits", 7),
        ("function", "check", 9),
    }
    rewritten = grammar_gaps_blanked(MEMBER_POINTERS.encode())
    assert b"struct remove_class<R (   *)(A...) const> {" in rewritten
    assert b"struct function_traits<T" + b" " * 18 + b"*>" in rewritten
    # a named member pointer, and one in a parameter without a name, are left as written
    for written in (b"void f(void (S::*m)(int) const);", b"Z(int Z::*) noexcept {}"):
        assert grammar_gaps_blanked(written) is written


def test_an_operator_called_by_name_on_this_reads_as_one_name_called() -> None:
    """CUTLASS's iterators in torch's mem_eff_attention: `operator++();` as a statement."""
    source = (
        "struct It {\n"
        "  It& operator++();\n"
        "  It operator++(int) {\n"
        "    It self(*this);\n"
        "    operator++();\n"
        "    return self;\n"
        "  }\n"
        "  operator bool() const;\n"
        "};\n"
    )
    assert has_error(source.encode())
    c = facts(source, "iterator.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "It", 1),
        ("operator", "It::operator++", 2),
        ("operator", "It::operator++", 3),
        ("operator", "It::operator bool", 8),
    }
    rewritten = grammar_gaps_blanked(source.encode())
    assert b"    operator__();" in rewritten and b"It& operator++();" in rewritten


def test_an_attribute_before_friend_is_read_around() -> None:
    """c10's `strong_type.h`: 41 `[[nodiscard]]` before `friend`, each a syntax error."""
    source = (
        "template <typename T>\n"
        "struct type {\n"
        "  [[nodiscard]]\n"
        "  friend constexpr T& value_of(type& t) noexcept { return t.val; }\n"
        "  [[nodiscard]] friend bool operator==(const type& a, const type& b);\n"
        "  [[nodiscard]] constexpr T& get() noexcept { return val; }\n"
        "  T val;\n"
        "};\n"
    )
    assert has_error(source.encode())
    c = facts(source, "strong_type.h")
    assert c.error_lines == ()
    assert {("method", "type::get", 6), ("field", "type::val", 7)} <= inventory(c)
    assert [d.name for d in c.definitions if d.line == 4] == ["value_of"]
    rewritten = grammar_gaps_blanked(source.encode())
    assert b"  [[nodiscard]] constexpr T& get()" in rewritten  # no friend after it


def test_a_defaulted_friend_is_listed_as_a_friend_with_a_body_is() -> None:
    """folly's `StableRadixSortTest.cpp`: `[[maybe_unused]] friend bool operator==(...) =
    default;` defines the operator in the class; a friend only declared is not listed."""
    source = (
        "struct Item {\n"
        "  [[maybe_unused]] friend bool operator==(const Item&, const Item&) = default;\n"
        "  friend bool f(int);\n"
        "};\n"
    )
    c = facts(source, "StableRadixSortTest.cpp")
    assert c.error_lines == ()
    assert inventory(c) == {("struct", "Item", 1), ("operator", "Item::operator==", 2)}


LAMBDAS = b"""\
namespace at {
template <typename T>
void launch(T* args) {
  auto f = [=] __device__ (int idx, float rand) { return idx; };
  auto g = [&args] __host__ __device__(int i) -> T& { return args[i]; };
  int a[2] = {0, 1};
}
__device__ void after(int x) {}
}
"""


def test_a_cuda_lambda_s_execution_space_is_read_around() -> None:
    cuda = tree_sitter.Parser(language("cuda"))
    assert cuda.parse(LAMBDAS).root_node.has_error  # the grammars have no rule for it
    rewritten = grammar_gaps_blanked(LAMBDAS)
    assert not cuda.parse(rewritten).root_node.has_error
    assert rewritten == LAMBDAS.replace(b"] __device__ (", b"]            (").replace(
        b"] __host__ __device__(", b"]                    ("
    )  # a declaration's `__device__` stays: the CUDA grammar reads it
    c = facts(LAMBDAS.decode(), "k.cu")
    assert c.error_lines == ()
    assert {(k, q) for k, q, _ in inventory(c)} == {
        ("namespace", "at"),
        ("function", "at::launch"),
        ("function", "at::after"),
    }


SFINAE = b"""\
namespace at::native {
template <typename T, std::enable_if_t<std::is_integral_v<T>, T>* = nullptr>
T powi(T a, T b);
template <
    typename T,
    typename std::enable_if_t<std::is_same_v<c10::Half, T>>* =
        nullptr>
void add(T* a, T b);
struct Parser {
  void parse(const char* = nullptr, int** = 0) const;
};
}  // namespace at::native
"""


def test_a_defaulted_pointer_parameter_without_a_name_is_read_as_named() -> None:
    assert has_error(b"template <typename T, int* = nullptr>\nT f(T a);")  # the grammar's gap
    assert has_error(b"void f(int* = nullptr);")
    rewritten = grammar_gaps_blanked(SFINAE)
    assert rewritten == SFINAE.replace(b"* =", b"*_=")
    assert not has_error(rewritten)
    c = facts(SFINAE.decode(), "Pow.h")
    assert c.error_lines == ()
    assert {(d.kind, d.qualname) for d in c.definitions if d.kind != "namespace"} == {
        ("function", "at::native::powi"),
        ("function", "at::native::add"),
        ("struct", "at::native::Parser"),
        ("method", "at::native::Parser::parse"),
    }
    powi = by_qualname(c, "at::native::powi")  # shown as written, not as read
    assert powi.template.endswith("* = nullptr>")


#: the unnamed-pointer pattern as first written, its look behind first: the engine
#: tried it at every byte (6.3 s over eleven trees, against 0.25 s starting at the `*`)
LOOK_BEHIND_FIRST = re.compile(rb"(?<=[\w>*])\*([ \t])[ \t]*=(?!=)")


@given(
    st.lists(
        st.sampled_from([b"a", b">", b"*", b"**", b" ", b"\t", b"=", b"==", b" = ", b"\n", b";"]),
        max_size=16,
    ).map(b"".join)
)
@example(b"T** = nullptr")
@example(b"* = 0")
@SETTINGS
def test_the_unnamed_pointer_pattern_matches_where_its_first_form_did(text: bytes) -> None:
    def spans(pattern: re.Pattern[bytes]) -> list[tuple[int, int]]:
        return [m.span(1) for m in pattern.finditer(text)]

    assert spans(_UNNAMED_POINTER_DEFAULT) == spans(LOOK_BEHIND_FIRST)


OVERRIDES = b"""\
#define CALL(name) f(name, )
struct PyA : A {
  int get() const override { PYBIND11_OVERRIDE(Result, A, get, ); }
  int put(int x) override { PYBIND11_OVERRIDE(Result, A, put,
  ); }
  int size() override { PYBIND11_OVERRIDE(Result, A, size, /*no args*/); }
  void run(int a,  // a comment (with parentheses)
           int b);
};
const char* shape = "(6, )";  // shape: (6, )
"""


def test_a_macro_s_empty_last_argument_is_read() -> None:
    # pybind11's trampolines: `PYBIND11_OVERRIDE(int, Base, get, );` was a syntax error
    # that cost the class its methods (classes found by Universal Ctags 92.7 -> 97.2 %)
    assert has_error(b"void f() { M(a, ); }")  # the grammar's gap
    rewritten = grammar_gaps_blanked(OVERRIDES)
    # only the commas in code: the directive's, the string's and the comment's stay
    assert rewritten == (
        OVERRIDES.replace(b"get, )", b"get  )")
        .replace(b"put,\n", b"put \n")
        .replace(b"size, /*", b"size  /*")
    )
    c = facts(OVERRIDES.decode(), "test_trampolines.cpp")
    assert c.error_lines == ()
    assert {(d.kind, d.qualname) for d in c.definitions if d.kind != "macro"} == {
        ("struct", "PyA"),
        ("method", "PyA::get"),
        ("method", "PyA::put"),
        ("method", "PyA::size"),
        ("method", "PyA::run"),
    }


def test_multiplications_and_compound_assignments_are_left_alone() -> None:
    for code in (b"x *= 2;\n", b"y = a * b;\n", b"z = *p == q;\n", b"w = 2 * = 3;\n"):
        assert grammar_gaps_blanked(code) == code


#: from faiss: its `.cpp` files instantiate their class templates and print with
#: `<cinttypes>`'s macros (each line a syntax error)
INSTANTIATIONS = b"""\
namespace faiss {
template struct HeapArray<CMin<float, int64_t>>;
extern template class Tensor2DTemplate<int32_t>;  // declared only
template void fvec_madd<SIMDLevel::NONE>(size_t n, const float* a);
void train(int64_t n) {
    printf("begin train shard %d on %" PRId64 " points\\n", 1, n);
    fail("at " __FILE__ ":" C10_STRINGIZE(__LINE__));
    asm volatile("ld.global.u32 %0;" : "=r"(r));
}
#define FORMAT "%" PRId64
template struct Kept<int>;
}  // namespace faiss
"""


def test_class_instantiations_and_macros_after_strings_are_read_around() -> None:
    rewritten = grammar_gaps_blanked(INSTANTIATIONS)
    assert not has_error(rewritten)
    assert len(rewritten) == len(INSTANTIATIONS)
    lines = rewritten.split(b"\n")
    assert lines[1].strip() == b""  # the instantiation, which names nothing
    assert lines[2].strip() == b"// declared only"  # with its `extern`
    assert lines[3] == INSTANTIATIONS.split(b"\n")[3]  # a function's: the grammar reads it
    assert lines[5].endswith(b'on %"        " points\\n", 1, n);')
    original = INSTANTIATIONS.split(b"\n")
    for n, macros in ((6, (b"__FILE__", b"C10_STRINGIZE(__LINE__)")), (7, ())):
        expected = original[n]
        for macro in macros:  # a call with its arguments
            expected = expected.replace(macro, b" " * len(macro))
        assert lines[n] == expected
    assert lines[9] == b'#define FORMAT "%" PRId64'  # a directive: not read as code
    c = facts(INSTANTIATIONS.decode(), "Heap.cpp")
    assert c.error_lines == ()
    assert {(d.kind, d.qualname) for d in c.definitions} == {
        ("namespace", "faiss"),
        ("function", "faiss::train"),
        ("macro", "FORMAT"),
    }


def test_words_that_stand_after_strings_in_cpp_itself_are_left_alone() -> None:
    for code in (
        b'extern "C" BOOL WINAPI DllMain(int a);\n',
        b'extern "C++" ABC f();\n',
        b'int f() { return "x"[0] and "y"[0]; }\n',
        b'const char* s = R"DOC(a "QUOTED" b)DOC";\n',
        b'long operator "" _km(unsigned long long x);\n',
        b'const wchar_t* w = L"wide" L"er";\n',
        b'#include "TensorIterator.h"\nTEST(Suite, Name) {}\n',
        b'// the "quoted" word (in a comment\n// over two lines)\nint x;\n',
        b"/** no template class as a friend\n of classes. **/\n#define BROKEN 1\nint y;\n",
        b"// a template class of ours\nint z;\n",
    ):
        assert grammar_gaps_blanked(code) == code, code
