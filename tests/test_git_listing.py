"""git_listing: git's own list of a work tree's files, or None where git should not decide."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from docgen.discover.git_listing import Candidate, git_candidates

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> None:
    """git on `repo` alone, whatever GIT_* variables the test run has."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def test_tracked_and_untracked_files_but_not_ignored_ones(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / ".gitignore").write_text("*.log\n")
    (repo / "pkg" / "a.py").write_text("x = 1\n")
    (repo / "notes.log").write_text("ignored\n")
    git(repo, "add", "pkg/a.py")
    (repo / "new.py").write_text("y = 2\n")  # untracked, not ignored
    (repo / "inner").mkdir()
    git(repo / "inner", "init", "-q")
    (repo / "inner" / "b.py").write_text("z = 3\n")
    found = git_candidates(str(repo))
    assert found is not None
    assert sorted(found, key=lambda c: c.path) == [
        Candidate(".gitignore"),
        Candidate("inner", nested_repo=True),
        Candidate("new.py"),
        Candidate("pkg/a.py"),
    ]


def test_no_listing_outside_a_work_tree_or_in_a_folder_it_ignores(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert git_candidates(str(plain)) is None
    repo = tmp_path / "repo"
    (repo / "build").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / ".gitignore").write_text("build/\n")
    (repo / "build" / "gen.py").write_text("x = 1\n")
    assert git_candidates(str(repo / "build")) is None  # walked instead: the user chose it
