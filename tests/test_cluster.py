"""Scanning on a Dask cluster: the same pages as the local pool, a crash costs one file,
a lost worker or a failed batch costs nothing, another docgen stops the build."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import distributed
import pytest
from conftest import invoke, output_bytes
from hypothesis import given
from hypothesis import strategies as st

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.model.errors import UsageError
from docgen.model.facts import ScannedFile
from docgen.model.report import BuildReport
from docgen.model.serialize import dumps, loads
from docgen.model.sources import SourceFile
from docgen.scan import workers
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS
from docgen.scan.cluster import address
from docgen.scan.cluster.client import MAX_BATCH_BYTES, MIN_BATCH_BYTES, plan_batches
from docgen.scan.cluster.scan_process import ScanProcess
from docgen.scan.cluster.task import (
    MISMATCH,
    Batch,
    ScanProcesses,
    batch_lines,
    run_batch,
    scan_batch,
)
from docgen.scan.keys import facts_key
from docgen.scan.workers import MAX_PARSE_BYTES

SampleFn = Callable[..., Path]
HOOKS = Path(__file__).parent / "cluster_hooks"
#: The `dask` command of the interpreter's environment (the test extras install it).
DASK = Path(sys.executable).parent / "dask"


def executor_of(scheduler: str) -> str:
    return scheduler.replace("tcp://", "dask://")


def cluster_build(repo: Path, out: Path, scheduler: str) -> BuildReport:
    return build(resolve_options(repo, out, 2, executor=executor_of(scheduler)))


# --- choosing the executor ------------------------------------------------------------


def test_executor_forms() -> None:
    assert address.scheduler_address("local", "x") is None
    assert address.scheduler_address("dask://10.0.0.5:8786", "x") == "tcp://10.0.0.5:8786"
    assert address.scheduler_address("dask+tls://sched.example:8786", "x") == (
        "tls://sched.example:8786"
    )
    assert address.scheduler_address("dask://[::1]:8786", "x") == "tcp://[::1]:8786"
    for wrong in ("dask://host", "tcp://host:8786", "dask://host:0", "dask://host:70000", "pool"):
        with pytest.raises(UsageError, match=r"^x must be 'local', dask://HOST:PORT"):
            address.scheduler_address(wrong, "x")


def test_flag_beats_environment_beats_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.docgen]\nexecutor = "dask://conf:1"\n')
    monkeypatch.delenv("DOCGEN_EXECUTOR", raising=False)
    assert resolve_options(tmp_path, None, 1).cluster == "tcp://conf:1"
    monkeypatch.setenv("DOCGEN_EXECUTOR", "dask://env:2")
    assert resolve_options(tmp_path, None, 1).cluster == "tcp://env:2"
    assert resolve_options(tmp_path, None, 1, executor="local").cluster is None
    monkeypatch.setenv("DOCGEN_EXECUTOR", "dask:/env")
    code, output = invoke("build", str(tmp_path))
    assert (code, output) == (
        2,
        "docgen: error: DOCGEN_EXECUTOR must be 'local', dask://HOST:PORT, or "
        "dask+tls://HOST:PORT, got 'dask:/env'\n",
    )


def test_an_unreachable_scheduler_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docgen.scan.cluster.client as client

    monkeypatch.setattr(client, "CONNECT_SECONDS", 1.0)
    (tmp_path / "a.py").write_text("x = 1\n")
    code, output = invoke("build", str(tmp_path), "--executor", "dask://127.0.0.1:9", "-q")
    assert code == 1
    assert output.startswith(
        "docgen: error: could not reach the Dask scheduler at tcp://127.0.0.1:9"
    )
    assert output.count("\n") == 1
    code, output = invoke("build", str(tmp_path), "--executor", "dask+tls://127.0.0.1:9", "-q")
    assert code == 1  # TLS without certificates configured
    assert output.startswith(
        "docgen: error: could not reach the Dask scheduler at tls://127.0.0.1:9"
    )
    assert output.count("\n") == 1


# --- batches --------------------------------------------------------------------------


@given(
    sizes=st.lists(st.integers(0, 3 * MIN_BATCH_BYTES), max_size=60),
    threads=st.integers(1, 16),
)
def test_batches_hold_every_file_once_largest_first(sizes: list[int], threads: int) -> None:
    sources = [SourceFile(f"f{i}.py", f"/r/f{i}.py", size) for i, size in enumerate(sizes)]
    batches = plan_batches(sources, threads)
    assert sorted(i for batch in batches for i in batch) == list(range(len(sources)))
    assert plan_batches(list(reversed(sources)), threads) == [
        [len(sources) - 1 - i for i in batch] for batch in batches
    ]
    flat = [sources[i].size for batch in batches for i in batch]
    assert flat == sorted(flat, reverse=True)
    target = min(MAX_BATCH_BYTES, max(MIN_BATCH_BYTES, sum(sizes) // (threads * 4)))
    for batch in batches[:-1]:  # only the last batch may be below the target
        assert sum(sources[i].size for i in batch) >= target
    for batch in batches:  # a batch goes over the target by its last file only
        assert sum(sources[i].size for i in batch[:-1]) < target


# --- one batch, in the build's own process -------------------------------------------


def crash_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the local pool's workers die on crash_here.py, as the hooks make a cluster's."""
    original = workers.scan_data

    def scan_data(path: str, data: bytes, settings=DEFAULT_SETTINGS):  # type: ignore[no-untyped-def]
        if path.rsplit("/", 1)[-1] == "crash_here.py":
            os.kill(os.getpid(), signal.SIGSEGV)
        return original(path, data, settings)

    monkeypatch.setattr(workers, "scan_data", scan_data)


def test_a_crash_in_a_batch_costs_that_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(HOOKS))
    monkeypatch.setenv("DOCGEN_TEST_HOOKS", "1")
    monkeypatch.setenv("DOCGEN_TEST_STALL", str(tmp_path / "stalled"))
    files = {
        "a.py": "def a():\n    pass\n",
        "pkg/crash_here.py": "def c():\n    pass\n",
        "stall_here.py": "def s():\n    pass\n",
        "z.h": "namespace z { int f(); }\n",
    }
    sources = []
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
        sources.append(SourceFile(path, str(tmp_path / path), len(text)))
    batch = Batch(
        facts_key(), DEFAULT_SETTINGS, 3.0, tuple((p, t.encode()) for p, t in files.items())
    )
    answers = list(batch_lines(scan_batch(batch)))
    remote = [loads(ScannedFile, facts) for facts, _ in answers]
    assert [r.facts.parsed for r in remote] == [True, False, False, True]
    assert remote[1].facts.problems[-1].message == (
        "the scanner process died of SIGSEGV on this file; it is shown unparsed"
    )
    assert remote[2].facts.problems[-1].message == (
        "the scanner took longer than 3 s on this file; it is shown unparsed"
    )
    assert answers[1][1] == "null" and answers[0][1] != "null"
    crash_locally(monkeypatch)
    del sources[2]  # the stall is the hooks' alone
    local = workers.scan_files(sources, jobs=1)
    assert [dumps(r) for r in remote[:2] + remote[3:]] == [dumps(r) for r in local]


def test_another_docgen_on_the_worker_is_an_answer_not_an_error() -> None:
    batch = Batch("another docgen", DEFAULT_SETTINGS, 60.0, (("a.py", b"x = 1\n"),))
    assert scan_batch(batch) == MISMATCH  # an exception would be retried on other workers


class FakeWorker:
    class state:
        nthreads = 1


def test_a_scan_process_that_died_idle_costs_no_file() -> None:
    plugin = ScanProcesses()
    plugin.setup(FakeWorker())
    idle = plugin.take()
    idle.ready()
    idle.process.kill()
    idle.process.wait()
    plugin.give(idle)
    batch = Batch(facts_key(), DEFAULT_SETTINGS, 60.0, (("a.py", b"def a():\n    pass\n"),))
    [(facts, sites)] = batch_lines(run_batch(batch, plugin))
    scanned = loads(ScannedFile, facts)
    assert scanned.facts.parsed and scanned.facts.problems == ()
    assert sites != "null"
    plugin.teardown(FakeWorker())
    given_back = ScanProcess()
    plugin.give(given_back)  # after teardown: closed, not kept
    assert not given_back.alive()


# --- a LocalCluster of two worker processes ------------------------------------------


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


@pytest.mark.parametrize("name", ["torchlike", "cpplike"])
def test_a_cluster_build_equals_a_local_one(
    local_cluster: str, sample: SampleFn, tmp_path: Path, name: str
) -> None:
    repo = sample(name)
    (repo / "huge.txt").write_bytes(b"0123456789abcde\n" * (MAX_PARSE_BYTES // 16 + 1))
    local = build(resolve_options(repo, tmp_path / "local", 2))
    ticks: list[int] = []

    def progress(total: int) -> Callable[[int], None]:
        return ticks.append

    remote = build(
        resolve_options(repo, tmp_path / "cluster", 2, executor=executor_of(local_cluster)),
        progress,
    )
    assert remote.notices == [] and remote.scanned == local.scanned > 5
    assert sum(ticks) == remote.scanned
    assert output_bytes(tmp_path / "cluster") == output_bytes(tmp_path / "local")
    again = cluster_build(repo, tmp_path / "cluster", local_cluster)  # nothing to scan
    assert again.scanned == 0 and output_bytes(tmp_path / "cluster") == output_bytes(
        tmp_path / "local"
    )


def test_a_batch_answered_wrongly_is_scanned_here(
    local_cluster: str, sample: SampleFn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docgen.scan.cluster.client as client

    repo = sample("torchlike")
    monkeypatch.setattr(client, "scan_batch", str)  # answers each batch with its repr
    remote = cluster_build(repo, tmp_path / "cluster", local_cluster)
    assert len(remote.notices) == 1
    assert remote.notices[0].startswith(f"{remote.scanned} files of ")
    assert "were scanned here after the cluster failed them (ValueError" in remote.notices[0]
    build(resolve_options(repo, tmp_path / "local", 2))
    assert output_bytes(tmp_path / "cluster") == output_bytes(tmp_path / "local")


def test_workers_with_another_docgen_stop_the_build_in_one_line(
    local_cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docgen.scan.cluster.client as client

    (tmp_path / "a.py").write_text("x = 1\n")
    monkeypatch.setattr(client, "facts_key", lambda: "not the workers' key")
    code, output = invoke("build", str(tmp_path), "--executor", executor_of(local_cluster))
    assert (code, output) == (
        1,
        "docgen: error: a Dask worker runs another docgen (or another libcst) than this build; "
        "install the same version on the workers\n",
    )


# --- `dask scheduler` and `dask worker` as child processes ----------------------------


def gone(pid: int) -> bool:
    """Whether a process has ended (a zombie nobody reaps has ended too)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as handle:
        return subprocess.Popen(
            command, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a child and its own children (a worker's nanny starts the worker processes)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@dataclass
class DaskRun:
    """A build on a `dask scheduler` and a `dask worker` run as child processes."""

    worker: subprocess.Popen[bytes]
    stalled: tuple[int, int]  # the Dask worker's pid and its scan process's, mid-batch
    builder: threading.Thread
    result: list[BuildReport]

    def finish(self) -> BuildReport:
        self.builder.join(timeout=120)
        assert not self.builder.is_alive()
        [report] = self.result
        return report


@contextmanager
def dask_build(repo: Path, tmp_path: Path, nworkers: int) -> Iterator[DaskRun]:
    """Start the scheduler and `nworkers` workers with the test hooks (a file named
    `stall_here.py` stalls its batch), start a cluster build in a thread and yield once
    the batch stalls; the processes are stopped, by process group, when the block ends."""
    marker = tmp_path / "stalled"
    env = {
        **os.environ,
        "PYTHONPATH": str(HOOKS),
        "DOCGEN_TEST_HOOKS": "1",
        "DOCGEN_TEST_STALL": str(marker),
    }
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = start(
        [
            *(str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"),
            *("--scheduler-file", str(scheduler_file)),
        ],
        env,
        tmp_path / "scheduler.log",
    )
    worker = start(
        [
            *(str(DASK), "worker", "--scheduler-file", str(scheduler_file)),
            *("--nworkers", str(nworkers), "--nthreads", "1"),
            *("--host", "127.0.0.1", "--no-dashboard"),
        ],
        env,
        tmp_path / "worker.log",
    )
    try:
        with distributed.Client(scheduler_file=str(scheduler_file), timeout=60) as watcher:
            watcher.wait_for_workers(nworkers, timeout=60)
            scheduler_address = str(watcher.scheduler.address)
        result: list[BuildReport] = []
        builder = threading.Thread(
            target=lambda: result.append(
                cluster_build(repo, tmp_path / "cluster", scheduler_address)
            )
        )
        builder.start()
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        worker_pid, scan_pid = map(int, marker.read_text().split())
        yield DaskRun(worker, (worker_pid, scan_pid), builder, result)
    finally:
        stop(worker)
        stop(scheduler)


def test_dask_processes_a_crash_and_a_killed_worker(
    sample: SampleFn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = sample("torchlike")
    (repo / "crash_here.py").write_text("def crashes():\n    pass\n")
    (repo / "stall_here.py").write_text("def stalls():\n    pass\n")
    with dask_build(repo, tmp_path, nworkers=2) as run:
        worker_pid, scan_pid = run.stalled
        os.kill(worker_pid, signal.SIGKILL)  # the Dask worker, in the middle of a batch
        deadline = time.monotonic() + 10
        while not gone(scan_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gone(scan_pid)  # its scan process, stalled in a "parse", went with it
        remote = run.finish()
    assert remote.notices == []  # the lost batch ran again on the cluster
    assert [str(w) for w in remote.warnings if w.severity == "error"] == [
        "crash_here.py: the scanner process died of SIGSEGV on this file; it is shown unparsed"
    ]
    crash_locally(monkeypatch)
    build(resolve_options(repo, tmp_path / "local", 2))
    assert output_bytes(tmp_path / "cluster") == output_bytes(tmp_path / "local")


def test_a_cluster_whose_workers_are_all_gone_is_left_for_local_scanning(
    sample: SampleFn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The only Dask worker is killed, nanny and all, while a batch stalls on it: after
    CONNECT_SECONDS with no worker the build scans what is left here, says so in one
    notice, and its pages equal a local build's."""
    import docgen.scan.cluster.client as client

    monkeypatch.setattr(client, "CONNECT_SECONDS", 2.0)
    repo = sample("torchlike")
    (repo / "stall_here.py").write_text("def stalls():\n    pass\n")
    with dask_build(repo, tmp_path, nworkers=1) as run:
        stop(run.worker)  # its whole process group: no worker is left to retry on
        remote = run.finish()
    assert len(remote.notices) == 1
    assert (
        "were scanned here after the cluster failed them (no Dask worker for 2 s)"
        in (remote.notices[0])
    )
    assert remote.scanned > 5
    build(resolve_options(repo, tmp_path / "local", 2))
    assert output_bytes(tmp_path / "cluster") == output_bytes(tmp_path / "local")
