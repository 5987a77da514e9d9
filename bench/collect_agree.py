"""Do docgen's test tables list what pytest collects?  Test ids compared file by file.

    python bench/collect_agree.py OUT REPO [--sample N] [--pythonpath DIR ...] [--show N]

OUT is the output folder of a finished `docgen build REPO`; its cache holds the facts
docgen used.  For a sample of REPO's test files (every Nth, in path order), docgen's
test ids (`path::Class::test_name`, `path::test_name`, parametrized names expanded) are
compared with `pytest --collect-only -q` run from REPO (with --pythonpath on
PYTHONPATH so that the tests import).  Files pytest cannot import are counted apart.
Prints per-file disagreements and a Markdown summary.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from docgen.index.repo import build_index
from docgen.index.suites import CollectedClass
from docgen.model.facts import ScannedFile
from docgen.model.serialize import loads


def docgen_ids(classes: tuple[CollectedClass, ...], scanned: ScannedFile) -> set[str]:
    path = scanned.facts.path
    suite = scanned.analysis.suite
    if suite is None:
        return set()
    ids = {f"{path}::{t.name}" for t in suite.functions}
    for info in classes:
        if info.collected:
            ids |= {f"{path}::{info.suite_class.name}::{t.name}" for t in info.suite_class.tests}
    return ids


def pytest_ids(repo: Path, path: str, env: dict[str, str]) -> set[str] | None:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, path], cwd=repo, env=env, capture_output=True, text=True, timeout=300
    )
    ids = {line.strip() for line in done.stdout.splitlines() if line.startswith(path + "::")}
    if done.returncode not in (0, 5) and not ids:
        return None  # the file does not import here
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("repo", type=Path)
    parser.add_argument("--sample", type=int, default=1, help="every Nth test file")
    parser.add_argument("--pythonpath", action="append", default=[])
    parser.add_argument("--show", type=int, default=5, help="differences shown per file")
    args = parser.parse_args(argv)
    with sqlite3.connect(args.out / ".docgen" / "state.sqlite") as conn:
        rows = conn.execute("SELECT facts FROM files ORDER BY path").fetchall()
    scanned = [loads(ScannedFile, text) for (text,) in rows]
    index = build_index(args.repo.name, scanned)
    tests = [s for s in scanned if s.analysis.suite is not None]
    tests = [s for s in tests if Path(s.facts.path).name.startswith("test")][:: args.sample]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in args.pythonpath)
    same = only_docgen = only_pytest = unimportable = agreeing_files = 0
    for item in tests:
        path = item.facts.path
        theirs = pytest_ids(args.repo, path, env)
        if theirs is None:
            unimportable += 1
            continue
        ours = docgen_ids(index.test_classes.get(path, ()), item)
        same += len(ours & theirs)
        only_docgen += len(ours - theirs)
        only_pytest += len(theirs - ours)
        agreeing_files += ours == theirs
        if ours != theirs:
            print(f"{path}: docgen only {sorted(ours - theirs)[: args.show]}")
            print(f"{path}: pytest only {sorted(theirs - ours)[: args.show]}")
    compared = len(tests) - unimportable
    print(f"| {args.repo.name} | test files compared | files that agree exactly |")
    print("| --- | ---: | ---: |")
    print(f"| files | {compared} ({unimportable} do not import here) | {agreeing_files} |")
    total = same + only_pytest
    share = 100.0 * same / total if total else 100.0
    print(f"| test ids | {total} collected by pytest | {share:.1f} % listed by docgen |")
    print(f"| listed by docgen, not collected by pytest | {only_docgen} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
