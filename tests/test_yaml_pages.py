"""An operator file's pages: a section per operator whose dispatch kernels link to the
C++ that declares them, derivative entries linked to their operator, the operators on
the keyword pages and in `docgen find`; an edit of either side is followed, and the
incremental build equals a clean one."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import clean_pages, page_files, run_build

from docgen.cli.main import cli
from docgen.index.operator_trace import Wanted, wanted
from docgen.site.linkcheck import check_links
from docgen.state import read_state

OPS = """- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
  variants: function, method
  dispatch:
    SparseCPU, SparseCUDA: add_sparse
    MkldnnCPU: mkldnn_add
  tags: [core, pointwise]

- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU, CUDA: add_out
    SparseCPU: add_out_sparse_cpu
"""
DERIVATIVES = """- name: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  self: handle_r_to_c(self.scalar_type(), grad)
  other: maybe_multiply(grad, alpha.conj())
"""
HEADER = """#pragma once
namespace at {
namespace native {
struct TORCH_API structured_add_out : public at::meta::structured_add_Tensor {
void impl(const at::Tensor & self, const at::Tensor & other, const at::Scalar & alpha,
    const at::Tensor & out);
};
TORCH_API at::Tensor add_sparse(const at::Tensor & self, const at::Tensor & other,
    const at::Scalar & alpha=1);
TORCH_API at::Tensor & add_out_sparse_cpu(const at::Tensor & self, const at::Tensor & other,
    const at::Scalar & alpha, at::Tensor & out);
} // namespace native
} // namespace at
"""
TREE = {
    "aten/native_functions.yaml": OPS,
    "autograd/derivatives.yaml": DERIVATIVES,
    "include/ATen/ops/add_native.h": HEADER,
    "include/ATen/ops/helper.cpp": '#include "add_native.h"\n',
}


def _write(repo: Path) -> None:
    for rel, text in TREE.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")


def _section(page: str, heading: str) -> str:
    start = page.index(heading)
    end = page.find("\n### ", start + 1)
    return page[start : end if end != -1 else len(page)]


def test_kernels_link_to_their_declarations(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    _write(repo)
    run_build(repo, out, jobs=1)
    page = (out / "aten/native_functions.yaml_docs.md").read_text(encoding="utf-8")
    assert "Declares 2 operators, 2 of them with a `dispatch:` block: 6 kernel bindings" in page
    add = _section(page, "### op `aten::add.Tensor`")
    assert "- structured\\_delegate: [`add.out`](#op-atenaddout)" in add
    header = "../include/ATen/ops/add_native.h_docs.md"
    assert f"[`at::native::add_sparse`]({header}#function-atnativeadd_sparse)" in add
    assert "`at::native::mkldnn_add`: declared nowhere in this tree" in add
    out_section = _section(page, "### op `aten::add.out`")
    # a structured op's kernel is a struct on CPU and CUDA, a function elsewhere
    assert f"[`at::native::structured_add_out`]({header}#struct-atnativestructured_add_out)" in (
        out_section
    )
    assert f"[`at::native::add_out_sparse_cpu`]({header}#function-atnativeadd_out_sparse_cpu)" in (
        out_section
    )
    assert (
        "- Derivative formulas: [`aten::add.Tensor`](../autograd/derivatives.yaml_docs.md"
        "#derivative-atenaddtensor) (autograd/derivatives.yaml:1)"
    ) in add
    assert "Derivative formulas" not in out_section
    derivatives = (out / "autograd/derivatives.yaml_docs.md").read_text(encoding="utf-8")
    assert (
        "- Operator: [`aten::add.Tensor`](../aten/native_functions.yaml_docs.md#op-atenaddtensor)"
        in derivatives
    )
    assert "| `other` | `maybe_multiply(grad, alpha.conj())` |" in derivatives
    keywords = (out / "aten/native_functions.yaml_kw.md").read_text(encoding="utf-8")
    assert "- **`aten::add.Tensor`** — [`op`](native_functions.yaml_docs.md#op-atenaddtensor)" in (
        keywords
    )
    with read_state(out) as state:
        assert state is not None
        found = [str(s) for s in state.find_sites("add", "exact", None)]
    assert found == [
        "aten/native_functions.yaml:1: op aten::add.Tensor",
        "aten/native_functions.yaml:9: op aten::add.out",
        "autograd/derivatives.yaml:1: derivative aten::add.Tensor",
    ]
    kernels = (out / "include/ATen/ops/add_native.h_docs.md").read_text(encoding="utf-8")
    operators = "../../../aten/native_functions.yaml_docs.md"
    assert (
        f"- Kernel of: [`aten::add.Tensor`]({operators}#op-atenaddtensor) for `SparseCPU`,"
        " `SparseCUDA`"
    ) in _section(kernels, "### function `at::native::add_sparse`")
    assert f"- Kernel of: [`aten::add.out`]({operators}#op-atenaddout) for `CPU`, `CUDA`" in (
        _section(kernels, "### struct `at::native::structured_add_out`")
    )
    assert check_links(out, repo) == []


def test_an_edit_of_either_side_is_followed(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    _write(repo)
    run_build(repo, out, jobs=1)
    header = repo / "include/ATen/ops/add_native.h"
    header.write_text(header.read_text().replace("add_sparse(", "add_sparse_gone("), "utf-8")
    run_build(repo, out, jobs=1)
    page = (out / "aten/native_functions.yaml_docs.md").read_text(encoding="utf-8")
    assert "`at::native::add_sparse`: declared nowhere in this tree" in page
    assert page_files(out) == clean_pages(repo, tmp_path)
    ops = repo / "aten/native_functions.yaml"
    renamed = ops.read_text().replace("add.Tensor(", "add.Other(").replace("add.out(", "add.all(")
    ops.write_text(renamed, "utf-8")
    run_build(repo, out, jobs=1)
    derivatives = (out / "autograd/derivatives.yaml_docs.md").read_text(encoding="utf-8")
    assert "- Operator:" not in derivatives
    kernels = (out / "include/ATen/ops/add_native.h_docs.md").read_text(encoding="utf-8")
    assert "- Kernel of: [`aten::add.all`]" in kernels and "`aten::add.out`" not in kernels
    assert page_files(out) == clean_pages(repo, tmp_path)


STUBS = {
    "torch/__init__.py": "",
    "torch/_C/__init__.pyi": "class TensorBase:\n    def add_(self, other): ...\n",
    "torch/_C/_VariableFunctions.pyi": (
        "from typing import overload\n\n@overload\ndef add(input, other): ...\n"
        "@overload\ndef add(input, other, out): ...\ndef relu(input): ...\n"
    ),
}
MORE_OPS = """
- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  variants: method
  structured_delegate: add.out

- func: relu(Tensor self) -> Tensor
  variants: function, method
"""


def _write_with_stubs(repo: Path) -> None:
    """The tree, with stubs of `torch._C` and two more operators for them."""
    _write(repo)
    for rel, text in STUBS.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    ops = repo / "aten/native_functions.yaml"
    ops.write_text(ops.read_text() + MORE_OPS, encoding="utf-8")


def test_a_stub_name_tells_the_operators_and_kernels_it_runs(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    _write_with_stubs(repo)
    run_build(repo, out, jobs=1)
    functions = (out / "torch/_C/_VariableFunctions.pyi_docs.md").read_text(encoding="utf-8")
    add = _section(functions, "### function `add`")
    section = "../../aten/native_functions.yaml_docs.md"
    assert "- Runs in C++: 2 operators of the tree's operator files" in add
    assert (
        f"  - [`aten::add.Tensor`]({section}#op-atenaddtensor) (aten/native\\_functions.yaml:1):"
        " `SparseCPU`, `SparseCUDA` → `at::native::add_sparse`; `MkldnnCPU` →"
        " `at::native::mkldnn_add`; delegates to the structured kernels of"
        f" [`aten::add.out`]({section}#op-atenaddout)"
    ) in add
    assert "`CPU`, `CUDA` → `at::native::structured_add_out`" in add
    relu = _section(functions, "### function `relu`")
    assert "no `dispatch:` block (torchgen registers it as `CompositeImplicitAutograd`)" in relu
    operators = (out / "aten/native_functions.yaml_docs.md").read_text(encoding="utf-8")
    assert (
        "- Bound in Python as: [`torch._C._VariableFunctions.add`]"
        "(../torch/_C/_VariableFunctions.pyi_docs.md#function-add)"
    ) in _section(operators, "### op `aten::add.Tensor`")
    assert (
        "- Bound in Python as: [`torch._C.TensorBase.add_`]"
        "(../torch/_C/__init__.pyi_docs.md#method-tensorbaseadd_)"
    ) in _section(operators, "### op `aten::add_.Tensor`")
    assert "`torch._C._VariableFunctions.relu`" in _section(operators, "### op `aten::relu`")
    methods = (out / "torch/_C/__init__.pyi_docs.md").read_text(encoding="utf-8")
    add_ = _section(methods, "### method `TensorBase.add_`")
    assert f"[`aten::add_.Tensor`]({section}#op-atenadd_tensor)" in add_
    assert "`aten::relu`" not in add_  # a method of its own, not of `add_`
    assert check_links(out, repo) == []
    assert page_files(out) == clean_pages(repo, tmp_path)
    # the stub edited: the operator's binding follows it
    stub = repo / "torch/_C/_VariableFunctions.pyi"
    stub.write_text(stub.read_text().replace("def relu", "def relu_gone"), "utf-8")
    run_build(repo, out, jobs=1)
    operators = (out / "aten/native_functions.yaml_docs.md").read_text(encoding="utf-8")
    assert "`torch._C._VariableFunctions.relu`" not in operators
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_find_trace_prints_the_chain_from_a_python_name_to_its_kernels(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    _write_with_stubs(repo)
    run_build(repo, out, jobs=1)
    result = CliRunner().invoke(cli, ["find", "torch.add", "--trace", "--out", str(out)])
    assert result.exit_code == 0, result.output
    nf, header = "aten/native_functions.yaml", "include/ATen/ops/add_native.h"
    assert result.output.splitlines() == [
        "torch/_C/_VariableFunctions.pyi:4: function add (stub)",
        "torch/_C/_VariableFunctions.pyi:6: function add (stub)",
        f"{nf}:1: op aten::add.Tensor",
        f"{nf}:5: dispatch SparseCPU, SparseCUDA → at::native::add_sparse",
        f"{header}:8: function at::native::add_sparse",
        f"{nf}:6: dispatch MkldnnCPU → at::native::mkldnn_add",
        f"{nf}:6: at::native::mkldnn_add: declared nowhere in this tree",
        f"{nf}:1: delegates to the kernels of aten::add.out",
        "autograd/derivatives.yaml:1: derivative aten::add.Tensor",
        f"{nf}:9: op aten::add.out",
        f"{nf}:12: dispatch CPU, CUDA → at::native::structured_add_out",
        f"{header}:4: struct at::native::structured_add_out",
        f"{nf}:13: dispatch SparseCPU → at::native::add_out_sparse_cpu",
        f"{header}:10: function at::native::add_out_sparse_cpu",
    ]
    method = CliRunner().invoke(cli, ["find", "Tensor.add_", "--trace", "--out", str(out)])
    assert method.output.splitlines()[:2] == [
        "torch/_C/__init__.pyi:2: method TensorBase.add_ (stub)",
        f"{nf}:15: op aten::add_.Tensor",
    ]
    relu = CliRunner().invoke(cli, ["find", "relu", "--trace", "--out", str(out)])
    assert f"{nf}:19: no `dispatch:` block: a CompositeImplicitAutograd kernel" in relu.output
    missing = CliRunner().invoke(cli, ["find", "torch.nothing", "--trace", "--out", str(out)])
    assert missing.exit_code == 1 and missing.output == ""
    globbed = CliRunner().invoke(cli, ["find", "add*", "--trace", "--out", str(out)])
    assert globbed.exit_code == 2 and "--trace takes one exact NAME" in globbed.output


def test_a_name_is_read_as_what_it_asks_for() -> None:
    assert wanted("torch.add") == Wanted("add", "", False)
    assert wanted("Tensor.add_") == Wanted("add_", "", True)
    assert wanted("aten::add.Tensor") == Wanted("add", "Tensor", None, "aten")
    assert wanted("torch.ops.flash_attn_3.fwd") == Wanted("fwd", "", None, "flash_attn_3")
    assert wanted("torch.ops.aten.add.out") == Wanted("add", "out", None, "aten")
    assert wanted("add") == Wanted("add", "", None)


def test_overloads_of_a_kernel_name_say_that_the_overload_is_not_told(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    _write(repo)
    header = repo / "include/ATen/ops/add_native.h"
    overload = "TORCH_API at::Tensor add_sparse(const at::Tensor & self);\n"
    header.write_text(header.read_text().replace("} // namespace native", overload + "}"), "utf-8")
    run_build(repo, out, jobs=1)
    page = (out / "include/ATen/ops/add_native.h_docs.md").read_text(encoding="utf-8")
    said = (
        "- Its name is the kernel of: [`aten::add.Tensor`]"
        "(../../../aten/native_functions.yaml_docs.md#op-atenaddtensor) for `SparseCPU`,"
        " `SparseCUDA` (a file of this tree declares 2 overloads of this name, and a dispatch"
        " line names a kernel, not which overload)"
    )
    assert page.count(said) == 2
    assert "- Kernel of: [`aten::add.out`]" in page  # one declaration of its name


LIBRARY = """#include <torch/library.h>
std::vector<at::Tensor> mha_fwd(const at::Tensor& q) { return {q}; }
TORCH_LIBRARY(flash_attn_3, m) {
    m.def("fwd(Tensor q) -> Tensor[]");
}
TORCH_LIBRARY_IMPL(flash_attn_3, CUDA, m) {
    m.impl("fwd", &mha_fwd);
}
TORCH_LIBRARY_IMPL(aten, SparseCPU, m) {
    m.impl("add.out", TORCH_FN(at::native::add_out_sparse_cpu));
    m.impl("add.Tensor", [](const at::Tensor& a, const at::Tensor& b) { return a; });
}
"""


def test_library_blocks_define_and_implement_operators(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    _write(repo)
    (repo / "csrc").mkdir()
    (repo / "csrc/flash_api.cpp").write_text(LIBRARY, encoding="utf-8")
    run_build(repo, out, jobs=1)

    def traced(name: str) -> list[str]:
        result = CliRunner().invoke(cli, ["find", name, "--trace", "--out", str(out)])
        return list(result.output.splitlines())

    assert traced("torch.ops.flash_attn_3.fwd") == [
        "csrc/flash_api.cpp:4: op flash_attn_3::fwd (m.def)",
        "csrc/flash_api.cpp:7: impl flash_attn_3::fwd for CUDA → mha_fwd",
        "csrc/flash_api.cpp:2: function mha_fwd",
    ]
    add_out = traced("torch.ops.aten.add.out")
    assert (
        "csrc/flash_api.cpp:10: impl aten::add.out for SparseCPU → at::native::add_out_sparse_cpu"
        in add_out
    )
    assert "include/ATen/ops/add_native.h:10: function at::native::add_out_sparse_cpu" in add_out
    assert "csrc/flash_api.cpp:11: impl aten::add.Tensor for SparseCPU" in traced(
        "aten::add.Tensor"
    )
    page = (out / "csrc/flash_api.cpp_docs.md").read_text(encoding="utf-8")
    assert "`m.impl` `fwd` → `mha_fwd`" in page
    found = CliRunner().invoke(cli, ["find", "fwd", "--out", str(out)]).output.splitlines()
    assert found == [
        "csrc/flash_api.cpp:4: op flash_attn_3::fwd",
        "csrc/flash_api.cpp:7: impl flash_attn_3::fwd",
    ]


def test_a_stored_operator_entry_is_read_alone_as_the_whole_facts_hold_it(
    tmp_path: Path,
) -> None:
    from docgen.state.stored_operators import StoredOperators

    repo, out = tmp_path / "repo", tmp_path / "out"
    _write_with_stubs(repo)
    run_build(repo, out, jobs=1)
    path = "aten/native_functions.yaml"
    with read_state(out) as state:
        assert state is not None
        whole = state.stored_file(path)
        alone = state.stored_operators(path)
        other = state.stored_operators("torch/_C/__init__.pyi")  # no YAML facts
    assert whole is not None and whole.facts.yaml is not None
    entries = whole.facts.yaml.operators
    assert entries and [alone.at(e.line) for e in entries] == list(entries)
    assert alone.at(entries[0].line + 1) is None  # a line inside an entry starts none
    assert other.at(entries[0].line) is None
    assert StoredOperators(path, "not json").at(1) is None
    assert StoredOperators("another.yaml", "[]").at(1) is None
