"""The folder `doc.md` page: files by tag, the public API of `__init__.py`, the test files.

Each test builds a small repository in `tmp_path` through the real pipeline
(scan, analyze, index, render, write) and reads the finished pages.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import page_files, run_build

from docgen.site.linkcheck import check_links, format_broken

#: A package whose `__all__` re-exports names from everywhere a name can come from.
PACKAGE: dict[str, str] = {
    "pkg/__init__.py": (
        '"""The package."""\n'
        "\n"
        "from torch.nn import Module\n"
        "\n"
        "from lib.impl import Helper\n"
        "from pkg.sub import Tool\n"
        "\n"
        "from . import helpers\n"
        "from .core import Engine, run as start\n"
        "from .star_src import *\n"
        "from .values import LIMIT\n"
        "\n"
        "\n"
        "def local_fn():\n"
        "    return 1\n"
        "\n"
        "\n"
        "__all__ = [\n"
        '    "Engine",\n'
        '    "start",\n'
        '    "helpers",\n'
        '    "Tool",\n'
        '    "Starred",\n'
        '    "Helper",\n'
        '    "Module",\n'
        '    "LIMIT",\n'
        '    "local_fn",\n'
        '    "ghost",\n'
        '    "extra",\n'
        '    "Engine",\n'
        "]\n"
    ),
    "pkg/core.py": (
        "import torch\n"
        "\n"
        "\n"
        "class Engine:\n"
        "    def go(self):\n"
        "        torch.cuda.synchronize()\n"
        "\n"
        "\n"
        "def run():\n"
        "    return Engine()\n"
    ),
    "pkg/helpers.py": "def helper():\n    return 2\n",
    "pkg/values.py": "LIMIT = 3\n",
    "pkg/extra.py": "def more():\n    pass\n",
    "pkg/star_src.py": "class Starred:\n    pass\n\n\nclass _Hidden:\n    pass\n",
    "pkg/sub/__init__.py": "from .tool import Tool\n",
    "pkg/sub/tool.py": "class Tool:\n    pass\n",
    "pkg/kernels/gpu.py": "import torch\n\ntorch.cuda.synchronize()\n",
    "pkg/tests/test_core.py": (
        "import pkg.core\n\n\ndef test_engine():\n    assert pkg.core.run()\n"
    ),
    "pkg/tests/runner_test.py": (
        "import unittest\n"
        "\n"
        "\n"
        "class T(unittest.TestCase):\n"
        "    def test_a(self):\n"
        "        pass\n"
        "\n"
        "\n"
        'if __name__ == "__main__":\n'
        "    unittest.main()\n"
    ),
    "lib/__init__.py": "",
    "lib/impl.py": "class Helper:\n    pass\n",
    "plain/__init__.py": '"""No __all__ here."""\n\nfrom .mod import thing\n',
    "plain/mod.py": "def thing():\n    pass\n",
    "nopkg/script.py": "print(1)\n",
}


def make_repo(root: Path, files: dict[str, str]) -> Path:
    repo = root / "demo"
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return repo


def build_pages(root: Path, files: dict[str, str]) -> dict[str, str]:
    repo = make_repo(root, files)
    out = root / "out"
    run_build(repo, out)
    broken = check_links(out, repo)
    assert not broken, [format_broken(b) for b in broken]
    return {path: data.decode("utf-8") for path, data in page_files(out).items()}


def section(page: str, title: str) -> list[str]:
    """The non-blank lines of one `## title` section."""
    start = page.index(f"\n## {title}\n") + len(f"\n## {title}\n")
    end = page.find("\n## ", start)
    return [ln for ln in page[start : end if end >= 0 else len(page)].split("\n") if ln]


def subsection(lines: list[str], title: str) -> list[str]:
    start = lines.index(f"### {title}") + 1
    rest = lines[start:]
    end = next((i for i, ln in enumerate(rest) if ln.startswith("### ")), len(rest))
    return rest[:end]


def test_public_api_links_each_name_to_its_definition(tmp_path: Path) -> None:
    pages = build_pages(tmp_path, PACKAGE)
    source = "../../demo/pkg"
    assert section(pages["pkg/doc.md"], "Public API") == [
        "`__all__` in [`pkg/__init__.py`](__init__.py_docs.md) lists 11 names;"
        " definitions found for 8:",
        "- [`Engine`](core.py_docs.md#class-engine): class in [`pkg/core.py`](core.py_docs.md)"
        f" ([L4]({source}/core.py#L4))",
        # `from .core import run as start`: the name in `__all__` is the alias
        "- [`start`](core.py_docs.md#function-run): function in [`pkg/core.py`](core.py_docs.md)"
        f" ([L9]({source}/core.py#L9))",
        "- [`helpers`](helpers.py_docs.md): module [`pkg/helpers.py`](helpers.py_docs.md)",
        # through `pkg/sub/__init__.py`, which re-exports it in turn
        "- [`Tool`](sub/tool.py_docs.md#class-tool): class in"
        f" [`pkg/sub/tool.py`](sub/tool.py_docs.md) ([L1]({source}/sub/tool.py#L1))",
        # `from .star_src import *` binds the public names of star_src
        "- [`Starred`](star_src.py_docs.md#class-starred): class in"
        f" [`pkg/star_src.py`](star_src.py_docs.md) ([L1]({source}/star_src.py#L1))",
        # outside the folder
        "- [`Helper`](../lib/impl.py_docs.md#class-helper): class in"
        " [`lib/impl.py`](../lib/impl.py_docs.md) ([L1](../../demo/lib/impl.py#L1))",
        "- `Module`: imported from `torch.nn`, which names no file of this repository",
        "- `LIMIT`: imported from [`pkg.values`](values.py_docs.md),"
        " which defines no class or function of that name",
        "- [`local_fn`](__init__.py_docs.md#function-local_fn): function in"
        f" [`pkg/__init__.py`](__init__.py_docs.md) ([L14]({source}/__init__.py#L14))",
        "- `ghost`: source not resolved",
        # not imported, but `from pkg import *` imports a submodule `__all__` names
        "- [`extra`](extra.py_docs.md): module [`pkg/extra.py`](extra.py_docs.md)",
    ]


def test_public_api_without_all_or_without_init(tmp_path: Path) -> None:
    pages = build_pages(tmp_path, PACKAGE)
    assert section(pages["plain/doc.md"], "Public API") == [
        "[`plain/__init__.py`](__init__.py_docs.md) has no `__all__` written as a list of strings."
    ]
    assert "## Public API" not in pages["nopkg/doc.md"]
    assert section(pages["lib/doc.md"], "Public API") == [
        "[`lib/__init__.py`](__init__.py_docs.md) has no `__all__` written as a list of strings."
    ]


def test_public_api_is_capped(tmp_path: Path) -> None:
    names = [f"f{i:02}" for i in range(60)]
    init = "".join(f"def {n}():\n    pass\n\n\n" for n in names)
    init += "__all__ = [" + ", ".join(f'"{n}"' for n in names) + "]\n"
    pages = build_pages(tmp_path, {"big/__init__.py": init})
    lines = section(pages["big/doc.md"], "Public API")
    assert lines[0].endswith("lists 60 names; definitions found for 60:")
    items = [ln for ln in lines if ln.startswith("- [")]
    assert len(items) == 50
    assert items[-1].startswith("- [`f49`](__init__.py_docs.md#function-f49)")
    assert lines[-1] == "- …and 10 more."


def test_files_by_tag(tmp_path: Path) -> None:
    pages = build_pages(tmp_path, PACKAGE)
    tags = section(pages["pkg/doc.md"], "Files by Tag")
    assert [ln for ln in tags if ln.startswith("### ")] == ["### `test`", "### `gpu`"]
    assert subsection(tags, "`gpu`") == [
        "2 files: 1 directly here, 1 in subfolders.",
        "- [`core.py`](core.py_docs.md)",
        "- [`kernels/gpu.py`](kernels/gpu.py_docs.md)",
    ]
    assert subsection(tags, "`test`") == [
        "2 files, all in subfolders. They are listed with their run commands under"
        " [Test Files](#test-files)."
    ]
    # the root sees the same files from further up
    root = section(pages["doc.md"], "Files by Tag")
    assert subsection(root, "`gpu`") == [
        "2 files, all in subfolders.",
        "- [`pkg/core.py`](pkg/core.py_docs.md)",
        "- [`pkg/kernels/gpu.py`](pkg/kernels/gpu.py_docs.md)",
    ]
    assert "## Files by Tag" not in pages["lib/doc.md"]


def test_test_files_with_their_run_commands(tmp_path: Path) -> None:
    pages = build_pages(tmp_path, PACKAGE)
    assert section(pages["pkg/doc.md"], "Test Files") == [
        "2 test files, all in subfolders. Commands run from the repository root.",
        "- [`tests/runner_test.py`](tests/runner_test.py_docs.md):"
        " `pytest pkg/tests/runner_test.py`, `python pkg/tests/runner_test.py`",
        "- [`tests/test_core.py`](tests/test_core.py_docs.md): `pytest pkg/tests/test_core.py`",
    ]
    # the same commands as the file's own docs page
    docs = pages["pkg/tests/runner_test.py_docs.md"]
    assert "pytest pkg/tests/runner_test.py" in docs
    assert "python pkg/tests/runner_test.py" in docs
    assert section(pages["pkg/tests/doc.md"], "Test Files")[0] == (
        "2 test files. Commands run from the repository root."
    )
    assert "## Test Files" not in pages["lib/doc.md"]


def test_long_lists_are_cut_and_say_where_the_rest_is(tmp_path: Path) -> None:
    files = {f"t/test_{i:02}.py": "def test_a():\n    pass\n" for i in range(3)}
    files |= {f"t/a/test_{i:02}.py": "def test_a():\n    pass\n" for i in range(12)}
    files |= {f"t/b/test_{i:02}.py": "def test_a():\n    pass\n" for i in range(10)}
    gpu = "import torch\n\ntorch.cuda.synchronize()\n"
    files |= {f"t/g{i:02}.py": gpu for i in range(4)}
    files |= {f"t/a/g{i:02}.py": gpu for i in range(8)}
    pages = build_pages(tmp_path, files)
    doc = pages["t/doc.md"]
    tests = section(doc, "Test Files")
    assert tests[0] == (
        "25 test files: 3 directly here, 22 in subfolders:"
        " [`a`](a/doc.md) (12), [`b`](b/doc.md) (10). Commands run from the repository root."
    )
    listed = [ln for ln in tests if ln.startswith("- [")]
    assert len(listed) == 20
    assert listed[:4] == [
        "- [`test_00.py`](test_00.py_docs.md): `pytest t/test_00.py`",
        "- [`test_01.py`](test_01.py_docs.md): `pytest t/test_01.py`",
        "- [`test_02.py`](test_02.py_docs.md): `pytest t/test_02.py`",
        "- [`a/test_00.py`](a/test_00.py_docs.md): `pytest t/a/test_00.py`",
    ]
    assert tests[-1] == "- …and 5 more."
    gpu_files = subsection(section(doc, "Files by Tag"), "`gpu`")
    assert gpu_files[0] == "12 files: 4 directly here, 8 in subfolders: [`a`](a/doc.md) (8)."
    assert len(gpu_files) == 1 + 10 + 1 and gpu_files[-1] == "- …and 2 more."
    assert gpu_files[1:5] == [f"- [`g{i:02}.py`](g{i:02}.py_docs.md)" for i in range(4)]
    # a short list names no subfolders: every file is there to click
    small = subsection(section(pages["t/a/doc.md"], "Files by Tag"), "`gpu`")
    assert small[0] == "8 files."


def test_incremental_build_follows_a_re_export_out_of_the_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, PACKAGE)
    out = tmp_path / "out"
    run_build(repo, out)
    # `Helper` moves down a line in a file outside `pkg/`: pkg/doc.md links the new line
    (repo / "lib/impl.py").write_text(
        "class Other:\n    pass\n\n\nclass Helper:\n    pass\n", encoding="utf-8"
    )
    run_build(repo, out)
    clean = tmp_path / "clean"
    shutil.copytree(repo, clean / "demo")
    run_build(clean / "demo", clean / "out")
    assert page_files(out) == page_files(clean / "out")
    assert "([L5](../../demo/lib/impl.py#L5))" in page_files(out)["pkg/doc.md"].decode()


def test_public_classes_are_capped_and_the_rest_counted(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "many").mkdir(parents=True)
    body = "".join(f"class C{i:03d}:\n    pass\n\n\n" for i in range(55))
    (repo / "many" / "shapes.py").write_text(body + "class _Hidden:\n    pass\n", encoding="utf-8")
    out = repo / "docs" / "generated"
    run_build(repo, out, jobs=1)
    page = (out / "many" / "doc.md").read_text(encoding="utf-8")
    listed = [line for line in page.splitlines() if line.startswith("- [`C")]
    assert len(listed) == 50
    assert listed[0].startswith("- [`C000`]") and listed[-1].startswith("- [`C049`]")
    assert "- and 5 more public classes, each on its file's keyword page" in page
    assert "_Hidden" not in page
