"""Forms found in rapidjson, a tree docgen had not read before: macros that make a
dependent type (`RAPIDJSON_DISABLEIF_RETURN((cond), (bool)) operator==(...)`), a macro
that is `if constexpr`, `typename` in an expression, and a conditional between the
heads of one function and its body.  Each cost the grammar the class around it."""

from __future__ import annotations

import tree_sitter
from hypothesis import given, settings
from hypothesis import strategies as st
from test_scan_cfamily import inventory

from docgen.scan.cfamily.preprocess.conditionals import head_conditionals_blanked
from docgen.scan.cfamily.preprocess.declaring_macros import type_macros
from docgen.scan.cfamily.preprocess.grammar_gaps import grammar_gaps_blanked
from docgen.scan.cfamily.preprocess.macros import attribute_macros, macro_defs, statement_macros
from docgen.scan.cfamily.scanner import language, scan
from docgen.scan.cfamily.settings import ScanSettings

SETTINGS = settings(max_examples=100, deadline=None)  # derandomized by the test profile

#: from rapidjson's internal/meta.h and pointer.h
DEFINES = """\
#define REMOVEFPTR_(type) typename ::rj::internal::RemoveSfinaeTag< ::rj::SfinaeTag&(*) type>::Type
#define ENABLEIF(cond) \\
    typename ::rj::internal::EnableIf<REMOVEFPTR_(cond)>::Type * = NULL
#define DISABLEIF_RETURN(cond,returntype) \\
    typename ::rj::internal::DisableIf \\
        <REMOVEFPTR_(cond), REMOVEFPTR_(returntype)>::Type
#if HAS_CXX17
#define IF_CONSTEXPR if constexpr
#else
#define IF_CONSTEXPR if
#endif
#ifdef TWO_WAYS
#define MIXED(x) typename x::type
#else
#define MIXED(x)
#endif
#define NOEXCEPT
"""

VALUE = """\
namespace rj {
template <typename Encoding>
class GenericValue {
public:
#ifndef DOXYGEN_RUNNING
    template <typename T>
    explicit GenericValue(T b, ENABLEIF((internal::IsSame<bool, T>))) NOEXCEPT
#else
    explicit GenericValue(bool b) NOEXCEPT
#endif
        : data_() {
        IF_CONSTEXPR (sizeof(T) == 1) { data_ = b; }
    }
    template <typename T> DISABLEIF_RETURN((internal::OrExpr<IsPointer<T>, IsValue<T> >), (bool))
    operator==(const T& rhs) const { return *this == GenericValue(rhs); }
    static GenericValue& Set(GenericValue& v, const char* s) {
        return v.SetString(typename GenericValue::StringRef(s));
    }
    int data_;
};
}  // namespace rj
"""


def learned(source: str) -> ScanSettings:
    return ScanSettings.learned(macro_defs(source.encode()), "cpp")


def test_macros_that_make_a_dependent_type_are_learned_and_no_other() -> None:
    defs = macro_defs(DEFINES.encode())
    attributes = attribute_macros(defs)
    assert not {"REMOVEFPTR_()", "ENABLEIF()", "DISABLEIF_RETURN()"} & attributes
    # MIXED is empty in the other branch: an attribute macro, blanked whole as before
    assert "MIXED()" in attributes
    assert type_macros(defs, attributes) == ("DISABLEIF_RETURN", "ENABLEIF", "REMOVEFPTR_")
    assert "IF_CONSTEXPR" in statement_macros(defs)  # `if` in every branch
    settings = learned(DEFINES)
    assert settings.named("type") == ("DISABLEIF_RETURN", "ENABLEIF", "REMOVEFPTR_")
    assert ScanSettings.from_json(settings.to_json()) == settings
    assert settings.key() != learned("#define ENABLEIF(cond) cond\n").key()


def test_a_class_written_with_them_reads_whole() -> None:
    c = scan("document.h", (DEFINES + VALUE).encode(), learned(DEFINES)).cfamily
    assert c is not None
    assert c.error_lines == ()
    at = DEFINES.count("\n")
    assert inventory(c) - {d for d in inventory(c) if d[0] == "macro"} == {
        ("namespace", "rj", at + 1),
        ("class", "rj::GenericValue", at + 3),
        # the first branch's head, with the body after the conditional: one constructor
        ("constructor", "rj::GenericValue::GenericValue", at + 7),
        ("operator", "rj::GenericValue::operator==", at + 15),
        ("method", "rj::GenericValue::Set", at + 16),
        ("field", "rj::GenericValue::data_", at + 19),
    }
    # no word of a type macro's arguments is a name (`OrExpr` had been a field)
    assert not {d.name for d in c.definitions} & {"OrExpr", "IsPointer", "IsValue", "internal"}
    equals = next(d for d in c.definitions if d.name == "operator==")
    assert equals.declaration.startswith("DISABLEIF_RETURN((internal::OrExpr<")  # as written
    assert equals.is_definition


def test_the_grammar_itself_refuses_these_forms() -> None:
    def has_error(source: bytes) -> bool:
        return tree_sitter.Parser(language("cpp")).parse(source).root_node.has_error

    # The reason for the rewrites: if a newer grammar reads them, they can go.
    assert has_error(b"T f() { return typename X::type(); }")
    assert has_error(b"T f() { return typename X<T>::type{}; }")
    assert has_error(b"struct A {\n#if X\n  A(int a)\n#else\n  A(long a)\n#endif\n  {}\n};\n")


def test_typename_before_a_type_called_in_an_expression_is_blanked() -> None:
    for before, after in (
        (b"T f() { return typename X::type(); }", b"T f() { return          X::type(); }"),
        (
            b"f(x, typename std::is_same<A, B<C>>::type{});",
            b"f(x,          std::is_same<A, B<C>>::type{});",
        ),
        (b"v = typename ::ns::T::R(s);", b"v =          ::ns::T::R(s);"),
    ):
        assert grammar_gaps_blanked(before) == after
    for kept in (
        b"void f(int a, typename T::R (*cb)(int));",  # a function's type: a declaration
        b"template <typename T, typename U> struct A {};",
        b"typename T::type x(1);",  # a declaration with its value
        b"using R = typename T::type;",  # no call
        b"std::function<typename T::R(int)> g;",  # a function type in template arguments
    ):
        assert grammar_gaps_blanked(kept) == kept


def test_a_conditional_between_a_function_s_heads_and_its_body_keeps_the_first() -> None:
    text = (
        "#ifdef _WIN32\nint __cdecl main(int argc, char *argv[])\n"
        "#else\nint main(int argc, char *argv[])\n#endif\n{\n  return 0;\n}\n"
    )
    blanked = head_conditionals_blanked(text.encode()).decode()
    lines = text.split("\n")
    assert blanked.split("\n") == [
        line if i in (1, 5, 6, 7, 8) else " " * len(line) for i, line in enumerate(lines)
    ]
    for kept in (
        "#if A\nint f(int a);\n#else\nint f(long a);\n#endif\n",  # declarations: no body after
        "#if A\nint f(int a)\n#endif\n{ return 0; }\n",  # one branch
        "#if A\nstruct S {\n#else\nstruct T {\n#endif\n};\n",  # a brace in a branch
        "#if A\n#define X 1\n#else\n#define X 2\n#endif\n{\n",  # directives
    ):
        assert head_conditionals_blanked(kept.encode()) == kept.encode()


@SETTINGS
@given(st.text(alphabet=" \t\n#(){}:;,<>*&=aifdelsentypmr_XT", max_size=160))
def test_the_rewrites_keep_every_byte_s_place(text: str) -> None:
    data = text.encode()
    for rewrite in (grammar_gaps_blanked, head_conditionals_blanked):
        out = rewrite(data)
        assert len(out) == len(data)
        assert [i for i, b in enumerate(out) if b == ord("\n")] == [
            i for i, b in enumerate(data) if b == ord("\n")
        ]


#: from libgit2's include/git2/common.h and pcre2 (vendored by libgit2)
DECLARATORS = """\
#if defined(_MSC_VER)
# define GIT_CALLBACK(name) (__cdecl *name)
#else
# define GIT_CALLBACK(name) (*name)
#endif
#define PRIV(name) _pcre2_##name
typedef int BOOL;

typedef int GIT_CALLBACK(git_apply_delta_cb)(const void *delta, void *payload);
struct git_odb_backend {
  int GIT_CALLBACK(read)(void **out, struct git_odb_backend *backend);
};
extern const uint8_t PRIV(default_tables)[];
BOOL
PRIV(ckd_smul)(size_t *r, int a, int b)
{
  return 0;
}
JEMALLOC_EXPORT
void (*test_hook)() = NULL;
"""


def test_macros_that_make_a_declarator_declare_the_name_they_are_given() -> None:
    settings = learned(DECLARATORS)
    assert settings.named("pointer") == ("GIT_CALLBACK",)
    assert ("PRIV()", "1") in settings.values("wrapper")  # pasted: listed as the name written
    c = scan("common.c", DECLARATORS.encode(), settings).cfamily
    assert c is not None
    assert c.error_lines == ()
    found = {(d.kind, d.qualname, d.line) for d in c.definitions if d.kind != "macro"}
    assert found == {
        ("typedef", "BOOL", 7),
        ("typedef", "git_apply_delta_cb", 9),
        ("struct", "git_odb_backend", 10),
        ("field", "git_odb_backend::read", 11),
        # `BOOL` alone over the function's name is its type, no macro's use
        ("function", "ckd_smul", 15),
    }
    # no macro is a name: `GIT_CALLBACK` had been a typedef, `PRIV` a function
    assert not {d.name for d in c.definitions if d.kind != "macro"} & {"GIT_CALLBACK", "PRIV"}
    typedef = next(d for d in c.definitions if d.name == "git_apply_delta_cb")
    assert typedef.declaration.startswith("typedef int GIT_CALLBACK(git_apply_delta_cb)(")


#: from TensorRT's python/src/infer/pyPlugin.cpp
HANDLERS = """\
#define PLUGIN_API_CATCH(func) \\
    catch (std::exception const& e) \\
    { \\
        std::cerr << "Exception caught in " << (func) << e.what() << std::endl; \\
    } \\
    catch (...) \\
    { \\
        std::cerr << "Exception caught in " << (func) << std::endl; \\
    }
#define TRY_ALL try
#define CATCH_ALL catch (...)
class Plugin {
  int getNbOutputs() const noexcept override
  {
    try
    {
      return compute();
    }
    PLUGIN_API_CATCH("num_outputs")
    return -1;
  }
  void terminate() noexcept;
};
"""


def test_a_macro_of_catch_handlers_is_read_as_one() -> None:
    settings = learned(HANDLERS)
    # a handler with its block: the use is one; `catch (...)` alone leaves its block
    assert settings.values("written") == (("PLUGIN_API_CATCH", "catch(...){}"),)
    assert "CATCH_ALL" in settings.attribute_macros
    c = scan("pyPlugin.cpp", HANDLERS.encode(), settings).cfamily
    assert c is not None
    assert c.error_lines == ()
    assert {(d.kind, d.qualname) for d in c.definitions if d.kind != "macro"} == {
        ("class", "Plugin"),
        ("method", "Plugin::getNbOutputs"),
        ("method", "Plugin::terminate"),
    }
