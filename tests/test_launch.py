"""The `docgen` command's entry: the scan worker it forks first, and how it exits."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import child_env

from docgen.cli import launch
from docgen.model.sources import SourceFile
from docgen.scan.warm import WARM_NICENESS, WarmWorker, fork_scan_worker
from docgen.scan.workers import scan_files
from docgen.system.processes import kill


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
    started = fork_scan_worker()
    assert started is not None
    assert started.process.is_alive()
    with WarmWorker(started) as warm:
        results = scan_files(sources, 2, warm=warm)
        assert warm.take() is None  # taken as the first worker, stopped with the others
    assert not started.process.is_alive()
    names = [r.facts.python.definitions[0].name for r in results if r.facts.python]
    assert names == ["f0", "f1", "f2"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_the_worker_forked_first_gives_way_to_the_build(tmp_path: Path) -> None:
    own = os.getpriority(os.PRIO_PROCESS, 0)
    if own >= 19:
        pytest.skip("this process has the lowest priority already")
    started = fork_scan_worker()
    assert started is not None
    try:
        deadline = time.monotonic() + 10
        while os.getpriority(os.PRIO_PROCESS, started.process.pid) == own:
            assert time.monotonic() < deadline, "the worker kept the build's priority"
            time.sleep(0.01)  # it lowers its own as it starts
        assert os.getpriority(os.PRIO_PROCESS, started.process.pid) == min(own + WARM_NICENESS, 19)
    finally:
        kill(started)


#: Runs `docgen ARGS...` through `launch.main`, saying on stderr what the build was
#: handed as its early worker and whether the worker was stopped before the exit.
_WATCHED = """
import sys
from docgen import build
from docgen.cli import launch
real_pages, real_kill = build.build_pages, launch.kill
def pages(options, progress=None, early=None):
    print("build given", type(early).__name__, file=sys.stderr)
    return real_pages(options, progress, early)
def kill(early):
    real_kill(early)
    print("stopped", not early.process.is_alive(), file=sys.stderr)
build.build_pages, launch.kill = pages, kill
sys.argv = ["docgen", *sys.argv[1:]]
launch.main()
"""


def _launched(program: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`program` run with `args` as its command line."""
    return subprocess.run(
        [sys.executable, "-c", program, *args], env=child_env(), capture_output=True, text=True
    )


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_the_build_is_handed_the_early_worker_and_it_is_stopped(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    pass\n")
    done = _launched(_WATCHED, "build", str(tmp_path), "--out", str(tmp_path / "out"), "-q")
    assert (done.returncode, done.stderr) == (0, "build given StartedProcess\nstopped True\n")


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_a_usage_error_stops_the_early_worker(tmp_path: Path) -> None:
    done = _launched(_WATCHED, "build", str(tmp_path / "absent"))
    assert done.returncode == 2
    assert done.stderr.splitlines()[1:] == ["stopped True"]  # after the one-line error
    assert done.stderr.startswith("docgen: error: ")


def test_output_into_a_closed_pipe_exits_120_without_a_traceback() -> None:
    program = (
        "import time\nfrom docgen.cli.launch import leave\n"
        "print('said')\ntime.sleep(0.5)\nleave(0)\n"
    )
    env = child_env()
    env.pop("PYTHONUNBUFFERED", None)  # the output waits in its buffer for `leave`
    child = subprocess.Popen(
        [sys.executable, "-c", program],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader is gone before the output is flushed
    assert (child.wait(), child.stderr.read()) == (120, "")
    child.stderr.close()


def _leave(code: str) -> subprocess.CompletedProcess[str]:
    program = f"from docgen.cli.launch import leave\nprint('said', end='')\nleave({code})\n"
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


#: Runs `docgen ARGS...` through `launch.main` with `leave` replaced by a report of how
#: it would end: whether the cycle collector runs, what the command's result holds (a
#: report's `held`, also through an exit's traceback), and the status.
_ENDING = """
import gc, os, sys
import docgen.cli.launch as launch
def leave(code, made=None):
    held = len(getattr(made, "held", ()))
    tb = getattr(made, "__traceback__", None)
    while tb is not None:  # an exit: the report is a local of a frame kept
        held = max(held, len(getattr(tb.tb_frame.f_locals.get("report"), "held", ())))
        tb = tb.tb_next
    print(gc.isenabled(), type(made).__name__, held, code, file=sys.stderr)
    sys.stderr.flush()
    os._exit(0)
launch.leave = leave
sys.argv = ["docgen", *sys.argv[1:]]
launch.main()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_a_build_ends_holding_its_objects_without_the_cycle_collector(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    pass\n")
    done = _launched(_ENDING, "build", str(tmp_path), "--out", str(tmp_path / "out"), "-q")
    assert done.stderr == "False BuildReport 5 0\n"


def test_other_commands_keep_the_cycle_collector(tmp_path: Path) -> None:
    # no pages there: an error
    done = _launched(_ENDING, "find", "f", "--out", str(tmp_path / "out"))
    assert done.stderr.splitlines()[-1].split() == ["True", "SystemExit", "0", "2"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_a_hook_that_wrote_pages_exits_1_still_holding_its_build(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    pass\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "m.py"], cwd=tmp_path, check=True)
    out = str(tmp_path / "out")
    done = _launched(_ENDING, "hook", "m.py", "--repo", str(tmp_path), "--out", out)
    assert done.stderr.splitlines()[-1] == "False SystemExit 5 1"
