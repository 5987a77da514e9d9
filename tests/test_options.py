"""Paths a user gives are checked before anything is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.cli.build_options import resolve_options
from docgen.discover.project import project_name
from docgen.model.errors import UsageError
from docgen.model.options import DEFAULT_OUT


def test_default_out_is_inside_repo(tmp_path: Path) -> None:
    options = resolve_options(tmp_path, None, 1)
    assert options.out == tmp_path.resolve() / DEFAULT_OUT


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root / "missing", "does not exist"),
        (lambda root: root / "file.txt", "not a folder"),
    ],
)
def test_bad_repo(tmp_path: Path, make: object, message: str) -> None:
    (tmp_path / "file.txt").write_text("x")
    repo = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(UsageError, match=message):
        resolve_options(repo, None, 1)


def test_out_may_not_be_repo_or_its_ancestor(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    with pytest.raises(UsageError, match="contains it"):
        resolve_options(repo, repo, 1)
    with pytest.raises(UsageError, match="contains it"):
        resolve_options(repo, tmp_path, 1)


def test_out_may_not_be_a_file(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x")
    with pytest.raises(UsageError, match="not a folder"):
        resolve_options(tmp_path, tmp_path / "out", 1)


def test_project_name_from_pyproject_or_folder(tmp_path: Path) -> None:
    repo = tmp_path / "my-folder"
    repo.mkdir()
    assert project_name(repo) == "my-folder"
    (repo / "pyproject.toml").write_text('[project]\nname = "real-name"\n')
    assert project_name(repo) == "real-name"
    (repo / "pyproject.toml").write_text("not toml [[[")
    assert project_name(repo) == "my-folder"
