"""Nothing lost, nothing leaked: kills, Ctrl-C, concurrent builds, damaged state, files that
change under the build, oversized files.

Builds run as real `python -m docgen` processes where a signal must hit them.  After
every kind of trouble the output must equal a clean build's, byte for byte: both
output folders sit at the same depth beside the repository, so the relative links
to sources are the same.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import child_env, run_build

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.model.sources import SourceFile
from docgen.scan.workers import scan_one
from docgen.state import open_state

ROOT = Path(__file__).resolve().parent.parent
PagesFn = Callable[[Path], dict[str, bytes]]
CopyFn = Callable[[str, Path], Path]


def docgen_process(*args: str) -> subprocess.Popen[str]:
    env = child_env()
    return subprocess.Popen(
        [sys.executable, "-m", "docgen", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell gives a foreground job
    )


def finish(proc: subprocess.Popen[str], timeout: float = 120) -> tuple[int, str]:
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


def leftovers(out: Path) -> list[str]:
    """Temporary files anywhere in OUT, or in docgen's own temporary folder."""
    found = [p for p in out.rglob("*.tmp")]
    found += [p for p in (out / ".docgen" / "tmp").glob("*")] if (out / ".docgen").exists() else []
    return sorted(p.relative_to(out).as_posix() for p in found)


@pytest.fixture
def twin(tmp_path: Path, copy_fixture: CopyFn) -> tuple[Path, Path, Path]:
    """(repo, out, reference): torchlike, an output folder, and a clean build's folder."""
    repo = copy_fixture("torchlike", tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    return repo, tmp_path / "a" / "out", tmp_path / "b" / "out"


def clean_build(repo: Path, out: Path) -> None:
    build(resolve_options(repo, out, 2))


def test_builds_killed_at_random_moments_then_resumed_equal_a_clean_build(
    twin: tuple[Path, Path, Path], read_pages: PagesFn
) -> None:
    repo, out, reference = twin
    clean_build(repo, reference)
    started = time.perf_counter()
    proc = docgen_process("build", str(repo), "--out", str(out), "-q", "-j", "2")
    finish(proc)
    whole = time.perf_counter() - started
    shutil.rmtree(out)  # every later run starts cold again
    chooser = random.Random(20261122)
    edited = repo / "minitorch" / "nn" / "layers.py"
    for round_ in range(6):
        proc = docgen_process("build", str(repo), "--out", str(out), "-q", "-j", "2")
        time.sleep(chooser.uniform(0.05, whole))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        if round_ == 3:  # the tree changes between a killed build and the next
            with open(edited, "a", encoding="utf-8") as handle:
                handle.write("\n\ndef added_after_a_kill():\n    pass\n")
    code, err = finish(docgen_process("build", str(repo), "--out", str(out), "-q", "-j", "2"))
    assert code == 0, err
    assert "Traceback" not in err
    clean_build(repo, reference)
    assert read_pages(out) == read_pages(reference)
    assert leftovers(out) == []
    code, err = finish(docgen_process("check", str(repo), "--out", str(out), "-q"))
    assert code == 0, err


def test_ctrl_c_stops_promptly_with_exit_130(twin: tuple[Path, Path, Path]) -> None:
    repo, out, _ = twin
    for delay in (0.3, 0.8):
        proc = docgen_process("build", str(repo), "--out", str(out), "-j", "2")
        time.sleep(delay)
        sent = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal sends the foreground group
        code, err = finish(proc, timeout=30)
        stopped = time.perf_counter() - sent
        if code == 0:
            continue  # finished before the signal: nothing to interrupt this time
        # 130, or death by SIGINT when the signal lands after the build is done (while
        # Python shuts down): a shell reports both as exit status 130.
        assert code in (130, -signal.SIGINT), err
        assert "interrupted" in err or code == -signal.SIGINT
        assert "Traceback" not in err
        assert stopped < 10, f"took {stopped:.1f}s to stop"
        assert leftovers(out) == []


def test_two_builds_at_once_leave_a_clean_builds_output(
    twin: tuple[Path, Path, Path], read_pages: PagesFn
) -> None:
    repo, out, reference = twin
    first = docgen_process("build", str(repo), "--out", str(out), "-j", "1")
    second = docgen_process("build", str(repo), "--out", str(out), "-j", "1")
    results = [finish(first), finish(second)]
    for code, err in results:
        assert code == 0, err
        assert "Traceback" not in err
    clean_build(repo, reference)
    assert read_pages(out) == read_pages(reference)


def test_a_second_build_waits_for_the_first_with_a_message(
    twin: tuple[Path, Path, Path], read_pages: PagesFn
) -> None:
    repo, out, reference = twin
    from docgen.write.lock import output_lock

    with output_lock(out / ".docgen"):
        proc = docgen_process("build", str(repo), "--out", str(out), "-j", "1")
        time.sleep(1.0)
        assert proc.poll() is None  # still waiting for the lock this test holds
    code, err = finish(proc)
    assert code == 0, err
    assert "waiting for another docgen run" in err
    clean_build(repo, reference)
    assert read_pages(out) == read_pages(reference)


def damage_garbage(state: Path) -> None:
    state.write_bytes(b"this is not a database at all\n" * 100)


def damage_truncate(state: Path) -> None:
    data = state.read_bytes()
    state.write_bytes(data[: len(data) // 3])


def damage_foreign(state: Path) -> None:
    state.unlink()
    conn = sqlite3.connect(state)
    conn.execute("CREATE TABLE bookmarks (url TEXT)")
    conn.commit()
    conn.close()


def damage_old_version(state: Path) -> None:
    conn = sqlite3.connect(state)
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'state_version'")
    conn.commit()
    conn.close()


def damage_folder(state: Path) -> None:
    state.unlink()
    state.mkdir()
    (state / "x").write_text("x", encoding="utf-8")


def damage_rows(state: Path) -> None:
    conn = sqlite3.connect(state)
    conn.execute("UPDATE files SET facts = '{not json'")
    conn.commit()
    conn.close()


def damage_summaries(state: Path) -> None:
    conn = sqlite3.connect(state)
    conn.execute("UPDATE files SET summary = '{not json'")
    conn.commit()
    conn.close()


DAMAGE = {
    "garbage": (damage_garbage, True),
    "truncated": (damage_truncate, True),
    "foreign": (damage_foreign, True),
    "old version": (damage_old_version, True),
    "a folder": (damage_folder, True),
    # Facts are read when a page needs them, long after the scan: a row found damaged
    # then makes the build start afresh.  A summary is read at once: its file is rescanned.
    "bad rows": (damage_rows, True),
    "bad summaries": (damage_summaries, False),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_damaged_cache_is_reported_discarded_and_survived(
    case: str, twin: tuple[Path, Path, Path], read_pages: PagesFn
) -> None:
    repo, out, reference = twin
    clean_build(repo, out)
    (repo / "minitorch" / "utils").rename(repo / "minitorch" / "helpers")  # pages to prune
    damage, noticed = DAMAGE[case]
    damage(out / ".docgen" / "state.sqlite")
    code, err = finish(docgen_process("build", str(repo), "--out", str(out), "-j", "2"))
    assert code == 0, err
    assert "Traceback" not in err
    notices = [line for line in err.splitlines() if "was discarded" in line]
    assert len(notices) == (1 if noticed else 0), err
    clean_build(repo, reference)
    assert read_pages(out) == read_pages(reference)  # stale pages of utils/ pruned too
    code, err = finish(docgen_process("build", str(repo), "--out", str(out), "-j", "2"))
    assert code == 0 and "was discarded" not in err, err


def test_a_file_replaced_by_a_fifo_after_discovery_is_not_opened(tmp_path: Path) -> None:
    path = tmp_path / "soon_a_pipe.py"
    path.write_text("x = 1\n", encoding="utf-8")
    source = SourceFile("soon_a_pipe.py", str(path), 6, ())
    path.unlink()
    os.mkfifo(path)
    started = time.perf_counter()
    scanned = scan_one(source)
    assert time.perf_counter() - started < 5
    assert not scanned.facts.parsed
    assert "no longer a regular file" in scanned.facts.problems[0].message
    path.unlink()
    vanished = scan_one(source)
    assert "could not be read" in vanished.facts.problems[0].message


def test_an_oversized_file_is_hashed_counted_and_not_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    import docgen.scan.workers

    monkeypatch.setattr(docgen.scan.workers, "MAX_PARSE_BYTES", 1000)
    text = "def f():\n    return 1\n" * 200
    path = tmp_path / "big.py"
    path.write_text(text, encoding="utf-8")
    facts = scan_one(SourceFile("big.py", str(path), len(text), ())).facts
    assert facts.kind == "python"
    assert not facts.parsed
    assert facts.line_count == 400
    assert facts.sha256 == hashlib.sha256(text.encode()).hexdigest()
    assert "4.3 KB is more than the 1,000 bytes docgen parses" in facts.problems[0].message
    assert "no keywords were extracted" in facts.problems[0].message


def test_an_oversized_binary_file_stays_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docgen.scan.workers

    monkeypatch.setattr(docgen.scan.workers, "MAX_PARSE_BYTES", 1000)
    data = b"\x7fELF\0\0" + bytes(range(256)) * 20
    path = tmp_path / "libbig.so"
    path.write_bytes(data)
    facts = scan_one(SourceFile("libbig.so", str(path), len(data), ())).facts
    assert facts.kind == "binary"
    assert facts.size == len(data)


def test_a_plain_folder_of_traps_builds_quickly_and_leaks_nothing(
    tmp_path: Path, read_pages: PagesFn
) -> None:
    secret = "docgen-robustness-secret-line"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(f"SECRET = '{secret}'\n", encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "ok.py").write_text("def fine():\n    pass\n", encoding="utf-8")
    (repo / "pkg" / "loop").symlink_to(repo / "pkg")
    (repo / "pkg" / "out_file.py").symlink_to(outside / "secret.py")
    (repo / "pkg" / "out_dir").symlink_to(outside)
    (repo / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    os.mkfifo(repo / "pipe.py")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(repo / "sock.md"))
    except OSError:
        server.close()
        server = None  # type: ignore[assignment]
    (repo / "weird name [x](y) #1 `tick`.py").write_text("def odd():\n    pass\n")
    try:
        started = time.perf_counter()
        code, err = finish(docgen_process("build", str(repo), "-j", "2"), timeout=60)
        assert time.perf_counter() - started < 60
    finally:
        if server is not None:
            server.close()
    assert code == 0, err
    assert "Traceback" not in err
    pages = read_pages(repo / "docs" / "generated")
    assert "pkg/ok.py_docs.md" in pages
    assert "weird name [x](y) #1 `tick`.py_docs.md" in pages
    assert not any(secret.encode() in page for page in pages.values())
    assert not any(
        name.startswith(("pipe.py", "sock.md", "pkg/loop/", "pkg/out_")) for name in pages
    )


def test_a_worker_whose_build_was_killed_exits_by_itself(tmp_path: Path) -> None:
    """A scan worker holds copies of other pipes, so it cannot count on EOF: it must
    notice that its parent is gone, or it would keep a CI job's pipes open forever."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to tell a running process from an exited one")
    script = (
        "import sys, time\n"
        "from docgen.scan.cfamily.settings import DEFAULT_SETTINGS\n"
        "from docgen.scan.warm import WarmWorker\n"
        "from docgen.scan.workers import WorkerSetup, _context, _start\n"
        "setup = WorkerSetup(DEFAULT_SETTINGS, with_sites=False, many=False)\n"
        "worker = _start(_context(), setup)\n"
        "other = _start(_context(), setup)\n"
        "warm = WarmWorker().take()\n"  # still waiting for its settings
        "print(worker.process.pid, other.process.pid, warm.process.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    env = child_env()
    proc = subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 3  # the workers were started (else this test could not fail)
    assert all(_running(pid) for pid in pids)
    proc.kill()
    proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in pids if _running(pid)]
    assert alive == []


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ", 1)[1][:1] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


def test_macros_are_never_learned_from_a_header_too_large_to_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docgen.scan.learned_macros
    from docgen.scan.learned_macros import learned_macro_defs

    monkeypatch.setattr(docgen.scan.learned_macros, "READ_LIMIT", 1000)
    read: list[str] = []
    real = docgen.scan.learned_macros.read_source

    def counted(source: SourceFile, limit: int | None = None) -> bytes:
        read.append(source.path)
        return real(source, limit)

    monkeypatch.setattr(docgen.scan.learned_macros, "read_source", counted)
    small, large = tmp_path / "small.h", tmp_path / "large.h"
    small.write_text("#define SMALL_API __attribute__((visibility))\n")
    large.write_text("#define LARGE_API __attribute__((visibility))\n" + "// x\n" * 400)
    sources = [
        SourceFile(p.name, str(p), p.stat().st_size, (1, p.stat().st_size)) for p in (small, large)
    ]
    with open_state(tmp_path / "out") as state:
        defs = learned_macro_defs(state, sources)
    assert read == ["small.h"]
    assert [d.name for d in defs] == ["SMALL_API"]


def test_a_nul_byte_past_the_binary_sniff_never_reaches_a_page(
    tmp_path: Path, read_pages: PagesFn
) -> None:
    from docgen.model.languages import BINARY_SNIFF_BYTES

    repo = tmp_path / "repo"
    repo.mkdir()
    padding = b"word\n" * (BINARY_SNIFF_BYTES // 5 + 1)
    (repo / "late.md").write_bytes(b"# T\n\n" + padding + b"bad \x00 here\n")
    (repo / "late.py").write_bytes(b"x = 1\n" * 2000 + b'def late():\n    return "a\x00b"\n')
    (repo / "late.c").write_bytes(b"int x;\n" * 2000 + b'const char *s = "a\x00b";\n')
    out = tmp_path / "out"
    run_build(repo, out, 1)
    pages = read_pages(out)
    assert {"late.md_docs.md", "late.py_docs.md", "late.c_docs.md"} <= set(pages)
    assert [page for page, data in pages.items() if b"\x00" in data] == []
    assert "bad \ufffd here" in pages["late.md_docs.md"].decode()


def test_a_full_disk_is_one_line_and_keeps_the_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from conftest import copy_sample, invoke

    from docgen.state import State

    repo = copy_sample("torchlike", tmp_path)
    assert invoke("build", str(repo), "-q")[0] == 0
    module = repo / "minitorch" / "version.py"
    module.write_text(module.read_text() + "\nLATER = 1\n")

    def full(self: State, records: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(State, "record_pages", full)
    status, output = invoke("build", str(repo))
    assert status == 1
    assert output.strip().count("\n") == 0, output
    assert "no space left on the device" in output and "discarded" not in output
    monkeypatch.undo()
    status, output = invoke("build", str(repo))
    assert status == 0 and "discarded" not in output, output
    page = repo / "docs" / "generated" / "minitorch" / "version.py_docs.md"
    assert "LATER" in page.read_text()
    assert invoke("check", str(repo), "-q")[0] == 0
