"""C-family files in a whole build: includes, included-by, find, incremental edits."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from docgen.index.includes import IncludeSearch, suffix_index

if TYPE_CHECKING:
    from conftest import Built

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.MULTILINE)
LINKED = re.compile(r"^- \[L(\d+)\]\([^)]*\) `[<\"]([^`]+)[>\"]` → \[`([^`]+)`\]", re.MULTILINE)


def expected_edges(repo: Path, roots: tuple[str, ...]) -> set[tuple[str, int, str]]:
    """(file, line, included file) for every include that names a file under the roots,
    computed here with a regex over the sources, independently of the scanner."""
    files = {p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file()}
    edges = set()
    for path in sorted(files):
        if not path.endswith((".h", ".cpp", ".cu", ".cuh", ".c")):
            continue
        text = (repo / path).read_text()
        for match in INCLUDE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            target, _, _ = IncludeSearch(files, roots).resolve(
                path, match.group(2), match.group(1) == "<"
            )
            if target:
                edges.add((path, line, target))
    return edges


def test_every_include_is_linked_and_included_by_is_its_reverse(cpplike_built: Built) -> None:
    edges = expected_edges(cpplike_built.repo, ("include", "."))
    assert len(edges) >= 10
    found = set()
    checked = 0
    included_by: dict[str, set[str]] = {}
    for page in cpplike_built.out.rglob("*_docs.md"):
        source = page.relative_to(cpplike_built.out).as_posix().removesuffix("_docs.md")
        text = page.read_text()
        for line, _, target in LINKED.findall(text):
            found.add((source, int(line), target))
        section = (
            text.split("### Included by", 1)[1].split("\n## ", 1)[0]
            if "### Included by" in text
            else ""
        )
        included_by[source] = set(re.findall(r"^- \[`([^`]+)`\]", section, re.MULTILINE))
        for includer, lines in re.findall(
            r"^- \[`([^`]+)`\].*\(at (L[^)]*) there\)", section, re.MULTILINE
        ):
            shown = {int(n) for n in re.findall(r"L(\d+)", lines)}
            assert shown == {n for s, n, t in edges if s == includer and t == source}
            checked += 1
    assert found == edges
    assert checked == len({(s, t) for s, _, t in edges})
    for target in {t for _, _, t in edges}:
        assert included_by[target] == {s for s, _, t in edges if t == target}


def test_find_covers_cpp_names(cpplike_built: Built) -> None:
    def find(*args: str) -> list[str]:
        result = subprocess.run(
            [sys.executable, "-m", "docgen", "find", *args, "--out", str(cpplike_built.out)],
            capture_output=True,
            text=True,
            check=False,
        )
        return result.stdout.splitlines()

    assert find("Tensor", "--kind", "class") == [
        "include/mini/core/Tensor.h:16: class mini::core::Tensor"
    ]
    qualified = find("mini::core::Tensor::*")
    assert "src/Tensor.cpp:33: method mini::core::Tensor::numel" in qualified
    assert "include/mini/core/Tensor.h:23: method mini::core::Tensor::numel" in qualified
    assert find("relu_kernel", "--kind", "kernel") == [
        "src/cuda/Relu.cu:7: kernel mini::cuda::relu_kernel"
    ]
    assert find("MINI_API") == [
        "include/mini/core/Export.h:13: macro MINI_API",
        "include/mini/core/Export.h:15: macro MINI_API",
    ]


def test_declaration_and_definition_link_both_ways(cpplike_built: Built) -> None:
    header = (cpplike_built.out / "include/mini/core/Tensor.h_docs.md").read_text()
    source = (cpplike_built.out / "src/Tensor.cpp_docs.md").read_text()
    defined = "[`src/Tensor.cpp:33`](../../../src/Tensor.cpp_docs.md#method-minicoretensornumel)"
    assert f"- Defined at: {defined}" in header
    declared = "(../include/mini/core/Tensor.h_docs.md#method-minicoretensornumel)"
    assert f"- Declared at: [`include/mini/core/Tensor.h:23`]{declared}" in source
    # operator+= is declared and never defined: no link is made up
    block = header.split("operator `mini::core::Tensor::operator+=`", 1)[1].split("\n#", 1)[0]
    assert "Defined at" not in block


def test_tags_from_code(cpplike_built: Built) -> None:
    def tags(path: str) -> str:
        text = (cpplike_built.out / f"{path}_docs.md").read_text()
        return text.split("tags: ", 1)[1].split("\n", 1)[0]

    assert tags("src/cuda/Relu.cu") == '["gpu"]'
    assert tags("src/cuda/Kernels.cuh") == '["gpu"]'
    assert tags("tests/tensor_test.cpp") == '["test"]'
    assert tags("tests/scalar_type_test.cpp") == '["test"]'  # doctest's, named by strings
    page = (cpplike_built.out / "tests/scalar_type_test.cpp_docs.md").read_text()
    assert 'defines the test case "every type is registered"' in page
    assert "syntax error" not in page and "`Expected`" not in page  # the body's own type
    assert tags("src/Tensor.cpp") == "[]"  # "class NotAClass" only in a string
    kw = (cpplike_built.out / "src/Tensor.cpp_kw.md").read_text()
    assert "NotAClass" not in kw and "`while`" not in kw and "`for`" not in kw


def test_a_header_edit_renders_only_the_pages_that_depend_on_it(
    sample: Callable[..., Path],
    docgen_build: Callable[..., object],
    read_pages: Callable[[Path], dict[str, bytes]],
) -> None:
    repo = sample("cpplike")
    out = repo / "docs" / "generated"
    docgen_build(repo, out)
    scalar = repo / "include/mini/core/ScalarType.h"
    scalar.write_text(scalar.read_text().replace("Int };", "Int, Half };"))
    report = docgen_build(repo, out)
    written = set(report.written)  # type: ignore[attr-defined]
    assert "include/mini/core/ScalarType.h_docs.md" in written
    assert "src/Tensor.cpp_docs.md" not in written
    assert "c/ring.c_docs.md" not in written
    incremental = read_pages(out)
    shutil.rmtree(out)
    docgen_build(repo, out)
    assert read_pages(out) == incremental


def test_a_huge_generated_file_is_read_and_the_build_goes_on(
    tmp_path: Path, docgen_build: Callable[..., object]
) -> None:
    repo = tmp_path / "gen"
    repo.mkdir()
    lines = [f"int f{i}(int x) {{ return x + {i}; }}" for i in range(20_000)]
    (repo / "generated.cpp").write_text("\n".join(lines) + "\n")
    (repo / "deep.cpp").write_text("void f() {" + "{" * 5000 + "}" * 5000 + "}\n")
    (repo / "ok.h").write_text("struct Ok { int a; };\n")
    docgen_build(repo, tmp_path / "out")
    kw = (tmp_path / "out" / "generated.cpp_kw.md").read_text()
    assert "`f19999`" in kw
    assert "`Ok`" in (tmp_path / "out" / "ok.h_kw.md").read_text()


def test_a_header_pairs_with_its_source_among_thousands_of_includers() -> None:
    from docgen.index.includes import IncludeGraph, ResolvedInclude
    from docgen.render.related import pair_of

    header = "lib/core/Tensor.h"
    includers = [f"src/ops/op{i:04}.cpp" for i in range(3000)]
    includers += ["src/Tensor.cpp", "src/TensorBase.cpp", "lib/core/Tensor.h"]
    graph = IncludeGraph(
        includes={
            "src/Tensor.cpp": (ResolvedInclude(1, "core/Tensor.h", False, header, "root"),),
            header: (ResolvedInclude(3, "Tensor.inl", False, "lib/core/Tensor.inl", "folder"),),
        },
        included_by={header: tuple(sorted(includers))},
        roots=("lib",),
        guessed=False,
        lines={},
    )
    files = {header, "lib/core/Tensor.cpp", "lib/core/Tensor.inl", *includers}
    # Same stem in the same folder or across an include; never itself, never a header
    # for a header, never a longer name that merely starts with the stem.
    assert pair_of(header, graph, files) == ("lib/core/Tensor.cpp", "src/Tensor.cpp")
    assert pair_of("src/Tensor.cpp", graph, files) == (header,)


def sections_of_one_file(
    tmp_path: Path, docgen_build: Callable[..., object], name: str, source: str
) -> dict[str, str]:
    """The definition sections of a docs page, by their heading (`struct `a::B``), for
    `source` built alone as the file `name`."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / name).write_text(source)
    docgen_build(repo, tmp_path / "out")
    text = (tmp_path / "out" / f"{name}_docs.md").read_text()
    return {block.split("\n", 1)[0]: block for block in re.split(r"^#{3,4} ", text, flags=re.M)}


def test_a_class_in_a_function_is_said_to_be_local_to_it(
    tmp_path: Path, docgen_build: Callable[..., object]
) -> None:
    sections = sections_of_one_file(
        tmp_path,
        docgen_build,
        "db.cc",
        "namespace db {\n"
        "static int helper() { return 1; }\n"
        "int DB::Recover() {\n"
        "  struct LogReporter {\n"
        "    int status;\n"
        "  };\n"
        "  return helper();\n"
        "}\n"
        "}\n",
    )
    local = "- Local to the function [`db::DB::Recover`](#method-dbdbrecover)"
    assert local in sections["struct `db::DB::Recover::LogReporter`"]
    assert local in sections["field `db::DB::Recover::LogReporter::status`"]
    assert "File-local" not in sections["struct `db::DB::Recover::LogReporter`"]
    assert "- File-local (anonymous namespace or `static`)" in sections["function `db::helper`"]
    assert "Local to" not in sections["method `db::DB::Recover`"]


def test_attribute_macros_are_learned_from_header_templates_too(
    tmp_path: Path, docgen_build: Callable[..., object]
) -> None:
    # jemalloc defines JEMALLOC_NOTHROW only in jemalloc_macros.h.in, which configure turns
    # into a header the repository does not hold
    repo = tmp_path / "templated"
    (repo / "include").mkdir(parents=True)
    (repo / "include" / "macros.h.in").write_text(
        "#ifdef _MSC_VER\n#  define LIB_NOTHROW __declspec(nothrow)\n#else\n"
        "#  define LIB_NOTHROW __attribute__((nothrow))\n#endif\n"
    )
    (repo / "alloc.c").write_text("void *LIB_NOTHROW\nlib_malloc(int size) {\n  return 0;\n}\n")
    docgen_build(repo, tmp_path / "out")
    kw = (tmp_path / "out" / "alloc.c_kw.md").read_text()
    assert "`lib_malloc`" in kw
    assert "`LIB_NOTHROW`" not in kw
    docs = (tmp_path / "out" / "alloc.c_docs.md").read_text()
    assert "- Attributes and export macros: `LIB_NOTHROW`" in docs
    assert "syntax error" not in docs


def test_a_class_defined_in_a_test_body_is_local_to_that_test(
    tmp_path: Path, docgen_build: Callable[..., object]
) -> None:
    sections = sections_of_one_file(
        tmp_path,
        docgen_build,
        "map_test.cc",
        "namespace absl {\n"
        "TEST(Btree, ValueComp) {\n"
        "  struct key_compare {\n"
        "    int id;\n"
        "  };\n"
        "}\n"
        "static int helper() { return 1; }\n"
        "}\n",
    )
    local = "- Local to the test `Btree.ValueComp`, in whose body it is defined"
    scope = "absl::Btree_ValueComp_Test::TestBody::key_compare"
    assert local in sections[f"struct `{scope}`"]
    assert local in sections[f"field `{scope}::id`"]
    assert "File-local" not in sections[f"struct `{scope}`"]
    assert "- File-local (anonymous namespace or `static`)" in sections["function `absl::helper`"]


def test_an_include_several_files_end_with_takes_the_nearest_and_names_the_others() -> None:
    files = {
        "aten/src/ATen/native/Add.cpp",
        "aten/src/ATen/ops/add.h",
        "torch/include/ATen/ops/add.h",
        "torch/include/ATen/Functions.h",
        "third_party/x/ATen/ops/add.h",
        "solo/only.h",
    }
    search = IncludeSearch(files, ("",), suffix_index(sorted(files)))
    assert search.resolve("aten/src/ATen/native/Add.cpp", "ATen/ops/add.h", True) == (
        "aten/src/ATen/ops/add.h",
        "nearest",
        ("third_party/x/ATen/ops/add.h", "torch/include/ATen/ops/add.h"),
    )
    assert search.resolve("torch/include/ATen/Functions.h", "ATen/ops/add.h", True) == (
        "torch/include/ATen/ops/add.h",
        "nearest",
        ("aten/src/ATen/ops/add.h", "third_party/x/ATen/ops/add.h"),
    )
    # under no folder above the includer: none, all of them named
    assert search.resolve("main.cpp", "ATen/ops/add.h", True) == (
        "",
        "",
        ("aten/src/ATen/ops/add.h", "third_party/x/ATen/ops/add.h", "torch/include/ATen/ops/add.h"),
    )
    # torch/include/nnpack.h's <pthreadpool.h>: the root above it, not a deeper copy
    pool = {"include/nnpack.h", "include/pthreadpool.h", "include/caffe2/threadpool/pthreadpool.h"}
    found = IncludeSearch(pool, ("",), suffix_index(sorted(pool)))
    assert found.resolve("include/nnpack.h", "pthreadpool.h", True)[0] == "include/pthreadpool.h"
    assert search.resolve("main.cpp", "only.h", False) == ("", "", ("solo/only.h",))
    assert search.resolve("main.cpp", "vector", True) == ("", "", ())


def test_the_page_says_which_of_several_headers_and_why(tmp_path: Path) -> None:
    from docgen.build import build
    from docgen.cli.build_options import resolve_options

    repo = tmp_path / "repo"
    for rel in ("aten/src/ATen/ops/add.h", "torch/include/ATen/ops/add.h"):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text("#pragma once\nint add(int a, int b);\n")
    source = repo / "aten/src/ATen/native/Add.cpp"
    source.parent.mkdir(parents=True)
    source.write_text('#include <ATen/ops/add.h>\n#include <vector>\n#include "gen/x.h"\n')
    out = tmp_path / "out"
    build(resolve_options(repo, out, 1))
    page = (out / "aten/src/ATen/native/Add.cpp_docs.md").read_text(encoding="utf-8")
    assert (
        "`<ATen/ops/add.h>` → [`aten/src/ATen/ops/add.h`](../ops/add.h_docs.md) (of 2 files"
        " of the repository whose paths end so, the one under the nearest folder above this"
        " file, as an include root there would find it; the other: [`torch/include/ATen/ops/add.h`]"
        "(../../../../torch/include/ATen/ops/add.h_docs.md))"
    ) in page
    assert "`<vector>` → the C++ standard library" in page
    assert '`"gen/x.h"` → unresolved: no file of this repository at that path' in page


def header_page(tmp_path: Path, text: str) -> str:
    """The docs page of `h.h` in a repository of that one header."""
    from docgen.build import build
    from docgen.cli.build_options import resolve_options

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "h.h").write_text(text)
    build(resolve_options(repo, tmp_path / "out", 1))
    return (tmp_path / "out" / "h.h_docs.md").read_text(encoding="utf-8")


def test_a_specializations_members_belong_to_the_specialization(tmp_path: Path) -> None:
    page = header_page(
        tmp_path,
        "namespace c10 {\ntemplate <class FuncType>\nclass TypedOperatorHandle final {\n"
        '  static_assert(sizeof(FuncType) == 0, "");\n};\n'
        "template <class Return, class... Args>\n"
        "class TypedOperatorHandle<Return(Args...)> final {\n public:\n"
        "  Return call(Args... args) const;\n};\n}\n",
    )
    call = page.split("#### method `c10::TypedOperatorHandle::call`", 1)[1].split("\n#", 1)[0]
    assert "- Member of: [`c10::TypedOperatorHandle`](#class-c10typedoperatorhandle-1)" in call
    specialization = (
        "\n### class `c10::TypedOperatorHandle`\n\n"
        "- Defined: `class TypedOperatorHandle<Return(Args...)> final`"
    )
    assert specialization in page


def test_a_standard_header_is_never_guessed_by_suffix() -> None:
    files = {"a/string.h", "b/string.h", "main.c"}
    search = IncludeSearch(files, ("",), suffix_index(sorted(files)))
    assert search.resolve("main.c", "string.h", True) == ("", "", ())
    assert search.resolve("main.c", "a/string.h", False)[0] == "a/string.h"


def test_a_bare_name_is_not_guessed_for_a_file_deep_elsewhere() -> None:
    files = {"include/c10/util/logging.h", "include/torch/cuda.h", "include/mini/core/T.h"}
    search = IncludeSearch(files, ("",), suffix_index(sorted(files)))
    # the CUDA toolkit's <cuda.h>, not torch/cuda.h
    assert search.resolve("include/c10/util/logging.h", "cuda.h", True) == (
        "",
        "",
        ("include/torch/cuda.h",),
    )
    # a path with folders is evidence enough, wherever the includer is
    assert search.resolve("src/main.cpp", "mini/core/T.h", True)[0] == "include/mini/core/T.h"


def test_an_out_of_line_member_belongs_to_the_specialization_it_names(tmp_path: Path) -> None:
    page = header_page(
        tmp_path,
        "template <class T>\nstruct V {\n  bool isnan() const;\n};\n"
        "template <>\nstruct V<float> {\n  bool isnan() const;\n};\n"
        "inline bool V<float>::isnan() const { return false; }\n"
        "template <class T>\nbool V<T>::isnan() const { return true; }\n",
    )
    members = [
        part.split("\n#", 1)[0]
        for part in page.split("#### method `V::isnan`")[1:]
        + page.split("### method `V::isnan`")[1:]
    ]
    owners = {
        line.split("(#", 1)[1].rstrip(")")
        for part in members
        for line in part.splitlines()
        if line.startswith("- Member of:")
    }
    assert owners == {"struct-v", "struct-v-1"}
    out_of_line = page.split("`inline bool V<float>::isnan() const`", 1)[1].split("\n#", 1)[0]
    assert "- Member of: [`V`](#struct-v-1)" in out_of_line
