"""The `docgen` command's entry: the scan worker it forks first, and how it exits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import child_env

from docgen import launch, workers
from docgen.discover import SourceFile
from docgen.workers import scan_files


@pytest.mark.parametrize(
    ("args", "builds"),
    [
        (["build", "."], True),
        (["hook", "a.py"], True),
        (["site", ".", "-q"], True),
        (["build", ".", "--help"], False),
        (["site", "-h"], False),
        (["find", "build"], False),
        (["check"], False),
        ([], False),
    ],
)
def test_only_building_commands_fork_a_scan_worker_first(args: list[str], builds: bool) -> None:
    assert launch.builds_pages(args) is builds


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_the_worker_forked_first_scans_the_builds_files(tmp_path: Path) -> None:
    sources = []
    for i in range(3):
        path = tmp_path / f"m{i}.py"
        path.write_text(f"def f{i}():\n    pass\n")
        sources.append(SourceFile(path.name, str(path), path.stat().st_size))
    started = launch.fork_scan_worker()
    assert started is not None
    assert started.process.is_alive()
    with workers.WarmWorker(started) as warm:
        results = scan_files(sources, 2, warm=warm)
        assert warm.take() is None  # taken as the first worker, stopped with the others
    assert not started.process.is_alive()
    names = [r.facts.python.definitions[0].name for r in results if r.facts.python]
    assert names == ["f0", "f1", "f2"]


def _leave(code: str) -> subprocess.CompletedProcess[str]:
    program = f"from docgen.launch import leave\nprint('said', end='')\nleave({code})\n"
    return subprocess.run(
        [sys.executable, "-c", program], env=child_env(), capture_output=True, text=True
    )


@pytest.mark.parametrize(("code", "status"), [("None", 0), ("0", 0), ("3", 3)])
def test_leaving_flushes_the_output_and_keeps_the_status(code: str, status: int) -> None:
    done = _leave(code)
    assert (done.returncode, done.stdout, done.stderr) == (status, "said", "")


def test_leaving_with_a_message_prints_it_and_means_failure() -> None:
    done = _leave("'docgen: no'")
    assert (done.returncode, done.stdout, done.stderr) == (1, "said", "docgen: no\n")


def test_the_command_exits_with_the_commands_status(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    pass\n")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "docgen", "build", str(tmp_path), "--out", str(out), "-q"]
    built = subprocess.run(command, env=child_env(), capture_output=True, text=True)
    assert (built.returncode, built.stderr) == (0, "")
    assert (out / "m.py_docs.md").is_file()
    missing = subprocess.run(
        [*command[:4], str(tmp_path / "absent")], env=child_env(), capture_output=True, text=True
    )
    assert missing.returncode == 2
    assert missing.stderr.startswith("docgen: error: ")
    assert "Traceback" not in missing.stderr
