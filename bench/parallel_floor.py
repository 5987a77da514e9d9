"""How much faster two processes make a job on this machine, with nothing serial in it.

    python bench/parallel_floor.py [REPO] [--pairs N] [--jobs N]

The bare `libcst.parse_module` of every `.py` of REPO (default: the torch/distributed
corpus of `bench/run.py`), once in one process and once split by size between
`--jobs` processes forked after libcst is loaded (each takes the largest file left to
the one with the least work), timed in turn `--pairs` times.  The ratio of their wall
times is the most `-j 1` over `-j N` can reach for a docgen build on this machine:
the build also discovers, indexes and renders, partly in one process.  Prints the
medians and the range of the ratios of single pairs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from run import DEFAULT_TIMEOUT, measure  # bench/run.py, beside it

BENCH = Path(__file__).resolve().parent

#: the parse, split between `jobs` forked processes (one: this process alone)
SPLIT_PARSE = r"""
import os, sys
from pathlib import Path
import libcst
root, jobs = sys.argv[1], int(sys.argv[2])
files = sorted((p.stat().st_size, str(p)) for p in Path(root).rglob("*.py"))
shares, loads = [[] for _ in range(jobs)], [0] * jobs
for size, path in reversed(files):
    least = loads.index(min(loads))
    shares[least].append(path)
    loads[least] += size
def parse(paths):
    for path in paths:
        try:
            libcst.parse_module(open(path, "rb").read())
        except Exception:
            pass
if jobs == 1:
    parse(shares[0])
else:
    children = []
    for share in shares:
        pid = os.fork()
        if pid == 0:
            parse(share)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
"""


def timed(repo: Path, jobs: int) -> tuple[float, float]:
    done = measure([sys.executable, "-c", SPLIT_PARSE, str(repo), str(jobs)], DEFAULT_TIMEOUT)
    if done.note or done.seconds is None or done.cpu_seconds is None:
        raise SystemExit(f"the parse in {jobs} process(es): {done.note}")
    return done.seconds, done.cpu_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", nargs="?", type=Path, default=BENCH / "corpora/torch-distributed")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if not args.repo.is_dir():
        raise SystemExit(f"{args.repo}: no such folder (python bench/run.py --prepare-only)")
    one, split = [], []
    for _ in range(args.pairs):
        one.append(timed(args.repo, 1))
        split.append(timed(args.repo, args.jobs))
    ratios = [a[0] / b[0] for a, b in zip(one, split, strict=True)]
    cpu = [b[1] / a[1] for a, b in zip(one, split, strict=True)]
    print(f"| bare parse of {args.repo.name}, {args.pairs} pairs, medians | wall s | CPU s |")
    print("|---|---:|---:|")
    print(
        f"| one process | {statistics.median(w for w, _ in one):.2f} | "
        f"{statistics.median(c for _, c in one):.2f} |"
    )
    print(
        f"| {args.jobs} processes | {statistics.median(w for w, _ in split):.2f} | "
        f"{statistics.median(c for _, c in split):.2f} |"
    )
    print(
        f"| one / {args.jobs}, wall (pairs {min(ratios):.2f}-{max(ratios):.2f}) | "
        f"{statistics.median(ratios):.3f} | |"
    )
    print(f"| {args.jobs} / one, CPU | | {statistics.median(cpu):.3f} |")


if __name__ == "__main__":
    main()
