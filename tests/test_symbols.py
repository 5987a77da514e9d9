"""Declarations matched to definitions: the bracket scans that read parameter lists
agree with a plain character-by-character reading of the same text (what is left of
a parameter once its default is cut is read by `without_name` in both)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.index.symbols import (
    CppSymbols,
    _parameter_type,
    _parameters,
    signature_key,
    specialization_arguments,
    without_name,
)
from docgen.model.cfamily_facts import CDefinition
from docgen.model.facts import ScannedFile
from docgen.scan.cfamily.reader_macros import split_commas
from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings


def reference_split_commas(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [" ".join(p.split()) for p in parts if p.strip()]


def reference_parameters(declaration: str, name: str) -> str | None:
    at = declaration.find(name + "(")
    at = at if at >= 0 else declaration.find(name)
    start = declaration.find("(", at + len(name)) if at >= 0 else -1
    depth = 0
    for i, ch in enumerate(declaration[start:] if start >= 0 else "", start):
        depth += (ch in "(<[{") - (ch in ")>]}")
        if depth == 0 and ch in ")>]}":
            return declaration[start + 1 : i]
    return None


def reference_parameter_type(parameter: str) -> str:
    depth = 0
    for i, ch in enumerate(parameter):
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            parameter = parameter[:i].strip()
            break
    return without_name(parameter).replace(" ", "")


PIECES = st.sampled_from(
    ["f", "(", ")", "<", ">", "[", "]", "{", "}", ",", "=", " ", "int", "x", "T", "::", "&", "\n"]
)
TEXTS = st.lists(PIECES, max_size=30).map("".join)


@settings(max_examples=400)
@given(TEXTS)
def test_split_commas_reads_as_one_char_at_a_time(text: str) -> None:
    assert split_commas(text) == reference_split_commas(text)


@settings(max_examples=400)
@given(TEXTS, st.sampled_from(["f", "x", "T"]))
def test_parameters_read_as_one_char_at_a_time(declaration: str, name: str) -> None:
    assert _parameters(declaration, name) == reference_parameters(declaration, name)


@settings(max_examples=400)
@given(TEXTS)
def test_a_parameter_type_reads_as_one_char_at_a_time(parameter: str) -> None:
    assert _parameter_type(parameter) == reference_parameter_type(parameter)


def test_signature_keys_ignore_names_and_defaults() -> None:
    def declared(text: str) -> CDefinition:
        return CDefinition("method", "bar", "Foo::bar", 1, 1, text)

    key = signature_key(declared("void Foo::bar(const Tensor& self, int64_t dim = 0) const"))
    assert key == "Foo::bar(constTensor&,int64_t)"
    assert signature_key(declared("void bar(const Tensor &other, int64_t d = -1)")) == key
    assert signature_key(declared("void bar")) is None
    # the namespaces a type is written with are left out, as `const` of a by-value one
    assert signature_key(declared("void bar(std::vector<int> v, Foo *p)")) == (
        "Foo::bar(vector<int>,Foo*)"
    )
    assert signature_key(declared("void bar(const at::Tensor& t, const int64_t d)")) == key


def test_an_unnamed_parameter_is_its_whole_type() -> None:
    """`int64_t` alone is a type, not `i` followed by a name; `const Foo` is not `const`."""
    assert _parameter_type("int64_t") == "int64_t"
    assert _parameter_type("int64_t n") == "int64_t"
    assert _parameter_type("const Foo") == "constFoo"
    assert _parameter_type("const Foo x") == "constFoo"
    assert _parameter_type("T... args") == "T..."
    assert _parameter_type("unsigned int") == "unsignedint"
    assert _parameter_type("Foo&&x") == "Foo&&"
    assert _parameter_type("ns::Type") == "ns::Type"


def links(sources: dict[str, str]) -> dict[tuple[str, int], list[tuple[str, int]]]:
    """Each declaration's or definition's counterparts, by (path, line), for C++ files
    scanned as a build scans them."""
    files = [
        ScannedFile(scan(path, text.encode(), ScanSettings())) for path, text in sources.items()
    ]
    symbols = CppSymbols.of(files)
    return {
        (path, line): [(s.path, s.line) for s in sites]
        for (path, line, _), sites in sorted(symbols.counterparts_of.items())
    }


def test_unnamed_parameters_match_named_ones_and_nothing_else() -> None:
    found = links(
        {
            "a.h": "void f(int64_t);\nvoid g(const Foo);\n",
            "a.cpp": "void f(int64_t n) {}\nvoid g(const Bar b) {}\n",
        }
    )
    assert found == {("a.cpp", 1): [("a.h", 1)], ("a.h", 1): [("a.cpp", 1)]}


SPECIALIZED = """\
template <typename T> struct Caster { bool load(int src); };
template <> struct Caster<bool> {
  bool load(int src) { return src; }
};
template <> struct Caster<float> {
  bool load(int src);
};
bool Caster<float>::load(int src) { return src > 0; }
template <typename T> bool Caster<T>::load(int src) { return false; }
template <class K> struct Box {
  template <class V> void put(V v);
};
template <class K> template <class V> void Box<K>::put(V v) {}
struct Gone {
  void f(int) &;
  void f(int) && = delete;
};
void Gone::f(int) & {}
"""


def test_members_of_one_specialization_match_only_that_specialization() -> None:
    """Each specialization of a class template has members of its own: `Caster<bool>`'s
    inline `load` is not where `Caster<float>`'s or the primary's is defined."""
    found = links({"c.h": SPECIALIZED})
    assert found[("c.h", 1)] == [("c.h", 9)]  # the primary's, out of line
    assert found[("c.h", 9)] == [("c.h", 1)]
    assert found[("c.h", 6)] == [("c.h", 8)]  # Caster<float>'s, out of line
    assert found[("c.h", 8)] == [("c.h", 6)]
    assert ("c.h", 3) not in found  # Caster<bool>'s is declared nowhere else
    assert found[("c.h", 11)] == [("c.h", 13)]  # a member template of a class template


def test_a_deleted_function_has_no_definition() -> None:
    """`f(int) && = delete` reads as `f(int)` as much as `f(int) &` does, but a deleted
    function is defined nowhere."""
    found = links({"c.h": SPECIALIZED})
    assert found[("c.h", 15)] == [("c.h", 18)]
    assert found[("c.h", 18)] == [("c.h", 15)]
    assert ("c.h", 16) not in found


def test_specialization_arguments_as_a_key() -> None:
    """Spaces and qualifiers set aside, the template's own parameters numbered."""

    def record(name: str, declaration: str, template: str = "template <>") -> CDefinition:
        return CDefinition("struct", name, name, 1, 2, declaration, template=template)

    assert specialization_arguments(record("Caster", "struct Caster<std::vector<int> >")) == (
        "<vector<int>>"
    )
    assert specialization_arguments(record("P", "struct P<T*>", "template <class T>")) == "<#0*>"
    assert specialization_arguments(record("Caster", "struct Caster : Base<int>")) == ""
    assert specialization_arguments(record("Foo", "struct Foo : Base<Foo<T>>")) == ""
    assert specialization_arguments(record("Caster", "struct MyCaster<int>")) == ""


SPELLINGS = {
    "v.h": "template <class T> struct Vec;\n"
    "template <> struct Vec<float> { Vec<int> to_int() const; };\n"
    "template <> struct Vec<int> { Vec<int> to_int() const; };\n"
    "namespace ns { template <class T> struct Caster;\n"
    "template <> struct Caster<c10::BFloat16> { bool load(int src); }; }\n"
    "template <class T> struct P;\n"
    "template <class T> struct P<T*> { void f(int x); };\n"
    "template <class D> struct Base {};\n"
    "template <class T> struct Foo : Base<Foo<T>> { void g(int x); };\n",
    "v.cpp": "Vec<int> Vec<float>::to_int() const { return {}; }\n"
    "Vec<int> Vec<int>::to_int() const { return {}; }\n"
    "bool ns::Caster<BFloat16>::load(int src) { return src; }\n"
    "template <class U> void P<U*>::f(int x) {}\n"
    "template <class U> void Foo<U>::g(int x) {}\n",
}


def test_an_out_of_line_definition_is_of_the_specialization_its_name_is_written_with() -> None:
    """The arguments right before `::name` are the class's (not the return type's), with
    qualifiers and the template's own parameter names set aside."""
    found = links(SPELLINGS)
    assert found[("v.cpp", 1)] == [("v.h", 2)]  # not Vec<int>'s, the return type
    assert found[("v.cpp", 2)] == [("v.h", 3)]
    assert found[("v.cpp", 3)] == [("v.h", 5)]  # ns::Caster<BFloat16>, qualified both ways
    assert found[("v.cpp", 4)] == [("v.h", 7)]  # P<U*> is P<T*>
    assert found[("v.cpp", 5)] == [("v.h", 9)]  # a primary whose base names it


def test_a_deleted_declaration_with_a_comment_is_still_deleted() -> None:
    found = links(
        {
            "d.h": "struct G {\n  void h(int) &;\n  void h(int) && = delete /* no */;\n};\n",
            "d.cpp": "void G::h(int) & {}\n",
        }
    )
    assert found == {("d.cpp", 1): [("d.h", 2)], ("d.h", 2): [("d.cpp", 1)]}


def test_a_static_member_declared_in_its_class_links_to_its_out_of_line_definition() -> None:
    header = (
        "namespace c10 {\nclass Flags {\n public:\n  static bool _enabled;\n"
        "  static constexpr int kMax = 4;\n  static inline int count = 0;\n  int plain;\n};\n}\n"
    )
    source = '#include "flags.h"\nnamespace c10 {\nbool Flags::_enabled = false;\n}\n'
    scanned = scan("flags.h", header.encode(), ScanSettings()).cfamily
    assert scanned is not None
    defined = {d.qualname: d.is_definition for d in scanned.definitions if d.kind == "field"}
    assert defined == {
        "c10::Flags::_enabled": False,  # declared here, defined in a source file
        "c10::Flags::kMax": True,
        "c10::Flags::count": True,
        "c10::Flags::plain": True,
    }
    found = links({"flags.h": header, "flags.cpp": source})
    assert found == {("flags.cpp", 3): [("flags.h", 4)], ("flags.h", 4): [("flags.cpp", 3)]}


def test_a_member_whose_type_is_qualified_is_no_out_of_line_definition() -> None:
    header = "struct V {\n  std::vector<int> vec;\n  static std::string name;\n};\n"
    source = '#include "v.h"\nstd::string V::name = "v";\n'
    found = links({"v.h": header, "v.cpp": source})
    assert found == {("v.cpp", 2): [("v.h", 3)], ("v.h", 3): [("v.cpp", 2)]}
