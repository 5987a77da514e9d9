"""What C, C++ and CUDA pages cost: a cold build with them against one without them.

    python bench/cfamily.py [REPO] [--jobs N] [--pairs N] [--floor] [--unparsed]
                            [--older DOCGEN]

REPO defaults to the torch corpus of `bench/run.py` (`bench/corpora/torch`, 9,431
C-family headers beside 2,285 Python files; `python bench/run.py --prepare-only --corpus
torch` makes it).  The two builds run in turn, `--pairs` times, cold, into output
folders under `bench/results/` that do not exist yet (the last ones are moved aside and
deleted after the builds: see `run.fresh`; the disk is synced before each build).
Medians of wall and CPU seconds are printed, with the range of the ratios of single
pairs, then every build's times round by round; the one "without" leaves every C-family
file out with an `exclude` configuration.  `--floor` adds a build to each round: the
C-family files read up to and with tree-sitter's parse (macros learned and blanked),
then given plain text pages (`bench/cfamily_floor.py`), so the cost of reading names and
making their pages stands apart from what any C-family page costs first.  `--unparsed`
adds one whose C-family files get plain text pages without being parsed at all, as
before docgen read them.  `--older DOCGEN` adds the two builds of another `docgen`
command (an older commit installed in a virtualenv of its own): without the C-family
files, and with them as that commit pages them, so that the C-family pages of today can
be set beside the builds their cost target was set from.  Universal Ctags over the same
C-family files is timed beside them when `ctags` is on the PATH.  Prints a Markdown
table.
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

from run import (  # bench/run.py, beside it
    DEFAULT_TIMEOUT,
    compile_docgen,
    empty_trash,
    fresh,
    measure,
)

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


#: how each build of a round runs docgen: the real command, or the floor's (see --floor)
DOCGEN = {
    "without": [sys.executable, "-m", "docgen"],
    "with": [sys.executable, "-m", "docgen"],
    "floor": [sys.executable, str(BENCH / "cfamily_floor.py")],
    "unparsed": [sys.executable, str(BENCH / "cfamily_floor.py"), "--unparsed"],
}
#: the builds that leave the C-family files out (through `--config`)
EXCLUDING = ("without", "older")


def cold_build(
    docgen: list[str], repo: Path, name: str, jobs: int, config: Path | None
) -> tuple[float, float]:
    """One cold build into a folder that does not exist yet (the last one is moved aside
    and deleted after the builds: see `run.fresh`)."""
    out = fresh(RESULTS / f"cfamily-{name}")
    os.sync()  # the last build's pages reach the disk before this one starts
    command = [*docgen, "build", str(repo), "--out", str(out), "-q"]
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
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time the C-family files parsed but given plain text pages",
    )
    parser.add_argument(
        "--unparsed",
        action="store_true",
        help="also time the C-family files given plain text pages without a parse",
    )
    parser.add_argument(
        "--older",
        metavar="DOCGEN",
        help="also time the build without C-family files by this other docgen command",
    )
    args = parser.parse_args(argv)
    repo = Path(args.repo).resolve()
    RESULTS.mkdir(parents=True, exist_ok=True)
    compile_docgen()  # as `bench/run.py` does: the builds read bytecode, as installed
    config = RESULTS / "cfamily-exclude.toml"
    config.write_text("exclude = [" + ", ".join(f'"*{s}"' for s in SUFFIXES) + "]\n")
    names = ["without", "with", *(["floor"] if args.floor else [])]
    names += ["unparsed"] if args.unparsed else []
    commands = dict(DOCGEN)
    if args.older:
        commands["older"] = commands["older-with"] = [args.older]
        names += ["older", "older-with"]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(args.pairs):  # in turn, so that a drift of the machine hits all
        for name in names:
            runs[name].append(
                cold_build(
                    commands[name], repo, name, args.jobs, config if name in EXCLUDING else None
                )
            )
    empty_trash()
    ctags = ctags_seconds(repo)
    c_files = sum(1 for p in repo.rglob("*") if p.suffix in SUFFIXES)
    wall = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in runs.items()}
    pair_ratios = {
        name: sorted(w / wo for (w, _), (wo, _) in zip(runs[name], runs["without"], strict=True))
        for name in names
    }
    print(
        f"| {repo.name}: {c_files:,} C-family files, {args.pairs} pairs, medians | wall s | CPU s |"
    )
    print("|---|---:|---:|")
    labels = {
        "without": "without C-family files",
        "with": "with C-family pages",
        "floor": "with C-family files parsed, plain text pages",
        "unparsed": "with C-family files unparsed, plain text pages",
        "older": f"without C-family files, by {args.older}",
        "older-with": f"with C-family files, by {args.older}",
    }
    for key in names:
        print(f"| cold build {labels[key]} (-j {args.jobs}) | {wall[key]:.1f} | {cpu[key]:.1f} |")
    for key in names[1:]:
        low, high = pair_ratios[key][0], pair_ratios[key][-1]
        target = "target <= 1.35; " if key == "with" else ""
        print(
            f"| ratio {key}/without ({target}pairs {low:.2f}-{high:.2f}) "
            f"| {wall[key] / wall['without']:.2f} | {cpu[key] / cpu['without']:.2f} |"
        )
    if args.older:  # the builds the target was set from, and today's pages beside them
        for key in ("older-with", "with"):
            ratios = sorted(w / o for (w, _), (o, _) in zip(runs[key], runs["older"], strict=True))
            print(
                f"| ratio {key}/older (pairs {ratios[0]:.2f}-{ratios[-1]:.2f}) "
                f"| {wall[key] / wall['older']:.2f} | {cpu[key] / cpu['older']:.2f} |"
            )
    if ctags is not None:
        print(f"| Universal Ctags over the C-family files (1 process) | {ctags:.1f} | |")
    print()  # every build, so that a pair the machine slowed shows itself
    print("| round | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(names))
    for i in range(args.pairs):
        cells = " | ".join(f"{runs[k][i][0]:.1f} s ({runs[k][i][1]:.0f} CPU)" for k in names)
        print(f"| {i + 1} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
