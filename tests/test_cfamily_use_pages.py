"""C-family uses in a build: each declaration's "Used in" on the docs page, every use on
the keyword page, the counts of the keyword index, `docgen find NAME --uses`, and
`docgen affected` for a changed C, C++ or CUDA file: through includes, uses, dispatch
stubs and the operators whose `dispatch:` lines name a kernel, to the Python and C++
tests that reach it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import built_tree, page_files, run_build, write_tree

from docgen.cli.main import cli

OPS = """- func: lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor
  variants: function, method
  dispatch:
    CPU: lerp_cpu
"""
TREE = {
    "aten/native_functions.yaml": OPS,
    "csrc/Lerp.h": (
        "#pragma once\nnamespace at::native {\n"  # 1-2
        "using lerp_fn = void (*)(int);\n"  # 3
        "DECLARE_DISPATCH(lerp_fn, lerp_stub);\n"  # 4
        "int lerp_cpu(int a);\n"  # 5
        "struct Weights { int w; };\n"  # 6
        "} // namespace at::native\n"
    ),
    "csrc/Lerp.cpp": (
        '#include "Lerp.h"\nnamespace at::native {\n'  # 1-2
        "int lerp_cpu(int a) {\n"  # 3
        "  lerp_stub(kCPU, a);\n"  # 4
        "  Weights w{a};\n"  # 5
        "  return a;\n}\n"  # 6-7
        "DEFINE_DISPATCH(lerp_stub);\n"  # 8
        "} // namespace at::native\n"
    ),
    "csrc/cpu/LerpKernel.cpp": (
        '#include "../Lerp.h"\nnamespace at::native {\n'  # 1-2
        "static void lerp_kernel(int a) {}\n"  # 3
        "REGISTER_DISPATCH(lerp_stub, &lerp_kernel);\n"  # 4
        "} // namespace at::native\n"
    ),
    "csrc/test/lerp_test.cpp": (
        '#include "../Lerp.h"\n'  # 1
        "TEST(LerpTest, Small) {\n"  # 2
        "  at::native::lerp_cpu(1);\n"  # 3
        "  at::native::Weights w{2};\n"  # 4
        "}\n"
    ),
    "csrc/other.cpp": '#include "Lerp.h"\nint unrelated() { return 0; }\n',
    "torch/__init__.py": "from torch._C._VariableFunctions import *\n",
    "torch/_C/__init__.pyi": "",
    "torch/_C/_VariableFunctions.pyi": "def lerp(input, end, weight): ...\n",
    "tests/test_lerp.py": "import torch\n\ndef test_lerp():\n    torch.lerp(1, 2, 3)\n",
    "tests/test_other.py": "def test_nothing():\n    pass\n",
}


def _run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout.splitlines()


def test_a_declaration_lists_the_files_that_use_it_on_its_section(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    page = (out / "csrc/Lerp.h_docs.md").read_text(encoding="utf-8")
    weights = page[page.index("### struct `at::native::Weights`") :]
    weights = weights[: weights.index("\n### ", 1)]
    assert "- Used in 2 other files, on 2 lines:" in weights
    assert "[`csrc/Lerp.cpp`](Lerp.cpp_docs.md): [L5](" in weights
    assert "[`csrc/test/lerp_test.cpp`](test/lerp_test.cpp_docs.md): [L4](" in weights
    lerp = page[page.index("### function `at::native::lerp_cpu`") :]
    lerp = lerp[: lerp.index("\n### ", 1)]
    # Lerp.cpp defines it (its own); the test calls it qualified
    used = lerp[lerp.index("- Used in") : lerp.index("- Defined at")]
    assert used.startswith("- Used in 1 other file, on 1 line:\n")
    assert "test/lerp_test.cpp_docs.md" in used and "(Lerp.cpp_docs.md)" not in used
    kw = (out / "csrc/Lerp.h_kw.md").read_text(encoding="utf-8")
    assert "## Where Other Files Use Them" in kw
    assert "### struct `at::native::Weights`" in kw
    keywords = (out / "keywords.md").read_text(encoding="utf-8")
    assert "used in 2 other files (2 lines)" in keywords


def test_find_uses_prints_every_use_of_a_cpp_name(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    code, lines = _run("find", "at::native::Weights", "--uses", "--out", str(out))
    assert code == 0
    assert lines == [
        "csrc/Lerp.cpp:5: use Weights (at::native::Weights)",
        "csrc/test/lerp_test.cpp:4: use at::native::Weights (at::native::Weights)",
    ]
    assert _run("find", "Weights", "--uses", "--out", str(out))[1] == lines
    assert _run("find", "other::Weights", "--uses", "--out", str(out))[0] == 1


def test_a_kernel_s_change_reaches_the_tests_through_its_stub_and_operator(
    tmp_path: Path,
) -> None:
    out = built_tree(tmp_path, TREE)
    code, lines = _run("affected", "csrc/cpu/LerpKernel.cpp", "--out", str(out))
    assert code == 0
    assert lines == [
        # Lerp.cpp (the kernel's stub is defined there) defines lerp_cpu, which Lerp.h
        # (the stub is declared there) declares
        "csrc/test/lerp_test.cpp: 2 hops, uses csrc/Lerp.cpp and 1 more (lines 3, 4); 1 of 1 tests",
        "    --gtest_filter=LerpTest.Small",
        "tests/test_lerp.py: 4 hops, uses torch/_C/_VariableFunctions.pyi (line 4); 1 of 1 tests",
        "    pytest tests/test_lerp.py::test_lerp",
    ]
    # `--tests` prints commands: a C++ case runs in a binary the tree's build makes
    assert _run("affected", "csrc/cpu/LerpKernel.cpp", "--tests", "--out", str(out))[1] == [
        "pytest tests/test_lerp.py::test_lerp"
    ]


def test_a_header_s_change_reaches_its_includers_and_users(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    code, lines = _run("affected", "csrc/Lerp.h", "--files", "--out", str(out))
    assert code == 0
    assert lines == ["csrc/test/lerp_test.cpp", "tests/test_lerp.py"]
    code, lines = _run("affected", "csrc/Lerp.h", "--out", str(out))
    assert (
        lines[0] == "csrc/test/lerp_test.cpp: 1 hop, uses csrc/Lerp.h (lines 1, 3, 4); 1 of 1 tests"
    )


def test_an_edit_of_a_user_renders_the_declaring_page_again_only_when_its_uses_moved(
    tmp_path: Path,
) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, TREE)
    run_build(repo, out, jobs=1)
    other = repo / "csrc/other.cpp"
    other.write_text(TREE["csrc/other.cpp"] + "// a comment\n", encoding="utf-8")
    report = run_build(repo, out, jobs=1)
    assert "csrc/other.cpp_docs.md" in report.written
    assert "csrc/Lerp.h_docs.md" not in report.written  # its uses are as they were
    other.write_text(
        TREE["csrc/other.cpp"] + "at::native::Weights made() { return {1}; }\n", encoding="utf-8"
    )
    report = run_build(repo, out, jobs=1)
    assert "csrc/Lerp.h_docs.md" in report.written and "csrc/Lerp.h_kw.md" in report.written
    page = (out / "csrc/Lerp.h_docs.md").read_text(encoding="utf-8")
    assert "- Used in 3 other files, on 3 lines:" in page
    clean = tmp_path / "clean"
    run_build(repo, clean, jobs=1)
    assert page_files(out) == page_files(clean)
