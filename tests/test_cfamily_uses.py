"""C-family uses (`docgen.scan.cfamily.name_uses`, `docgen.index.cfamily_uses`), as data:
each folder of `cfamily_uses_units/` holds C, C++ or CUDA files of real trees and
`expected`, every use of one file's declaration in another that docgen must find, as
`USER:LINE WRITTEN QUALIFIED on FILES` (`#` starts a comment line), checked by hand
against the sources (`python tests/test_cfamily_uses.py FOLDER` prints what docgen
finds now); then the lookup's rules one by one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import expected_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.analyze.sites import sites_of
from docgen.index.cfamily_lookup import looked_up, namespace_directives
from docgen.index.cfamily_use_rows import use_key, use_rows
from docgen.index.cfamily_uses import resolved_uses
from docgen.index.includes import build_include_graph
from docgen.index.symbols import tree_specializations
from docgen.index.visibility import Visibility
from docgen.model.cfamily_facts import MACRO_BODY
from docgen.model.languages import is_cfamily
from docgen.model.sites import DefinitionSite
from docgen.scan.cfamily.name_uses import name_uses
from docgen.scan.cfamily.scanner import scan
from docgen.scan.workers import scan_data

UNITS = Path(__file__).resolve().parent / "cfamily_uses_units"
CASES = sorted(p.name for p in UNITS.iterdir() if p.is_dir())


def found(case: Path) -> list[str]:
    """Every use a file of the case makes of another file's declaration."""
    paths = sorted(
        p.relative_to(case).as_posix()
        for p in case.rglob("*")
        if p.is_file() and is_cfamily(p.name)
    )
    files = [scan_data(p, (case / p).read_bytes()) for p in paths]
    by_name: dict[str, list[DefinitionSite]] = {}
    for f in files:
        for s in sites_of(f):
            by_name.setdefault(s.name, []).append(s)
    graph = build_include_graph(files, paths, ())
    visibility = Visibility(paths, graph.includes_of)
    held = {f.facts.path: use_rows(f.facts.cfamily) for f in files}
    keys = {use_key(r) for rows in held.values() for r in rows}
    specialized = {q for f in files for q, _ in tree_specializations(f)}
    lines = []
    for u in resolved_uses(held, keys, lambda n: by_name.get(n, ()), visibility, specialized):
        last = u.qualname.rpartition("::")[2]
        if u.user in {s.path for s in by_name[last] if s.qualname == u.qualname}:
            continue  # the file's own
        on = ",".join(u.listed_on) or "-"
        lines.extend(f"{u.user}:{n} {u.written} {u.qualname} on {on}" for n in u.lines)
    return sorted(lines)


def test_there_are_cases() -> None:
    assert len(CASES) >= 3


@pytest.mark.parametrize("name", CASES)
def test_a_case_finds_exactly_its_expected_uses(name: str) -> None:
    assert found(UNITS / name) == expected_lines(UNITS / name)


def _uses(source: str) -> dict[str, list[tuple[str, bool, tuple[int, ...]]]]:
    facts = scan("f.cpp", source.encode()).cfamily
    assert facts is not None
    found: dict[str, list[tuple[str, bool, tuple[int, ...]]]] = {}
    for u in facts.uses:
        found.setdefault(u.name, []).append((u.scope, u.call, u.lines))
    return found


def test_comments_literals_includes_keywords_members_and_the_own_name_are_left_out() -> None:
    uses = _uses(
        "#include <ATen/Tensor.h>\n"  # 1
        "// Tensor in a comment\n"  # 2
        'const char* s = "Tensor";\n'  # 3
        "namespace at {\n"  # 4
        "int helper(Tensor t) {\n"  # 5
        "  return t.dim() + other->size(0) + 0x1F + std::max(1, 2);\n"  # 6
        "}\n"  # 7
        "}\n"
    )
    assert set(uses) == {"Tensor", "other"}  # `other` as a word, `size` as a member: left out
    assert uses["Tensor"] == [("at", False, (5,))]


def test_a_use_keeps_its_scope_its_qualifier_its_call_and_the_usings_open() -> None:
    uses = _uses(
        "namespace at::native {\n"  # 1
        "using namespace c10;\n"  # 2
        "struct Guard {\n"  # 3
        "  void reset() { ::c10::Device d; add_out(d); impl::Op op; }\n"  # 4
        "};\n"  # 5
        "}\n"  # 6
        "void g() { add_out(); }\n"  # 7
    )
    assert uses["::c10::Device"] == [("at::native::Guard", False, (4,))]
    assert uses["add_out"] == [("", True, (7,)), ("at::native::Guard", True, (4,))]
    assert uses["impl::Op"] == [("at::native::Guard", False, (4,))]
    facts = scan("f.cpp", b"namespace a {\nusing namespace c10;\nvoid f() { Xy(); }\n}\n").cfamily
    assert facts is not None
    assert [(u.name, u.usings) for u in facts.uses if u.name == "Xy"] == [("Xy", ("c10::",))]


def test_a_comparison_is_no_call_and_a_member_template_is_a_member() -> None:
    uses = _uses(
        "void f() {\n"
        "  for (int chunk = 0; chunk < chunks; chunk++) { x.template cast<int>(); }\n"
        "  y->template get<T>(); make<int>(1); bits<<2; lo<=hi;\n"
        "  add_kernel<<<grid, 256>>>(out);\n}\n"
    )
    assert {name: [call for _, call, _ in found] for name, found in uses.items()} == {
        "chunk": [False],
        "chunks": [False],
        "make": [True],
        "bits": [False],
        "lo": [False],
        "hi": [False],
        "add_kernel": [True],  # a launch is a call of the kernel
        "grid": [False],
        "out": [False],
    }


def _declared(*qualnames: str) -> set[str]:
    return set(qualnames)


def test_lookup_goes_from_the_innermost_scope_out_then_through_the_usings() -> None:
    seen = _declared("c10::Device", "Device", "at::native::add_out", "c10::impl::Op")
    assert looked_up(("Device", "c10::DeviceGuard", "", 0, "1"), seen.__contains__) == "c10::Device"
    assert looked_up(("Device", "other", "", 0, "1"), seen.__contains__) == "Device"
    assert looked_up(("::Device", "c10", "", 0, "1"), seen.__contains__) == "Device"
    assert looked_up(("add_out", "", "at::native::", 1, "1"), seen.__contains__) == (
        "at::native::add_out"
    )
    assert looked_up(("impl::Op", "c10::Guard", "", 0, "1"), seen.__contains__) == "c10::impl::Op"
    assert looked_up(("add_out", "", "", 1, "1"), seen.__contains__) is None


def test_two_usings_that_lead_to_different_names_resolve_to_neither() -> None:
    seen = _declared("a::f", "b::f")
    assert looked_up(("f", "", "a::\nb::", 1, "1"), seen.__contains__) is None
    assert looked_up(("f", "", "a::", 1, "1"), seen.__contains__) == "a::f"
    assert looked_up(("f", "", "b::f", 1, "1"), seen.__contains__) == "b::f"  # using b::f;


def test_visibility_follows_includes_transitively_and_through_a_cycle() -> None:
    includes = {"a.cpp": ["b.h"], "b.h": ["c.h"], "c.h": ["b.h"], "d.cpp": []}
    visibility = Visibility(includes, lambda p: includes.get(p, []))
    assert visibility.sees("a.cpp", "c.h") and visibility.sees("c.h", "b.h")
    assert visibility.sees("a.cpp", "a.cpp")
    assert not visibility.sees("d.cpp", "b.h") and not visibility.sees("b.h", "a.cpp")


def _site(path: str, qualname: str, kind: str, line: int = 1) -> DefinitionSite:
    return DefinitionSite(qualname.rpartition("::")[2], path, line, kind, qualname, "")


def _resolved(
    rows: dict[str, list[tuple[str, str, str, int, str]]],
    sites: list[DefinitionSite],
    includes: dict[str, list[str]],
    specialized: frozenset[str] = frozenset(),
) -> list[tuple[str, str, tuple[str, ...]]]:
    visibility = Visibility([*includes, *rows], lambda p: includes.get(p, []))
    keys = {use_key(r) for held in rows.values() for r in held}
    named = lambda n: [s for s in sites if s.name == n]  # noqa: E731
    found = resolved_uses(rows, keys, named, visibility, specialized)
    return [(u.user, u.qualname, u.listed_on) for u in found]


def test_a_bare_word_is_no_use_of_a_function_and_a_file_that_cannot_see_it_uses_nothing() -> None:
    sites = [_site("f.h", "ns::size", "function"), _site("t.h", "ns::Tensor", "class")]
    rows = {
        "a.cpp": [("size", "ns", "", 0, "3"), ("Tensor", "ns", "", 0, "4")],
        "b.cpp": [("size", "ns", "", 1, "5"), ("ns::size", "", "", 0, "6")],
        "c.cpp": [("Tensor", "ns", "", 0, "7")],
    }
    includes = {"a.cpp": ["f.h", "t.h"], "b.cpp": ["f.h"], "c.cpp": []}
    assert _resolved(rows, sites, includes) == [
        ("a.cpp", "ns::Tensor", ("t.h",)),
        ("b.cpp", "ns::size", ("f.h",)),
        ("b.cpp", "ns::size", ("f.h",)),
    ]


def test_a_use_is_listed_on_no_section_where_it_may_be_of_another_declaration() -> None:
    sites = [
        _site("neon.h", "vec::clamp", "function"),
        _site("avx.h", "vec::clamp", "function"),
        _site("one.h", "vec::blend", "function"),
        _site("one.cpp", "vec::blend", "function"),
        _site("v.h", "vec::Vectorized", "class"),
        _site("user.cpp", "vec::Vectorized", "class"),
    ]
    rows = {
        "user.cpp": [
            ("clamp", "vec", "", 1, "3"),
            ("blend", "vec", "", 1, "4"),
            ("Vectorized", "vec", "", 1, "5"),
        ],
        "spec.cpp": [("Vectorized", "vec", "", 1, "6")],
    }
    includes = {"user.cpp": ["neon.h", "avx.h", "one.h", "v.h"], "spec.cpp": ["v.h"]}
    assert _resolved(rows, sites, includes, frozenset({"vec::Vectorized"})) == [
        ("spec.cpp", "vec::Vectorized", ()),  # a specialized template: which one is unknown
        ("user.cpp", "vec::Vectorized", ()),  # its own declaration
        ("user.cpp", "vec::blend", ("one.cpp", "one.h")),  # the header and the definition
        ("user.cpp", "vec::clamp", ()),  # overloads in two headers
    ]


def test_a_header_s_using_namespace_at_namespace_scope_is_read_by_every_lookup() -> None:
    held = {
        "macros/Macros.h": [("c10", "at", "", 2, "164"), ("c10::cuda", "at::cuda", "", 2, "167")],
        "src/own.cpp": [("std", "", "", 2, "3")],  # a source file's own: not the tree's
    }
    directives = namespace_directives(held)
    assert directives == {"at": ("c10",), "at::cuda": ("c10::cuda",)}
    seen = _declared("c10::Device", "c10::cuda::CUDAStream", "at::Tensor").__contains__
    assert looked_up(("at::Device", "", "", 0, "1"), seen, directives) == "c10::Device"
    assert looked_up(("Device", "at::native", "", 0, "1"), seen, directives) == "c10::Device"
    assert looked_up(("Tensor", "at::native", "", 0, "1"), seen, directives) == "at::Tensor"
    assert looked_up(("CUDAStream", "at::cuda", "", 0, "1"), seen, directives) == (
        "c10::cuda::CUDAStream"
    )
    assert looked_up(("at::Device", "", "", 0, "1"), seen, {}) is None


def test_a_namespace_s_using_declaration_makes_its_name_the_other_s() -> None:
    fwd = (
        "#pragma once\nnamespace c10 {\nclass SymInt;\n}\n"  # 1-4
        "namespace at {\nusing c10::SymInt;\n}\n"  # 5-7
    )
    facts = scan("ATen_fwd.h", fwd.encode()).cfamily
    assert facts is not None
    assert {(u.name, u.scope, u.kind) for u in facts.uses if u.kind} == {
        ("SymInt", "c10", "forward"),
        ("c10::SymInt", "at", "using"),
    }
    rows = {
        "ATen_fwd.h": list(use_rows(facts)),
        "user.h": [("at::SymInt", "", "", 0, "3"), ("SymInt", "at::native", "", 0, "4")],
    }
    sites = [_site("SymInt.h", "c10::SymInt", "class")]
    found = _resolved(rows, sites, {"user.h": ["ATen_fwd.h"], "ATen_fwd.h": []})
    assert ("user.h", "c10::SymInt", ("SymInt.h",)) in found
    assert [f for f in found if f[0] == "user.h"] == [("user.h", "c10::SymInt", ("SymInt.h",))] * 2


def test_a_macro_s_body_tells_only_the_macros_it_names() -> None:
    source = b"#define CHECK(x) \\\n  if (!(x)) Fail(OTHER_MACRO)\nint Fail(int);\n"
    facts = scan("m.h", source).cfamily
    assert facts is not None
    assert {(u.name, u.scope) for u in facts.uses} == {
        ("Fail", MACRO_BODY),
        ("OTHER_MACRO", MACRO_BODY),
    }
    sites = [_site("f.h", "Fail", "function"), _site("f.h", "OTHER_MACRO", "macro")]
    rows = {"m.h": [("Fail", MACRO_BODY, "", 1, "2"), ("OTHER_MACRO", MACRO_BODY, "", 0, "2")]}
    assert _resolved(rows, sites, {"m.h": ["f.h"]}) == [("m.h", "OTHER_MACRO", ("f.h",))]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab_:;(){}<>.-\"'/*#\n 1x")), max_size=200))
def test_any_text_gives_names_on_lines_that_write_them(text: str) -> None:
    data = text.encode()
    lines = data.split(b"\n")
    for use in name_uses(data, ()):
        last = use.name.rpartition("::")[2].lstrip("~")
        assert use.lines and all(1 <= n <= len(lines) for n in use.lines)
        assert all(last.encode() in lines[n - 1] for n in use.lines)


if __name__ == "__main__":
    print("\n".join(found(UNITS / sys.argv[1])))
