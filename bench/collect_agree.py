"""Do docgen's test tables list what pytest collects?  Test ids compared file by file.

    python bench/collect_agree.py OUT REPO [--sample N] [--pythonpath DIR ...] [--show N]
        [--condition-true]

OUT is the output folder of a finished `docgen build REPO`; its cache holds the facts
docgen used.  For a sample of REPO's test files (every Nth, in path order), docgen's
test ids (`path::Class::test_name`, `path::test_name`, parametrized names expanded; a
test whose cases docgen counts rather than lists is compared by their number) are
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


def docgen_ids(
    classes: tuple[CollectedClass, ...], scanned: ScannedFile, condition: bool = False
) -> tuple[set[str], dict[str, int]]:
    """The ids docgen lists, and for the tests it counts instead of listing (too many
    cases, or values that depend on a condition) their number of cases by the id before
    `[` (`condition`: count as where the condition is true)."""
    path = scanned.facts.path
    suite = scanned.analysis.suite
    if suite is None:
        return set(), {}
    rows = [(f"{path}::{t.name}", t) for t in suite.functions]
    for info in classes:
        cls = info.suite_class
        if not info.collected or (cls.per_device and not cls.devices) or cls.hidden_by:
            continue  # as on this machine, without a GPU: a fallback hides such a class
        # a per-device class is collected as the class made for the first device (`...CPU`)
        name = f"{cls.name}{cls.devices[0].upper()}" if cls.devices else cls.name
        rows += [(f"{path}::{name}::{t.name}", t) for t in cls.tests]
    ids = {key for key, t in rows if t.cases == 1 and not t.condition}
    counted = {
        key: (t.cases_if_true if condition and t.condition else t.cases)
        for key, t in rows
        if t.cases > 1 or t.condition
    }
    return ids, counted


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
    parser.add_argument(
        "--condition-true",
        action="store_true",
        help="count tests whose parametrized values depend on a condition as where it holds",
    )
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
        ours, counted = docgen_ids(index.test_classes.get(path, ()), item, args.condition_true)
        for key, cases in counted.items():  # compared by number
            matching = {t for t in theirs if t.split("[", 1)[0] == key}
            theirs -= matching
            same += min(cases, len(matching))
            only_docgen += max(0, cases - len(matching))
            only_pytest += max(0, len(matching) - cases)
            if cases != len(matching):
                ours.add(f"{key} ({cases} cases, pytest {len(matching)})")
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
