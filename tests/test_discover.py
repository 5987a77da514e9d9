"""Tests for docgen.discover.tree: which files are documented and why others are skipped."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.discover import tree as discover_module
from docgen.discover.tree import (
    REASON_BAD_NAME,
    REASON_BROKEN_LINK,
    REASON_DOCGEN_PAGE,
    REASON_LEFT_OUT_TARGET,
    REASON_LINK_LOOP,
    REASON_LINK_TO_FOLDER,
    REASON_NESTED_REPO,
    REASON_OUTSIDE,
    REASON_SUBMODULE,
    discover,
)
from docgen.model.pages import PAGE_HEAD_BYTES, is_docgen_page
from docgen.model.sources import Discovery

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")

DOCGEN_PAGE = b'---\ntitle: "x"\ngenerator: "docgen 0.1.0"\n---\n# x\n'
AWKWARD_NAMES = (
    "a b.py",
    "#hash.py",
    "100%.txt",
    "[brackets].md",
    "(parens).py",
    "`tick`.txt",
    "ünïcødé.py",
    "日本語.txt",
    "new\nline.txt",
    "semi;colon&amp.txt",
)


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    """Opening a FIFO blocks forever; turn such a bug into a failure instead of a hang."""

    def fail(signum: int, frame: object) -> None:
        raise TimeoutError("discover() blocked")

    if not hasattr(signal, "SIGALRM"):
        yield
        return
    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(autouse=True)
def _hermetic_git(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep the user's global git config (excludesFile etc.) out of every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for key in list(os.environ):
        if key.startswith("GIT_"):
            monkeypatch.delenv(key)


def git(repo: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env=env,
    )


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "-c", "init.defaultBranch=main", "init", "-q")
    return path


def write(root: Path, rel: str, data: bytes | str = b"x\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def paths(d: Discovery) -> list[str]:
    return [f.path for f in d.files]


def reasons(d: Discovery) -> dict[str, str]:
    return {s.path: s.reason for s in d.skipped}


# --- is_docgen_page ----------------------------------------------------------


@pytest.mark.parametrize(
    "head",
    [
        DOCGEN_PAGE,
        b"---\ngenerator: docgen\n---\n",
        b"---\ngenerator: docgen 2.0.0\nother: 1\n---\n",
        b'---\r\ngenerator: "docgen 0.1.0"\r\n---\r\n',
        b'---\ntitle: a\ngenerator: "docgen 0.1.0"',  # cut off by the 512-byte head
    ],
)
def test_docgen_page_is_recognised(head: bytes) -> None:
    assert is_docgen_page(head)


@pytest.mark.parametrize(
    "head",
    [
        b"",
        b"---",
        b"# generator: docgen\n",
        b"generator: docgen\n",
        b" ---\ngenerator: docgen\n---\n",
        b"---\ntitle: x\n---\ngenerator: docgen\n",  # after the front matter
        b"---\ngenerator: hugo\n---\n",
        b"---\ngenerator: docgenius 1.0\n---\n",
        b'---\ngenerator: "docgenerator"\n---\n',
        b"---\nnot_generator: docgen\n---\n",
        b"----\ngenerator: docgen\n---\n",
    ],
)
def test_other_text_is_not_a_docgen_page(head: bytes) -> None:
    assert not is_docgen_page(head)


# --- plain folder ------------------------------------------------------------


def test_plain_folder_lists_regular_files_sorted(tmp_path: Path) -> None:
    for rel in ("b.py", "a/z.txt", "a/b/c.md", "A.txt", "a.b/x.py"):
        write(tmp_path, rel, "hello")
    d = discover(tmp_path)
    assert d.used_git is False
    assert paths(d) == sorted(["b.py", "a/z.txt", "a/b/c.md", "A.txt", "a.b/x.py"])
    first = d.files[0]
    assert first.abs_path == os.path.join(str(tmp_path), *first.path.split("/"))
    assert all(f.size == 5 for f in d.files)
    assert d.skipped == ()


def test_plain_folder_leaves_out_dot_git(tmp_path: Path) -> None:
    write(tmp_path, ".git/config", "[core]\n")
    write(tmp_path, "sub/.git", "gitdir: ../elsewhere\n")
    write(tmp_path, "sub/kept.py")
    write(tmp_path, ".github/workflow.yml")
    d = discover(tmp_path)
    assert paths(d) == [".github/workflow.yml", "sub/kept.py"]
    assert d.skipped == ()


def test_nested_gitignore_files_follow_git_rules(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\nbuild/\n/anchored.txt\nsecret*\n")
    write(tmp_path, "sub/.gitignore", "!keep.log\n!secret_ok.txt\nlocal_only.py\n")
    write(tmp_path, "build/.gitignore", "!*\n")  # cannot re-include inside an ignored folder
    for rel in (
        "a.py",
        "a.log",
        "anchored.txt",
        "secret.key",
        "build/out.o",
        "build/.keep",
        "sub/keep.log",
        "sub/drop.log",
        "sub/anchored.txt",
        "sub/secret_ok.txt",
        "sub/secret_no.txt",
        "sub/local_only.py",
        "sub/deep/keep.log",
        "sub/deep/x.log",
        "local_only.py",
        "other/build",  # a file: `build/` only matches folders
    ):
        write(tmp_path, rel)
    d = discover(tmp_path)
    assert paths(d) == [
        ".gitignore",
        "a.py",
        "local_only.py",
        "other/build",
        "sub/.gitignore",
        "sub/anchored.txt",
        "sub/deep/keep.log",
        "sub/keep.log",
        "sub/secret_ok.txt",
    ]
    assert d.skipped == ()


def test_negating_a_folder_does_not_re_include_its_ignored_files(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "b/.gitignore", "!a\n")
    write(tmp_path, "b/a/x.log")
    write(tmp_path, "b/a/y.py")
    assert paths(discover(tmp_path)) == [".gitignore", "b/.gitignore", "b/a/y.py"]


def test_trailing_double_star_slash_means_folders_below(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "a/**/\n")
    write(tmp_path, "a/top.py")
    write(tmp_path, "a/deep/x.py")
    assert paths(discover(tmp_path)) == [".gitignore", "a/top.py"]


def test_gitignore_with_bom_and_crlf_line_ends(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", b"\xef\xbb\xbf*.log\r\nfoo\r\n")
    for rel in ("a.log", "foo", "bar"):
        write(tmp_path, rel)
    assert paths(discover(tmp_path)) == [".gitignore", "bar"]


def test_gitignore_with_a_bad_pattern_keeps_its_good_ones(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "*.log\n[\n***/x\n")
    write(tmp_path, "a.log")
    write(tmp_path, "a.py")
    assert paths(discover(tmp_path)) == [".gitignore", "a.py"]


def test_symlinked_gitignore_is_not_followed(tmp_path: Path) -> None:
    write(tmp_path, "rules", "*.py\n")
    (tmp_path / ".gitignore").symlink_to("rules")
    write(tmp_path, "a.py")
    assert "a.py" in paths(discover(tmp_path))


# --- git work tree -----------------------------------------------------------


@needs_git
def test_git_lists_tracked_and_untracked_but_not_ignored(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, ".gitignore", "*.log\nignored_dir/\n")
    write(repo, "tracked.py")
    write(repo, "forced.log")  # tracked although ignored: git lists it
    write(repo, "gone.py")
    write(repo, "pkg/mod.py")
    git(repo, "add", ".gitignore", "tracked.py", "gone.py", "pkg/mod.py")
    git(repo, "add", "-f", "forced.log")
    git(repo, "commit", "-qm", "init")
    write(repo, "untracked.py")
    write(repo, "noise.log")
    write(repo, "ignored_dir/x.py")
    write(repo, "excluded_by_info.txt")
    write(repo, ".git/info/exclude", "excluded_by_info.txt\n")
    (repo / "gone.py").unlink()  # still in the index, no longer on disk
    write(repo, "pkg/mod.py", "changed\n")

    d = discover(repo)
    assert d.used_git is True
    assert paths(d) == [".gitignore", "forced.log", "pkg/mod.py", "tracked.py", "untracked.py"]
    assert d.skipped == ()
    assert next(f for f in d.files if f.path == "pkg/mod.py").size == len("changed\n")


@needs_git
def test_git_repo_with_merge_conflict_lists_path_once(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, "f.txt", "base\n")
    git(repo, "add", "f.txt")
    git(repo, "commit", "-qm", "base")
    git(repo, "checkout", "-qb", "other")
    write(repo, "f.txt", "other\n")
    git(repo, "commit", "-qam", "other")
    git(repo, "checkout", "-q", "main")
    write(repo, "f.txt", "main\n")
    git(repo, "commit", "-qam", "main")
    with pytest.raises(subprocess.CalledProcessError):
        git(repo, "merge", "-q", "other")
    assert paths(discover(repo)) == ["f.txt"]


@needs_git
def test_subfolder_of_a_work_tree_lists_relative_to_the_subfolder(tmp_path: Path) -> None:
    top = init_repo(tmp_path / "top")
    write(top, "outside.py")
    write(top, "sub/a.py")
    write(top, "sub/deep/b.py")
    write(top, "sub/.gitignore", "*.tmp\n")
    write(top, "sub/c.tmp")
    write(top, "subling/no.py")
    git(top, "add", "sub/a.py")
    git(top, "commit", "-qm", "init")
    d = discover(top / "sub")
    assert d.used_git is True
    assert paths(d) == [".gitignore", "a.py", "deep/b.py"]
    assert d.files[1].abs_path == str(top / "sub" / "a.py")


@needs_git
def test_folder_ignored_by_the_enclosing_work_tree_is_walked(tmp_path: Path) -> None:
    top = init_repo(tmp_path / "top")
    write(top, ".gitignore", "corpora/\n")
    write(top, "corpora/torch/a.py")
    write(top, "corpora/torch/.gitignore", "*.so\n")
    write(top, "corpora/torch/b.so")
    d = discover(top / "corpora" / "torch")
    assert d.used_git is False
    assert paths(d) == [".gitignore", "a.py"]


@needs_git
def test_git_variables_from_the_environment_are_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = init_repo(tmp_path / "repo")
    other = init_repo(tmp_path / "other")
    write(repo, "mine.py")
    write(other, "theirs.py")
    git(other, "add", "theirs.py")
    git(other, "commit", "-qm", "x")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    d = discover(repo)
    assert d.used_git is True
    assert paths(d) == ["mine.py"]


@needs_git
def test_without_git_a_work_tree_is_walked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, ".gitignore", "*.log\n")
    write(repo, "a.py")
    write(repo, "a.log")
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    d = discover(repo)
    assert d.used_git is False
    assert paths(d) == [".gitignore", "a.py"]  # .git/ is left out, .gitignore honoured


@needs_git
def test_submodule_and_nested_repository_are_skipped(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, "a.py")
    (repo / "sub").mkdir()
    write(repo, "sub/inner.py")
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},sub")
    nested = init_repo(repo / "nested")
    write(nested, "n.py")
    d = discover(repo)
    assert d.used_git is True
    assert paths(d) == ["a.py"]
    assert reasons(d) == {"sub": REASON_SUBMODULE, "nested": REASON_NESTED_REPO}


@pytest.mark.parametrize("use_git", [False, True])
def test_awkward_file_names(tmp_path: Path, use_git: bool) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    if use_git:
        init_repo(repo)
    for name in AWKWARD_NAMES:
        write(repo, name, name)
        write(repo, f"dir with space/{name}", name)
    if use_git:
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "names")
    d = discover(repo)
    assert d.used_git is use_git
    expected = sorted([*AWKWARD_NAMES, *(f"dir with space/{n}" for n in AWKWARD_NAMES)])
    assert paths(d) == expected
    for f in d.files:
        assert Path(f.abs_path).read_text() == f.path.rsplit("/", 1)[-1]
        assert f.size == len(f.path.rsplit("/", 1)[-1].encode())


@pytest.mark.parametrize("use_git", [False, True])
def test_non_utf8_names_are_skipped_with_a_printable_path(tmp_path: Path, use_git: bool) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    if use_git:
        init_repo(repo)
    try:
        with open(os.path.join(os.fsencode(repo), b"bad\xff.py"), "wb") as fh:
            fh.write(b"x")
    except OSError:
        pytest.skip("file system refuses non-UTF-8 names")
    write(repo, "good.py")
    d = discover(repo)
    assert paths(d) == ["good.py"]
    assert reasons(d) == {"bad\ufffd.py": REASON_BAD_NAME}
    for s in d.skipped:
        s.path.encode("utf-8")  # printable into a UTF-8 page


# --- exclude_dirs ------------------------------------------------------------


@pytest.mark.parametrize("use_git", [False, True])
def test_exclude_dirs_are_left_out_silently(tmp_path: Path, use_git: bool) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    if use_git:
        init_repo(repo)
    write(repo, "a.py")
    write(repo, "docs-out/a.py_docs.md", "plain page\n")
    write(repo, "docs-out/deep/x.md")
    write(repo, "docs-outside.py")  # shares a prefix, is not below the folder
    d = discover(repo, exclude_dirs=[repo / "docs-out"])
    assert paths(d) == ["a.py", "docs-outside.py"]
    assert d.skipped == ()


def test_exclude_dirs_match_through_a_symlinked_repository(tmp_path: Path) -> None:
    real = tmp_path / "real"
    write(real, "a.py")
    write(real, "out/page.md")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert paths(discover(link, exclude_dirs=[real / "out"])) == ["a.py"]
    assert paths(discover(real, exclude_dirs=[link / "out"])) == ["a.py"]
    d = discover(link)
    assert paths(d) == ["a.py", "out/page.md"]
    assert d.files[0].abs_path == str(link / "a.py")


def test_exclude_dir_outside_the_repository_changes_nothing(tmp_path: Path) -> None:
    write(tmp_path, "repo/a.py")
    write(tmp_path, "out/b.py")
    assert paths(discover(tmp_path / "repo", exclude_dirs=[tmp_path / "out"])) == ["a.py"]


def test_symlink_into_an_excluded_folder_is_skipped(tmp_path: Path) -> None:
    write(tmp_path, "out/page.md")
    write(tmp_path, ".git/config", "[core]\n")
    (tmp_path / "to_page.md").symlink_to("out/page.md")
    (tmp_path / "to_config").symlink_to(".git/config")
    d = discover(tmp_path, exclude_dirs=[tmp_path / "out"])
    assert paths(d) == []
    assert reasons(d) == {"to_page.md": REASON_LEFT_OUT_TARGET, "to_config": REASON_LEFT_OUT_TARGET}


# --- symlinks ----------------------------------------------------------------


@pytest.mark.parametrize("use_git", [False, True])
def test_symlink_to_a_file_inside_is_kept(tmp_path: Path, use_git: bool) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    if use_git:
        init_repo(repo)
    write(repo, "real/target.py", "twelve bytes")
    (repo / "alias.py").symlink_to("real/target.py")
    d = discover(repo)
    assert paths(d) == ["alias.py", "real/target.py"]
    alias = d.files[0]
    assert alias.abs_path == str(repo / "alias.py")
    assert alias.size == 12
    assert d.skipped == ()


@needs_fifo
@pytest.mark.parametrize("use_git", [False, True])
def test_symlink_outside_is_skipped_and_never_opened(
    tmp_path: Path, use_git: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    if use_git:
        init_repo(repo)
    outside_fifo = tmp_path / "outside.fifo"  # opening it would block until the alarm
    os.mkfifo(outside_fifo)
    outside_file = write(tmp_path, "secret.txt", "secret")
    (repo / "to_fifo").symlink_to(outside_fifo)
    (repo / "to_secret.md").symlink_to(outside_file)
    (repo / "to_parent").symlink_to(tmp_path, target_is_directory=True)
    write(repo, "a.py")
    write(repo, "b.md")
    touched: list[str] = []
    real_open, real_access = os.open, os.access

    def spy_open(path: str, flags: int, *args: int, **kwargs: int) -> int:
        touched.append(os.path.realpath(path))
        return real_open(path, flags, *args, **kwargs)

    def spy_access(path: str, mode: int, *args: object, **kwargs: object) -> bool:
        touched.append(os.path.realpath(path))
        return real_access(path, mode)

    monkeypatch.setattr(discover_module.os, "open", spy_open)
    monkeypatch.setattr(discover_module.os, "access", spy_access)
    # a reader whose access the mode does not decide: every other file is asked about
    monkeypatch.setattr(discover_module.os, "getuid", lambda: NOBODY, raising=False)
    d = discover(repo)
    assert paths(d) == ["a.py", "b.md"]
    assert reasons(d) == {
        "to_fifo": REASON_OUTSIDE,
        "to_secret.md": REASON_OUTSIDE,
        "to_parent": REASON_OUTSIDE,
    }
    assert str(outside_file.resolve()) not in touched
    assert str(outside_fifo.resolve()) not in touched
    # the spies do see discover's checks: Markdown is opened (to recognise docgen's
    # own pages), any other file only checked for read access
    assert str((repo / "b.md").resolve()) in touched
    assert str((repo / "a.py").resolve()) in touched


def test_symlink_loops_and_folder_cycles_finish_quickly(tmp_path: Path) -> None:
    write(tmp_path, "dir/file.py")
    (tmp_path / "dir" / "up").symlink_to("..", target_is_directory=True)
    (tmp_path / "dir" / "self").symlink_to(".", target_is_directory=True)
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "me").symlink_to("me")
    (tmp_path / "broken").symlink_to("nowhere")
    start = time.monotonic()
    d = discover(tmp_path)
    assert time.monotonic() - start < 5
    assert paths(d) == ["dir/file.py"]
    assert reasons(d) == {
        "a": REASON_LINK_LOOP,
        "b": REASON_LINK_LOOP,
        "me": REASON_LINK_LOOP,
        "broken": REASON_BROKEN_LINK,
        "dir/up": REASON_LINK_TO_FOLDER,
        "dir/self": REASON_LINK_TO_FOLDER,
    }


@needs_git
def test_symlinked_folder_in_git_is_skipped(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "repo")
    write(repo, "dir/file.py")
    (repo / "dir" / "up").symlink_to("..", target_is_directory=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "x")
    d = discover(repo)
    assert paths(d) == ["dir/file.py"]
    assert reasons(d) == {"dir/up": REASON_LINK_TO_FOLDER}


# --- special and unreadable files --------------------------------------------


@needs_fifo
@pytest.mark.parametrize("use_git", [False, True])
def test_fifo_is_skipped_without_blocking(tmp_path: Path, use_git: bool) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    repo.mkdir()
    if use_git:
        init_repo(repo)
    os.mkfifo(repo / "pipe.md")
    (repo / "to_pipe").symlink_to("pipe.md")
    write(repo, "a.py")
    if use_git:  # tracked as a symlink: git itself never lists FIFOs
        git(repo, "add", "to_pipe", "a.py")
    d = discover(repo)
    assert paths(d) == ["a.py"]
    expected = {"to_pipe": "not a regular file (FIFO)"}
    if not use_git:
        expected["pipe.md"] = "not a regular file (FIFO)"
    assert reasons(d) == expected


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads everything")
def test_unreadable_file_is_skipped_by_permission(tmp_path: Path) -> None:
    locked = write(tmp_path, "locked.py")
    locked.chmod(0)
    write(tmp_path, "closed/inner.py")
    (tmp_path / "closed").chmod(0)
    write(tmp_path, "ok.py")
    try:
        d = discover(tmp_path)
    finally:
        locked.chmod(stat.S_IRUSR | stat.S_IWUSR)
        (tmp_path / "closed").chmod(stat.S_IRWXU)
    assert paths(d) == ["ok.py"]
    assert reasons(d) == {
        "locked.py": "unreadable: Permission denied",
        "closed": "unreadable: Permission denied",
    }


def test_permission_error_on_open_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = write(tmp_path, "locked.py")
    locked_md = write(tmp_path, "locked.md")
    write(tmp_path, "ok.py")
    real_open, real_access = os.open, os.access

    def refuse_open(path: str, flags: int, *args: int, **kwargs: int) -> int:
        if os.path.realpath(path) == str(locked_md.resolve()):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, flags, *args, **kwargs)

    def refuse_access(path: str, mode: int, *args: object, **kwargs: object) -> bool:
        return os.path.realpath(path) != str(locked.resolve()) and real_access(path, mode)

    monkeypatch.setattr(discover_module.os, "open", refuse_open)
    monkeypatch.setattr(discover_module.os, "access", refuse_access)
    # A reader who neither owns the files nor is the superuser: the system decides.
    monkeypatch.setattr(discover_module.os, "getuid", lambda: NOBODY, raising=False)
    d = discover(tmp_path)
    assert paths(d) == ["ok.py"]
    assert reasons(d) == {
        "locked.md": "unreadable: Permission denied",
        "locked.py": "unreadable: Permission denied",
    }


#: a user id that owns no test file
NOBODY = 65534


def _stat(mode: int, uid: int) -> os.stat_result:
    return os.stat_result((stat.S_IFREG | mode, 1, 1, 1, uid, 0, 10, 0, 0, 0))


@pytest.mark.parametrize(
    ("mode", "owner", "reader", "decided"),
    [
        (0o600, 1000, 1000, True),  # the owner's read bit
        (0o400, 1000, 1000, True),
        (0o200, 1000, 1000, False),  # the owner without it: asked (and refused)
        (0o000, 1000, 0, True),  # the superuser reads any file
        (0o644, 1000, 2000, False),  # another user: access lists may decide, so asked
        (0o600, 1000, -1, False),  # no user id (no getuid): asked
    ],
)
def test_readability_is_decided_by_the_mode_only_where_it_is_certain(
    mode: int, owner: int, reader: int, decided: bool
) -> None:
    assert discover_module._readable_by_mode(_stat(mode, owner), reader) is decided


@pytest.mark.skipif(os.name != "posix", reason="user ids are POSIX")
def test_a_file_readable_by_its_mode_is_not_asked_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "mine.py")
    asked: list[str] = []

    def access(path: str, mode: int) -> bool:
        asked.append(path)
        return True

    monkeypatch.setattr(discover_module.os, "access", access)
    assert paths(discover(tmp_path)) == ["mine.py"]
    assert asked == []  # the test's own file: its owner (or the superuser) reads it
    monkeypatch.setattr(discover_module.os, "getuid", lambda: NOBODY)
    assert paths(discover(tmp_path)) == ["mine.py"]
    assert [os.path.basename(p) for p in asked] == ["mine.py"]


def test_unlistable_folder_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "closed/inner.py")
    write(tmp_path, "ok.py")
    real_scandir = os.scandir

    def refuse(path: str) -> object:
        if os.path.basename(path) == "closed":
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(discover_module.os, "scandir", refuse)
    d = discover(tmp_path)
    assert paths(d) == ["ok.py"]
    assert reasons(d) == {"closed": "unreadable: Permission denied"}


# --- docgen pages ------------------------------------------------------------


@pytest.mark.parametrize("use_git", [False, True])
def test_docgen_pages_are_skipped_anywhere(tmp_path: Path, use_git: bool) -> None:
    if use_git and shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    if use_git:
        init_repo(repo)
    write(repo, "old-build/pkg/core.py_docs.md", DOCGEN_PAGE)
    write(repo, "old-build/index.md", b"---\ngenerator: docgen\n---\n# Folder\n")
    write(repo, "README.md", "---\ntitle: readme\n---\n# Hi\n")
    write(repo, "notes.md", DOCGEN_PAGE[4:])  # no front matter: a user's file
    write(repo, "page.txt", DOCGEN_PAGE)  # only .md files can be docgen pages
    write(
        repo, "LATE.MD", b"---\n" + b"x: y\n" * (PAGE_HEAD_BYTES // 5) + b"generator: docgen\n---\n"
    )
    deep = "/".join(f"folder_with_a_long_name_{i:02}" for i in range(20)) + "/m.py"
    front = f'---\nsource: "{deep}"\nkind: "python"\nsha256: "{"0" * 64}"\n'
    write(repo, f"old-build/{deep}_docs.md", front + 'generator: "docgen 0.1.0"\n---\n')
    d = discover(repo)
    assert paths(d) == ["LATE.MD", "README.md", "notes.md", "page.txt"]
    assert reasons(d) == {
        "old-build/index.md": REASON_DOCGEN_PAGE,
        f"old-build/{deep}_docs.md": REASON_DOCGEN_PAGE,
        "old-build/pkg/core.py_docs.md": REASON_DOCGEN_PAGE,
    }


# --- git and the plain walk agree ---------------------------------------------

_NAMES = ("a", "b", "x.log", "y.py", "keep.log")
_PATTERNS = (
    "*.log",
    "!keep.log",
    "a",
    "a/",
    "/a",
    "b/*",
    "!b/y.py",
    "**/y.py",
    "a/**",
    "!a",
    "*",
    "!*/",
    "#comment",
    "",
    "[ab]",
    "?.py",
    "b/**/x.log",
    "\\!keep.log",
    "**/a/**",
    "a/**/",
    "*/",
    "**",
    "/b/",
    "a/*",
    "!a/",
    "!*.log",
    "!/a",
    "!b",
    "a ",
    "*/**",
    "**/",
    "!**/",
    "!a/**",
    "b/**/a",
    "a/b",
    "!a/b/",
    "[a-b]/",
    "x.*",
    "\\#x",
)


@st.composite
def _trees(draw: st.DrawFn) -> tuple[list[str], dict[str, list[str]]]:
    dirs = ["", *draw(st.lists(st.sampled_from(["a", "b", "a/b", "b/a", "a/a"]), unique=True))]
    files = [
        f"{d}/{n}" if d else n
        for d in dirs
        for n in draw(st.lists(st.sampled_from(_NAMES), min_size=1, unique=True))
    ]
    files = [p for p in files if not any(o == p or o.startswith(p + "/") for o in dirs)]
    ignores = {
        d: draw(st.lists(st.sampled_from(_PATTERNS), max_size=4))
        for d in draw(st.lists(st.sampled_from(dirs), unique=True))
    }
    return files, ignores


@needs_git
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(tree=_trees())
def test_plain_walk_agrees_with_git_on_gitignore(
    tmp_path_factory: pytest.TempPathFactory, tree: tuple[list[str], dict[str, list[str]]]
) -> None:
    files, ignores = tree
    root = tmp_path_factory.mktemp("agree")
    plain, repo = root / "plain", root / "repo"
    for base in (plain, repo):
        for rel in files:
            write(base, rel)
        for d, lines in ignores.items():
            write(base, f"{d}/.gitignore" if d else ".gitignore", "\n".join(lines) + "\n")
    init_repo(repo)
    by_walk, by_git = discover(plain), discover(repo)
    assert by_walk.used_git is False
    assert by_git.used_git is True
    assert paths(by_walk) == paths(by_git), ignores


@pytest.mark.parametrize("given", ["/", "/repo", "/repo/", "relative/repo", "."])
def test_a_listed_path_is_the_joined_path(given: str) -> None:
    root = discover_module._Root(given=given, real=given, left_out=())
    for rel in ("a.py", "pkg/sub/b.py", "x/.hidden/c.md"):
        assert root.path_of(rel) == os.path.join(given, *rel.split("/"))
