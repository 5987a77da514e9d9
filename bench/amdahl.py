"""What sharding the scan over more machines can buy: Amdahl's law from measured parts.

    python bench/amdahl.py COLD.json MERGE.json --export S --import S [--workers 4 16]

COLD.json is the `--report` of a cold one-machine build, MERGE.json that of the
build that renders everything from imported facts (it scans nothing); S are the
seconds `docgen facts export` and `docgen facts import` took.  The scan phase of
the cold build is the part that shards divide; the rest of a sharded build is
serial: the last shard's share, exporting it, importing every archive, and the
merge build.  Prints the parts and the expected cold time for each worker count
(each worker a machine like this one).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cold", type=Path)
    parser.add_argument("merge", type=Path)
    parser.add_argument("--export", type=float, required=True, dest="export_s")
    parser.add_argument("--import", type=float, required=True, dest="import_s")
    parser.add_argument("--workers", type=int, nargs="+", default=[4, 16])
    args = parser.parse_args()
    cold = json.loads(args.cold.read_text())["timings"]
    merge = json.loads(args.merge.read_text())["timings"]
    whole = sum(cold.values())
    parallel = cold["scan"]
    fixed = cold["discover"]  # every shard discovers the whole tree first
    # Export is timed on the whole tree: an upper bound for the last shard's own.
    serial = args.export_s + args.import_s + sum(merge.values())
    print(f"cold one-machine build: {whole:.1f} s, of which the scan {parallel:.1f} s")
    print(
        f"serial part of a sharded build: export {args.export_s:.1f} s + import "
        f"{args.import_s:.1f} s + merge build {sum(merge.values()):.1f} s = {serial:.1f} s"
    )
    print("| workers | expected cold time, s | speed-up |")
    print("| ---: | ---: | ---: |")
    for n in args.workers:
        expected = fixed + parallel / n + serial
        print(f"| {n} | {expected:.1f} | {whole / expected:.2f}x |")
    print(
        f"| any number | at least {fixed + serial:.1f} | at most {whole / (fixed + serial):.2f}x |"
    )


if __name__ == "__main__":
    main()
