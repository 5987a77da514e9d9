"""A file's summary holds what every build reads of it, and an edit reads the unchanged
files through their summaries, decoding only the facts of the pages it renders."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import built_copy, clean_pages, count_decoding, page_files, run_build

from docgen.analyze.summary import (
    LazyImports,
    plain_binding,
    read_summary,
    summarize,
    summary_text,
)
from docgen.scan.workers import scan_data

MODULE = b'''"""A module."""
import os
from .sibling import helper as h
from pkg.other import *

__all__ = ["Thing", "make"]


class Thing:
    def method(self):
        def inner():
            pass


def make():
    return Thing()


def make():  # a second definition of the name: the first is the one listed
    return None


x = 1
'''


def test_a_module_summary_holds_its_imports_exports_and_top_level_names() -> None:
    scanned = scan_data("pkg/mod.py", MODULE)
    summary = summarize(scanned)
    assert summary.kind == "python" and summary.line_count == MODULE.count(b"\n")
    assert scanned.facts.python is not None and summary.imports is not None
    full = scanned.facts.python.imports
    assert [replace(i, aliases=()) for i in summary.imports] == [
        replace(i, aliases=()) for i in full
    ]
    # Aliases only where one renames: `import os` binds `os`, `from pkg.other import *` none.
    assert [i.aliases for i in summary.imports] == [(), (("h", ".sibling.helper"),), ()]
    assert [i.module for i in summary.imports] == ["os", ".sibling", "pkg.other"]
    assert summary.exported == ("Thing", "make")
    assert summary.top_level == (("Thing", "class"), ("make", "function"))
    assert summary.links == () and not summary.suite
    assert read_summary(summary_text(scanned)) == summary


@pytest.mark.parametrize(
    ("source", "kept"),
    [
        ("import a.b", ()),
        ("import a.b as c", (("c", "a.b"),)),
        ("from m import x, y", ()),
        ("from m import x, y as z", (("x", "m.x"), ("z", "m.y"))),
        ("from .. import x as x", ()),
    ],
)
def test_a_summary_keeps_the_aliases_that_rename(
    source: str, kept: tuple[tuple[str, str], ...]
) -> None:
    scanned = scan_data("pkg/mod.py", source.encode() + b"\n")
    summary = summarize(scanned)
    assert summary.imports is not None and [i.aliases for i in summary.imports] == [kept]


def test_a_plain_import_summarized_still_binds_its_top_level_name() -> None:
    for source, bound in (("import a.b", (("a", "a"),)), ("import a.b as c", (("c", "a.b"),))):
        summary = summarize(scan_data("pkg/mod.py", source.encode() + b"\n"))
        assert summary.imports is not None
        (imp,) = summary.imports
        assert (imp.aliases or plain_binding(imp)) == bound


def test_a_markdown_summary_holds_its_link_targets_and_is_never_a_test() -> None:
    text = b"# Testing\n\nSee [the guide](docs/guide.md) and [mod](pkg/mod.py#L3).\n\n" + (
        b"```python\nimport pytest\n\ndef test_x():\n    assert True\n```\n"
    )
    scanned = scan_data("TESTING.md", text)
    summary = summarize(scanned)
    assert summary.links == ("docs/guide.md", "pkg/mod.py#L3")
    assert summary.imports is None and summary.top_level == () and summary.exported is None
    assert "test" not in summary.tags


def test_a_test_file_summary_says_it_has_a_suite() -> None:
    text = b"import unittest\n\n\nclass TestX(unittest.TestCase):\n    def test_a(self):\n"
    text += b"        pass\n"
    summary = summarize(scan_data("tests/test_x.py", text))
    assert summary.suite and "test" in summary.tags


def test_an_edit_decodes_only_the_facts_of_the_pages_it_renders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    decoded = count_decoding(monkeypatch)
    leaf = repo / "minitorch/version.py"
    leaf.write_text(leaf.read_text() + "\n\ndef added():\n    return 2\n")
    report = run_build(repo, out, jobs=1)
    assert (report.scanned, report.reused) == (1, report.files - 1)
    # `minitorch/nn/__init__.py` re-exports its names from `modules.py`: the folder page
    # that traces them is not rendered, so its facts are not read.  The test files are
    # read (for their classes' bases in other files), and what the pages rendered show.
    assert "minitorch/nn/__init__.py" not in decoded
    assert "minitorch/version.py" not in decoded  # scanned afresh, never decoded
    assert len(set(decoded)) < report.files // 2
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_an_edit_of_an_exporting_module_renders_the_public_api_as_a_clean_build(
    tmp_path: Path,
) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    init = repo / "minitorch/nn/__init__.py"
    init.write_text(init.read_text().replace('    "ReLU",\n', ""))
    modules = repo / "minitorch/nn/modules.py"
    modules.write_text(modules.read_text() + "\n\nclass Added:\n    pass\n")
    run_build(repo, out, jobs=1)
    assert page_files(out) == clean_pages(repo, tmp_path)
    doc = (out / "minitorch/nn/doc.md").read_text(encoding="utf-8")
    assert "`Linear`" in doc and "`ReLU`" not in doc.split("Public API", 1)[1].split("\n#", 1)[0]


def test_a_stored_summary_decodes_its_imports_when_first_read() -> None:
    scanned = scan_data("pkg/mod.py", MODULE)
    read = read_summary(summary_text(scanned))
    assert isinstance(read.imports, LazyImports)
    assert read.imports._items is None  # not decoded yet
    assert read == summarize(scanned)  # reading them decodes them
    assert read.imports._items is not None and len(read.imports) == 3
    lines = [i.line for i in summarize(scanned).imports or ()]
    assert read.imports[0].module == "os" and [i.line for i in read.imports] == lines
    assert hash(read) == hash(summarize(scanned))
    markdown = read_summary(summary_text(scan_data("README.md", b"# Title\n")))
    assert markdown.imports is None
    no_imports = read_summary(summary_text(scan_data("pkg/empty.py", b"x = 1\n")))
    assert no_imports.imports == ()


@pytest.mark.parametrize(
    "text", ['["python",1,[],[],false,[],[],null]', "not json\n[]", '["python"]\n[]']
)
def test_a_damaged_summary_is_refused(text: str) -> None:
    with pytest.raises((ValueError, TypeError, KeyError)):
        read_summary(text)


def test_damaged_imports_are_damage_of_the_state() -> None:
    from docgen.state import StateDamaged

    read = read_summary('["python",1,[],[],false,[],[],null,[],[]]\n[[1,2]]')
    assert read.kind == "python"
    with pytest.raises(StateDamaged):
        len(read.imports or ())


def test_a_summary_s_row_keeps_every_field_but_its_imports_in_order() -> None:
    from dataclasses import fields

    from docgen.analyze.summary import FileSummary, StoredSummary

    kept = [f.name for f in fields(FileSummary) if f.name != "imports"]
    assert kept == [f.name for f in fields(StoredSummary)]
