"""Access-specifier macros and conditionals around a specifier, as nlohmann/json writes
them: each had turned a class body into syntax errors that lost its members."""

from __future__ import annotations

from test_scan_cfamily import inventory

from docgen.scan.cfamily.preprocess.blanking import neutralise
from docgen.scan.cfamily.preprocess.conditionals import (
    head_conditionals_blanked,
    specifier_conditionals_blanked,
)
from docgen.scan.cfamily.preprocess.macro_def import table_of
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros import access_macros, macro_defs
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

ACCESS_MACROS = """\
#if defined(JSON_TESTS_PRIVATE)
    #define JSON_PRIVATE_UNLESS_TESTED public
#else
    #define JSON_PRIVATE_UNLESS_TESTED private
#endif
#define SOMETIMES_PUBLIC public
#define SOMETIMES_PUBLIC
#define PRIV private
"""


def test_macros_defined_only_as_access_specifiers_are_learned_with_one_keyword() -> None:
    defs = macro_defs(ACCESS_MACROS.encode())
    # SOMETIMES_PUBLIC is also defined empty: an attribute macro's reading, not this one
    assert access_macros(defs) == (("JSON_PRIVATE_UNLESS_TESTED", "private"), ("PRIV", "private"))
    settings = ScanSettings.learned(defs, "cpp")
    assert ScanSettings.from_json(settings.to_json()) == settings


def test_an_access_macro_before_a_colon_is_written_as_its_keyword_offsets_kept() -> None:
    table = MacroTable.of(table_of(access=[("JSON_PRIVATE_UNLESS_TESTED", "private")]))
    data = b"class A {\n  JSON_PRIVATE_UNLESS_TESTED:\n  int x;\n};\n"
    blanked = neutralise(data, table)
    assert blanked.data == data.replace(b"JSON_PRIVATE_UNLESS_TESTED", b"private".ljust(26))
    assert blanked.names == ("JSON_PRIVATE_UNLESS_TESTED",)
    assert blanked.spans == ()  # no attribute of what follows


def test_a_name_too_short_for_its_keyword_is_blanked_with_its_colon() -> None:
    table = MacroTable.of(table_of(access=[("PRIV", "private")]))
    data = b"class A {\n  PRIV :\n  int x;\n};\n"
    assert neutralise(data, table).data == data.replace(b"PRIV :", b" " * 6)


def test_an_access_macro_not_before_a_colon_is_left_as_written() -> None:
    table = MacroTable.of(table_of(access=[("PRIV", "private")]))
    for data in (b"int x = PRIV;\n", b"PRIV::y z;\n"):
        assert neutralise(data, table).data == data


SOURCE = (
    ACCESS_MACROS
    + """\
namespace nl {
class basic_json
{
  JSON_PRIVATE_UNLESS_TESTED:
    union json_value
    {
        int number;
        json_value() = default;
    };

  public:
    template <typename T>
#if defined(JSON_HAS_CPP_14)
    constexpr
#endif
    auto get() const -> T
    {
        return T{};
    }

  JSON_PRIVATE_UNLESS_TESTED:
    json_value m_value;
};
}  // namespace nl
"""
)


def test_a_class_with_access_macros_and_a_conditional_specifier_reads_whole() -> None:
    settings = ScanSettings.learned(macro_defs(SOURCE.encode()), "cpp")
    c = scan("json.hpp", SOURCE.encode(), settings).cfamily
    assert c is not None and c.error_lines == ()
    names = {(kind, qualname) for kind, qualname, _ in inventory(c) if kind != "macro"}
    assert names == {
        ("namespace", "nl"),
        ("class", "nl::basic_json"),
        ("union", "nl::basic_json::json_value"),
        ("field", "nl::basic_json::json_value::number"),
        ("constructor", "nl::basic_json::json_value::json_value"),
        ("method", "nl::basic_json::get"),
        ("field", "nl::basic_json::m_value"),
    }


def test_only_a_conditional_that_holds_nothing_but_specifiers_loses_its_directives() -> None:
    kept = b"#if A\nconstexpr\n#endif\n"
    assert specifier_conditionals_blanked(kept) == b"     \nconstexpr\n      \n"
    for data in (
        b"#if A\nconstexpr int x = 1;\n#endif\n",  # a whole declaration
        b"#if A\nconstexpr\n#else\ninline\n#endif\n",  # two branches
        b"#define X 1\nstatic\n",
    ):
        assert specifier_conditionals_blanked(data) == data


def test_a_conditional_left_empty_by_blanked_attributes_loses_its_directives() -> None:
    # FBGEMM's car.cu: `template <...>` / `#if defined(USE_ROCM)` / `__launch_bounds__(512)`
    # / `#endif` / `__global__ void one_shot_all_reduce(`: the kernel was lost
    source = (
        b"template <int kWorldSize>\n#if defined(USE_ROCM)\n__launch_bounds__(512)\n#endif\n"
        b"    __global__ void one_shot_all_reduce(int rank) {}\n"
    )
    c = scan("car.cu", source, ScanSettings.learned((), "cpp")).cfamily
    assert c is not None and c.error_lines == ()
    (kernel,) = c.definitions
    assert (kernel.kind, kernel.name, kernel.line) == ("kernel", "one_shot_all_reduce", 5)
    assert kernel.template == "template <int kWorldSize>"
    assert specifier_conditionals_blanked(b"#ifdef A\n\n#endif\n") == b"        \n\n      \n"


def test_a_keyword_a_header_defines_stays_a_keyword() -> None:
    # glext.h's `#define extern extern` had made `extern` an attribute macro of the whole
    # tree, and every `extern "C" {` a syntax error; CUTLASS's `#define constexpr` (for old
    # compilers) had listed `constexpr` as an export macro of 3,414 definitions
    header = b"#define extern extern\n#define constexpr\n#define inline __inline__\n"
    defs = macro_defs(header)
    assert defs == ()
    source = header + b'#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n'
    source += b"#ifdef __cplusplus\n}\n#endif\nconstexpr int g() { return 1; }\n"
    c = scan("glext.h", source, ScanSettings.learned(defs, "cpp")).cfamily
    assert c is not None and c.error_lines == () and c.neutralised == ()
    assert {(d.name, d.attributes) for d in c.definitions if d.kind == "function"} == {
        ("f", ()),
        ("g", ()),
    }


FILESYSTEM = """\
#if !defined(TORCH_STABLE_ONLY)
#if __has_include(<filesystem>)
#include <filesystem>
#elif __has_include(<experimental/filesystem>)
#include <experimental/filesystem>
#endif
namespace c10 {
#if __has_include(<filesystem>)
namespace filesystem = std::filesystem;
#elif __has_include(<experimental/filesystem>)
namespace filesystem = std::experimental::filesystem;
#endif
}  // namespace c10
#else
#error "not with TORCH_STABLE_ONLY"
#endif
"""


def test_first_branches_with_fewer_errors_are_kept_when_every_definition_stays() -> None:
    # c10/util/FileSystem.h: the grammar cannot read `__has_include(<...>)` in a test;
    # both readings find the same definitions and the first branches' one has no syntax
    # error (the `#else` leaves code out, so before, only more names made docgen keep
    # it): no warning is left on the page
    facts = scan("FileSystem.h", FILESYSTEM.encode(), ScanSettings())
    c = facts.cfamily
    assert c is not None and c.error_lines == () and facts.problems == ()
    assert inventory(c) == {("namespace", "c10", 7)}


def test_a_specifier_branch_may_hold_comments() -> None:
    source = b"#ifndef _WIN32\n  // MSVC cannot\n  constexpr\n#endif  // _WIN32\n  A() = default;\n"
    blanked = specifier_conditionals_blanked(source)
    assert blanked == source.replace(b"#ifndef _WIN32", b" " * 14).replace(
        b"#endif  // _WIN32", b" " * 17
    )


CATCH = """\
#if defined(CATCH_CONFIG_DISABLE_EXCEPTIONS)
#define CATCH_TRY if ((true))
#define CATCH_CATCH_ALL if ((false))
#else
#define CATCH_TRY try
#define CATCH_CATCH_ALL catch (...)
#endif
namespace Catch {
struct Benchmark {
    void run() {
        CATCH_TRY{
            auto plan = user_code([&] { return prepare(); });
        } CATCH_CATCH_ALL {
            fail();
        }
    }
    int count;
};
}  // namespace Catch
"""


def test_macros_for_exceptions_a_build_may_turn_off_leave_their_blocks() -> None:
    # Catch2's benchmark: `CATCH_TRY{` read as an initializer had cost the struct
    defs = macro_defs(CATCH.encode())
    settings = ScanSettings.learned(defs, "cpp")
    assert {"CATCH_TRY", "CATCH_CATCH_ALL"} <= settings.attribute_macros
    c = scan("catch_benchmark.hpp", CATCH.encode(), settings).cfamily
    assert c is not None and c.error_lines == ()
    assert {(kind, qualname) for kind, qualname, _ in inventory(c) if kind != "macro"} == {
        ("namespace", "Catch"),
        ("struct", "Catch::Benchmark"),
        ("method", "Catch::Benchmark::run"),
        ("field", "Catch::Benchmark::count"),
    }


HEADS = """\
namespace at::vec {
#if defined(__s390x__)
template <class T, class TEMP = void>
#elif defined(_MSC_VER)
template <class T, class U = int>  // MSVC
#else
template <class T>
#endif
struct Vectorized {
  T values[4];
};
}  // namespace at::vec
"""


def test_a_conditional_of_template_heads_is_read_with_its_first_head() -> None:
    # ATen's vec_base.h and fast_float: the grammars read the heads of every branch in a
    # row, which no declaration has, and lost the class after them
    blanked = head_conditionals_blanked(HEADS.encode())
    assert len(blanked) == len(HEADS.encode())
    lines = HEADS.split("\n")
    kept = {0, 2, *range(8, len(lines))}  # the first head, and all but the conditional
    assert blanked.decode().split("\n") == [
        line if i in kept else " " * len(line) for i, line in enumerate(lines)
    ]
    c = scan("vec_base.h", HEADS.encode(), ScanSettings()).cfamily
    assert c is not None and c.error_lines == ()
    vectorized = next(d for d in c.definitions if d.name == "Vectorized")
    assert (vectorized.qualname, vectorized.template) == (
        "at::vec::Vectorized",
        "template <class T, class TEMP = void>",
    )


def test_conditionals_with_more_than_a_head_are_left_alone() -> None:
    for text in (
        "#if A\ntemplate <class T>\n#endif\nstruct S {};\n",  # one branch: no second head
        "#if A\ntemplate <class T>\nstruct S {};\n#else\ntemplate <class U>\n#endif\n",
        "#if A\ntemplate <class T,\n          class U>\n#else\ntemplate <class T>\n#endif\n",
    ):
        assert head_conditionals_blanked(text.encode()) == text.encode()
