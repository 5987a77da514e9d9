"""The pages no longer as docgen left them, found in a child as in the build's process."""

from __future__ import annotations

from pathlib import Path

from conftest import built_copy, clean_pages, page_files, run_build

from docgen.cli.build_options import resolve_options
from docgen.cli.check import check
from docgen.state import open_state
from docgen.write.page_check import answer, page_check, stale_pages, start_check


def test_the_child_finds_the_pages_edited_or_removed_by_hand(tmp_path: Path) -> None:
    _, out = built_copy("torchlike", tmp_path)
    (out / "README.md_docs.md").write_text("edited by hand\n", encoding="utf-8")
    (out / "minitorch/version.py_kw.md").unlink()
    with open_state(out) as state:
        started = start_check(out, state.database())
        assert started is not None
        found = answer(started)
        assert not started.process.is_alive()
        rows = list(state._conn.execute("SELECT path, stamp FROM pages"))
        manifest, inputs = state.pages_as_left(out, found)
        assert (manifest, inputs) == state.pages_as_left(out)  # as checked here
    assert (
        found
        == stale_pages(str(out), rows)
        == {
            "README.md_docs.md",
            "minitorch/version.py_kw.md",
        }
    )
    assert "README.md_docs.md" in manifest and "README.md_docs.md" not in inputs


def test_a_child_that_gives_no_answer_leaves_the_check_to_the_build(tmp_path: Path) -> None:
    _, out = built_copy("torchlike", tmp_path)
    started = start_check(out, str(out / "no-such-database.sqlite"))
    assert started is not None
    assert answer(started) is None
    assert not started.process.is_alive()


def test_pages_edited_by_hand_are_made_again_by_an_edit(tmp_path: Path) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    (out / "minitorch/nn/modules.py_docs.md").write_text("edited by hand\n", encoding="utf-8")
    leaf = repo / "minitorch/version.py"
    leaf.write_text(leaf.read_text() + "\n# a comment\n")
    run_build(repo, out, jobs=1)
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_build_with_nothing_to_do_restores_a_page_edited_by_hand(tmp_path: Path) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    untouched = run_build(repo, out, jobs=1)
    assert untouched.written == [] and untouched.unchanged == len(page_files(out))
    (out / "README.md_kw.md").write_text("edited by hand\n", encoding="utf-8")
    report = run_build(repo, out, jobs=1)
    assert report.written == ["README.md_kw.md"]
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_the_check_started_before_the_walk_answers_once_and_stops(tmp_path: Path) -> None:
    _, out = built_copy("torchlike", tmp_path)
    (out / "README.md_docs.md").unlink()
    with page_check(out) as check:
        first = check.stale()
        assert first == {"README.md_docs.md"}
        assert check.stale() is first  # asked again: the same answer, no second child
    with open_state(out) as state:
        assert state.page_count() == len(page_files(out)) + 1


def test_no_check_is_started_where_no_build_left_a_state(tmp_path: Path) -> None:
    with page_check(tmp_path / "never-built") as check:
        assert check.stale() is None  # the build checks the pages itself, if any
    assert not (tmp_path / "never-built").exists()


def test_docgen_check_reports_a_page_edited_by_hand(tmp_path: Path) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    assert check(resolve_options(repo, out, 1)).differences == []
    (out / "minitorch/version.py_kw.md").write_text("edited by hand\n", encoding="utf-8")
    found = check(resolve_options(repo, out, 1)).differences
    assert [(d.page, d.what) for d in found] == [("minitorch/version.py_kw.md", "stale")]
