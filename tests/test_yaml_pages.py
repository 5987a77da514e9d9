"""An operator file's pages: a section per operator whose dispatch kernels link to the
C++ that declares them, derivative entries linked to their operator, the operators on
the keyword pages and in `docgen find`; an edit of either side is followed, and the
incremental build equals a clean one."""

from __future__ import annotations

from pathlib import Path

from conftest import clean_pages, page_files, run_build

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
    ops.write_text(ops.read_text().replace("add.Tensor(", "add.Other("), "utf-8")
    run_build(repo, out, jobs=1)
    derivatives = (out / "autograd/derivatives.yaml_docs.md").read_text(encoding="utf-8")
    assert "- Operator:" not in derivatives
    assert page_files(out) == clean_pages(repo, tmp_path)
