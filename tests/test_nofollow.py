"""`Tree`: every path below docgen's folders reached without following a link, and no
folder descriptor left open."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docgen.model.errors import DocgenError
from docgen.system.nofollow import LinkInTheWay, Tree, first_link_inside


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_lookups_of_missing_paths_and_links_leave_no_descriptor_open(tmp_path: Path) -> None:
    (tmp_path / "site" / "_source" / "src").mkdir(parents=True)
    (tmp_path / "site" / "lnk").symlink_to(tmp_path)
    before = open_descriptors()
    with Tree(tmp_path / "site") as tree:
        for i in range(200):
            assert tree.lstat(f"_source/src/new/f{i}.html") is None
            assert tree.read(f"_source/src/new/f{i}.html") is None
        for i in range(20):
            with pytest.raises(LinkInTheWay):
                tree.lstat(f"lnk/x/f{i}")
        for i in range(150):  # more folders than it keeps open
            tree.write(f"a{i}/b/f.html", b"x")
        assert len(list(tree.files())) == 150
    assert open_descriptors() == before


def test_nothing_is_written_read_or_removed_through_a_link(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "theirs.txt").write_text("theirs\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "folder").symlink_to(outside)
    (root / "file.txt").symlink_to(outside / "theirs.txt")
    with Tree(root) as tree:
        with pytest.raises(LinkInTheWay):
            tree.write("folder/new.txt", b"x")
        with pytest.raises(LinkInTheWay):
            tree.write("file.txt", b"x")
        assert tree.read("file.txt") is None
        assert tree.unlink("file.txt") is False and tree.unlink("folder/theirs.txt") is False
        assert list(tree.files()) == []
        tree.remove_folder("folder")
    assert (outside / "theirs.txt").read_text() == "theirs\n"
    with pytest.raises(LinkInTheWay):
        Tree(root / "folder")


@pytest.mark.parametrize("rel", ["../x", "/etc/x", "a/../../x", "a\0b", ""])
def test_a_path_that_could_leave_the_folder_is_refused(tmp_path: Path, rel: str) -> None:
    with Tree(tmp_path) as tree, pytest.raises(DocgenError, match="refusing to write outside"):
        tree.write(rel, b"x")


def test_a_fifo_is_never_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.html")
    with Tree(tmp_path) as tree:
        assert tree.read("pipe.html") is None
        assert tree.unlink("pipe.html") is False


def test_written_files_are_replaced_whole_and_empty_folders_go(tmp_path: Path) -> None:
    with Tree(tmp_path) as tree:
        tree.write("a/b/c.txt", b"one")
        tree.write("a/b/c.txt", b"two")
        assert tree.read("a/b/c.txt") == b"two"
        assert sorted(p.name for p in (tmp_path / "a" / "b").iterdir()) == ["c.txt"]
        assert tree.unlink("a/b/c.txt")
    assert list(tmp_path.iterdir()) == []


def test_only_links_inside_the_repository_are_refused_on_the_way(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (repo / "docs" / "generated").symlink_to(elsewhere)
    (tmp_path / "alias").symlink_to(repo)
    assert first_link_inside(repo, repo / "docs" / "generated" / "x") == repo / "docs/generated"
    assert first_link_inside(repo, tmp_path / "alias" / "docs" / "api") is None


def test_a_pinned_folder_outlives_the_bound_on_kept_folders(tmp_path: Path) -> None:
    # A page's temporary file is made in a folder held across the opening of its own
    # folder: when that opening closed the kept ones, the page failed with EBADF.
    with Tree(tmp_path) as tree:
        pinned = tree.pinned_folder("tmp/pages")
        for n in range(200):
            assert tree.folder(f"d{n}/e") is not None
        assert os.fstat(pinned).st_ino == (tmp_path / "tmp" / "pages").stat().st_ino
        assert tree.pinned_folder("tmp/pages") == pinned
