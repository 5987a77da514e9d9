"""What C, C++ and CUDA pages cost: a cold build with them against one without them.

    python bench/cfamily.py [REPO] [--jobs N]

REPO defaults to the torch corpus of `bench/run.py` (`bench/corpora/torch`, 9,431
C-family headers beside 2,285 Python files; `python bench/run.py --prepare-only
--corpus torch` makes it).  Both builds run one after the other, cold, into fresh
output folders under `bench/results/`; the one "without" leaves every C-family
file out with an `exclude` configuration.  Universal Ctags over the same C-family
files is timed beside them when `ctags` is on the PATH.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"
SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".inl", ".cu", ".cuh")


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def cold_build(repo: Path, name: str, jobs: int, config: Path | None) -> float:
    out = RESULTS / f"cfamily-{name}"
    shutil.rmtree(out, ignore_errors=True)
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
    args = parser.parse_args(argv)
    repo = Path(args.repo).resolve()
    RESULTS.mkdir(parents=True, exist_ok=True)
    config = RESULTS / "cfamily-exclude.toml"
    config.write_text("exclude = [" + ", ".join(f'"*{s}"' for s in SUFFIXES) + "]\n")
    without = cold_build(repo, "without", args.jobs, config)
    with_c = cold_build(repo, "with", args.jobs, None)
    ctags = ctags_seconds(repo)
    c_files = sum(1 for p in repo.rglob("*") if p.suffix in SUFFIXES)
    print(f"| {repo.name}: {c_files:,} C-family files | seconds |")
    print("|---|---|")
    print(f"| cold build without C-family files (-j {args.jobs}) | {without:.1f} |")
    print(f"| cold build with C-family pages (-j {args.jobs}) | {with_c:.1f} |")
    print(f"| ratio (target <= 1.35) | {with_c / without:.2f} |")
    if ctags is not None:
        print(f"| Universal Ctags over the C-family files (1 process) | {ctags:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
