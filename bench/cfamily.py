"""What C, C++ and CUDA pages cost: a cold build with them against one without them.

    python bench/cfamily.py [REPO] [--jobs N] [--pairs N]

REPO defaults to the torch corpus of `bench/run.py` (`bench/corpora/torch`, 9,431
C-family headers beside 2,285 Python files; `python bench/run.py --prepare-only
--corpus torch` makes it).  The two builds run in turn, `--pairs` times, cold, into
output folders under `bench/results/` that do not exist yet (the last ones are moved
aside and deleted after the builds: see `run.fresh`; the disk is synced before each
build).  Medians of wall and CPU seconds are printed, with the range of the ratios of
single pairs; the one "without" leaves every C-family file out with an `exclude`
configuration.  Universal Ctags over the same C-family files is timed beside them when
`ctags` is on the PATH.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import DEFAULT_TIMEOUT, empty_trash, fresh, measure  # bench/run.py, beside it

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"
SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".inl", ".cu", ".cuh")


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the command's processes) of one run, as
    `bench/run.py` measures every row."""
    done = measure(command, DEFAULT_TIMEOUT)
    if done.note or done.seconds is None or done.cpu_seconds is None:
        raise SystemExit(f"{' '.join(command)}: {done.note}")
    return done.seconds, done.cpu_seconds


def cold_build(repo: Path, name: str, jobs: int, config: Path | None) -> tuple[float, float]:
    """One cold build into a folder that does not exist yet (the last one is moved aside
    and deleted after the builds: see `run.fresh`)."""
    out = fresh(RESULTS / f"cfamily-{name}")
    os.sync()  # the last build's pages reach the disk before this one starts
    command = [sys.executable, "-m", "docgen", "build", str(repo), "--out", str(out), "-q"]
    command += ["-j", str(jobs)]
    if config is not None:
        command += ["--config", str(config)]
    return timed(command)


def ctags_seconds(repo: Path) -> float | None:
    ctags = shutil.which("ctags")
    if ctags is None:
        return None
    files = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.suffix in SUFFIXES)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(files) + "\n")
    command = [ctags, "--options=NONE", "--languages=C,C++", "--map-C++=+.cu", "-f", "/dev/null"]
    command += ["-L", listing.name]
    started = time.perf_counter()
    subprocess.run(command, cwd=repo, check=False, capture_output=True)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("repo", nargs="?", default=str(BENCH / "corpora" / "torch"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--pairs", type=int, default=3, help="builds without and with, taken in turn (default 3)"
    )
    args = parser.parse_args(argv)
    repo = Path(args.repo).resolve()
    RESULTS.mkdir(parents=True, exist_ok=True)
    config = RESULTS / "cfamily-exclude.toml"
    config.write_text("exclude = [" + ", ".join(f'"*{s}"' for s in SUFFIXES) + "]\n")
    runs: dict[str, list[tuple[float, float]]] = {"without": [], "with": []}
    for _ in range(args.pairs):  # in turn, so that a drift of the machine hits both
        runs["without"].append(cold_build(repo, "without", args.jobs, config))
        runs["with"].append(cold_build(repo, "with", args.jobs, None))
    empty_trash()
    ctags = ctags_seconds(repo)
    c_files = sum(1 for p in repo.rglob("*") if p.suffix in SUFFIXES)
    wall = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in runs.items()}
    pair_ratios = sorted(
        w / wo for (w, _), (wo, _) in zip(runs["with"], runs["without"], strict=True)
    )
    print(
        f"| {repo.name}: {c_files:,} C-family files, {args.pairs} pairs, medians | wall s | CPU s |"
    )
    print("|---|---:|---:|")
    for key, label in (("without", "without C-family files"), ("with", "with C-family pages")):
        print(f"| cold build {label} (-j {args.jobs}) | {wall[key]:.1f} | {cpu[key]:.1f} |")
    print(
        f"| ratio (target <= 1.35; pairs {pair_ratios[0]:.2f}-{pair_ratios[-1]:.2f}) "
        f"| {wall['with'] / wall['without']:.2f} | {cpu['with'] / cpu['without']:.2f} |"
    )
    if ctags is not None:
        print(f"| Universal Ctags over the C-family files (1 process) | {ctags:.1f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
