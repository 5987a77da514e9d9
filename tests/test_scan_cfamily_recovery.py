"""C-family names the grammar alone would lose: comments inside macro bodies, pragma
macros, and heads left in a stretch it could not parse (cases from NCCL's sources)."""

from __future__ import annotations

from test_scan_cfamily import facts, inventory

from docgen.model.languages import defines_macros
from docgen.scan.cfamily.preprocess.blanking import calls_at_errors_blanked, neutralise
from docgen.scan.cfamily.preprocess.conditionals import directive_comments_blanked
from docgen.scan.cfamily.preprocess.macro_def import table_of
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros import (
    attribute_macros,
    macro_defs,
    statement_macros,
    wrapper_macros,
)
from docgen.scan.cfamily.preprocess.macros_in_use import macros_in_use
from docgen.scan.cfamily.preprocess.namespace_macros import namespace_macros
from docgen.scan.cfamily.preprocess.source import kept_argument
from docgen.scan.cfamily.reader_macros import gtest_body_scope
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

CHECKS = """\
#define NEQCHECK(statement, value) \\
  do { \\
    if ((statement) != value) { \\
      /* Print the back trace*/ \\
      return 1; \\
    } \\
  } while (0)

#define NEQCHECKGOTO(statement, value, label) \\
  do { \\
    if ((statement) != value) { \\
      goto label; \\
    } \\
  } while (0)

int after() { return 0; }
"""


def test_a_comment_inside_a_continued_define_keeps_the_macros_after_it() -> None:
    c = facts(CHECKS, "checks.h")
    assert inventory(c) == {
        ("macro", "NEQCHECK", 1),
        ("macro", "NEQCHECKGOTO", 9),
        ("function", "after", 16),
    }
    assert c.error_lines == ()


def test_only_comments_within_a_continued_define_are_blanked() -> None:
    source = (
        b"/* licence */\n"
        b"#define ONE 1 /* one line: left */\n"
        b"#define TWO(x) \\\n  (x) /* inside */ \\\n  + 2\n"
        b"#define OPEN(x) \\\n  (x) /* runs past the directive\n  */\n"
        b"int x; /* after */\n"
        b"  # define SPACED(x) \\\n  /* too */ (x)\n"
        b"y = 1; #define NOT_A_DIRECTIVE \\\n /* kept */\n"
    )
    blanked = directive_comments_blanked(source)
    assert len(blanked) == len(source)
    assert blanked.count(b"\n") == source.count(b"\n")
    for kept in (b"/* licence */", b"/* one line: left */", b"/* runs past", b"/* after */"):
        assert kept in blanked
    assert b"/* kept */" in blanked
    for gone in (b"/* inside */", b"/* too */"):
        assert gone not in blanked
        assert blanked[source.index(gone) : source.index(gone) + len(gone)] == b" " * len(gone)
    assert directive_comments_blanked(b"int x; /* no define */") == b"int x; /* no define */"


def test_a_comment_over_continued_lines_keeps_their_backslashes() -> None:
    source = (
        "#define LIST(_) \\\n  _(a) \\\n  /* first \\\n   * second */ \\\n  _(b)\n"
        "int after(void) { return 0; }\n"
    )
    blanked = directive_comments_blanked(source.encode())
    assert blanked.count(b"\\\n") == 4
    c = facts(source, "x.h")
    assert c.error_lines == ()
    assert inventory(c) == {("macro", "LIST", 1), ("function", "after", 6)}


def test_a_comment_opener_in_a_string_is_no_comment() -> None:
    # the grammars take `"/*"` for a comment all the same: the literal's text is blanked
    source = '#define PATTERN "*.h" \\\n  "/*" \\\n  "x*/y"\nstruct after { int a; };\n'
    blanked = directive_comments_blanked(source.encode())
    assert blanked == source.encode().replace(b'"/*"', b'"  "').replace(b'"x*/y"', b'"    "')
    c = facts(source, "x.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("macro", "PATTERN", 1),
        ("struct", "after", 4),
        ("field", "after::a", 4),
    }


def test_a_pragma_macro_is_blanked_where_it_is_used() -> None:
    header = (
        b"#define DO_PRAGMA(x) _Pragma(#x)\n"
        b"#define UNROLL(n) DO_PRAGMA(unroll n)\n"
        b"#define MS_WARNINGS __pragma(warning(push))\n"
        b'#define PRAGMA_AND_CODE _Pragma("once") int x;\n'
    )
    learned = attribute_macros(macro_defs(header))
    assert learned == {"DO_PRAGMA()", "UNROLL()", "MS_WARNINGS"}
    source = (
        "template <int N> __device__ void load(int* p) {\n"
        "  UNROLL(N)\n"
        "  for (int i = 0; i < N; i++) { p[i] = 0; }\n"
        "}\n"
        "__device__ void after() {}\n"
    )
    c = facts(source, "x.cuh", learned)
    assert c.error_lines == ()
    assert inventory(c) == {("function", "load", 1), ("function", "after", 5)}


# Namespaces left open make one ERROR run of what follows them: the heads in the run
# still scope the names after them (`f` was read as a global function).
OPEN_NAMESPACES = "namespace x {\nnamespace a::inline b {\nint f() { return 1; }\n"


def test_a_namespace_head_in_an_error_still_scopes_what_follows() -> None:
    c = facts(OPEN_NAMESPACES, "open.hpp")
    assert c.error_lines  # the grammar's failure is still reported
    assert inventory(c) == {
        ("namespace", "x", 1),
        ("namespace", "x::a", 2),
        ("namespace", "x::a::b", 2),
        ("function", "x::a::b::f", 3),
    }
    (ns,) = [d for d in c.definitions if d.qualname == "x"]
    assert ns.declaration == "namespace x"
    assert ns.end_line == 3  # the end of the run, which never closes it


def test_an_inline_namespace_in_a_nested_head_is_a_namespace() -> None:
    c = facts("namespace a::inline b {\nint f() { return 1; }\n}\n")
    assert inventory(c) == {
        ("namespace", "a", 1),
        ("namespace", "a::b", 1),
        ("function", "a::b::f", 2),
    }


def test_heads_in_other_branches_are_not_nested() -> None:
    # as ATen's TopKImpl.h: the first branches are read, not both heads as one nest; the
    # other branch's head is read on its own line, and the code of both stays in the
    # first branch's scope (one `loop`, not one per namespace)
    source = (
        "#pragma once\nnamespace at::native {\n\n#ifdef CPU_CAPABILITY\n"
        "inline namespace CPU_CAPABILITY {\n#else\ninline namespace DEFAULT {\n#endif\n\n"
        "template <typename T>\nvoid loop(const T k) {\n}\n\n}\n}\n"
    )
    c = facts(source, "TopKImpl.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "at", 2),
        ("namespace", "at::native", 2),
        ("namespace", "at::native::CPU_CAPABILITY", 5),
        ("namespace", "at::native::DEFAULT", 7),
        ("function", "at::native::CPU_CAPABILITY::loop", 11),
    }


GGML_MACROS = """\
#ifdef __GNUC__
#    define GGML_DEPRECATED(func, hint) func __attribute__((deprecated(hint)))
#elif defined(_MSC_VER)
#    define GGML_DEPRECATED(func, hint) __declspec(deprecated(hint)) func
#else
#    define GGML_DEPRECATED(func, hint) func
#endif
#define GGML_API __attribute__((visibility("default")))
"""


def test_a_macro_that_wraps_a_declaration_keeps_what_it_wraps() -> None:
    # ggml.h: `GGML_DEPRECATED(decl, hint)` around hundreds of its API's prototypes
    defs = macro_defs(GGML_MACROS.encode())
    learned = attribute_macros(defs)
    assert learned == {"GGML_API"}
    wrappers = wrapper_macros(defs, learned)
    assert wrappers == (("GGML_DEPRECATED()", 1),)
    source = GGML_MACROS + (
        "GGML_DEPRECATED(\n"
        "    GGML_API double ggml_type_sizef(int type), // as float (a, b)\n"
        '    "use ggml_row_size(), not this");\n'
        "GGML_API int ggml_after(int x);\n"
    )
    result = scan(
        "ggml.h", source.encode(), ScanSettings.of("c", attribute=learned, wrapper=wrappers)
    ).cfamily
    assert result is not None
    assert result.error_lines == ()
    functions = {d.name: d for d in result.definitions if d.kind == "function"}
    assert {(d.name, d.line) for d in functions.values()} == {
        ("ggml_type_sizef", 10),
        ("ggml_after", 12),
    }
    sizef = functions["ggml_type_sizef"]
    assert sizef.attributes == ("GGML_DEPRECATED", "GGML_API")
    assert sizef.declaration == "GGML_API double ggml_type_sizef(int type)"
    assert "GGML_DEPRECATED" in result.neutralised
    without = scan("ggml.h", source.encode(), ScanSettings.of("c", attribute=learned)).cfamily
    assert without is not None and without.error_lines  # what the grammar alone makes of it


def test_macros_that_keep_nothing_or_more_than_an_argument_wrap_nothing() -> None:
    header = (
        b"#define STR(x) #x\n"
        b"#define CAT(a, b) a##b\n"
        b"#define TWICE(x) x x\n"
        b"#define CALL(f) f(1)\n"
        b"#define CODE(x) x + 1\n"
        b"#define SECOND(a, b) [[nodiscard]] b\n"
        b"#define UNKNOWN_AROUND(x) SOMETHING x\n"
    )
    defs = macro_defs(header)
    assert wrapper_macros(defs, attribute_macros(defs)) == (("SECOND()", 2),)


def test_a_use_of_this_files_macro_is_never_a_function() -> None:
    source = (
        "struct Impl {\n"
        "#define NOT_SUPPORTED(name) \\\n  int name() { return 0; }\n"
        "  NOT_SUPPORTED(add);\n"  # with `;`: no lone macro line, read as a declaration
        "  NOT_SUPPORTED(sub);\n"
        "#undef NOT_SUPPORTED\n"
        "  int kept();\n"
        "};\n"
        "#if defined(FAST)\n#define LOAD16(p) (*(const short*)(p))\n#else\n"
        "inline short LOAD16(const void* p) { return 0; }\n#endif\n"
        "#define os_alloc(n) malloc(n)\n"
        "static void* os_alloc(int n) { return 0; }\n"
    )
    names = {(d.kind, d.qualname, d.line) for d in facts(source, "impl.h").definitions}
    assert not any("NOT_SUPPORTED" in qualname for kind, qualname, _ in names if kind != "macro")
    assert ("method", "Impl::kept", 7) in names
    # defined in the other branch of its conditional: a function here, as written
    assert ("function", "LOAD16", 12) in names
    # a lower-case function under a macro's name is listed as written
    assert ("function", "os_alloc", 15) in names


def test_a_line_that_is_one_macro_call_is_blanked() -> None:
    # ggml's OpenVINO passes: the class was lost to the call with no `;` in its body
    source = (
        "namespace ov {\n"
        "class FuseToSDPA : public MatcherPass {\n"
        "public:\n"
        '    OPENVINO_MATCHER_PASS_RTTI("ov::FuseToSDPA")\n'
        "    FuseToSDPA();\n"
        "};\n"
        "class FDE {\n"
        " public:\n"
        "  FDE(void* data, int n)\n"
        "      : data_(data) {}\n"
        "  DEFINE_ACCESSOR(size)  // a comment\n"
        "  void* data_;\n"
        "};\n"
        "}\n"
        "CUSTOM_BLOCK(name)\n"
        "{\n"
        "}\n"
    )
    c = facts(source, "fuse_to_sdpa.h")
    assert c.error_lines == ()
    found = inventory(c)
    assert ("class", "ov::FuseToSDPA", 2) in found
    assert ("constructor", "ov::FuseToSDPA::FuseToSDPA", 5) in found
    # an upper-case constructor whose initializers follow on the next line is no macro
    assert ("constructor", "ov::FDE::FDE", 9) in found
    assert ("field", "ov::FDE::data_", 12) in found
    assert {"OPENVINO_MATCHER_PASS_RTTI", "DEFINE_ACCESSOR"} <= set(c.neutralised)
    assert "CUSTOM_BLOCK" not in c.neutralised  # its body opens on the next line
    assert not any(d.name in ("size", "DEFINE_ACCESSOR") for d in c.definitions)


def test_functions_in_a_c_block_the_grammar_could_not_place_are_the_files() -> None:
    # jemalloc's ctl.c: a brace the grammar could not place took the rest of the file
    # into one block; in C its functions are still the file's
    source = (
        "{\n\tint x;\n\nstatic int\nfirst_ctl(int a) {\n\treturn a;\n}\n\n"
        "int second(void) { return 0; }\n"
        "#define OP(a) a\ntypedef struct s s_t;\nstruct s { int a; };\n"
    )
    c = facts(source, "ctl.c")
    assert c.error_lines
    assert inventory(c) == {
        ("function", "first_ctl", 5),
        ("function", "second", 9),
        ("macro", "OP", 10),
        ("typedef", "s_t", 11),
        ("struct", "s", 12),
        ("field", "s::a", 12),
    }
    (first,) = [d for d in c.definitions if d.name == "first_ctl"]
    assert first.file_local
    # in C++ such a block may hold a class's members: nothing is read from it
    assert inventory(facts(source, "ctl.cc")) == set()


def test_a_macro_defined_in_another_conditional_leaves_the_name() -> None:
    # redis's zmalloc.h: the macro and the prototype stand in exclusive conditionals
    source = (
        "#ifdef HAVE_SIZE\n#define zsize(p) m(p)\n#endif\n"
        "#ifndef HAVE_SIZE\nsize_t zsize(void *ptr);\n#endif\n"
        "#define twice(x) x\nint twice(int x);\n"
    )
    found = inventory(facts(source, "zmalloc.h"))
    assert ("function", "zsize", 5) in found
    assert ("function", "twice", 8) not in found  # in force where it is used


def test_a_head_whose_parameters_open_on_the_next_line_is_no_macro_line() -> None:
    # jemalloc: `MAKE_NAME(je_, smallocx)` then `(size_t size, ...)` on the next line
    source = "int ATTR\nMAKE_NAME(je_, smallocx)\n  (size_t size, int flags) {\n  return 0;\n}\n"
    c = facts(source, "jemalloc.c")
    assert "MAKE_NAME" not in c.neutralised
    assert not any(d.name in ("ATTR", "MAKE_NAME") for d in c.definitions)


def test_a_registration_on_a_line_of_its_own_is_read_not_blanked() -> None:
    source = "namespace at::native {\nREGISTER_DISPATCH(add_stub, &add_kernel)\n}\n"
    c = facts(source, "kernel.cpp")
    assert "REGISTER_DISPATCH" not in c.neutralised
    assert [r.name for r in c.registrations] == ["add_stub"]


def test_braces_after_a_method_in_a_class_are_its_body() -> None:
    # flameshot's `virtual void setCapture(const QPixmap& pixmap){};`: the grammar reads
    # the braces as a member's initializer, which a function's declarator never takes
    source = (
        "class C {\n public:\n  virtual void set(const QPixmap& p){};\n"
        "  virtual void move(const QPoint& pos) { Q_UNUSED(pos) };\n"
        "  void later();\n  int count{};\n};\n"
    )
    c = facts(source, "capturetool.h")
    kinds = {d.qualname: (d.kind, d.is_definition, d.declaration) for d in c.definitions}
    assert kinds["C::set"] == ("method", True, "virtual void set(const QPixmap& p)")
    assert kinds["C::move"] == ("method", True, "virtual void move(const QPoint& pos)")
    assert kinds["C::later"] == ("method", False, "void later()")
    assert kinds["C::count"] == ("field", True, "int count{}")


def test_a_typedef_the_grammar_could_not_read_names_nothing() -> None:
    # curl: with a calling convention it does not know, the grammar reads a parameter's
    # type where the typedef's name stands; Windows' own are known
    source = (
        "typedef LONG (APIENTRY *VERIFY_FN)\n  (struct INFO *, ULONG, ULONGLONG);\n"
        "typedef LONG (XAPI *OTHER_FN)\n  (ULONG, ULONGLONG);\n"
        "typedef int (*plain_fn)(int);\n"
    )
    c = facts(source, "version_win32.c")
    assert inventory(c) == {("typedef", "VERIFY_FN", 1), ("typedef", "plain_fn", 5)}
    (verify,) = [d for d in c.definitions if d.name == "VERIFY_FN"]
    assert verify.attributes == ("APIENTRY",)


def test_windows_calling_conventions_are_blanked_where_no_header_defines_them() -> None:
    # libuv's Windows sources: `CALLBACK` and `PASCAL` come from windows.h
    source = (
        "static void CALLBACK on_wait(void* context, BOOLEAN timed_out) {}\n"
        "typedef BOOL (PASCAL *LPFN_ACCEPTEX)\n"
        "             (SOCKET sListenSocket,\n"
        "              DWORD dwBytesReceived);\n"
        "DECLSPEC_IMPORT int WSAAPI GetAddrInfoW(const WCHAR* node);\n"
    )
    c = facts(source, "win.c")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("function", "on_wait", 1),
        ("typedef", "LPFN_ACCEPTEX", 2),
        ("function", "GetAddrInfoW", 5),
    }


ABSL_CONFIG = """\
#if ABSL_OPTION_USE_INLINE_NAMESPACE == 0
#define ABSL_NAMESPACE_BEGIN
#define ABSL_NAMESPACE_END
#else
#define ABSL_NAMESPACE_BEGIN \\
  inline namespace ABSL_OPTION_INLINE_NAMESPACE_NAME {
#define ABSL_NAMESPACE_END }
#endif
"""


def test_a_closing_namespace_macro_is_blanked_when_its_opening_one_was() -> None:
    # abseil: the opening macro's namespace is named by another macro, too long to write
    # over `ABSL_NAMESPACE_BEGIN`; a `}` for the closing one ended `namespace absl` early
    defs = macro_defs(ABSL_CONFIG.encode())
    namespaces = namespace_macros(defs)
    assert namespaces == (
        ("ABSL_NAMESPACE_BEGIN", "ABSL_OPTION_INLINE_NAMESPACE_NAME"),
        ("ABSL_NAMESPACE_END", "}"),
    )
    source = (
        "namespace absl {\nABSL_NAMESPACE_BEGIN\nint before();\nABSL_NAMESPACE_END\n}\n"
        "namespace absl {\nABSL_NAMESPACE_BEGIN\nnamespace internal {\nstruct Rep {};\n}\n"
        "int after();\nABSL_NAMESPACE_END\n}\n"
    )
    settings = ScanSettings.of("cpp", attribute=attribute_macros(defs), namespace=namespaces)
    result = scan("absl/x.h", source.encode(), settings).cfamily
    assert result is not None and result.error_lines == ()
    assert inventory(result) == {
        ("namespace", "absl", 1),
        ("function", "absl::before", 3),
        ("namespace", "absl", 6),
        ("namespace", "absl::internal", 8),
        ("struct", "absl::internal::Rep", 9),
        ("function", "absl::after", 11),
    }


def test_a_declaring_macro_call_from_the_first_column_is_blanked_with_its_semicolon() -> None:
    # abseil's flags: `ABSL_FLAG(bool, name, ...)`, whose arguments are types, made the rest
    # of the file one error and lost the struct after it
    source = (
        "namespace {\n"
        "}  // namespace\n"
        'ABSL_FLAG(bool, verbose, false, "");\n'
        'ABSL_FLAG(std::vector<int>, sizes, {}, "");\n'
        "GMOCK_DEFINE_DEFAULT_(unsigned short, 0U);  // NOLINT\n"
        "struct Value { int a; };\n"
        "static int\n"
        "LOOKUP(int key, int fallback);\n"
        'DEPRECATED(int old_api(int x), "use new_api");\n'
        "void f(float* p) {\n"
        "  CUDA_CHECK(cudaMalloc(&p, 4));\n"
        "}\n"
    )
    c = facts(source, "flags_test.cc")
    found = inventory(c)
    assert ("struct", "Value", 6) in found and ("field", "Value::a", 6) in found
    assert {"ABSL_FLAG", "GMOCK_DEFINE_DEFAULT_"} <= set(c.neutralised)
    # a prototype whose type is on the line before, a macro that wraps a declaration, and
    # a statement in a body (its CUDA call is evidence) are left as written
    assert ("function", "LOOKUP", 8) in found
    assert not {"LOOKUP", "DEPRECATED", "CUDA_CHECK"} & set(c.neutralised)
    assert [call.name for call in c.gpu_calls] == ["cudaMalloc"]


def test_a_declaring_macro_named_with_an_underscore_first_is_blanked_too() -> None:
    """torch's `avx_mathfun.h`: `_PS256_CONST_TYPE(min_norm_pos, int, 0x00800000);`
    (a macro that declares a constant) made 99 syntax errors and lost its functions."""
    source = (
        "#define _PS256_CONST_TYPE(Name, Type, Val) static const Type _ps256_##Name[8] = {Val}\n"
        "_PS256_CONST_TYPE(min_norm_pos, int, 0x00800000);\n"
        "_PS256_CONST_TYPE(mant_mask, int, 0x7f800000);\n"
        "inline v8sf log256_ps(v8sf x) {\n"
        "  return x;\n"
        "}\n"
    )
    c = facts(source, "ATen/native/cpu/avx_mathfun.h")
    assert c.error_lines == ()
    assert ("function", "log256_ps", 4) in inventory(c)
    assert "_PS256_CONST_TYPE" in c.neutralised


def test_classes_defined_in_a_test_body_are_named_within_the_test() -> None:
    # googletest puts a test's body in the `TestBody` method of the class it declares
    source = (
        "namespace absl {\n"
        "TEST(Btree, ValueComp) {\n"
        "  struct key_compare {\n"
        "    bool operator()(int l, int r) const { return l < r; }\n"
        "    int id;\n"
        "  };\n"
        "  {\n"
        "    enum class Mode { kA };\n"
        "  }\n"
        "}\n"
        "TYPED_TEST(MapTest, Insert) { struct Item {}; }\n"
        "}\n"
        "struct Kernel {\n"
        "  void operator()(int x) { enum class Role { kLoad }; }\n"
        "};\n"
    )
    c = facts(source, "btree_test.cc")
    scope = "absl::Btree_ValueComp_Test::TestBody"
    assert inventory(c) == {
        ("namespace", "absl", 1),
        ("struct", f"{scope}::key_compare", 3),
        ("operator", f"{scope}::key_compare::operator()", 4),
        ("field", f"{scope}::key_compare::id", 5),
        ("enum", f"{scope}::Mode", 8),
        ("enumerator", f"{scope}::Mode::kA", 8),
        ("struct", "absl::gtest_suite_MapTest_::Insert::TestBody::Item", 11),
        ("struct", "Kernel", 13),
        ("operator", "Kernel::operator()", 14),
        ("enum", "Kernel::operator()::Role", 14),  # a CUDA functor's body (CUTLASS)
        ("enumerator", "Kernel::operator()::Role::kLoad", 14),
    }
    local = [d for d in c.definitions if "::TestBody::" in d.qualname or "()::" in d.qualname]
    assert len(local) == 8 and all(d.file_local for d in local)
    assert [t.name for t in c.test_cases] == ["Btree.ValueComp", "MapTest.Insert"]


def test_a_body_that_runs_to_the_end_of_the_file_names_no_class() -> None:
    # folly: an error left a test's `}` to the grammar, and the test's body ran over the
    # classes after it, which are no test's
    c = facts(
        "TEST(Vec, Max) {\n  struct Obj { int a; };\n  auto x = [&] { return 1;\n}\n"
        "namespace {\nstruct After {};\n}\n",
        "vec_test.cc",
    )
    assert c.error_lines
    assert not any("TestBody" in d.qualname for d in c.definitions)


def test_a_test_body_has_a_scope_only_where_its_expansion_is_known() -> None:
    assert gtest_body_scope("TEST_F", ["Fixture", "Case"]) == ("Fixture_Case_Test", "TestBody")
    assert gtest_body_scope("TEST", ["Suite", "NAME(x)"]) is None
    assert gtest_body_scope("CUDA_TEST", ["Suite", "Case"]) is None
    assert gtest_body_scope("TEST", ["Suite"]) is None


QUEUE_MACROS = """\
#define queue_foreach(q, h) \\
  for ((q) = (h)->next; (q) != (h); (q) = (q)->next)
#define CHECK(x) if (!(x)) { abort(); }
"""


def test_a_macro_that_opens_a_loop_is_read_as_the_statement_it_opens() -> None:
    # libuv's `uv__queue_foreach(q, h) { ... }`: a call followed by a block, which the C
    # grammar could not read, took the functions after it
    defs = macro_defs(QUEUE_MACROS.encode())
    assert statement_macros(defs) == ("queue_foreach",)  # CHECK is a whole statement
    source = QUEUE_MACROS + (
        "void reap(struct loop* loop) {\n"
        "  struct queue* q;\n"
        "  if (loop->n) {\n"
        "    queue_foreach(q, &loop->handles) {\n"
        "      if (q->pid == 0) { break; }\n"
        "    }\n"
        "    CHECK(loop->n > 0);\n"
        "  }\n"
        "}\n"
        "void after(void) {}\n"
    )
    settings = ScanSettings.learned(defs, "c")
    assert settings.named("statement") == ("queue_foreach",)
    assert ScanSettings.from_json(settings.to_json()) == settings
    c = scan("queue.c", source.encode(), settings).cfamily
    assert c is not None and c.error_lines == ()
    assert inventory(c) == {
        ("macro", "queue_foreach", 1),
        ("macro", "CHECK", 3),
        ("function", "reap", 4),
        ("function", "after", 13),
    }
    assert "queue_foreach" in c.neutralised and "CHECK" not in c.neutralised


def test_the_unusual_names_pattern_finds_exactly_those_names() -> None:
    names = ("really_inline", "really", "Sleef_float2_DEFINED", "Sleef_double2_DEFINED", "a.b")
    table = MacroTable.of(table_of(attribute=names))
    pattern = table.any_unusual
    assert pattern is not None
    for name in table.unusual:
        assert pattern.search(b"x " + name.encode() + b" y")
    assert pattern.search(b"really") and not pattern.search(b"reall Sleef_float a_b")


PYBIND11_MACROS = """\
#define PYBIND11_NAMESPACE_BEGIN(name) \\
    namespace name {                \\
    PYBIND11_WARNING_PUSH
#define PYBIND11_NAMESPACE_END(name) \\
    PYBIND11_WARNING_POP             \\
    }
#if defined(__GNUG__)
#  define PYBIND11_NAMESPACE pybind11 __attribute__((visibility("hidden")))
#else
#  define PYBIND11_NAMESPACE pybind11
#endif
"""


def test_namespace_macros_that_also_push_a_pragma_and_a_macro_for_the_name() -> None:
    # the torch wheel's pybind11: its namespace macros open and close a warning pragma
    # too, and its top namespace is written as a macro; 46 headers had no scope
    defs = macro_defs(PYBIND11_MACROS.encode())
    settings = ScanSettings.learned(defs, "cpp")
    assert settings.values("namespace") == (
        ("PYBIND11_NAMESPACE_BEGIN()", "$1"),
        ("PYBIND11_NAMESPACE_END()", "}"),
    )
    assert settings.values("name") == (("PYBIND11_NAMESPACE", "pybind11"),)
    assert ScanSettings.from_json(settings.to_json()) == settings
    source = PYBIND11_MACROS + (
        "PYBIND11_NAMESPACE_BEGIN(PYBIND11_NAMESPACE)\n"
        "PYBIND11_NAMESPACE_BEGIN(detail)\n"
        "struct type_caster {};\n"
        "PYBIND11_NAMESPACE_END(detail)\n"
        "class cpp_function {};\n"
        "PYBIND11_NAMESPACE_END(PYBIND11_NAMESPACE)\n"
    )
    c = scan("pybind11.h", source.encode(), settings).cfamily
    assert c is not None and c.error_lines == ()
    assert {d for d in inventory(c) if d[0] != "macro"} == {
        ("namespace", "pybind11", 12),
        ("namespace", "pybind11::detail", 13),
        ("struct", "pybind11::detail::type_caster", 14),
        ("class", "pybind11::cpp_function", 16),
    }


def test_a_class_defined_as_a_functions_return_type_is_a_class() -> None:
    # valid C, and what the grammar makes of a class whose body it closed early (folly's
    # `class Function final : ...`): the rest of the class read as a function
    c = facts(
        "struct pair { int a; } make_pair(void) {\n  struct pair p = {1};\n  return p;\n}\n",
        "pair.c",
    )
    assert inventory(c) == {
        ("struct", "pair", 1),
        ("field", "pair::a", 1),
        ("function", "make_pair", 1),
    }


def test_attribute_macros_a_file_shows_beside_pointers_and_after_parameters() -> None:
    # protobuf's generated headers: nullability macros defined in another library made
    # `PROTOBUF_NONNULL` a field and lost the methods after it
    source = (
        "class Message final {\n"
        " public:\n"
        "  UnknownFieldSet* PROTOBUF_NONNULL\n"
        "  mutable_unknown_fields() ABSL_ATTRIBUTE_LIFETIME_BOUND {\n"
        "    return fields_;\n"
        "  }\n"
        "  Message* PROTOBUF_NONNULL New(Arena* PROTOBUF_NULLABLE arena = nullptr) const;\n"
        "  int size() const;\n"
        "};\n"
    )
    assert macros_in_use(source.encode()) == {
        "PROTOBUF_NONNULL",
        "PROTOBUF_NULLABLE",
        "ABSL_ATTRIBUTE_LIFETIME_BOUND",
    }
    c = facts(source, "message.pb.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("class", "Message", 1),
        ("method", "Message::mutable_unknown_fields", 4),
        ("method", "Message::New", 7),
        ("method", "Message::size", 8),
    }
    # a product in an expression is no declaration, nor is a placement new's type
    assert macros_in_use(b"int area = width * HEIGHT;\nreturn a * SCALE + b;\n") == set()
    assert macros_in_use(b"auto* mu = ::new (static_cast<void*>(&mu_)) SRWLOCK;\n") == set()


def test_the_defines_of_textual_includes_are_learned() -> None:
    assert defines_macros("src/google/protobuf/port_def.inc")
    assert defines_macros("config.h.in") and not defines_macros("notes.txt")


#: torch's `torch/csrc/utils/pybind.h` (25 syntax errors): a macro call in a class body
#: whose arguments are expressions read as a method declaration
TYPE_CASTERS = """\
namespace pybind11::detail {
template <>
struct type_caster<at::Tensor> {
 public:
  PYBIND11_TYPE_CASTER(at::Tensor, _("torch.Tensor"));
  bool load(handle src, bool);
  PYBIND11_TYPE_CASTER(type,
                       io_name("collections.abc.Set", "set") + const_name("[")
                           + const_name("]"));
  static handle cast(const at::Tensor& src, return_value_policy, handle);
};
}  // namespace pybind11::detail
void check(float* p) {
  TORCH_CHECK(cudaMalloc(&p, 4) == cudaSuccess, "no memory");
}
"""


def test_macro_calls_the_grammar_took_for_declarations_are_read_without_them() -> None:
    c = facts(TYPE_CASTERS, "torch/csrc/utils/pybind.h")
    assert c.error_lines == ()
    assert inventory(c) == {
        ("namespace", "pybind11", 1),
        ("namespace", "pybind11::detail", 1),
        ("struct", "pybind11::detail::type_caster", 3),
        ("method", "pybind11::detail::type_caster::load", 6),
        ("method", "pybind11::detail::type_caster::cast", 10),
        ("function", "check", 13),
    }
    # a call statement the grammar reads stays, with the CUDA call that is evidence
    assert [call.name for call in c.gpu_calls] == ["cudaMalloc"]


def test_only_calls_on_error_lines_are_blanked() -> None:
    source = b'  FOO(a, "x");\n  BAR(b, "y");\n  BAZ(\n    c, "z");\n  REGISTER_DISPATCH(s, &k);\n'
    blanked = calls_at_errors_blanked(source, [1, 4, 5])
    assert blanked.split(b"\n")[1] == b'  BAR(b, "y");'  # no error on its line
    assert blanked.split(b"\n")[0].strip() == b""
    assert blanked.split(b"\n")[2].strip() == blanked.split(b"\n")[3].strip() == b""
    assert b"REGISTER_DISPATCH" in blanked  # a registration is read, never blanked
    assert len(blanked) == len(source)
    assert calls_at_errors_blanked(source, []) is source


JITERATOR = """\
#define jiterator_code(...) __VA_ARGS__
#define stringify_code(...) #__VA_ARGS__
#if defined(__CUDACC__)
#define jiterator_also_stringify_as(code, str_name) \\
  code /* define the function */                    \\
      const std::string str_name = std::string(stringify_code(code));
#else
#define jiterator_also_stringify_as(code, str_name) code
#endif
namespace {
jiterator_also_stringify_as(jiterator_code(
  template <typename T, typename U>
  T chbevl(T x, const T array[], const int len) {
    T b0, b1, b2 = 0;
    for (int i = 1; i < len; ++i) {
      b2 = b1;
    }
    return (0.5 * (b0 - b2));
  }
),
  chbevl_string) // chbevl_string
int after(int x);
}
"""


def test_a_variadic_wrapper_keeps_every_argument_however_long() -> None:
    # PyTorch's ATen/native/Math.h: `jiterator_code` had been listed as a function, and
    # the template it wraps, longer than a call is otherwise followed, was lost
    body = "      b2 = b1;\n"
    source = JITERATOR.replace(body, body * 200)  # 3,200 bytes more of arguments
    defs = macro_defs(source.encode())
    learned = attribute_macros(defs)
    wrappers = wrapper_macros(defs, learned)
    assert wrappers == (("jiterator_also_stringify_as()", 1), ("jiterator_code()", -1))
    c = scan(
        "Math.h", source.encode(), ScanSettings.of("cpp", attribute=learned, wrapper=wrappers)
    ).cfamily
    assert c is not None and c.error_lines == ()
    assert {(d.kind, d.qualname) for d in c.definitions if d.kind != "macro"} == {
        ("namespace", "(anonymous)"),
        ("function", "chbevl"),
        ("function", "after"),
    }
    chbevl = next(d for d in c.definitions if d.name == "chbevl")
    assert chbevl.template == "template <typename T, typename U>"
    assert chbevl.declaration == "T chbevl(T x, const T array[], const int len)"


def test_a_variadic_argument_is_kept_to_the_end_of_the_call() -> None:
    data = b"W(a, b(c, d), e) rest"
    assert kept_argument(data, 1, 1) == ((2, 3), 16)
    assert kept_argument(data, 1, -1) == ((2, 15), 16)  # commas part nothing from there
    assert kept_argument(data, 1, -2) == ((5, 15), 16)
    assert kept_argument(data, 1, -4) is None  # no fourth argument


def test_a_wrapper_given_nothing_is_left_as_written() -> None:
    # abseil's `ABSL_INTERNAL_SINGLE_ARG()`, the last argument of another macro's call:
    # blanked, it had left `f(a, );`, a syntax error on every such line
    assert kept_argument(b"W() x", 1, -1) is None
    assert kept_argument(b"W(a, ) x", 1, 2) is None
    table = MacroTable.of(table_of(wrapper=[("SINGLE_ARG()", -1)]))
    data = b"  X(insert, const&, false, SINGLE_ARG());\n  X(y, SINGLE_ARG(int, 2));\n"
    blanked = neutralise(data, table)
    assert blanked.data.startswith(b"  X(insert, const&, false, SINGLE_ARG());\n")
    assert blanked.data.endswith(b"  X(y,            int, 2 );\n")
