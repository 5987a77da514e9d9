"""A docstring's role that names another file's object links to its definition's anchor
on that file's page, through re-exports and the file's own imports; a name defined
nowhere in the tree stays code; an edit of the definition re-renders the linking page."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import clean_pages, count_digests, page_files, run_build, write_tree

from docgen.analyze.summary import FileSummary
from docgen.index.role_rows import role_rows
from docgen.model.doc_roles import role_targets
from docgen.model.facts import Import
from docgen.model.sites import DefinitionSite
from docgen.render import keyword_views
from docgen.render.role_links import imported_names_moved, moved_names
from docgen.scan.python.scanner import scan as scan_python
from docgen.site.linkcheck import check_links

TREE = {
    "pkg/__init__.py": '"""The package."""\n\nfrom .core import Engine\nfrom . import util\n',
    "pkg/core.py": (
        '"""The core."""\n\n\nclass Engine:\n    """Runs."""\n\n    #: how fast\n'
        '    speed = 1\n\n    def run(self):\n        """Goes."""\n'
    ),
    "pkg/util.py": 'def helper():\n    """Helps."""\n\n\ndef _hidden():\n    pass\n',
    "pkg/api.py": "from pkg.util import *\n",
    "pkg/use.py": (
        "import pkg.util as u\nfrom pkg.core import Engine as E\n\n\n"
        "def work():\n"
        '    """Uses :class:`pkg.Engine`, :meth:`~pkg.Engine.run`, :attr:`pkg.core.Engine.speed`,\n'
        "    :func:`pkg.util.helper`, :func:`u.helper`, :class:`E`, :mod:`pkg.util`,\n"
        "    :func:`pkg.api.helper`, :func:`pkg.api._hidden`,\n"
        '    :func:`pkg.missing`, :meth:`pkg.Engine.stop` and :class:`!pkg.Engine`."""\n'
    ),
}


def _work_section(out: Path) -> str:
    page = (out / "pkg/use.py_docs.md").read_text(encoding="utf-8")
    return page[page.index("Uses ") :].split("\n", 1)[0]


def test_role_targets_read_as_sphinx_reads_them() -> None:
    text = (
        "See :class:`~a.B`, :func:`title <c.d>`, :meth:`!e.f`, :attr:`.g`, :math:`x`,\n"
        "``:class:`not.a.role```, :py:class:`h.I` and :class:`a\n  split`."
    )
    assert role_targets(text) == {"a.B", "c.d", "g", "h.I", "a split"}


def test_a_files_rows_hold_what_its_imports_make_of_each_target() -> None:
    facts = scan_python("pkg/use.py", TREE["pkg/use.py"].encode()).python
    rows = role_rows(facts)
    targets = {(target, stands_for) for target, stands_for, _ in rows}
    assert ("u.helper", "pkg.util.helper") in targets
    assert ("E", "pkg.core.Engine") in targets
    assert ("pkg.Engine", "") in targets
    assert "!pkg.Engine" not in {t for t, _ in targets}  # never linked: not kept
    keys = {key for target, _, key in rows if target == "pkg.Engine.run"}
    assert keys == {"Engine", "run"}  # the first name is a module of the tree or nothing
    assert {key for target, _, key in rows if target == "E"} == {"core", "Engine"}


def test_roles_link_to_definitions_in_other_files(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, TREE)
    run_build(repo, out, jobs=1)
    line = _work_section(out)
    assert "[`pkg.Engine`](core.py_docs.md#class-engine)" in line  # through the re-export
    assert "[`run`](core.py_docs.md#method-enginerun)" in line  # `~`: the last name
    assert "[`pkg.core.Engine.speed`](core.py_docs.md#" in line  # an attribute
    assert "[`pkg.util.helper`](util.py_docs.md#function-helper)" in line
    assert "[`u.helper`](util.py_docs.md#function-helper)" in line  # `import pkg.util as u`
    assert "[`E`](core.py_docs.md#class-engine)" in line  # `from ... import Engine as E`
    assert "[`pkg.util`](util.py_docs.md)" in line  # a module: its page
    assert "[`pkg.api.helper`](util.py_docs.md#function-helper)" in line  # through `*`
    assert "`pkg.api._hidden`" in line and "[`pkg.api._hidden`]" not in line  # not public
    # defined nowhere in the tree, or never linked: code, as written
    assert "`pkg.missing`" in line and "[`pkg.missing`]" not in line
    assert "`pkg.Engine.stop`" in line and "[`pkg.Engine.stop`]" not in line
    assert line.rstrip().endswith("and `pkg.Engine`.")
    assert check_links(out, repo) == []


@pytest.mark.parametrize("split", [False, True], ids=["one-page-index", "index-by-letter"])
def test_an_edit_of_a_definition_renders_the_pages_that_link_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, split: bool
) -> None:
    """By letter, the build reads only the sites of the letters an edit touches: the
    roles are then resolved through the stored index."""
    if split:
        monkeypatch.setattr(keyword_views, "SINGLE_PAGE_LIMIT", 3)
        monkeypatch.setattr(keyword_views, "LETTER_PAGE_LIMIT", 2)
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, TREE)
    run_build(repo, out, jobs=1)
    assert (out / "keywords-e.md").exists() == split
    digested = count_digests(monkeypatch)
    core = repo / "pkg/core.py"
    core.write_text(core.read_text().replace("def run", "def start"), encoding="utf-8")
    run_build(repo, out, jobs=1)
    assert "pkg/use.py" in digested  # it names `run`, whose site went
    assert "pkg/util.py" not in digested  # nothing it shows can have changed
    assert "`pkg.Engine.run`" in _work_section(out)  # code now: defined nowhere
    assert page_files(out) == clean_pages(repo, tmp_path)
    # A definition that comes: `pkg.Engine.stop` is now defined.
    core.write_text(core.read_text() + "\n    def stop(self):\n        pass\n", encoding="utf-8")
    run_build(repo, out, jobs=1)
    assert "[`pkg.Engine.stop`](core.py_docs.md#method-enginestop)" in _work_section(out)
    assert page_files(out) == clean_pages(repo, tmp_path)
    # A re-export that goes: `pkg.Engine` is no longer a name of the package.
    digested.clear()
    init = repo / "pkg/__init__.py"
    init.write_text(init.read_text().replace("from .core import Engine\n", ""), encoding="utf-8")
    run_build(repo, out, jobs=1)
    assert "pkg/use.py" in digested
    assert "[`pkg.Engine`]" not in _work_section(out)
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_what_an_edit_moves() -> None:
    site = DefinitionSite("run", "pkg/core.py", 10, "method", "Engine.run", "method-engine-run")
    moved = DefinitionSite("run", "pkg/core.py", 12, "method", "Engine.run", "method-engine-run")
    other = DefinitionSite("go", "pkg/core.py", 10, "method", "Engine.go", "method-engine-go")
    assert moved_names([site], [moved]) == set()  # a line that moved changes no link
    assert moved_names([site], [other]) == {"run", "go"}


def test_the_names_of_imports_that_came_or_went() -> None:
    def summary(*imports: Import) -> FileSummary:
        return FileSummary("python", 3, (), (), imports, False, ())

    kept = Import(1, "os")
    reexport = Import(2, ".core", ("Engine",), (("Engine", ".core.Engine"),), 1, True)
    star = Import(3, "pkg.util", is_from=True, star=True)
    assert imported_names_moved([(summary(kept, reexport), summary(kept))]) == {"Engine", "core"}
    assert imported_names_moved([(summary(kept), summary(kept, star))]) is None  # names unknown
