"""Where a cold build's CPU beyond libcst's parse goes, against the parse itself.

    python bench/python_floor.py [REPO] [--rounds N]

REPO defaults to the torch-distributed corpus of `bench/run.py`.  Each round, taken in
turn so that a drift of the machine hits every figure alike, measures in one process
over every `.py` file of REPO (bytes read beforehand):

- the bare parse: `libcst.parse_module`, as `bench/run.py`'s row;
- docgen's `ast` pass: Python's own parse with the lines, docstrings and code
  references docgen reads from it (`docgen.scan.python.scanner._ast_pass`);

and then a cold `docgen build -j 1 --report` into a new folder, whose report gives the
seconds of its phases (with one worker the pages render in the build's own process)
and whose whole CPU time is read from the operating system.  Medians are printed as a
Markdown table, each figure also as a share of the bare parse.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from run import (  # bench/run.py, beside it
    DEFAULT_TIMEOUT,
    compile_docgen,
    empty_trash,
    fresh,
    measure,
)

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"


def cpu_seconds(work: list[bytes], step: Callable[[bytes], object]) -> float:
    """CPU seconds of this process for `step` over every file's bytes."""
    started = time.process_time()
    for data in work:
        with contextlib.suppress(Exception):  # a file the step cannot read costs what it cost
            step(data)
    return time.process_time() - started


def ast_pass(data: bytes) -> object:
    from docgen.scan.python.scanner import _ast_pass

    return _ast_pass(data.decode("utf-8", errors="replace"))


def cold_build(repo: Path) -> tuple[float, dict[str, float]]:
    """CPU seconds of a cold `-j 1` build and its report's phase seconds."""
    out = fresh(RESULTS / "python-floor-out")
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        report = Path(handle.name)
    command = [sys.executable, "-m", "docgen", "build", str(repo), "--out", str(out)]
    done = measure([*command, "-j", "1", "-q", "--report", str(report)], DEFAULT_TIMEOUT)
    if done.note or done.cpu_seconds is None:
        raise SystemExit(f"{' '.join(command)}: {done.note}")
    timings = json.loads(report.read_text())["timings"]
    report.unlink()
    return done.cpu_seconds, {k: float(v) for k, v in timings.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("repo", nargs="?", default=str(BENCH / "corpora" / "torch-distributed"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    repo = Path(args.repo).resolve()
    RESULTS.mkdir(parents=True, exist_ok=True)
    compile_docgen()  # as `bench/run.py` does: the build reads bytecode, as installed
    import libcst

    files = sorted(p for p in repo.rglob("*.py") if p.is_file())
    work = [p.read_bytes() for p in files]
    rows: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        figures = {
            "parse": cpu_seconds(work, libcst.parse_module),
            "ast": cpu_seconds(work, ast_pass),
        }
        build_cpu, timings = cold_build(repo)
        figures["build"] = build_cpu
        figures["render"] = timings.get("render", 0.0)
        for key, value in figures.items():
            rows.setdefault(key, []).append(value)
    empty_trash()
    median = {key: statistics.median(values) for key, values in rows.items()}
    parse = median["parse"]
    labels = {
        "parse": "bare `libcst.parse_module`, one process",
        "ast": "docgen's `ast` pass (parse, lines, docstrings, code references)",
        "render": "rendering and writing the pages (`-j 1` build's render phase, its wall s)",
        "build": "cold `docgen build -j 1`, whole CPU",
    }
    title = f"{repo.name}: {len(files):,} .py files, {args.rounds} rounds, medians"
    print(f"| {title} | CPU s | / parse |")
    print("|---|---:|---:|")
    for key, label in labels.items():
        print(f"| {label} | {median[key]:.2f} | {median[key] / parse:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
