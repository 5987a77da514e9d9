"""The scan phase on a Dask cluster against the local process pool, taken in turn.

    python bench/cluster_scan.py REPO [--pairs 3] [--jobs 2] [--scheduler dask://H:P]

Each pair is a cold build with the local pool (`-j JOBS`) and a cold build through
Dask (a `LocalCluster` of JOBS worker processes with one thread each, started once
and kept for every pair, unless --scheduler names one), into fresh output folders.
Prints each build's scan-phase seconds (its `--report` timing), the ratio
cluster/local per pair and their median, and checks that both builds wrote the
same pages byte for byte.
"""

from __future__ import annotations

import argparse
import filecmp
import statistics
import tempfile
from pathlib import Path

from verify import output_files  # bench/verify.py, beside this script

from docgen.build import build
from docgen.cli.build_options import resolve_options


def same_pages(left: Path, right: Path) -> bool:
    """The same files under both folders, byte for byte (docgen's state left out)."""
    files = output_files(left)
    return files == output_files(right) and all(
        filecmp.cmp(left / path, right / path, shallow=False) for path in files
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scheduler", default=None, help="dask://HOST:PORT of a running one")
    args = parser.parse_args()
    cluster = None
    executor = args.scheduler
    if executor is None:
        from distributed import LocalCluster

        cluster = LocalCluster(
            n_workers=args.jobs, threads_per_worker=1, processes=True, dashboard_address=None
        )
        executor = str(cluster.scheduler_address).replace("tcp://", "dask://")
    ratios: list[float] = []
    try:
        with tempfile.TemporaryDirectory(prefix="docgen-cluster-bench-") as tmp:
            for pair in range(args.pairs):
                outs = {name: Path(tmp) / f"{name}-{pair}" for name in ("local", "cluster")}
                local = build(resolve_options(args.repo, outs["local"], args.jobs))
                remote = build(
                    resolve_options(args.repo, outs["cluster"], args.jobs, executor=executor)
                )
                if remote.notices:
                    print("  cluster build:", *remote.notices, sep="\n    ")
                ratio = remote.timings["scan"] / local.timings["scan"]
                ratios.append(ratio)
                same = same_pages(outs["local"], outs["cluster"])
                print(
                    f"pair {pair + 1}: {local.scanned} files; scan local "
                    f"{local.timings['scan']:.2f} s, cluster {remote.timings['scan']:.2f} s, "
                    f"ratio {ratio:.3f}; "
                    f"whole build {local.seconds:.2f} s / {remote.seconds:.2f} s; "
                    f"same pages: {same}"
                )
    finally:
        if cluster is not None:
            cluster.close()
    print(
        f"median scan ratio cluster/local over {len(ratios)} pairs: {statistics.median(ratios):.3f}"
    )


if __name__ == "__main__":
    main()
