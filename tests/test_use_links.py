""" "Used in" on a Python definition's section and every use on the keyword page
(`docgen.render.use_links`, `docgen.render.use_views`), kept up to date by edits."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import page_section, run_build, write_tree

from docgen.analyze.own_uses import used_here
from docgen.scan.python.scanner import scan

TREE = {
    "lib/core.py": (
        '__all__ = ["run", "Thing"]\n\n'
        "def run(x):\n    return helper(x)\n\n"
        "def helper(x):\n    return x\n\n"
        "def _dead():\n    return _dead()\n\n"  # recursion is no use
        "def kept_out():\n    pass\n\n"  # left out of `__all__`, used nowhere
        "class Thing:\n    pass\n"
    ),
    "lib/open.py": "def public():\n    pass\n\ndef _private():\n    pass\n",  # no `__all__`
    "app/a.py": "from lib.core import run, Thing\n\ndef go():\n    return run(Thing())\n",
    "app/b.py": "import lib.core as c\n\n" + "".join(f"X{i} = c.run({i})\n" for i in range(6)),
    "app/c.py": "from lib import core\n\nY = core.run(1)\n",
}


def _build(tmp_path: Path, files: dict[str, str], name: str = "repo") -> Path:
    repo = tmp_path / name
    write_tree(repo, files)
    run_build(repo, repo / "out", jobs=1)
    return repo / "out"


def test_a_definition_says_which_files_use_it_and_which_are_dead_code(tmp_path: Path) -> None:
    out = _build(tmp_path, TREE)
    page = (out / "lib" / "core.py_docs.md").read_text(encoding="utf-8")
    run = page_section(page, "### function `run`")
    assert "- Used in 3 other files, on 9 lines:" in run
    lines = [line for line in run.splitlines() if line.startswith("  - ")]
    # most uses first: b.py's six reads (its `import lib.core as c` binds no `run`)
    assert lines[0].startswith("  - [`app/b.py`](../app/b.py_docs.md): [L3](../../app/b.py#L3)")
    assert lines[0].endswith("and 3 more")
    assert lines[-1] == "  - [every use](core.py_kw.md#function-run), on the keyword page"
    assert "this file only" in page_section(page, "### function `helper`")
    assert "a dead-code candidate" in page_section(page, "### function `_dead`")
    assert "a dead-code candidate" in page_section(page, "### function `kept_out`")
    thing = page_section(page, "### class `Thing`")
    assert "- Used in 1 other file, on 2 lines:" in thing and "every use" not in thing
    other = (out / "lib" / "open.py_docs.md").read_text(encoding="utf-8")
    assert "dead-code" not in page_section(other, "### function `public`")  # no `__all__`
    assert "a dead-code candidate" in page_section(other, "### function `_private`")
    kw = (out / "lib" / "core.py_kw.md").read_text(encoding="utf-8")
    entry = next(line for line in kw.splitlines() if line.startswith("- **`run`**"))
    assert entry.endswith("; used in 3 other files, on 9 lines")
    helper = next(line for line in kw.splitlines() if line.startswith("- **`helper`**"))
    assert "used in" not in helper
    every = page_section(kw, "### function `run`")
    assert "used in 3 other files, on 9 lines:" in every
    assert every.count("[L") == 9  # every line, none cut


def test_an_edit_of_a_user_moves_the_lines_on_the_definer_s_page(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_tree(repo, TREE)
    run_build(repo, repo / "out", jobs=1)
    (repo / "app" / "a.py").write_text("# moved\n" + TREE["app/a.py"], encoding="utf-8")
    report = run_build(repo, repo / "out", jobs=1)
    assert "lib/core.py_docs.md" in report.written
    fresh = tmp_path / "fresh"
    shutil.copytree(repo, fresh, ignore=shutil.ignore_patterns("out"))
    run_build(fresh, fresh / "out", jobs=1)
    for page in ("lib/core.py_docs.md", "lib/core.py_kw.md"):
        assert (repo / "out" / page).read_bytes() == (fresh / "out" / page).read_bytes()
    # an edit that moves no use leaves the definer's pages as they are
    (repo / "app" / "a.py").write_text("# moved\n" + TREE["app/a.py"] + "# end\n")
    assert "lib/core.py_docs.md" not in run_build(repo, repo / "out", jobs=1).written


def test_used_here_is_a_use_outside_the_definition_s_own_body() -> None:
    source = (
        b"def deco(f):\n    return f\n\n@deco\ndef a():\n    return a()\n\n"
        b"def b():\n    pass\n\nif True:\n    def c():\n        return b\n\n"
        b"class K:\n    def m(self):\n        return K\n\n"
        b"def shadow(b):\n    return b\n\nc()\n"
    )
    python = scan("m.py", source).python
    assert python is not None
    assert used_here(python) == ("b", "c", "deco")
