"""An edit that keeps every path digests only the pages it can change, and its output is
still a clean build's, byte for byte."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import (
    built_copy,
    clean_pages,
    count_digests,
    page_files,
    pages_and_rows,
    run_build,
    write_tree,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.render.edit_scope import scope_key

MODULES = ["pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/sub/c.py", "tests/test_a.py"]
MARKDOWN = ["README.md", "docs/guide.md"]

#: Lines a module is made of: imports of the tree's modules, classes that may be test
#: bases, test classes, exports, definitions, docstrings whose roles name other files.
LINES = [
    "import pkg.a",
    "from pkg import b",
    "from pkg.sub import c",
    "from . import a",
    "from pkg.a import Base",
    "import unittest",
    "class Base(unittest.TestCase):\n    pass",
    'class Base(unittest.TestCase):\n    """Runs things."""',
    "class Base:\n    pass",
    "class TestThing(Base):\n    def test_x(self):\n        pass",
    "__all__ = ['Base', 'helper']",
    "__all__ = ['helper']",
    "from pkg.a import *",
    "def helper():\n    return 1",
    "def other():\n    '''Says something.'''",
    "x = 1",
    "from pkg.a import Base as Alias",
    "from pkg.a import helper",
    "def linked():\n    '''See :class:`pkg.a.Base`, :func:`pkg.b.helper`, :func:`b.helper`.'''",
    "def reexported():\n    '''See :class:`pkg.Base`, :func:`pkg.helper`, :class:`Alias`.'''",
    "class Described:\n    '''Has :meth:`pkg.a.TestThing.test_x`, :mod:`pkg.sub.c`.'''",
]


@st.composite
def module_text(draw: st.DrawFn) -> str:
    return "\n\n".join(draw(st.lists(st.sampled_from(LINES), max_size=6))) + "\n"


@st.composite
def markdown_text(draw: st.DrawFn, source: str) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["heading", "link", "prose"]))
        if kind == "heading":
            parts.append(f"# {draw(st.sampled_from(['Intro', 'Usage', 'Thing']))}")
        elif kind == "link":
            target = draw(st.sampled_from([*MODULES, *MARKDOWN, "docs/guide.md#usage"]))
            parts.append(f"[see]({os.path.relpath(target, os.path.dirname(source) or '.')})")
        else:
            parts.append("Some words.")
    return "\n\n".join(parts) + "\n"


@st.composite
def tree(draw: st.DrawFn) -> dict[str, str]:
    files = {path: draw(module_text()) for path in MODULES}
    files.update({path: draw(markdown_text(path)) for path in MARKDOWN})
    return files


def _built_then_edited(tmp_path: Path, files: dict[str, str], edit: dict[str, str]) -> Path:
    """A tree built, then edited and built again: its output folder."""
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, files)
    run_build(repo, out, jobs=1)
    write_tree(repo, edit)
    run_build(repo, out, jobs=1)
    assert page_files(out) == clean_pages(repo, tmp_path)
    return out


@settings(
    max_examples=40 if os.environ.get("DOCGEN_HYPOTHESIS") != "long" else 400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(tree(), st.lists(st.tuples(st.sampled_from(MODULES + MARKDOWN), st.data()), max_size=3))
def test_edits_that_keep_every_path_equal_a_clean_build(
    files: dict[str, str], edits: list[tuple[str, st.DataObject]]
) -> None:
    """One to three successive edits, each of one file (its imports, its classes and
    their bases, its exports, its links and headings), each built incrementally."""
    root = Path(tempfile.mkdtemp(prefix="docgen-scope-"))
    try:
        repo, out = root / "repo", root / "out"
        write_tree(repo, files)
        build(resolve_options(repo, out, 1))
        for path, data in edits:
            text = data.draw(markdown_text(path) if path.endswith(".md") else module_text())
            write_tree(repo, {path: text})
            build(resolve_options(repo, out, 1))
            clean = root / "clean"
            shutil.rmtree(clean, ignore_errors=True)
            build(resolve_options(repo, clean, 1))
            assert pages_and_rows(out) == pages_and_rows(clean)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_leaf_edit_digests_the_pages_of_the_file_its_imports_tests_and_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    digested = count_digests(monkeypatch)
    folders = count_digests(monkeypatch, "folder_doc")
    leaf = repo / "minitorch/utils/helpers.py"
    leaf.write_text(leaf.read_text() + "\n\nimport minitorch.version\n")
    run_build(repo, out, jobs=1)
    assert {"", "minitorch", "minitorch/utils"} <= set(folders)
    assert "minitorch/nn" not in folders and "docs" not in folders
    assert "minitorch/utils/helpers.py" in digested
    assert "minitorch/version.py" in digested  # newly imported: one more importer
    assert "minitorch/nn/modules.py" not in digested  # nothing it shows can have changed
    assert "README.md" in digested  # every Markdown file: its links' states
    assert page_files(out) == clean_pages(repo, tmp_path)
    # A file that becomes a test file changes other pages' tests: every page is digested.
    digested.clear()
    leaf.write_text(leaf.read_text() + "\n\nimport unittest\n\n\nclass TestX(unittest.TestCase):\n")
    with open(leaf, "a", encoding="utf-8") as handle:
        handle.write("    def test_x(self):\n        pass\n")
    run_build(repo, out, jobs=1)
    assert "minitorch/nn/modules.py" in digested


def test_the_files_a_leaf_imports_are_digested_only_when_its_import_lines_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An imported file's pages show its importers' lines of their imports of it: an
    edit that leaves those lines as they were cannot change them."""
    repo, out = built_copy("torchlike", tmp_path)
    leaf = repo / "minitorch/utils/helpers.py"
    leaf.write_text(leaf.read_text() + "\n\nimport minitorch.version\n")
    run_build(repo, out, jobs=1)
    digested = count_digests(monkeypatch)
    folders = count_digests(monkeypatch, "folder_doc")
    leaf.write_text(leaf.read_text() + "\n\ndef added():\n    return 1\n")
    run_build(repo, out, jobs=1)
    assert "minitorch/utils/helpers.py" in digested
    assert "minitorch/version.py" not in digested  # its import of it on the same line
    assert {"", "minitorch", "minitorch/utils"} <= set(folders)
    assert page_files(out) == clean_pages(repo, tmp_path)
    digested.clear()
    leaf.write_text("# a line above every import\n" + leaf.read_text())
    run_build(repo, out, jobs=1)
    assert "minitorch/version.py" in digested  # "Imported by" shows the line it moved to
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_an_edit_of_a_test_base_class_renders_the_test_files_that_use_it(
    tmp_path: Path,
) -> None:
    """The tests table of `tests/test_a.py` shows its classes' chain of bases, with each
    base's docstring: an edit of `pkg/a.py`, which `tests/test_a.py` imports (not the
    reverse), changes its page."""
    base = 'import unittest\n\n\nclass Base(unittest.TestCase):\n    """Runs {}."""\n'
    test = "from pkg.a import Base\n\n\nclass TestThing(Base):\n    def test_x(self):\n"
    test += "        pass\n"
    files = {"pkg/__init__.py": "", "pkg/a.py": base.format("things"), "tests/test_a.py": test}
    out = _built_then_edited(tmp_path, files, {"pkg/a.py": base.format("other things")})
    assert "Runs other things" in (out / "tests/test_a.py_docs.md").read_text(encoding="utf-8")


def test_an_edit_of_a_heading_renders_the_markdown_files_that_link_to_it(
    tmp_path: Path,
) -> None:
    files = {"README.md": "# Top\n\n[see](docs/guide.md#usage)\n", "docs/guide.md": "# Usage\n"}
    out = _built_then_edited(tmp_path, files, {"docs/guide.md": "# Other\n"})
    assert "no heading with that anchor" in (out / "README.md_docs.md").read_text(encoding="utf-8")
    out = _built_then_edited(tmp_path / "back", {**files, "docs/guide.md": "# Other\n"}, files)
    assert "broken" not in (out / "README.md_docs.md").read_text(encoding="utf-8")


def test_an_edit_outside_a_package_that_it_re_exports_renders_the_package_page(
    tmp_path: Path,
) -> None:
    """`pkg/__init__.py` exports a function of `lib/impl.py`: its Public API links the
    function's line, which an edit of `lib/impl.py` moves, outside `pkg/`."""
    init = 'from lib.impl import helper\n\n__all__ = ["helper"]\n'
    files = {"pkg/__init__.py": init, "lib/impl.py": "def helper():\n    return 1\n"}
    edit = {"lib/impl.py": "X = 1\n\n\ndef helper():\n    return 1\n"}
    out = _built_then_edited(tmp_path, files, edit)
    assert "impl.py#L4" in (out / "pkg/doc.md").read_text(encoding="utf-8")


def test_a_build_that_could_not_write_every_page_leaves_no_scope(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    page = out / "minitorch/version.py_docs.md"
    page.unlink()
    page.mkdir()  # in the way of the page: it cannot be written
    leaf = repo / "minitorch/version.py"
    leaf.write_text(leaf.read_text() + "\n\ndef added():\n    return 2\n")
    run_build(repo, out, jobs=1)
    digested = count_digests(monkeypatch)
    page.rmdir()
    other = repo / "minitorch/utils/helpers.py"
    other.write_text(other.read_text() + "\n# a comment\n")
    run_build(repo, out, jobs=1)
    assert "minitorch/nn/modules.py" in digested  # every page digested
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_the_scope_key_follows_the_common_inputs_the_paths_and_the_tests() -> None:
    key = scope_key("c", ["a.py", "b.py"], ["t.py"])
    assert key == scope_key("c", ["b.py", "a.py"], ["t.py"])
    assert key != scope_key("d", ["a.py", "b.py"], ["t.py"])
    assert key != scope_key("c", ["a.py"], ["t.py"])
    assert key != scope_key("c", ["a.py", "b.py"], [])
    assert scope_key("c", ["a", "b"], []) != scope_key("c", ["a\0b"], [])
