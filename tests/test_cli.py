"""The `docgen` command line: help, version, exit codes and what it prints.

Most checks run in-process: `click.testing.CliRunner` against `docgen.cli.main.cli`,
or `docgen.cli.main.main` (the installed entry point, which turns docgen's own errors
into one line and an exit code).  A few run `python -m docgen` for real.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import child_env

from docgen import __version__
from docgen.cli.main import cli, main
from docgen.model.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
SampleFn = Callable[[str], Path]


def run_main(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """Run the entry point in-process: (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["docgen", *args])
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    else:
        code = 0
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_module(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m docgen ARGS` in a child process, docgen importable from this checkout."""
    env = child_env()
    return subprocess.run(
        [sys.executable, "-m", "docgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# --- help and version ---------------------------------------------------------------


def test_build_help_shows_examples() -> None:
    result = CliRunner().invoke(cli, ["build", "--help"])
    assert result.exit_code == 0
    assert "Examples:" in result.output
    assert "docgen build . " in result.output
    assert "--out" in result.output and "--templates" in result.output


def test_top_level_help_lists_the_build_command() -> None:
    result = CliRunner().invoke(cli, ["-h"])
    assert result.exit_code == 0
    assert "build" in result.output
    assert "--version" in result.output


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"docgen, version {__version__}\n"


# --- successful builds --------------------------------------------------------------


def test_build_with_parse_failures_exits_0_and_lists_warnings_last(sample: SampleFn) -> None:
    repo = sample("badinputs")
    result = CliRunner().invoke(cli, ["build", str(repo), "-j", "2", "-v"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1].startswith("docgen: ")
    assert "22 files" in lines[-1]
    warnings = [i for i, line in enumerate(lines) if line.startswith("warning: ")]
    wrote = [i for i, line in enumerate(lines) if line.startswith("wrote ")]
    assert wrote and warnings
    assert max(wrote) < min(warnings)
    assert warnings == list(range(min(warnings), len(lines) - 1)), "warnings must come last"
    assert "warning: syntax_error.py:4: syntax error: invalid syntax" in lines
    assert any(line.startswith("warning: python2.py:7: syntax error: ") for line in lines)


@pytest.mark.parametrize("name", ["torchlike", "badinputs"])
def test_quiet_prints_nothing_on_success(sample: SampleFn, name: str) -> None:
    repo = sample(name)
    result = CliRunner().invoke(cli, ["build", str(repo), "-q", "-j", "2"])
    assert result.exit_code == 0
    assert result.output == ""
    assert (repo / "docs" / "generated" / "index.md").is_file()


def test_relative_out_is_taken_from_the_working_folder(
    sample: SampleFn, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = sample("torchlike")
    monkeypatch.chdir(repo.parent)
    result = CliRunner().invoke(cli, ["build", "torchlike", "--out", "site", "-q", "-j", "2"])
    assert result.exit_code == 0, result.output
    assert (repo.parent / "site" / "index.md").is_file()
    assert not (repo / "docs" / "generated").exists()


def test_templates_folder_replaces_a_builtin_template(sample: SampleFn, tmp_path: Path) -> None:
    repo = sample("torchlike")
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "docs.md.j2").write_text(
        '{% extends "default/docs.md.j2" %}\n{% block testing %}{% endblock %}\n',
        encoding="utf-8",
    )
    page = repo / "docs" / "generated" / "minitorch" / "cuda" / "kernels.py_docs.md"
    plain = CliRunner().invoke(cli, ["build", str(repo), "-q", "-j", "2"])
    assert plain.exit_code == 0, plain.output
    assert "## Testing & Usage" in page.read_text(encoding="utf-8")
    themed = CliRunner().invoke(
        cli, ["build", str(repo), "-q", "-j", "2", "--templates", str(theme)]
    )
    assert themed.exit_code == 0, themed.output
    assert "## Testing & Usage" not in page.read_text(encoding="utf-8")


# --- usage errors: exit 2 and one line ----------------------------------------------


USAGE_ERRORS: dict[str, Callable[[Path], list[str]]] = {
    "missing REPO": lambda repo: ["build", str(repo.parent / "nowhere")],
    "REPO is a file": lambda repo: ["build", str(repo / "README.md")],
    "--out is a file": lambda repo: ["build", str(repo), "--out", str(repo / "README.md")],
    "--out is REPO": lambda repo: ["build", str(repo), "--out", str(repo)],
    "--out is above REPO": lambda repo: ["build", str(repo), "--out", str(repo.parent)],
    "-j 0": lambda repo: ["build", str(repo), "-j", "0"],
    "-j -3": lambda repo: ["build", str(repo), "-j", "-3"],
    "missing --templates": lambda repo: ["build", str(repo), "--templates", str(repo / "theme")],
}


@pytest.mark.parametrize("case", list(USAGE_ERRORS))
def test_usage_errors_exit_2_with_one_line(
    case: str,
    sample: SampleFn,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Through the installed entry point (`main`), which `docgen` and `python -m docgen` run."""
    repo = sample("torchlike")
    code, out, err = run_main(USAGE_ERRORS[case](repo), monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("docgen: error: "), err
    assert not (repo / "docs" / "generated").exists(), "a failed command wrote pages"


@pytest.mark.parametrize("case", list(USAGE_ERRORS))
def test_usage_errors_from_the_click_group_itself(case: str, sample: SampleFn) -> None:
    """The same through `cli` alone, as CliRunner or a program embedding docgen calls it."""
    repo = sample("torchlike")
    result = CliRunner().invoke(cli, USAGE_ERRORS[case](repo))
    assert not isinstance(result.exception, UsageError)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("docgen: error: ")
    assert not (repo / "docs" / "generated").exists(), "a failed command wrote pages"


def test_missing_repo_argument_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(["build"], monkeypatch, capsys)
    assert code == 2
    assert out == ""
    errors = [line for line in err.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "REPO" in errors[0], err


# --- real processes -----------------------------------------------------------------


def test_process_good_build_exits_0_without_traceback(sample: SampleFn, tmp_path: Path) -> None:
    repo = sample("badinputs")
    result = run_module(["build", str(repo), "-j", "2"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert "warning: syntax_error.py:4: syntax error: invalid syntax" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("docgen: ")


def test_process_usage_error_exits_2_with_one_line(tmp_path: Path) -> None:
    result = run_module(["build", str(tmp_path / "nowhere")], cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("docgen: error: ") and result.stderr.count("\n") == 1


def test_process_broken_template_is_one_error_line(sample: SampleFn, tmp_path: Path) -> None:
    repo = sample("torchlike")
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "docs.md.j2").write_text("{% if %}\n", encoding="utf-8")
    result = run_module(["build", str(repo), "-j", "2", "--templates", str(theme)], cwd=tmp_path)
    assert result.returncode in (1, 2)
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("docgen: error: ") and result.stderr.count("\n") == 1


# --- check-links ------------------------------------------------------------------


def test_check_links_finds_the_repository_the_build_recorded(sample: SampleFn) -> None:
    repo = sample("torchlike")
    out = repo / "docs" / "generated"
    assert CliRunner().invoke(cli, ["build", str(repo), "-q", "-j", "2"]).exit_code == 0
    clean = CliRunner().invoke(cli, ["check-links", str(out)])
    assert clean.exit_code == 0, clean.output
    assert clean.output.splitlines()[-1].startswith("docgen: 0 broken links")

    (out / "notes.md").write_text("# Notes\n\nSee [the guide](nowhere.md).\n", encoding="utf-8")
    broken = CliRunner().invoke(cli, ["check-links", str(out)])
    assert broken.exit_code == 1
    assert "notes.md:3: nowhere.md (no such file)" in broken.output.splitlines()


#: Ctrl-C landing inside a class body during an import: Python 3.11 raises it as a
#: RuntimeError from `__set_name__`, with the KeyboardInterrupt as its cause.
WRAPPED_INTERRUPT = """
import docgen.cli.main

def wrapped(**kwargs):
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as exc:
        raise RuntimeError("Error calling __set_name__") from exc

docgen.cli.main.cli.main = wrapped
docgen.cli.main.main()
"""


def test_an_interrupt_wrapped_by_python_still_exits_130() -> None:
    result = subprocess.run(
        [sys.executable, "-c", WRAPPED_INTERRUPT], capture_output=True, text=True, check=False
    )
    assert result.returncode == 130
    assert result.stderr == "docgen: interrupted\n"


def test_an_error_not_caused_by_an_interrupt_is_not_taken_for_one() -> None:
    from docgen.system.interrupts import caused_by_interrupt

    try:
        try:
            raise ValueError("inner")
        except ValueError as inner:
            raise RuntimeError("outer") from inner
    except RuntimeError as exc:
        assert not caused_by_interrupt(exc)
        wrapped = RuntimeError("set_name")
        wrapped.__cause__ = KeyboardInterrupt()
        assert caused_by_interrupt(wrapped)
