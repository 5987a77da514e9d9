"""Incremental builds: after any change, the output equals a clean build of the same tree.

Each step edits the sample, rebuilds into the same output folder, then builds a
fresh copy of the tree from scratch and compares every page byte for byte.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import copy_sample, page_files, run_build

from docgen.render.pages import Renderer
from docgen.state import read_state

Edit = Callable[[Path], None]


def _append(path: str, text: str) -> Edit:
    def edit(repo: Path) -> None:
        with open(repo / path, "a", encoding="utf-8") as handle:
            handle.write(text)

    return edit


def _write(path: str, text: str) -> Edit:
    def edit(repo: Path) -> None:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")

    return edit


def _delete(path: str) -> Edit:
    return lambda repo: (repo / path).unlink()


def _rename(old: str, new: str) -> Edit:
    return lambda repo: (repo / old).rename(repo / new)


STEPS: list[tuple[str, Edit]] = [
    ("edit a docstring", _append("minitorch/nn/modules.py", '\n\ndef extra():\n    """New."""\n')),
    ("a comment only", _append("minitorch/utils/helpers.py", "\n# a comment\n")),
    (
        "a new module importing another",
        _write(
            "minitorch/nn/extra_layers.py",
            "from minitorch.nn import modules\n\nclass X:\n    pass\n",
        ),
    ),
    (
        "a new test for a module",
        _write(
            "tests/test_extra_layers.py",
            "import minitorch.nn.extra_layers\n\ndef test_x():\n    pass\n",
        ),
    ),
    ("a test no more", _write("tests/test_extra_layers.py", "def helper():\n    pass\n")),
    ("delete an imported module", _delete("minitorch/nn/extra_layers.py")),
    ("a test named after a module", _write("tests/test_helpers.py", "def test_a():\n    pass\n")),
    ("rename a module", _rename("minitorch/utils/notes.py", "minitorch/utils/remarks.py")),
    ("edit the README", _append("README.md", "\n## A new heading\n\nWith `new_identifier`.\n")),
    ("a new folder", _write("minitorch/newpkg/__init__.py", '"""A new package."""\n')),
    ("a syntax error", _write("minitorch/newpkg/broken.py", "def broken(:\n")),
    (
        "tags change",
        _append("minitorch/utils/helpers.py", "\nimport torch\n\nx = torch.cuda.is_available()\n"),
    ),
    (
        "a test base stops being a TestCase in another file",
        _write(
            "minitorch/testing/common.py",
            (Path(__file__).parents[1] / "fixtures/torchlike/minitorch/testing/common.py")
            .read_text(encoding="utf-8")
            .replace("class MultiDeviceTestCase(unittest.TestCase):", "class MultiDeviceTestCase:"),
        ),
    ),
    (
        "a package re-exports a name of its module",
        _write("minitorch/shim/__init__.py", "from minitorch.shim._impl import run\n"),
    ),
    (
        "which re-exports it too",
        _write("minitorch/shim/_impl.py", "from minitorch.shim._deep import run\n"),
    ),
    (
        "from the module that defines it",
        _write("minitorch/shim/_deep.py", "def run():\n    pass\n"),
    ),
    (
        "a test reaches it through the package",
        _write(
            "tests/test_shim.py", "from minitorch.shim import run\n\ndef test_run():\n    run()\n"
        ),
    ),
    ("another module defines it too", _write("minitorch/shim/_alt.py", "def run():\n    pass\n")),
    (
        "the package re-exports that one instead",
        _write("minitorch/shim/__init__.py", "from minitorch.shim._alt import run\n"),
    ),
    (
        "the test imports it no more",
        _write("tests/test_shim.py", "import minitorch\n\ndef test_run():\n    pass\n"),
    ),
    ("project name", _write("pyproject.toml", '[project]\nname = "renamed-sample"\n')),
]


def _clean_copy(repo: Path, parent: Path) -> Path:
    copy = parent / "clean" / repo.name
    if copy.parent.exists():
        shutil.rmtree(copy.parent)
    shutil.copytree(repo, copy, symlinks=True, ignore=shutil.ignore_patterns("generated"))
    return copy


def test_each_incremental_build_equals_a_clean_build(tmp_path: Path) -> None:
    repo = copy_sample("torchlike", tmp_path / "work")
    out = repo / "docs" / "generated"
    run_build(repo, out)
    for name, edit in STEPS:
        edit(repo)
        report = run_build(repo, out)
        assert report.scanned <= 3, name  # only what changed is parsed again
        clean = _clean_copy(repo, tmp_path)
        run_build(clean, clean / "docs" / "generated")
        assert page_files(out) == page_files(clean / "docs" / "generated"), name
        assert _keyword_index(out) == _keyword_index(clean / "docs" / "generated"), name


def _keyword_index(out: Path) -> list[str]:
    """Every row `docgen find` reads, as text."""
    with read_state(out) as state:
        assert state is not None
        return [f"{s}|{s.name}|{s.anchor}" for s in state.find_sites("*", "glob")]


def test_nothing_changed_writes_nothing(tmp_path: Path) -> None:
    repo = copy_sample("torchlike", tmp_path)
    first = run_build(repo)
    second = run_build(repo)
    assert first.written and not second.written
    assert second.scanned == 0
    assert second.unchanged == len(first.written)
    assert second.warnings == first.warnings


def test_an_edited_page_is_restored(tmp_path: Path) -> None:
    repo = copy_sample("torchlike", tmp_path)
    out = repo / "docs" / "generated"
    run_build(repo, out)
    page = out / "minitorch" / "nn" / "modules.py_docs.md"
    original = page.read_bytes()
    page.write_bytes(original + b"\nhand edit\n")
    report = run_build(repo, out)
    assert report.written == ["minitorch/nn/modules.py_docs.md"]
    assert page.read_bytes() == original


@pytest.mark.parametrize("damage", [b"", b"not a database at all" * 50])
def test_a_damaged_state_is_rebuilt_from_scratch(tmp_path: Path, damage: bytes) -> None:
    repo = copy_sample("torchlike", tmp_path)
    out = repo / "docs" / "generated"
    run_build(repo, out)
    before = page_files(out)
    (out / ".docgen" / "state.sqlite").write_bytes(damage)
    report = run_build(repo, out)
    assert report.scanned == report.files
    assert page_files(out) == before


def test_a_new_name_rewrites_its_own_letter_page_only(tmp_path: Path) -> None:
    """Past `SINGLE_PAGE_LIMIT` names the keyword index is split by letter: a new
    definition changes the entry page and its letter's page, not the other letters'."""
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    names = [f"{letter}{i}" for letter in "abcdefgh" for i in range(200)]
    (repo / "pkg" / "many.py").write_text("".join(f"def {n}():\n    pass\n" for n in names))
    (repo / "pkg" / "other.py").write_text("def helper():\n    pass\n")
    out = tmp_path / "out"
    first = run_build(repo, out)
    assert {"keywords-a.md", "keywords-c.md", "keywords-h.md"} <= set(first.written)
    _append("pkg/other.py", "\n\ndef cube():\n    pass\n")(repo)
    report = run_build(repo, out)
    keyword_pages = sorted(p for p in report.written if p.startswith("keywords"))
    assert keyword_pages == ["keywords-c.md", "keywords.md"]
    assert "pkg/other.py_docs.md" in report.written
    clean = tmp_path / "clean"
    run_build(repo, clean)
    assert page_files(out) == page_files(clean)


def test_folder_pages_above_an_edit_are_remade_only_when_they_show_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder page shows of the files below it their kinds, their tags and the test
    files' run commands: a new function deep in the tree remakes its own folder's page
    only, a new tag every folder page above it too, and both equal a clean build."""
    repo = copy_sample("torchlike", tmp_path / "work")
    out = repo / "docs" / "generated"
    run_build(repo, out, jobs=1)
    made: list[str] = []
    folder_doc = Renderer.folder_doc

    def recorded(renderer: Renderer, folder: str) -> str:
        made.append(folder)
        return folder_doc(renderer, folder)

    monkeypatch.setattr(Renderer, "folder_doc", recorded)
    steps = [
        ("a new function", "\n\ndef extra():\n    pass\n", ["minitorch/contrib"]),
        (
            "a new tag",
            "\n\ndef sync():\n    torch.cuda.synchronize()\n",
            ["", "minitorch", "minitorch/contrib"],
        ),
    ]
    for name, text, remade in steps:
        made.clear()
        _append("minitorch/contrib/extra.py", text)(repo)
        run_build(repo, out, jobs=1)
        assert sorted(made) == remade, name
        clean = _clean_copy(repo, tmp_path)
        run_build(clean, clean / "docs" / "generated", jobs=1)
        assert page_files(out) == page_files(clean / "docs" / "generated"), name
