"""Docstrings attached at import, on the pages: the text on the section of the stub
that declares the name (`torch.add` through `torch/__init__.py`'s star import of
`torch._C._VariableFunctions`; `TensorBase.abs` through `_tensor_docs.py`'s wrapper),
the attaching file's list of where each leads, a role that names an inherited member
(`torch.Tensor.abs` on `TensorBase`), and an edit of the attaching file re-rendering
the stub's page, the incremental build equal to a clean one."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import (
    built_tree,
    clean_pages,
    count_digests,
    invoke,
    page_files,
    page_section,
    run_build,
    write_tree,
)

from docgen.site.linkcheck import check_links

TREE = {
    "torch/__init__.py": (
        "from typing import TYPE_CHECKING\n"
        "from torch import _C\n"
        "from torch._tensor import Tensor\n"
        "if TYPE_CHECKING:\n"
        "    from torch._C._VariableFunctions import *\n"
    ),
    "torch/_C/__init__.pyi": ("class TensorBase:\n    def abs(self) -> TensorBase: ...\n"),
    "torch/_C/_VariableFunctions.pyi": ('__all__ = ["add"]\ndef add(input, other): ...\n'),
    "torch/_tensor.py": (
        "import torch\n"
        "\n"
        "\n"
        "class Tensor(torch._C.TensorBase):\n"
        '    """See :meth:`torch.Tensor.abs`."""\n'
    ),
    "torch/_torch_docs.py": (
        "import torch._C\n"
        "from torch._C import _add_docstr as add_docstr\n"
        "\n"
        "add_docstr(\n"
        "    torch.add,\n"
        '    r"""\n'
        "add(input, other) -> Tensor\n"
        "\n"
        "Adds {other} to <b>input</b>.\n"
        '""".format(other="other"),\n'
        ")\n"
        'add_docstr(torch.nowhere, "Made at run time.")\n'
    ),
    "torch/_tensor_docs.py": (
        "import torch._C\n"
        "from torch._C import _add_docstr as add_docstr\n"
        "\n"
        "\n"
        "def add_docstr_all(method, docstr):\n"
        "    add_docstr(getattr(torch._C.TensorBase, method), docstr)\n"
        "\n"
        "\n"
        'add_docstr_all("abs", "abs() -> Tensor\\n\\nThe absolute value.")\n'
    ),
    "torch/other.py": "def unrelated():\n    return 1\n",
}


def test_the_stub_s_section_shows_the_text_attached_to_its_name(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, TREE)
    run_build(repo, out, jobs=1)
    stub = (out / "torch/_C/_VariableFunctions.pyi_docs.md").read_text(encoding="utf-8")
    add = page_section(stub, "### function `add`")
    assert (
        "- Docstring attached at import by `add_docstr(torch.add, ...)` in "
        "[`torch/_torch_docs.py`](../_torch_docs.py_docs.md) at [L4]"
    ) in add
    assert "are filled when that module is imported by `.format(other='other')`" in add
    assert "add(input, other) -\\> Tensor" in add and "Adds {other} to" in add
    assert "<b>" not in add  # the text stays inert
    methods = (out / "torch/_C/__init__.pyi_docs.md").read_text(encoding="utf-8")
    abs_section = page_section(methods, "#### method `TensorBase.abs`")
    assert "`add_docstr_all('abs', ...)` in [`torch/_tensor_docs.py`]" in abs_section
    assert "The absolute value." in abs_section
    docs = (out / "torch/_torch_docs.py_docs.md").read_text(encoding="utf-8")
    attached = page_section(docs, "### Docstrings attached at import")
    assert (
        "`add_docstr(torch.add, ...)`: [`torch.add`](_C/_VariableFunctions.pyi_docs.md#" in attached
    )
    assert "`torch.nowhere`, defined nowhere in this tree" in attached
    tensor = (out / "torch/_tensor.py_docs.md").read_text(encoding="utf-8")
    assert "[`torch.Tensor.abs`](_C/__init__.pyi_docs.md#method-tensorbaseabs)" in tensor
    assert "Docstring attached" not in (out / "torch/other.py_docs.md").read_text(encoding="utf-8")
    assert check_links(out, repo) == []


def test_an_edit_of_the_attaching_file_re_renders_the_stub_s_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, TREE)
    run_build(repo, out, jobs=1)
    digested = count_digests(monkeypatch)
    docs = repo / "torch/_torch_docs.py"
    docs.write_text(docs.read_text().replace("Adds", "Sums"), encoding="utf-8")
    run_build(repo, out, jobs=1)
    assert "torch/_C/_VariableFunctions.pyi" in digested and "torch/other.py" not in digested
    stub = (out / "torch/_C/_VariableFunctions.pyi_docs.md").read_text(encoding="utf-8")
    assert "Sums {other}" in stub and "Adds" not in stub
    assert page_files(out) == clean_pages(repo, tmp_path)
    # the target moves to a name the stub does not declare: the text leaves its page
    docs.write_text(docs.read_text().replace("torch.add,", "torch.sub,"), encoding="utf-8")
    run_build(repo, out, jobs=1)
    stub = (out / "torch/_C/_VariableFunctions.pyi_docs.md").read_text(encoding="utf-8")
    assert "Docstring attached" not in stub
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_an_operator_of_a_module_without_a_stub_is_bound_as_the_name_its_docstring_goes_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    operators = (
        "- func: linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor\n"
        "  python_module: linalg\n"
        "  variants: function\n"
    )
    linalg = (
        "from torch._C import _add_docstr, _linalg\n"
        "\n"
        "cross = _add_docstr(\n"
        "    _linalg.linalg_cross,\n"
        '    r"""linalg.cross(input, other, *, dim=-1) -> Tensor"""\n'
        ")\n"
    )
    write_tree(repo, {"aten/native_functions.yaml": operators, "torch/linalg/__init__.py": linalg})
    (repo / "torch/__init__.py").write_text("", encoding="utf-8")
    run_build(repo, out, jobs=1)
    page = (out / "aten/native_functions.yaml_docs.md").read_text(encoding="utf-8")
    assert (
        "- Bound in Python as: [`torch.linalg.cross`]"
        "(../torch/linalg/__init__.py_docs.md#module-attributes)"
    ) in page
    assert check_links(out, repo) == []
    digested = count_digests(monkeypatch)
    init = repo / "torch/linalg/__init__.py"
    init.write_text(init.read_text().replace("cross =", "cross_product ="), encoding="utf-8")
    run_build(repo, out, jobs=1)
    assert "aten/native_functions.yaml" in digested
    page = (out / "aten/native_functions.yaml_docs.md").read_text(encoding="utf-8")
    assert "`torch.linalg.cross_product`" in page
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_trace_lists_the_docstrings_attached_after_the_stubs_they_document(
    tmp_path: Path,
) -> None:
    out = built_tree(tmp_path, TREE)

    def traced(name: str) -> list[str]:
        return invoke("find", name, "--trace", "--out", str(out))[1].splitlines()

    assert traced("torch.add") == [
        "torch/_C/_VariableFunctions.pyi:2: function add (stub)",
        "torch/_torch_docs.py:4: docstring attached at import by add_docstr(torch.add, ...)",
    ]
    assert traced("Tensor.abs") == [
        "torch/_C/__init__.pyi:2: method TensorBase.abs (stub)",
        "torch/_tensor_docs.py:9: docstring attached at import by add_docstr_all('abs', ...)",
    ]
    assert traced("torch.abs") == []  # a function of that name: no stub, no docstring
