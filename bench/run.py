"""Benchmark docgen against bare libcst parsing and peer tools on PyTorch trees.

    python bench/run.py [--corpus torch-distributed|torch|all] [--edit-runs N] [--prepare-only]

Prepares the corpora from the PyTorch 2.13 CPU wheel (once; they live in
bench/corpora/, outside git), then measures every case side by side on the same
files and prints a Markdown table, also written to bench/results/latest.md.
Each measurement is a fresh helper process that starts the measured command and
reports its wall time and the peak RSS of its process tree, so nothing a
measurement leaves behind in this process counts against the next one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CORPORA = BENCH / "corpora"
WHEELS = CORPORA / "wheels"
RESULTS = BENCH / "results"
TORCH_PIN = "torch==2.13.0"
WHEEL_GLOB = "torch-2.13.0*.whl"
CORPUS_NAMES = ("torch-distributed", "torch")
DEFAULT_FIND_NAME = "__init__"
DEFAULT_TIMEOUT = 3600.0
EDIT_LINE = b"# bench edit\n"
#: What the "new function" edits append: a definition, which changes the keyword index.
NEW_FUNCTION = b"\n\ndef bench_added_function():\n    return 1\n"
#: The edits of the issue that set the targets: a module of the DTensor package, and a
#: module imported by hundreds of files (the first of these that the corpus holds).
LEAF_MODULE = "torch/distributed/tensor/_dtensor_spec.py"
HUB_MODULES = ("torch/_utils.py", "torch/distributed/distributed_c10d.py")
#: A generated operator header of ATen (whole torch/ only), and the declaration its edit
#: appends: what a pre-commit hook meets in the C++ half of the tree.
HEADER = "torch/include/ATen/ops/_adaptive_avg_pool2d_native.h"
NEW_DECLARATION = b"int bench_added_declaration(int x);\n"
ERROR_WORDS = ("error", "Error", "ERROR", "No module", "not found")

# Runs one command in a fresh process and prints {"seconds", "maxrss_kb", "rc", "stderr"}.
# RUSAGE_CHILDREN's ru_maxrss is the largest RSS of any waited-for descendant (Linux folds
# grandchildren into their parent when it reaps them), i.e. the peak of any single process
# in the tree. A helper per measurement keeps earlier children out of that maximum.
HELPER = r"""
import json, os, resource, signal, subprocess, sys, time
argv, timeout = json.loads(sys.argv[1]), float(sys.argv[2])
start = time.perf_counter()
proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                        start_new_session=True)
try:
    _, err = proc.communicate(timeout=timeout)
    rc = proc.returncode
except subprocess.TimeoutExpired:
    os.killpg(proc.pid, signal.SIGKILL)
    _, err = proc.communicate()
    rc = None
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "maxrss_kb": usage.ru_maxrss, "rc": rc,
                  "cpu_seconds": usage.ru_utime + usage.ru_stime,
                  "stderr": err.decode("utf-8", "replace")[-20000:]}))
"""

# The floor libcst sets: parse every .py file of the corpus in one process, nothing else.
BARE_PARSE = r"""
import sys
from pathlib import Path
import libcst
failed = 0
files = sorted(p for p in Path(sys.argv[1]).rglob("*.py") if p.is_file())
for path in files:
    try:
        libcst.parse_module(path.read_bytes())
    except Exception:
        failed += 1
print(f"{len(files)} files, {failed} failed", file=sys.stderr)
"""


@dataclass(frozen=True)
class Measurement:
    """One row's cell: a time and peak RSS, or a note saying why there is none."""

    seconds: float | None = None
    rss_mb: float | None = None
    cpu_seconds: float | None = None  # user + system of the whole tree: less noisy than wall
    note: str = ""  # "n/a", "failed: ...", "timeout"


@dataclass(frozen=True)
class Corpus:
    """A prepared tree: `root` is what docgen builds; `root/torch` is the package."""

    name: str
    root: Path

    @property
    def out_prefix(self) -> Path:
        return RESULTS / f"out-{self.name}"


@dataclass(frozen=True)
class Row:
    key: str
    label: str


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ corpora


def find_wheel() -> Path:
    """The torch wheel in bench/corpora/wheels, fetched with pip when it is not there yet."""
    found = sorted(WHEELS.glob(WHEEL_GLOB))
    if not found:
        WHEELS.mkdir(parents=True, exist_ok=True)
        log(f"pip download {TORCH_PIN} --no-deps -d {WHEELS}")
        cmd = [sys.executable, "-m", "pip", "download", TORCH_PIN, "--no-deps", "-d", str(WHEELS)]
        subprocess.run(cmd, check=True)
        found = sorted(WHEELS.glob(WHEEL_GLOB))
    if not found:
        raise SystemExit(f"no {WHEEL_GLOB} in {WHEELS} after pip download")
    return found[0]


def wanted_member(corpus: str) -> Callable[[str], bool]:
    if corpus == "torch":
        return lambda name: name.startswith("torch/")
    return lambda name: name == "torch/__init__.py" or name.startswith("torch/distributed/")


def prepare(corpus: str) -> Corpus:
    """Unzip the corpus's members of the wheel, unless an earlier run already did.

    Members go to a partial folder that is renamed into place at the end, so an
    interrupted run never leaves a half corpus that looks prepared.
    """
    root = CORPORA / corpus
    if (root / "torch").is_dir():
        return Corpus(corpus, root)
    wheel = find_wheel()
    partial = CORPORA / f".{corpus}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    wanted = wanted_member(corpus)
    log(f"unzipping {corpus} from {wheel.name}")
    with zipfile.ZipFile(wheel) as zf:
        members = [m for m in zf.infolist() if wanted(m.filename) and not m.is_dir()]
        for member in members:
            zf.extract(member, partial)
    shutil.rmtree(root, ignore_errors=True)
    partial.rename(root)
    log(f"  {len(members)} files in {root}")
    return Corpus(corpus, root)


def python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.is_file())


def median_file(root: Path) -> Path:
    """The median-sized .py file (ties broken by path), so the edit case is reproducible."""
    files = sorted(python_files(root), key=lambda p: (p.stat().st_size, p.as_posix()))
    return files[len(files) // 2]


def corpus_summary(corpus: Corpus) -> str:
    files = [p for p in corpus.root.rglob("*") if p.is_file()]
    py = python_files(corpus.root)
    py_mb = sum(p.stat().st_size for p in py) / 1e6
    edited = median_file(corpus.root).relative_to(corpus.root).as_posix()
    return (
        f"`{corpus.name}`: {len(files)} files, {len(py)} `.py` ({py_mb:.1f} MB of Python); "
        f"edit case appends to `{edited}`"
    )


# ------------------------------------------------------------------ measuring


def first_error_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if any(word in line for word in ERROR_WORDS):
            return line[:120]
    return lines[-1][:120] if lines else "no message"


def measure(argv: Sequence[str], timeout: float) -> Measurement:
    """Run argv under a fresh helper process: wall seconds and peak RSS of its tree."""
    helper = [sys.executable, "-c", HELPER, json.dumps(list(argv)), str(timeout)]
    done = subprocess.run(helper, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return Measurement(note=f"failed: helper: {first_error_line(done.stderr)}")
    report = json.loads(done.stdout)
    seconds = float(report["seconds"])
    rss_mb = int(report["maxrss_kb"]) / 1024
    cpu = float(report["cpu_seconds"])
    if report["rc"] is None:
        return Measurement(seconds, rss_mb, cpu, note=f"timeout after {timeout:.0f} s")
    if report["rc"] != 0:
        message = first_error_line(str(report["stderr"]))
        return Measurement(seconds, rss_mb, cpu, note=f"failed (exit {report['rc']}): {message}")
    return Measurement(seconds, rss_mb, cpu)


def docgen(*args: str) -> list[str]:
    return [sys.executable, "-m", "docgen", *args]


def quiet_run(argv: Sequence[str]) -> int:
    return subprocess.run(argv, capture_output=True, check=False).returncode


def has_docgen_check() -> bool:
    return quiet_run(docgen("check", "--help")) == 0


def ensure_ctags() -> str | None:
    """Path of Universal Ctags, installed with apt-get when missing; None when it cannot be."""
    ctags = shutil.which("ctags")
    if ctags is None and shutil.which("apt-get"):
        log("installing universal-ctags with apt-get")
        if quiet_run(["apt-get", "install", "-y", "universal-ctags"]) != 0:
            quiet_run(["apt-get", "update"])
            quiet_run(["apt-get", "install", "-y", "universal-ctags"])
        ctags = shutil.which("ctags")
    if ctags is None:
        return None
    version = subprocess.run([ctags, "--version"], capture_output=True, text=True, check=False)
    return ctags if "Universal Ctags" in version.stdout else None


def ensure_griffe() -> str | None:
    """Path of the griffe command beside this Python, pip-installed when missing."""
    griffe = Path(sys.executable).parent / "griffe"
    if not griffe.exists():
        log("pip install griffe")
        quiet_run([sys.executable, "-m", "pip", "install", "griffe"])
    return str(griffe) if griffe.exists() else None


#: earlier output folders, moved here by `fresh` and deleted once a run has measured all
TRASH = RESULTS / "trash"


def fresh(path: Path) -> Path:
    """An output folder that does not exist yet: an earlier one is moved aside (a rename
    frees nothing) and deleted with `empty_trash` when every row is measured.  ext4 passes
    over inodes freed in the last minute when it allocates new ones, so a cold build right
    after deleting the last one's pages paid for that deletion: on torch/distributed its
    render took 0.39 s of system time against 0.08 to 0.11 s into a folder made afresh."""
    if path.exists():
        TRASH.mkdir(parents=True, exist_ok=True)
        path.rename(TRASH / f"{path.name}-{time.time_ns()}")
    return path


def empty_trash() -> None:
    shutil.rmtree(TRASH, ignore_errors=True)


def median_of(runs: Sequence[Measurement]) -> Measurement:
    """The run of median wall time (the first failure, where one failed)."""
    failed = [m for m in runs if m.note or m.seconds is None]
    if failed:
        return failed[0]
    return sorted(runs, key=lambda m: m.seconds or 0.0)[len(runs) // 2]


def measure_corpus(
    corpus: Corpus, find_name: str, timeout: float, peers: bool, edit_runs: int = 1
) -> dict[str, Measurement]:
    """Every row for one corpus, in an order where each case starts from the state it names;
    each edit row the median of `edit_runs` rebuilds after the same edit."""
    repo = str(corpus.root)
    cells: dict[str, Measurement] = {}

    def run(key: str, argv: Sequence[str]) -> None:
        log(f"[{corpus.name}] {key} ...")
        cells[key] = measure(argv, timeout)
        log(f"[{corpus.name}] {key}: {cell_text(cells[key])}")

    run("bare", [sys.executable, "-c", BARE_PARSE, repo])
    cold_j1 = fresh(Path(f"{corpus.out_prefix}-cold-j1"))
    run("cold_j1", docgen("build", repo, "--out", str(cold_j1), "-j", "1", "-q"))
    out = fresh(Path(f"{corpus.out_prefix}-cold"))
    build = docgen("build", repo, "--out", str(out), "-q")
    run("cold", build)
    run("noop", build)

    hub = next((corpus.root / h for h in HUB_MODULES if (corpus.root / h).is_file()), None)
    for key, target, text in (
        ("edit", median_file(corpus.root), EDIT_LINE),
        ("edit_leaf", corpus.root / LEAF_MODULE, NEW_FUNCTION),
        ("edit_hub", hub, NEW_FUNCTION),
        ("edit_header", corpus.root / HEADER, NEW_DECLARATION),
    ):
        if target is None or not target.is_file():
            cells[key] = Measurement(note="n/a")
            continue
        original = target.read_bytes()
        stat = target.stat()
        runs: list[Measurement] = []
        for _ in range(edit_runs):
            try:
                sep = b"" if original.endswith(b"\n") or not original else b"\n"
                target.write_bytes(original + sep + text)
                run(key, build)
                runs.append(cells[key])
            finally:
                target.write_bytes(original)
                os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
                name = target.relative_to(corpus.root)
                log(f"[{corpus.name}] restoring {name} (untimed rebuild)")
                quiet_run(build)
        cells[key] = median_of(runs)

    if has_docgen_check():
        run("check", docgen("check", repo, "--out", str(out)))
    else:
        cells["check"] = Measurement(note="n/a")
    run("find", docgen("find", find_name, "--out", str(out)))

    if not peers:
        cells["ctags"] = cells["griffe"] = Measurement(note="skipped")
        return cells
    scratch = RESULTS / f"tmp-{corpus.name}"
    scratch.mkdir(parents=True, exist_ok=True)
    ctags = ensure_ctags()
    if ctags is None:
        cells["ctags"] = Measurement(note="n/a")
    else:
        tags = scratch / "tags"
        tags.unlink(missing_ok=True)
        run("ctags", [ctags, "-R", "-f", str(tags), repo])
    griffe = ensure_griffe()
    if griffe is None:
        cells["griffe"] = Measurement(note="n/a")
    else:
        dump = scratch / "griffe.json"
        dump.unlink(missing_ok=True)
        run("griffe", [griffe, "dump", "torch", "-s", repo, "-o", str(dump)])
    shutil.rmtree(scratch, ignore_errors=True)
    return cells


# ------------------------------------------------------------------ report


def cell_text(cell: Measurement) -> str:
    if cell.seconds is None:
        return cell.note
    text = f"{cell.seconds:.2f} s (CPU {cell.cpu_seconds:.2f} s), {cell.rss_mb:.0f} MB"
    return f"{text} ({cell.note})" if cell.note else text


def ratio(top: Measurement | None, bottom: Measurement | None, cpu: bool = False) -> str:
    ok = top is not None and bottom is not None and not top.note and not bottom.note
    if not ok or top is None or bottom is None:
        return "n/a"
    a, b = (top.cpu_seconds, bottom.cpu_seconds) if cpu else (top.seconds, bottom.seconds)
    if not a or not b:
        return "n/a"
    return f"{a / b:.3f}"


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"Machine: {cpu}, {os.cpu_count()} cores ({usable} usable); "
        f"Python {platform.python_version()}; libcst {version_of('libcst')}; "
        f"docgen {version_of('docgen')} ({git_revision()}, source {source_fingerprint()}); "
        f"load average at start {load}"
    )


def version_of(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_revision() -> str:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    if head.returncode != 0:
        return "no git"
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=False,
    )
    return head.stdout.strip() + (" + uncommitted changes" if dirty.stdout.strip() else "")


def source_fingerprint() -> str:
    """A short hash of docgen's code and templates as they are on disk, so that two runs of
    a work tree with uncommitted changes show whether they measured the same code."""
    digest = hashlib.sha256()
    files = [*(ROOT / "docgen").rglob("*.py"), *(ROOT / "templates").rglob("*")]
    for path in sorted(p for p in files if p.is_file()):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:10]


def rows(find_name: str) -> list[Row]:
    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return [
        Row("bare", "bare `libcst.parse_module`, every .py, 1 process"),
        Row("cold_j1", "`docgen build` cold, `-j 1`"),
        Row("cold", f"`docgen build` cold, default jobs ({jobs})"),
        Row("noop", "no-op rebuild"),
        Row("edit", "one-file edit rebuild (a comment appended to the median file)"),
        Row("edit_leaf", f"one-file edit rebuild (a function added to `{LEAF_MODULE}`)"),
        Row("edit_hub", "one-file edit rebuild (a function added to a much imported module)"),
        Row("edit_header", f"one-file edit rebuild (a declaration added to `{HEADER}`)"),
        Row("check", "`docgen check`"),
        Row("find", f"`docgen find {find_name}`"),
        Row("ctags", "`ctags -R` (Universal Ctags)"),
        Row("griffe", "`griffe dump torch`"),
    ]


def render(
    header: str, results: dict[str, dict[str, Measurement]], summaries: list[str], find_name: str
) -> str:
    names = list(results)
    head = "| measurement | " + " | ".join(f"{n} s | {n} CPU s | {n} peak MB" for n in names)
    rule = "|---|" + "---:|---:|---:|" * len(names)
    lines = ["# docgen benchmark", "", header, ""]
    lines += [f"- {s}" for s in summaries]
    lines += ["", head + " |", rule]
    for row in rows(find_name):
        cells: list[str] = []
        for name in names:
            cell = results[name].get(row.key, Measurement(note="n/a"))
            if cell.seconds is None or cell.rss_mb is None or cell.cpu_seconds is None:
                cells += [cell.note, "", ""]
            else:
                note = f" ({cell.note})" if cell.note else ""
                cells += [f"{cell.seconds:.2f}{note}", f"{cell.cpu_seconds:.2f}"]
                cells.append(f"{cell.rss_mb:.0f}")
        lines.append(f"| {row.label} | " + " | ".join(cells) + " |")
    lines += ["", "| ratio | " + " | ".join(names) + " |"]
    lines.append("|---|" + "---:|" * len(names))
    for label, top, bottom, cpu in (
        ("cold (default jobs) / bare parse, wall", "cold", "bare", False),
        ("cold (default jobs) / bare parse, CPU", "cold", "bare", True),
        ("cold `-j 1` / cold default jobs, wall", "cold_j1", "cold", False),
        ("no-op / cold, wall", "noop", "cold", False),
        ("`docgen check` / cold, wall", "check", "cold", False),
        ("comment edit / cold, wall", "edit", "cold", False),
        ("new function in the leaf module / cold, wall", "edit_leaf", "cold", False),
        ("new function in the hub module / cold, wall", "edit_hub", "cold", False),
        ("new declaration in the header / cold, wall", "edit_header", "cold", False),
    ):
        values = [ratio(results[n].get(top), results[n].get(bottom), cpu) for n in names]
        lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bench/run.py",
        description=(
            "Prepare PyTorch corpora and time docgen on them beside bare libcst parsing "
            "and peer tools. Rows: bare libcst.parse_module of every .py in one process; "
            "docgen build cold with -j 1 and with default jobs (fresh output folders "
            "bench/results/out-CORPUS-cold-j1 and -cold); no-op rebuild; rebuilds after "
            "appending '# bench edit' to the median-sized .py, a new function to "
            f"{LEAF_MODULE}, and a new function to the first of {', '.join(HUB_MODULES)} "
            "the corpus holds (each restored afterwards, and rebuilt untimed; the median "
            "of --edit-runs such rebuilds); "
            "docgen check (n/a when the command does not exist); "
            "docgen find NAME; ctags -R (apt-get installs universal-ctags if missing); "
            "griffe dump torch -s CORPUS (pip installs griffe if missing). Each is a "
            "fresh subprocess: wall seconds by time.perf_counter, peak RSS of any process "
            "in its tree by getrusage(RUSAGE_CHILDREN) in a fresh helper process. Prints a "
            "Markdown table with the ratios cold/bare, no-op/cold, edit/cold, and writes "
            "it to bench/results/latest.md (raw numbers in latest.json)."
        ),
        epilog=(
            "Corpora (in bench/corpora/, not in git), from the wheel that "
            f"'pip download {TORCH_PIN} --no-deps -d bench/corpora/wheels' gives: "
            "torch-distributed = torch/distributed/ plus torch/__init__.py under "
            "bench/corpora/torch-distributed/torch/; torch = the whole torch/ package under "
            "bench/corpora/torch/torch/. A prepared corpus is reused; delete its folder to "
            "unzip it again."
        ),
    )
    parser.add_argument(
        "--corpus",
        choices=[*CORPUS_NAMES, "all"],
        default="torch-distributed",
        help="which corpus to prepare and measure (default: %(default)s)",
    )
    parser.add_argument(
        "--prepare-only",
        action="store_true",
        help="prepare the corpora and stop, measuring nothing",
    )
    parser.add_argument(
        "--find-name",
        default=DEFAULT_FIND_NAME,
        help="the NAME for the docgen find row (default: %(default)s)",
    )
    parser.add_argument(
        "--no-peers",
        action="store_true",
        help="skip the ctags and griffe rows (and their installs)",
    )
    parser.add_argument(
        "--edit-runs",
        type=int,
        default=5,
        help="rebuilds after each edit, the median of which is its row: one rebuild takes "
        "under a second and varies by a tenth from run to run here (default: %(default)s)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help="seconds after which one measurement is killed and shown as a timeout "
        "(default: %(default)s)",
    )
    return parser.parse_args(argv)


def compile_docgen() -> None:
    """Compile docgen's modules to bytecode once, as installing a package does: where
    PYTHONDONTWRITEBYTECODE is set, a checkout would otherwise compile every module
    again in every timed run (about 0.15 s of each no-op and edit here)."""
    import compileall

    compileall.compile_dir(ROOT / "docgen", quiet=1)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = list(CORPUS_NAMES) if args.corpus == "all" else [args.corpus]
    corpora = [prepare(name) for name in names]
    if args.prepare_only:
        for corpus in corpora:
            print(f"{corpus.name}: {corpus.root}")
        return 0
    RESULTS.mkdir(parents=True, exist_ok=True)
    compile_docgen()
    header = machine_line()  # before measuring: its load average is the one at the start
    source = source_fingerprint()
    started = time.perf_counter()
    summaries = [corpus_summary(c) for c in corpora]
    results = {
        c.name: measure_corpus(c, args.find_name, args.timeout, not args.no_peers, args.edit_runs)
        for c in corpora
    }
    table = render(header, results, summaries, args.find_name)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    table += f"\nWhole run: {time.perf_counter() - started:.0f} s; load average at end {load}.\n"
    source_after = source_fingerprint()
    if source_after != source:
        table += (
            f"\nWARNING: docgen's source changed during the run ({source} -> {source_after}): "
            "rows may have measured different code.\n"
        )
    print(table, end="")
    (RESULTS / "latest.md").write_text(table, encoding="utf-8")
    raw = {name: {k: asdict(v) for k, v in cells.items()} for name, cells in results.items()}
    (RESULTS / "latest.json").write_text(json.dumps(raw, indent=2) + "\n", encoding="utf-8")
    empty_trash()
    return 0


if __name__ == "__main__":
    sys.exit(main())
