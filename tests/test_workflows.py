"""Where users run docgen: include/exclude, source roots, --report, --strict, clean, the
pre-commit hook command and template overrides from the configuration."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from docgen.cli.main import cli

SampleFn = Callable[[str], Path]


def make_repo(root: Path, files: dict[str, str], config: str = "") -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if config:
        (root / "pyproject.toml").write_text(f"[tool.docgen]\n{config}", encoding="utf-8")
    return root


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def pages_under(out: Path) -> set[str]:
    return {
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and ".docgen" not in p.relative_to(out).parts
    }


def test_exclude_and_include_choose_the_documented_files(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "pkg/a.py": "def a():\n    pass\n",
            "pkg/gen/big.py": "X = 1\n",
            "notes.txt": "hello\n",
            "README.md": "# R\n",
        },
        'exclude = ["gen/", "*.txt"]\n',
    )
    code, output = run("build", str(repo), "-q", "-j", "1")
    assert code == 0, output
    pages = pages_under(repo / "docs" / "generated")
    assert "pkg/a.py_docs.md" in pages
    assert "README.md_docs.md" in pages
    assert not any(p.startswith("pkg/gen/") or p.startswith("notes.txt") for p in pages)
    # narrowing with include prunes the pages of files no longer chosen
    (repo / "pyproject.toml").write_text(
        '[tool.docgen]\ninclude = ["pkg/"]\nexclude = ["gen/"]\n', encoding="utf-8"
    )
    code, output = run("build", str(repo), "-q", "-j", "1")
    assert code == 0, output
    pages = pages_under(repo / "docs" / "generated")
    assert "pkg/a.py_docs.md" in pages
    assert "README.md_docs.md" not in pages
    assert "pyproject.toml_docs.md" not in pages


def test_project_and_source_roots_from_the_configuration(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "lib/mypkg/__init__.py": "",
            "lib/mypkg/core.py": "def run():\n    pass\n",
            "lib/mypkg/cli.py": "from mypkg.core import run\n",
        },
        'project = "Configured Name"\nsource_roots = ["lib"]\n',
    )
    code, output = run("build", str(repo), "-q", "-j", "1")
    assert code == 0, output
    out = repo / "docs" / "generated"
    core = (out / "lib" / "mypkg" / "core.py_docs.md").read_text(encoding="utf-8")
    assert "cli.py_docs.md" in core.split("## Imported by", 1)[1].split("\n## ", 1)[0]
    assert "Configured Name" in (out / "index.md").read_text(encoding="utf-8")


def test_report_names_a_file_with_a_syntax_error_and_strict_fails(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"ok.py": "x = 1\n", "bad.py": "def broken(:\n    pass\n"})
    report_file = tmp_path / "ci" / "report.json"
    code, output = run("build", str(repo), "-q", "-j", "1", "--report", str(report_file))
    assert code == 0, output
    data = json.loads(report_file.read_text(encoding="utf-8"))
    assert data["files"] == 2
    assert data["errors"] >= 1
    problem = next(p for p in data["problems"] if p["path"] == "bad.py")
    assert problem["line"] == 1
    assert problem["severity"] == "error"
    assert "syntax" in problem["message"].lower()
    assert set(data["timings"]) >= {"discover", "scan", "render", "write"}
    assert data["pages"]["written"] == len(data["written"]) > 0
    code, output = run("build", str(repo), "--strict", "-j", "1")
    assert code == 1
    assert "--strict" in output
    good = make_repo(tmp_path / "good", {"ok.py": "x = 1\n"})
    code, output = run("build", str(good), "--strict", "-q", "-j", "1")
    assert code == 0, output


def test_report_into_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"ok.py": "x = 1\n"})
    code, output = run("build", str(repo), "--report", str(tmp_path))
    assert code == 2
    assert "--report" in output
    assert "is a directory" in output
    assert not (repo / "docs").exists()


def test_clean_removes_only_what_docgen_wrote(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"pkg/a.py": "x = 1\n", "README.md": "# R\n"})
    out = repo / "docs" / "generated"
    code, output = run("build", str(repo), "-q", "-j", "1")
    assert code == 0, output
    (out / "pkg" / "notes.md").write_text("mine\n", encoding="utf-8")
    (out / "README.md_docs.md").write_text("replaced by hand\n", encoding="utf-8")
    code, output = run("clean", str(repo))
    assert code == 0, output
    assert "kept README.md_docs.md" in output
    assert pages_under(out) == {"pkg/notes.md", "README.md_docs.md"}
    assert not (out / ".docgen").exists()
    code, output = run("clean", str(repo))
    assert code == 2
    assert "nothing to clean" in output


def test_clean_of_an_untouched_build_leaves_no_output_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": "x = 1\n"}, 'out = "site"\n')
    assert run("build", str(repo), "-q", "-j", "1")[0] == 0
    assert (repo / "site" / "a.py_docs.md").is_file()
    assert run("clean", str(repo), "-q")[0] == 0
    assert not (repo / "site").exists()


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def test_hook_fails_when_it_writes_pages_then_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {"pkg/a.py": "def a():\n    pass\n", "pkg/b.py": "from pkg.a import a\n"},
        'out = "docs/api"\n',
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    monkeypatch.chdir(repo)
    code, output = run("hook", "pkg/a.py", "pkg/b.py", "pyproject.toml", "-j", "1")
    assert code == 1
    assert "docgen: wrote docs/api/pkg/a.py_kw.md" in output
    assert "stage them and commit again" in output
    code, output = run("hook", "pkg/a.py", "-j", "1")
    assert (code, output) == (0, "")
    with open(repo / "pkg" / "a.py", "a", encoding="utf-8") as handle:
        handle.write("\n\ndef added():\n    pass\n")
    code, output = run("hook", "pkg/a.py", "-j", "1")
    assert code == 1
    assert "added" in (repo / "docs" / "api" / "pkg" / "a.py_kw.md").read_text(encoding="utf-8")
    written = {line.split("docs/api/", 1)[1] for line in output.splitlines() if "wrote" in line}
    assert "pkg/a.py_kw.md" in written
    assert "pkg/b.py_kw.md" not in written  # b's keywords do not depend on a's new function


def test_hook_shows_the_warnings_of_the_given_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo", {"bad.py": "def (:\n", "other.py": "def (:\n"})
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    monkeypatch.chdir(repo)
    code, output = run("hook", "bad.py", "-j", "1")
    assert code == 1
    assert "warning: bad.py:1:" in output
    assert "other.py" not in output.replace("other.py_", "")


def test_hook_documents_what_the_commit_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"kept.py": "def kept():\n    pass\n", "unstaged.py": "def u():\n    pass\n"}
    repo = make_repo(tmp_path / "repo", files, 'out = "docs/api"\n')
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "first")
    git(repo, "rm", "-q", "--cached", "unstaged.py")  # still on disk, no longer committed
    (repo / "untracked.py").write_text("def new():\n    pass\n")
    monkeypatch.chdir(repo)
    code, output = run("hook", "kept.py", "-j", "1")
    assert code == 1, output
    pages = sorted(p.name for p in (repo / "docs" / "api").glob("*_docs.md"))
    assert pages == ["kept.py_docs.md", "pyproject.toml_docs.md"]
    assert "untracked" not in (repo / "docs" / "api" / "index.md").read_text()


def test_hook_outside_a_git_work_tree_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": "def a():\n    pass\n"})
    monkeypatch.chdir(repo)
    code, output = run("hook", "a.py", "-j", "1")
    assert code == 2
    assert output.count("\n") == 1 and "not inside a git work tree" in output
    assert not (repo / "docs").exists()


def test_templates_from_the_configuration_change_the_pages(tmp_path: Path) -> None:
    repo = make_repo(
        tmp_path / "repo",
        {
            "a.py": "def f():\n    pass\n",
            "theme/kw.md.j2": '{% extends "default/kw.md.j2" %}\n'
            "{% block title %}# Custom keyword page{% endblock %}\n",
        },
        'templates = ["theme"]\nexclude = ["theme/"]\n',
    )
    code, output = run("build", str(repo), "-q", "-j", "1")
    assert code == 0, output
    page = (repo / "docs" / "generated" / "a.py_kw.md").read_text(encoding="utf-8")
    assert "# Custom keyword page" in page
    (repo / "theme" / "kw.md.j2").write_text(
        '{% extends "default/kw.md.j2" %}\n{% block title %}# Changed{% endblock %}\n',
        encoding="utf-8",
    )
    code, output = run("build", str(repo), "-q", "-j", "1")
    assert code == 0, output
    page = (repo / "docs" / "generated" / "a.py_kw.md").read_text(encoding="utf-8")
    assert "# Changed" in page
