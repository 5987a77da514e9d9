"""Worker processes: a crash costs one file, results keep their order."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from docgen.analyze.sites import sites_of
from docgen.model.facts import ScannedFile
from docgen.model.sites import DefinitionSite
from docgen.model.sources import SourceFile
from docgen.scan import warm as warm_module
from docgen.scan import workers
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings
from docgen.scan.warm import WarmWorker
from docgen.scan.workers import describe_exit, scan_files
from docgen.system.processes import StartedProcess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures"))
from conftest import child_env
from make_pathological import write_pathological


def _source(root: Path, name: str, text: str) -> SourceFile:
    path = root / name
    path.write_text(text)
    return SourceFile(path=name, abs_path=str(path), size=path.stat().st_size)


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_follow_input_order(tmp_path: Path, jobs: int) -> None:
    sources = [_source(tmp_path, f"m{i}.py", f"def f{i}():\n    pass\n") for i in range(7)]
    results = scan_files(sources, jobs)
    assert [r.facts.path for r in results] == [s.path for s in sources]
    assert [r.facts.python.definitions[0].name for r in results if r.facts.python] == [
        f"f{i}" for i in range(7)
    ]


def _crash_or_hang(
    original: Callable[[SourceFile, ScanSettings], ScannedFile],
) -> Callable[[SourceFile, ScanSettings], ScannedFile]:
    def scan(source: SourceFile, settings: ScanSettings = DEFAULT_SETTINGS) -> ScannedFile:
        if source.path == "crash.py":
            os.kill(os.getpid(), signal.SIGSEGV)
        if source.path == "hang.py":
            time.sleep(60)
        return original(source, settings)

    return scan


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork and POSIX signals")
def test_a_dying_worker_costs_one_file_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "scan_one", _crash_or_hang(workers.scan_one))
    sources = [
        _source(tmp_path, "a.py", "class A:\n    pass\n"),
        _source(tmp_path, "crash.py", "def c():\n    pass\n"),
        _source(tmp_path, "hang.py", "def h():\n    pass\n"),
        _source(tmp_path, "z.py", "def z():\n    pass\n"),
    ]
    results = workers.scan_files(sources, jobs=1, file_timeout=2)
    assert [r.facts.path for r in results] == ["a.py", "crash.py", "hang.py", "z.py"]
    crashed, hung = results[1].facts, results[2].facts
    assert (crashed.kind, crashed.parsed, crashed.line_count) == ("python", False, 2)
    assert any("SIGSEGV" in p.message for p in crashed.problems)
    assert any("longer than 2 s" in p.message for p in hung.problems)
    assert results[3].facts.python is not None
    assert [d.name for d in results[3].facts.python.definitions] == ["z"]


def test_pathological_expression_is_survived(tmp_path: Path) -> None:
    crash = write_pathological(tmp_path)
    after = _source(tmp_path, "z.py", "def z():\n    pass\n")
    sources = [SourceFile(crash.name, str(crash), crash.stat().st_size), after]
    results = workers.scan_files(sources, jobs=1, file_timeout=60)
    assert not results[0].facts.parsed
    assert results[0].facts.problems
    assert results[1].facts.parsed


def test_unreadable_file_becomes_a_problem(tmp_path: Path) -> None:
    missing = SourceFile("gone.py", str(tmp_path / "gone.py"), 0)
    [result] = scan_files([missing], jobs=1)
    assert not result.facts.parsed
    assert "could not be read" in result.facts.problems[0].message


def test_describe_exit() -> None:
    assert describe_exit(-11) == "process died of SIGSEGV"
    assert describe_exit(3) == "process exited with status 3"


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork and POSIX signals")
def test_files_queued_behind_a_crash_are_scanned_by_the_next_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "scan_one", _crash_or_hang(workers.scan_one))
    names = [f"m{i}.py" for i in range(6)]
    sources = [_source(tmp_path, name, f"def f{i}():\n    pass\n") for i, name in enumerate(names)]
    sources.insert(3, _source(tmp_path, "crash.py", "def c():\n    pass\n"))
    results = workers.scan_files(sources, jobs=1)
    by_path = {r.facts.path: r.facts for r in results}
    assert not by_path["crash.py"].parsed
    for i, name in enumerate(names):
        python = by_path[name].python
        assert python is not None and [d.name for d in python.definitions] == [f"f{i}"]


def test_keyword_sites_made_in_the_workers_are_those_of_the_facts(tmp_path: Path) -> None:
    sources = [
        _source(
            tmp_path,
            f"m{i}.py",
            f"import os.path as p{i}\n\nclass C{i}:\n    def f(self):\n        pass\n",
        )
        for i in range(workers.PRELOAD_FROM)
    ]
    sources.append(_source(tmp_path, "h.hpp", "namespace n {\nstruct S { void g(); };\n}\n"))
    sites: dict[str, list[DefinitionSite]] = {}
    results = scan_files(sources, 2, sites=sites)
    assert sorted(sites) == sorted(s.path for s in sources)
    for scanned in results:
        assert sites[scanned.facts.path] == sites_of(scanned), scanned.facts.path
    assert [s.qualname for s in sites["h.hpp"]] == ["n::S", "n::S::g"]
    assert {s.kind for s in sites["m0.py"]} == {"import", "class", "method"}


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_warm_worker_scans_first_with_the_settings_it_is_sent(tmp_path: Path, jobs: int) -> None:
    macro = "MyAttr"  # not upper case: only the settings make it an attribute macro
    header = _source(tmp_path, "a.h", f"struct S {{ int {macro} x; }};\n")
    sources = [
        header,
        *(_source(tmp_path, f"m{i}.py", f"def f{i}():\n    pass\n") for i in range(3)),
    ]
    settings = ScanSettings.of(attribute={macro})
    with WarmWorker() as warm:
        results = scan_files(sources, jobs, settings=settings, warm=warm)
        assert warm.take() is None  # taken as the first worker, stopped with the others
    assert [r.facts.path for r in results] == [s.path for s in sources]
    assert results[0].facts.cfamily is not None
    names = {d.name for d in results[0].facts.cfamily.definitions}
    assert names == {"S", "x"}  # without the settings the field would be `MyAttr`
    assert [r.facts.python.definitions[0].name for r in results[1:] if r.facts.python] == [
        "f0",
        "f1",
        "f2",
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_a_warm_worker_with_nothing_to_scan_is_stopped(tmp_path: Path) -> None:
    warm = WarmWorker()
    worker = warm.take()
    assert worker is not None
    warm._worker = worker
    process = worker.process
    assert process.is_alive()
    assert scan_files([], 2, warm=warm) == []
    assert not process.is_alive()
    assert warm.take() is None
    warm.close()  # closing twice is harmless


def printed(code: str) -> list[str]:
    """The lines a fresh Python process prints running `code`: what it loads is its own."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_only_the_scanners_the_files_need_are_preloaded() -> None:
    code = (
        "import sys\n"
        "from docgen.scan.table import preload_scanners\n"
        "from docgen.analyze.sites import preload_sites\n"
        "preload_scanners(['markdown', 'text'])\n"
        "preload_sites()\n"
        "print(' '.join(str(m in sys.modules) for m in "
        "('markdown_it', 'libcst', 'docgen.scan.cfamily.scanner', 'jinja2')))\n"
        "preload_scanners()\n"
        "print(' '.join(str(m in sys.modules)\n"
        "      for m in ('libcst', 'docgen.scan.cfamily.scanner')))\n"
    )
    # Markdown's scanner only; keyword sites need the anchors, not the renderer's Jinja.
    assert printed(code)[:2] == ["True False False False", "True True"]


def test_only_a_process_with_many_files_to_scan_prepares_for_them() -> None:
    """libcst's unchecked constructors (about 10 ms to make) only repay over many files."""
    code = (
        "from docgen.scan.table import preload_scanners, prepare_loaded_for_many\n"
        "from docgen.scan.python.cst_parse import unchecked_inits\n"
        "made = lambda: str(unchecked_inits.cache_info().currsize)\n"
        "preload_scanners(['python'])\n"
        "print(made())\n"
        "preload_scanners(['python'], many=True)\n"
        "print(made())\n"
        "unchecked_inits.cache_clear()\n"
        "prepare_loaded_for_many()\n"
        "print(made())\n"
    )
    assert printed(code) == ["0", "1", "1"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork")
def test_a_warm_worker_dead_before_its_first_file_costs_no_file(tmp_path: Path) -> None:
    sources = [_source(tmp_path, f"m{i}.py", f"def f{i}():\n    pass\n") for i in range(3)]
    warm = WarmWorker()
    worker = warm.take()
    assert worker is not None
    worker.process.kill()
    worker.process.join()
    warm._worker = worker  # as if it had died while the build walked the tree
    results = scan_files(sources, 2, warm=warm)
    assert [r.facts.path for r in results] == [s.path for s in sources]
    assert all(r.facts.parsed and not r.facts.problems for r in results)


def test_no_process_to_spare_means_no_warm_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork(*args: object, **kwargs: object) -> StartedProcess:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(warm_module, "start_process", no_fork)
    with WarmWorker() as warm:
        assert warm.take() is None
