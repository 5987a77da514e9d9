"""Writing pages: only changed bytes, atomically, never a user's file, pruning our own."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docgen.model.errors import DocgenError
from docgen.state import STATE_DIR, STATE_FILE, TEMP_DIR, open_state
from docgen.system.atomic import atomic_write, page_mode
from docgen.system.nofollow import LinkInTheWay
from docgen.write.pages import PageWriter, write_pages

PAGE = '---\nsource: "a.py"\ngenerator: "docgen 0.1.0"\n---\n# Documentation\n'


def test_writes_new_pages_and_records_them(tmp_path: Path) -> None:
    result = write_pages(tmp_path, {"a.py_docs.md": PAGE, "sub/b.py_kw.md": PAGE})
    assert result.written == ["a.py_docs.md", "sub/b.py_kw.md"]
    assert (tmp_path / "sub" / "b.py_kw.md").read_text() == PAGE
    assert (tmp_path / STATE_DIR / STATE_FILE).is_file()


def test_unchanged_pages_are_not_rewritten(tmp_path: Path) -> None:
    write_pages(tmp_path, {"a.py_docs.md": PAGE})
    page = tmp_path / "a.py_docs.md"
    before = page.stat().st_mtime_ns
    result = write_pages(tmp_path, {"a.py_docs.md": PAGE})
    assert result.written == []
    assert result.unchanged == 1
    assert page.stat().st_mtime_ns == before


def test_user_file_is_never_overwritten(tmp_path: Path) -> None:
    user = tmp_path / "a.py_docs.md"
    user.write_text("my own notes\n")
    result = write_pages(tmp_path, {"a.py_docs.md": PAGE})
    assert result.refused == ["a.py_docs.md"]
    assert user.read_text() == "my own notes\n"


def test_page_with_docgen_front_matter_is_taken_over(tmp_path: Path) -> None:
    old = tmp_path / "a.py_docs.md"
    old.write_text(PAGE.replace("# Documentation", "# old"))
    result = write_pages(tmp_path, {"a.py_docs.md": PAGE})
    assert result.written == ["a.py_docs.md"]
    assert old.read_text() == PAGE


def test_prune_removes_only_pages_docgen_wrote(tmp_path: Path) -> None:
    write_pages(tmp_path, {"gone/a.py_docs.md": PAGE, "kept.py_docs.md": PAGE})
    user = tmp_path / "notes.md"
    user.write_text("mine\n")
    result = write_pages(tmp_path, {"kept.py_docs.md": PAGE})
    assert result.pruned == ["gone/a.py_docs.md"]
    assert not (tmp_path / "gone").exists()
    assert user.read_text() == "mine\n"
    assert (tmp_path / "kept.py_docs.md").is_file()


def test_corrupt_state_is_replaced(tmp_path: Path) -> None:
    state = tmp_path / STATE_DIR / STATE_FILE
    state.parent.mkdir()
    state.write_bytes(b"this is not a database" * 100)
    result = write_pages(tmp_path, {"a.py_docs.md": PAGE})
    assert result.written == ["a.py_docs.md"]


def test_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "x" / "page.md"
    atomic_write(target, b"hello")
    assert target.read_bytes() == b"hello"
    assert sorted(p.name for p in target.parent.iterdir()) == ["page.md"]


def test_pages_leave_no_temporary_files_and_get_the_umask_mode(tmp_path: Path) -> None:
    write_pages(tmp_path, {"a.py_docs.md": PAGE, "sub/b.py_kw.md": PAGE.replace("#", "##")})
    temp = tmp_path / STATE_DIR / TEMP_DIR
    assert not temp.exists() or list(temp.iterdir()) == []
    assert (tmp_path / "a.py_docs.md").stat().st_mode & 0o777 == page_mode()


def test_a_folder_in_a_pages_place_is_refused_and_a_link_stops_the_writing(
    tmp_path: Path,
) -> None:
    (tmp_path / "b.py_docs.md").mkdir()
    result = write_pages(tmp_path, {"b.py_docs.md": PAGE})
    assert result.refused == ["b.py_docs.md"]
    (tmp_path / "elsewhere.md").write_text("theirs\n")
    (tmp_path / "a.py_docs.md").symlink_to(tmp_path / "elsewhere.md")
    with pytest.raises(LinkInTheWay, match=r"a\.py_docs\.md is a symbolic link"):
        write_pages(tmp_path, {"a.py_docs.md": PAGE})
    assert (tmp_path / "elsewhere.md").read_text() == "theirs\n"
    assert (tmp_path / "a.py_docs.md").is_symlink()


def test_a_link_to_a_folder_on_a_pages_way_is_never_written_through(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    out.mkdir()
    (out / "pkg").symlink_to(elsewhere)
    with pytest.raises(LinkInTheWay, match="pkg is a symbolic link"):
        write_pages(out, {"pkg/a.py_docs.md": PAGE})
    assert list(elsewhere.iterdir()) == []


def test_writing_pages_leaves_no_descriptor_open(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    for n in range(3):
        write_pages(tmp_path, {f"d{n}/e{i}/a.py_docs.md": PAGE for i in range(80)})
    assert len(os.listdir("/proc/self/fd")) == before


def test_recorded_stamp_matches_the_page_on_disk(tmp_path: Path) -> None:
    write_pages(tmp_path, {"a.py_docs.md": PAGE})
    with open_state(tmp_path) as state:
        assert state.pages_intact(tmp_path) == 1
    (tmp_path / "a.py_docs.md").write_text(PAGE + "edited\n")
    with open_state(tmp_path) as state:
        assert state.pages_intact(tmp_path) is None


@pytest.mark.parametrize("rel", ["../escape.md", "a/../../escape.md", "/tmp/escape.md", "a/.."])
def test_a_page_outside_the_output_folder_is_refused(tmp_path: Path, rel: str) -> None:
    out = tmp_path / "out"
    writer = PageWriter(out, {})
    with pytest.raises(DocgenError, match="outside the output folder"):
        writer.write(rel, "text\n")
    assert not (tmp_path / "escape.md").exists()
    assert writer.write("a/b.md", "text\n").status == "written"
    assert (out / "a" / "b.md").read_text() == "text\n"
