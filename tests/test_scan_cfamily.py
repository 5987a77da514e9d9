"""The C, C++ and CUDA scanner: names, kinds, scopes, lines, macros, registrations."""

from __future__ import annotations

import pytest

from docgen.model.cfamily_facts import CDefinition, CFacts
from docgen.model.facts import CKind
from docgen.scan.cfamily.names import outside_bodies
from docgen.scan.cfamily.preprocess.blanking import neutralise
from docgen.scan.cfamily.preprocess.conditionals import first_branches
from docgen.scan.cfamily.preprocess.macro_def import table_of
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros import attribute_macros, macro_defs
from docgen.scan.cfamily.preprocess.namespace_macros import namespace_macros
from docgen.scan.cfamily.scanner import dialect_for, scan
from docgen.scan.cfamily.settings import ScanSettings


def facts(source: str, path: str = "x.cpp", macros: frozenset[str] = frozenset()) -> CFacts:
    result = scan(path, source.encode(), ScanSettings.of(attribute=macros)).cfamily
    assert result is not None
    return result


def inventory(c: CFacts) -> set[tuple[str, str, int]]:
    return {(d.kind, d.qualname, d.line) for d in c.definitions}


def by_qualname(c: CFacts, qualname: str) -> CDefinition:
    found = [d for d in c.definitions if d.qualname == qualname]
    assert len(found) == 1, found
    return found[0]


CLASS_SOURCE = """\
namespace a::b {
namespace {
int hidden() { return 1; }
}
/// A thing.
/// Two lines.
class TORCH_API Foo : public Bar<int>, private Baz {
 public:
  Foo();
  ~Foo();
  void m() const;
  static int count;
  int x = 1, y;
  bool operator==(const Foo& o) const;
  void inl() { while (true) { if (x) break; } }
};
Foo::Foo() : x(1) {}
template <typename T> struct Box { T value; };
using Alias = Foo;
typedef int handle_t;
enum class Mode : int { A, B };
union U { int i; float f; };
}
#define TWICE(x) ((x) * 2)
#include "local.h"
#include <vector>
"""


def test_every_kind_with_its_scope_and_line() -> None:
    c = facts(CLASS_SOURCE)
    assert inventory(c) == {
        ("namespace", "a", 1),
        ("namespace", "a::b", 1),
        ("namespace", "a::b::(anonymous)", 2),
        ("function", "a::b::hidden", 3),
        ("class", "a::b::Foo", 7),
        ("constructor", "a::b::Foo::Foo", 9),
        ("destructor", "a::b::Foo::~Foo", 10),
        ("method", "a::b::Foo::m", 11),
        ("field", "a::b::Foo::count", 12),
        ("field", "a::b::Foo::x", 13),
        ("field", "a::b::Foo::y", 13),
        ("operator", "a::b::Foo::operator==", 14),
        ("method", "a::b::Foo::inl", 15),
        ("constructor", "a::b::Foo::Foo", 17),
        ("struct", "a::b::Box", 18),
        ("field", "a::b::Box::value", 18),
        ("alias", "a::b::Alias", 19),
        ("typedef", "a::b::handle_t", 20),
        ("enum", "a::b::Mode", 21),
        ("enumerator", "a::b::Mode::A", 21),
        ("enumerator", "a::b::Mode::B", 21),
        ("union", "a::b::U", 22),
        ("field", "a::b::U::i", 22),
        ("field", "a::b::U::f", 22),
        ("macro", "TWICE", 24),
    }
    assert [(i.line, i.target, i.system) for i in c.includes] == [
        (25, "local.h", False),
        (26, "vector", True),
    ]


def test_export_macro_is_an_attribute_and_never_a_name() -> None:
    c = facts(CLASS_SOURCE)
    foo = by_qualname(c, "a::b::Foo")
    assert foo.attributes == ("TORCH_API",)
    assert foo.declaration == "class TORCH_API Foo : public Bar<int>, private Baz"
    assert foo.bases == ("public Bar<int>", "private Baz")
    assert foo.doc == "A thing.\nTwo lines."
    assert "TORCH_API" in c.neutralised
    names = {d.name for d in c.definitions}
    assert not names & {"TORCH_API", "while", "if", "true", "break"}


def test_declarations_and_definitions_are_told_apart() -> None:
    c = facts(CLASS_SOURCE)
    declared = {d.qualname for d in c.definitions if not d.is_definition}
    assert (
        declared
        == {
            "a::b::Foo::Foo",
            "a::b::Foo::~Foo",
            "a::b::Foo::m",
            "a::b::Foo::operator==",
            "a::b::Foo::count",  # `static int count;`: a source file defines it
        }
        and by_qualname(c, "a::b::Foo::inl").is_definition
    )
    assert by_qualname(c, "a::b::hidden").file_local
    assert by_qualname(c, "a::b::Box").template == "template <typename T>"


def test_out_of_line_members_attach_to_their_class() -> None:
    c = facts(
        "namespace torch::autograd {\n"
        "bool AnomalyMode::_enabled = false;\n"
        "void AnomalyMode::set_enabled(bool e) { _enabled = e; }\n"
        "DetectAnomalyGuard::DetectAnomalyGuard(bool check_nan) {}\n"
        "DetectAnomalyGuard::~DetectAnomalyGuard() {}\n"
        "AnomalyMetadata::~AnomalyMetadata() = default;\n"
        "template <typename T> void Box<T>::put(T v) {}\n"
        "void at::native::add_out(int x) {}\n"
        "}\n"
    )
    assert inventory(c) == {
        ("namespace", "torch", 1),
        ("namespace", "torch::autograd", 1),
        ("field", "torch::autograd::AnomalyMode::_enabled", 2),
        ("method", "torch::autograd::AnomalyMode::set_enabled", 3),
        ("constructor", "torch::autograd::DetectAnomalyGuard::DetectAnomalyGuard", 4),
        ("destructor", "torch::autograd::DetectAnomalyGuard::~DetectAnomalyGuard", 5),
        ("destructor", "torch::autograd::AnomalyMetadata::~AnomalyMetadata", 6),
        ("method", "torch::autograd::Box::put", 7),
        ("function", "torch::autograd::at::native::add_out", 8),
    }


def test_cuda_kernels_launches_and_runtime_calls() -> None:
    c = facts(
        "__global__ void k(float* x) { x[0] = 1; }\n"
        "__host__ __device__ inline int g() { return 1; }\n"
        "void run(float* x) {\n"
        "  k<<<4, 256, 0, stream>>>(x);\n"
        "  cudaDeviceSynchronize();\n"
        '  // k<<<1, 1>>>(x); cudaMalloc in a comment; "cudaFree(p)" in a string\n'
        "}\n",
        path="k.cu",
    )
    assert c.dialect == "cuda"
    assert by_qualname(c, "k").kind == "kernel"
    assert by_qualname(c, "g").attributes == ("__host__", "__device__")
    assert [(k.kernel, k.line, k.config) for k in c.launches] == [("k", 4, "4, 256, 0, stream")]
    assert [(u.name, u.line) for u in c.gpu_calls] == [("cudaDeviceSynchronize", 5)]


def test_registrations_are_not_functions() -> None:
    c = facts(
        "DEFINE_DISPATCH(add_stub);\n"
        "REGISTER_DISPATCH(add_stub, &add_kernel);\n"
        "TORCH_LIBRARY(aten, m) {\n"
        '  m.def("add.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");\n'
        "}\n"
        "TORCH_LIBRARY_IMPL(aten, CUDA, m) {\n"
        '  m.impl("add.out", TORCH_FN(add_out_cuda));\n'
        "}\n"
        "TEST(TensorTest, Numel) { EXPECT_EQ(1, 1); }\n"
    )
    assert c.definitions == ()
    rows = [(r.macro, r.name, r.line, r.dispatch_key, r.target) for r in c.registrations]
    assert rows == [
        ("DEFINE_DISPATCH", "add_stub", 1, "", ""),
        ("REGISTER_DISPATCH", "add_stub", 2, "", "&add_kernel"),
        ("TORCH_LIBRARY", "aten", 3, "", ""),
        ("TORCH_LIBRARY_IMPL", "aten", 6, "CUDA", ""),
    ]
    assert [(o.verb, o.name, o.line) for o in c.registrations[2].ops] == [("def", "add.out", 4)]
    assert c.registrations[2].ops[0].schema.startswith("add.out(Tensor self")
    assert [(o.verb, o.name) for o in c.registrations[3].ops] == [("impl", "add.out")]
    assert [(t.name, t.line) for t in c.test_cases] == [("TensorTest.Numel", 9)]


def test_learned_macros_follow_definitions_to_a_fixpoint() -> None:
    header = (
        b'#define MY_EXPORT __attribute__((visibility("default")))\n'
        b"#define MY_API MY_EXPORT\n"
        b"#define MY_INLINE inline __attribute__((always_inline))\n"
        b"#define MY_BOUNDS(n) __launch_bounds__(n)\n"
        b"#define NOT_ONE (1 + 2)\n"
        b"#define MY_TYPE SomeType\n"
        b"#define REGISTER_AVX2_DISPATCH(name, fn)\n"
        b"#ifndef MY_HEADER_H\n#define MY_HEADER_H\n#endif\n"
    )
    learned = attribute_macros(macro_defs(header))
    assert learned == {"MY_EXPORT", "MY_API", "MY_INLINE", "MY_BOUNDS()"}
    c = facts("class MY_API Widget { MY_INLINE void f() {} };", macros=learned)
    assert inventory(c) == {("class", "Widget", 1), ("method", "Widget::f", 1)}
    assert by_qualname(c, "Widget::f").attributes == ("MY_INLINE",)


def test_a_call_of_an_attribute_macro_makes_an_attribute_macro() -> None:
    # leveldb's thread-safety annotations: `GUARDED_BY(x)` calls a function-like
    # attribute macro with arguments of its own, which are not words of its body
    header = (
        b"#if defined(__clang__)\n"
        b"#define THREAD_ANNOTATION(x) __attribute__((x))\n"
        b"#else\n#define THREAD_ANNOTATION(x)  // no-op\n#endif\n"
        b"#define GUARDED_BY(x) THREAD_ANNOTATION(guarded_by(x))\n"
        b"#define LOCKS_EXCLUDED(...) THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))\n"
        b"#define __extension__\n"
        b"#define EXPR(x) __extension__ ({ x; })\n"  # an object-like one called: no attribute
        b"#define CALLS(x) compute(x)\n"  # a call of a function: no attribute
        b"#define UNCLOSED(x) THREAD_ANNOTATION(x\n"
    )
    learned = attribute_macros(macro_defs(header))
    assert learned == {"THREAD_ANNOTATION()", "GUARDED_BY()", "LOCKS_EXCLUDED()", "__extension__"}
    c = facts(
        "class Counter {\n int n_ GUARDED_BY(mu_);\n void Add(int k) LOCKS_EXCLUDED(mu_) {}\n};",
        macros=learned,
    )
    assert inventory(c) == {
        ("class", "Counter", 1),
        ("field", "Counter::n_", 2),
        ("method", "Counter::Add", 3),
    }


def test_blanking_keeps_every_offset_and_directive() -> None:
    data = b"#ifdef TORCH_API\nclass TORCH_API Foo {};\nC10_LAUNCH_BOUNDS_1(128)\nvoid k();\n"
    blanked = neutralise(data, frozenset())
    assert len(blanked.data) == len(data)
    assert blanked.data.count(b"\n") == data.count(b"\n")
    assert blanked.data.startswith(b"#ifdef TORCH_API\n")  # directives stay as written
    assert b"class           Foo" in blanked.data
    assert [text for _, _, text in blanked.spans] == ["TORCH_API", "C10_LAUNCH_BOUNDS_1(128)"]


def test_syntax_errors_are_reported_with_their_lines() -> None:
    result = scan("bad.cpp", b"int ok() { return 1; }\nclass Broken {\n  int x\n  void (*;\n};\n")
    assert result.cfamily is not None and result.cfamily.error_lines
    assert result.problems and "syntax error" in result.problems[0].message
    assert ("function", "ok", 1) in inventory(result.cfamily)


@pytest.mark.parametrize(
    ("path", "data", "headers_as", "dialect"),
    [
        ("a.c", b"int x;", "cpp", "c"),
        ("a.h", b"int x;", "c", "c"),
        ("a.h", b"namespace x {}", "c", "cpp"),
        ("a.h", b"struct s { int x; };\nstd::string f();", "c", "cpp"),
        ("a.h", b"int x;", "cpp", "cpp"),
        ("a.hpp", b"int x;", "c", "cpp"),
        ("a.cu", b"int x;", "cpp", "cuda"),
        ("a.cuh", b"int x;", "cpp", "cuda"),
        ("a.h", b"__device__ int f();", "cpp", "cuda"),
    ],
)
def test_grammar_per_file(path: str, data: bytes, headers_as: str, dialect: str) -> None:
    assert dialect_for(path, data, ScanSettings(headers_as=headers_as)) == dialect


def test_c_structs_typedefs_and_prototypes() -> None:
    c = facts(
        "typedef struct ring { int head; } ring_t;\n"
        "int ring_push(ring_t *r, unsigned char c);\n"
        "static size_t next(size_t i) { return i + 1; }\n",
        path="ring.c",
    )
    assert c.dialect == "c"
    assert inventory(c) == {
        ("struct", "ring", 1),
        ("field", "ring::head", 1),
        ("typedef", "ring_t", 1),
        ("function", "ring_push", 2),
        ("function", "next", 3),
    }
    assert not by_qualname(c, "ring_push").is_definition
    assert by_qualname(c, "next").file_local


def test_macros_no_header_defines_are_learned_from_class_heads() -> None:
    source = (
        "class PROTOBUF_EXPORT BytesValue PROTOBUF_FINAL : public Message {};\n"
        "struct TORCH_PYTHON_API type_caster<Sym> { int v; };\n"
        "class FOO_API BAR {};\n"
        "// the class of its own {\n"
    )
    c = facts(source)
    assert {(d.kind, d.name) for d in c.definitions if d.kind in ("class", "struct")} == {
        ("class", "BytesValue"),
        ("struct", "type_caster"),
        ("class", "BAR"),
    }
    assert by_qualname(c, "BytesValue").attributes == ("PROTOBUF_EXPORT", "PROTOBUF_FINAL")


def test_namespace_macros_read_as_the_namespaces_they_open() -> None:
    header = (
        b"#define FMT_BEGIN_NAMESPACE \\\n  namespace fmt {  \\\n  inline namespace v11 {\n"
        b"#define FMT_END_NAMESPACE } }\n"
        b"#define PYBIND11_NAMESPACE_BEGIN(name) namespace name {\n"
        b"#define PYBIND11_NAMESPACE_END(name) }\n"
    )
    defs = macro_defs(header)
    namespaces = namespace_macros(defs)
    assert namespaces == (
        ("FMT_BEGIN_NAMESPACE", "fmt::v11"),
        ("FMT_END_NAMESPACE", "}"),
        ("PYBIND11_NAMESPACE_BEGIN()", "$1"),
        ("PYBIND11_NAMESPACE_END()", "}"),
    )
    source = (
        "FMT_BEGIN_NAMESPACE\nint format();\nFMT_END_NAMESPACE\n"
        "PYBIND11_NAMESPACE_BEGIN(detail)\nstruct caster {};\nPYBIND11_NAMESPACE_END(detail)\n"
    )
    result = scan("x.h", source.encode(), ScanSettings.of("cpp", namespace=namespaces)).cfamily
    assert result is not None and not result.error_lines
    assert inventory(result) == {
        ("namespace", "fmt", 1),
        ("namespace", "fmt::v11", 1),
        ("function", "fmt::v11::format", 2),
        ("namespace", "detail", 4),
        ("struct", "detail::caster", 5),
    }


def test_friends_defined_in_a_class_and_conversion_operators() -> None:
    c = facts(
        "struct View {\n"
        "  friend bool operator==(View a, View b) { return true; }\n"
        "  friend class Other;\n"
        "  explicit operator bool() const noexcept { return true; }\n"
        "};\n"
        "View::operator int() const { return 0; }\n"
    )
    assert inventory(c) == {
        ("struct", "View", 1),
        ("operator", "View::operator==", 2),
        ("operator", "View::operator bool", 4),
        ("operator", "View::operator int", 6),
    }


def test_fields_of_anonymous_structs_belong_to_their_name_or_owner() -> None:
    c = facts(
        "typedef struct { int head; float tail; } ring_t;\n"
        "struct Outer { union { int i; float f; }; int n; };\n",
        path="x.c",
    )
    assert inventory(c) == {
        ("typedef", "ring_t", 1),
        ("field", "ring_t::head", 1),
        ("field", "ring_t::tail", 1),
        ("struct", "Outer", 2),
        ("field", "Outer::i", 2),
        ("field", "Outer::f", 2),
        ("field", "Outer::n", 2),
    }


def test_function_pointer_fields_lone_macros_and_defines_in_bodies() -> None:
    c = facts(
        "struct Ops { int (*open)(const char* p); void (*close)(void); };\n"
        "PROTOBUF_NAMESPACE_OPEN\n"
        "class Any { int size_; };\n"
        "PROTOBUF_NAMESPACE_CLOSE\n"
        "int f(int x) {\n"
        "#define SQ(v) ((v) * (v))\n"
        "  return SQ(x);\n"
        "}\n"
        "struct __align__(8) Pair { float a; };\n"
        "int Dict<K,\n"
        "         V>::size() const { return 0; }\n"
    )
    assert inventory(c) == {
        ("struct", "Ops", 1),
        ("field", "Ops::open", 1),
        ("field", "Ops::close", 1),
        ("class", "Any", 3),
        ("field", "Any::size_", 3),
        ("function", "f", 5),
        ("macro", "SQ", 6),
        ("struct", "Pair", 9),
        ("field", "Pair::a", 9),
        ("method", "Dict::size", 11),
    }
    assert "PROTOBUF_NAMESPACE_OPEN" in c.neutralised


def test_branches_that_each_open_a_head_are_read_first_branch_only() -> None:
    c = facts(
        "#ifdef _WIN32\n"
        "struct Node : Base {\n"
        "#else\n"
        "struct Node : Other {\n"
        "#endif\n"
        "  void apply();\n"
        "};\n"
        "struct After { int x; };\n"
    )
    found = {(kind, name) for kind, name, _ in inventory(c)}
    assert found == {
        ("struct", "Node"),
        ("method", "Node::apply"),
        ("struct", "After"),
        ("field", "After::x"),
    }


def test_only_an_error_at_a_branch_reads_the_first_branches_again() -> None:
    """A second reading costs a parse and a walk: it is made only where an error lies inside
    a conditional or holds one of its lines, never for an error elsewhere in the file."""
    import tree_sitter

    from docgen.scan.cfamily.scanner import error_at_branch, language

    parser = tree_sitter.Parser(language("cpp"))
    heads = b"#ifdef _WIN32\nstruct Node : Base {\n#else\nstruct Node : Other {\n#endif\n};\n"
    elsewhere = (
        b"#ifdef _WIN32\nint a;\n#else\nint b;\n#endif\nint broken( {;\nstruct After { int x; };\n"
    )
    assert error_at_branch(parser.parse(heads).root_node)
    broken = parser.parse(elsewhere).root_node
    assert broken.has_error and not error_at_branch(broken)


def test_a_block_opened_in_two_branches_of_a_body_is_read_first_branch_only() -> None:
    # libuv's kqueue.c: `if (...) {` in each branch; the grammar took every function after
    # it into the body, with no error inside the conditional
    source = (
        "void poll(int x) {\n"
        "  for (;;) {\n"
        "    for (int i = 0; i < x; i++) {\n"
        "#ifdef __APPLE__\n"
        "      if (x == 1) {\n"
        "#else\n"
        "      if (x == 2) {\n"
        "#endif\n"
        "        x++;\n"
        "      }\n"
        "      x--;\n"
        "    }\n"
        "  }\n"
        "}\n"
        "int after(void) { return 0; }\n"
        "int last(void) { return 1; }\n"
    )
    c = facts(source, "kqueue.c")
    assert inventory(c) == {
        ("function", "poll", 1),
        ("function", "after", 15),
        ("function", "last", 16),
    }


def test_a_continued_define_is_never_blanked() -> None:
    c = facts(
        "#define ACQUIRE(...) \\\n  __attribute__((acquire(__VA_ARGS__)))\n"
        "#define RELEASE(...) \\\n  __attribute__((release(__VA_ARGS__)))\n"
    )
    assert inventory(c) == {("macro", "ACQUIRE", 1), ("macro", "RELEASE", 3)}


def test_facts_do_not_depend_on_the_order_of_sets() -> None:
    """Two processes with different hash seeds read a file the same way, even when a macro
    is defined both object-like and function-like."""
    import os
    import subprocess
    import sys

    script = (
        "from docgen.scan.cfamily.scanner import scan\n"
        "from docgen.scan.cfamily.settings import ScanSettings\n"
        "from docgen.model.serialize import dumps\n"
        "macros = frozenset({'EXP', 'EXP()', 'API', 'A1', 'A2()', 'B3', 'C4()'})\n"
        "src = b'class API Foo { EXP (int) x; EXP(1) int y; };\\nA1 int f();\\n'\n"
        "print(dumps(scan('x.cpp', src, ScanSettings.of(attribute=macros))))\n"
    )
    outputs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_macros_with_lower_case_names_are_blanked_where_used() -> None:
    """`really_inline` is no upper-case candidate: it is looked for by name, and only a
    file that holds one of those names pays for that search."""
    data = b"really_inline int f();\nmy_api_v2 int g(int);\nint h();\n"
    table = MacroTable.of(table_of(attribute={"really_inline", "my_api_v2", "OTHER_API"}))
    assert table.unusual == ("my_api_v2", "really_inline")
    blanked = neutralise(data, table)
    assert blanked.names == ("my_api_v2", "really_inline")
    assert blanked.data == data.replace(b"really_inline", b" " * 13).replace(b"my_api_v2", b" " * 9)
    assert neutralise(b"int h();\n", table).names == ()
    facts = scan("f.cpp", data, ScanSettings.of(attribute={"really_inline", "my_api_v2"}))
    assert facts.cfamily is not None
    found = {d.name: d.attributes for d in facts.cfamily.definitions}
    assert found == {"f": ("really_inline",), "g": ("my_api_v2",), "h": ()}


def test_a_conditional_inside_an_initializer_list_leaves_the_scopes_whole() -> None:
    # leveldb's util/env_windows.cc: an `#if` with no `#else` among a constructor's
    # member initializers; read as written, every later class landed in `Limiter`
    c = facts(
        "namespace db {\n"
        "class Limiter {\n"
        " public:\n"
        "  Limiter(int n)\n"
        "      :\n"
        "#if !defined(NDEBUG)\n"
        "        max_(n),\n"
        "#endif\n"
        "        allowed_(n) {}\n"
        "  int allowed_;\n"
        "};\n"
        "class Env {\n"
        "  void Run();\n"
        "};\n"
        "}  // namespace db\n"
    )
    assert inventory(c) == {
        ("namespace", "db", 1),
        ("class", "db::Limiter", 2),
        ("constructor", "db::Limiter::Limiter", 4),
        ("field", "db::Limiter::allowed_", 10),
        ("class", "db::Env", 12),
        ("method", "db::Env::Run", 13),
    }
    assert c.error_lines == ()


def test_a_class_defined_in_a_function_is_named_within_it() -> None:
    # leveldb's `struct LogReporter : public log::Reader::Reporter { ... }` in DBImpl's
    # methods: ctags lists these classes and their members, and so does docgen
    c = facts(
        "namespace db {\n"
        "Status DB::Recover(int n) {\n"
        "  struct LogReporter : public Reporter {\n"
        "    int* status;\n"
        "    void Corruption(size_t bytes) override {}\n"
        "  };\n"
        "  if (n) { class Inner { int x; }; }\n"
        "  return Status();\n"
        "}\n"
        "void Free() { struct { int a; } anon; enum class Mode { kA }; }\n"
        "}\n"
    )
    assert inventory(c) == {
        ("namespace", "db", 1),
        ("method", "db::DB::Recover", 2),
        ("struct", "db::DB::Recover::LogReporter", 3),
        ("field", "db::DB::Recover::LogReporter::status", 4),
        ("method", "db::DB::Recover::LogReporter::Corruption", 5),
        ("class", "db::DB::Recover::Inner", 7),
        ("field", "db::DB::Recover::Inner::x", 7),
        ("function", "db::Free", 10),
        ("enum", "db::Free::Mode", 10),
        ("enumerator", "db::Free::Mode::kA", 10),
    }
    local = by_qualname(c, "db::DB::Recover::LogReporter")
    assert local.file_local and local.bases == ("public Reporter",)
    assert not by_qualname(c, "db::DB::Recover").file_local


def test_a_class_in_a_function_is_read_once() -> None:
    # the function's body and the class are both read: each launch, GPU call and
    # #define in the class is still listed once; a base with parentheses is no bar
    data = (
        b"__global__ void k(int);\n"
        b"void host() {\n"
        b"  struct F : std::function<void(int)> {\n"
        b"#define LOCAL_DEF 1\n"
        b"    void go() { k<<<1, 2>>>(3); cudaMalloc(0, 0); }\n"
        b"  };\n"
        b"}\n"
    )
    c = scan("x.cu", data).cfamily
    assert c is not None
    assert inventory(c) == {
        ("kernel", "k", 1),
        ("function", "host", 2),
        ("struct", "host::F", 3),
        ("macro", "LOCAL_DEF", 4),
        ("method", "host::F::go", 5),
    }
    assert [(k.kernel, k.line) for k in c.launches] == [("k", 5)]
    assert [(u.name, u.line) for u in c.gpu_calls] == [("cudaMalloc", 5)]


def test_a_spaced_else_keeps_its_branch() -> None:
    # `# else` (glibc style) is a branch too: the first-branches reading, which would
    # parse without an error here, leaves `only_in_else` out, so it is not taken for
    # leaving nothing out (only for finding more names)
    data = (
        b"namespace n {\n"
        b"# if defined(A)\n"
        b"struct A : Base {\n"
        b"  int a;\n"
        b"# else\n"
        b"struct A {\n"
        b"  int only_in_else;\n"
        b"# endif\n"
        b"  int both;\n"
        b"};\n"
        b"}\n"
    )
    c = scan("x.h", data).cfamily
    assert c is not None
    assert "only_in_else" in {d.name for d in c.definitions}


def test_a_constructor_of_an_upper_case_class_is_no_macro_use() -> None:
    # torch's `MNIST(const std::string& root, Mode mode = Mode::kTrain)` had been left out.
    c = facts("class MNIST {\n public:\n  explicit MNIST(int mode);\n  MNIST(const MNIST&);\n};\n")
    assert inventory(c) == {
        ("class", "MNIST", 1),
        ("constructor", "MNIST::MNIST", 3),
        ("constructor", "MNIST::MNIST", 4),
    }
    # Outside its class, an upper-case call is still a macro's use.
    assert inventory(facts("class A {};\nDECLARE_THING(x);\n")) == {("class", "A", 1)}


def test_classes_below_a_macro_opened_block_s_statements_are_read() -> None:
    # pybind11's tests: `TEST_SUBMODULE(name, m) { ... }` defines enums in inner blocks
    # and classes in lambdas (enums found by Universal Ctags 73.8 -> 98.4 %); what the
    # block defines at its top was read already, and is read once
    c = facts(
        "TEST_SUBMODULE(docstring_options, m) {\n"
        "  struct Foo { int value; };\n"
        "  {\n"
        "    enum class Mode { kA, kB };\n"
        "  }\n"
        '  m.def("dupes", []() { class Dupe1 {}; });\n'
        "  for (int i = 0; i < 2; ++i) { union U { int a; }; }\n"
        "}\n",
        "test_docstring_options.cpp",
    )
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "Foo", 2),
        ("field", "Foo::value", 2),
        ("enum", "Mode", 4),
        ("enumerator", "Mode::kA", 4),
        ("enumerator", "Mode::kB", 4),
        ("class", "Dupe1", 6),
        ("union", "U", 7),
        ("field", "U::a", 7),
    }


BRANCHED = b"""\
#if !defined(STABLE_ONLY)
namespace outer {
template <typename T>
class storage {
 public:
  ~storage() {
#ifdef GRAAL
#    if VERSION >= 3
    if (ready() == 0 || finalizing() != 0) {
#    else
    if (ready() == 0 || old_finalizing() != 0) {
#    endif
      return;
    }
#endif
    release(key_);
  }
  T* get() const;
};
#if defined(FAST)
struct hash_a { int h; };
#elif defined(SLOW)
struct hash_b { int h; };
#else
struct hash_c { int h; };
#endif
}  // namespace outer
#else
#error "not with STABLE_ONLY"
#endif
"""


def test_later_branches_are_taken_in_turn_and_an_error_only_branch_never() -> None:
    second = first_branches(BRANCHED, 1)[0].split(b"\n")
    assert second[1] == b"namespace outer {"  # the guard's `#error` branch is no reading
    assert b"old_finalizing" in second[10] and not second[8].strip()
    assert second[22] == b"struct hash_b { int h; };" and not second[20].strip()
    third = first_branches(BRANCHED, 2)[0].split(b"\n")
    assert third[24] == b"struct hash_c { int h; };" and not third[22].strip()
    assert first_branches(BRANCHED, 3)[0] == first_branches(BRANCHED, 2)[0]  # no fourth
    assert first_branches(BRANCHED)[0] == first_branches(BRANCHED, 0)[0]


def test_a_first_branches_reading_gets_the_names_of_the_later_branches_too() -> None:
    # pybind11's internals.h: a destructor opens `if (...) {` in both branches of a
    # conditional, so one syntax error held the file and its names lost their scopes;
    # the first branches read without one, and the `#elif` and `#else` names are read
    # from the second and third branches (torch's autograd Functions.h: 711 structs)
    c = scan("storage.h", BRANCHED).cfamily
    assert c is not None
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "outer", 2),
        ("class", "outer::storage", 4),
        ("destructor", "outer::storage::~storage", 6),
        ("method", "outer::storage::get", 18),
        ("struct", "outer::hash_a", 21),
        ("field", "outer::hash_a::h", 21),
        ("struct", "outer::hash_b", 23),
        ("field", "outer::hash_b::h", 23),
        ("struct", "outer::hash_c", 25),
        ("field", "outer::hash_c::h", 25),
    }


#: ggml's mmf.cuh: each branch of a kernel's conditional opens `if constexpr (...) {...}
#: else {` and one `}` after them all closes it, so reading every branch at once, one
#: syntax error held the file and the kernels' local typedefs read as the file's own
_MMF_KERNEL = """\
template <typename T, int rows>
__launch_bounds__(64, 1)
static __global__ void {name}(const T * __restrict__ x, float * __restrict__ dst) {{
#if defined(MMA_AVAILABLE) || defined(WMMA_AVAILABLE)
#if defined(WMMA_AVAILABLE)
    if constexpr (rows != 16) {{NO_DEVICE_CODE;}} else {{
    typedef tile<16, 8, T, layout()> tile_A;
    typedef tile<16, 8, float, J_MAJOR> tile_C;
#elif defined(MFMA_AVAILABLE)
    if constexpr (rows != 32) {{NO_DEVICE_CODE;}} else {{
    typedef tile<32, 8, T, I_MAJOR> tile_A;
    typedef tile<32, 8, float, J_MAJOR> tile_C;
#else
#ifdef VOLTA_AVAILABLE
    if constexpr (rows != 8) {{NO_DEVICE_CODE;}} else {{
    typedef tile<8, 4, T, I_MAJOR> tile_A;
    typedef tile<8, 8, float, I_MAJOR> tile_C;
#else
    if constexpr (rows != 4) {{NO_DEVICE_CODE;}} else {{
    typedef tile<4, 8, T> tile_A;
    typedef tile<4, 8, float> tile_C;
#endif // VOLTA_AVAILABLE
#endif // WMMA_AVAILABLE
    dst[0] = x[0];
    }}
#else
    NO_DEVICE_CODE;
#endif
}}
"""
BRANCH_OPENED_ELSE = (
    b"struct mmf_data {\n    int n;\n};\n\n"
    + "\n".join(_MMF_KERNEL.format(name=n) for n in ("mul_mat_f", "mul_mat_f_ids")).encode()
    + b"\nvoid after(int x);\n"
)


def test_a_reading_without_the_error_is_kept_over_one_that_lists_a_body_s_typedefs() -> None:
    c = scan("mmf.cuh", BRANCH_OPENED_ELSE).cfamily
    assert c is not None
    assert c.error_lines == ()
    assert inventory(c) == {
        ("struct", "mmf_data", 1),
        ("field", "mmf_data::n", 2),
        ("kernel", "mul_mat_f", 7),
        ("kernel", "mul_mat_f_ids", 37),
        ("function", "after", 65),
    }


def test_outside_bodies_leaves_out_names_on_the_lines_of_a_function_s_body() -> None:
    def named(kind: CKind, line: int, end_line: int, is_definition: bool = True) -> CDefinition:
        return CDefinition(kind, f"n{line}", f"n{line}", line, end_line, "", is_definition)

    reading = [
        named("function", 5, 20),
        named("method", 8, 12),  # nested in the first: one span
        named("function", 30, 30),  # a one-line body holds no other line
        named("function", 40, 40, is_definition=False),
        named("struct", 50, 60),  # a class's body is no function's
    ]
    names = [named("typedef", n, n) for n in (3, 5, 6, 12, 20, 21, 30, 40, 55)]
    assert [d.line for d in outside_bodies(names, reading)] == [3, 5, 21, 30, 40, 55]


def test_a_function_try_block_in_a_class_body_is_a_definition() -> None:
    # tree-sitter-cpp leaves the `try` unlabelled there (ggml's SYCL buffer context)
    source = b"struct ctx {\n    ~ctx() try {\n        release();\n    } catch (...) {\n    }\n};\n"
    c = scan("ctx.cpp", source).cfamily
    assert c is not None
    found = by_qualname(c, "ctx::~ctx")
    assert (found.kind, found.is_definition, found.end_line) == ("destructor", True, 5)


@pytest.mark.parametrize("ending", [b"\r", b"\r\n"])
def test_a_file_with_other_line_ends_reads_as_its_lf_twin(ending: bytes) -> None:
    lf = b"#define X 1\n\nint f(void) {\n  return X;\n}\n\nint g(void) { return 0; }\n"
    other = lf.replace(b"\n", ending)
    read, twin = scan("lone.c", other), scan("lone.c", lf)
    assert read.cfamily is not None and twin.cfamily is not None
    assert read.cfamily.definitions == twin.cfamily.definitions
    assert [d.name for d in read.cfamily.definitions] == ["X", "f", "g"]
    assert (read.line_count, read.problems, read.size) == (twin.line_count, (), len(other))
    assert read.sha256 != twin.sha256  # of the file's own bytes


def test_an_error_no_child_shows_is_placed_on_its_node() -> None:
    import tree_sitter

    from docgen.scan.cfamily.scanner import error_lines, language

    parser = tree_sitter.Parser(language("c"))
    root = parser.parse(b"int a;\n#define X 1\r").root_node  # the define's end is missing
    assert root.has_error
    assert error_lines(root) == ((2,), 1)


#: `TensorImpl.h`'s `has_storage` (torch 2.13), with a doc comment past any width.
LONG_DOC = ("word " * 700).strip()
HAS_STORAGE = (
    """class TensorImpl {
 public:
  /// """
    + LONG_DOC
    + """
  bool
  has_storage() const
// NOTE: we devirtualize this because it arguably shouldn't be an
// error just to ask subclasses if they have storage.
  {
    return true;
  }
  void set(const char* s = "a//b", int x /* the x */);
};
"""
)


def test_comments_inside_a_declaration_go_to_its_text_and_no_doc_is_cut() -> None:
    c = facts(HAS_STORAGE, "TensorImpl.h")
    method = by_qualname(c, "TensorImpl::has_storage")
    assert method.declaration == "bool has_storage() const"
    assert method.doc is not None
    doc, _, note = method.doc.partition("\n\n")
    assert doc == LONG_DOC  # whole, never cut
    assert note == (
        "NOTE: we devirtualize this because it arguably shouldn't be an\n"
        "error just to ask subclasses if they have storage."
    )
    setter = by_qualname(c, "TensorImpl::set")
    assert setter.declaration == 'void set(const char* s = "a//b", int x)'
    assert setter.doc == "the x"


def test_a_doc_comment_above_a_conditional_of_the_declaration_s_own_words() -> None:
    source = """/// Doc of the block
#ifdef X
void a();
#endif
void b();
/**
 * Doc of c.
 */
#ifdef DEBUG
  // debug builds only
  virtual
#else
  MAYBE_VIRTUAL
#endif
      void c();
"""
    c = facts(source, "x.h")
    assert by_qualname(c, "b").doc is None  # the conditional declares `a`: not b's
    assert by_qualname(c, "c").doc == "Doc of c."
