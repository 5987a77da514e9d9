"""`docgen affected PATH...`: the tests a change reaches through imports and uses
(`docgen.index.affected`, `docgen.cli.affected`)."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner
from conftest import built_tree
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.analyze.summary import summarize
from docgen.cli.main import cli
from docgen.index.affected import Reach, Reacher, RowsFor, importers_of, reached_names
from docgen.index.graph import map_modules
from docgen.index.native_calls import CallRow, call_key, call_rows
from docgen.index.python_uses import DefinitionFinder
from docgen.scan.workers import scan_data

RUNS_ITSELF = '\n\nif __name__ == "__main__":\n    unittest.main()\n'
TREE = {
    "dist/__init__.py": "from .c10d import *\nfrom . import tools\n",
    "dist/c10d.py": "def all_reduce(t):\n    return t\n\nclass Group:\n    pass\n",
    "dist/tools.py": "def helper():\n    pass\n",
    # `sync` uses the change, `other` does not: only `sync`'s users are a hop further
    "lib/sync.py": (
        "from dist import all_reduce\n\ndef sync(t):\n    return all_reduce(t)\n\n"
        "def other():\n    return 0\n"
    ),
    "tests/test_other.py": "from lib.sync import other\n\ndef test_o():\n    other()\n",
    # module-level code uses the change: it runs at import, so every definition is reached
    "lib/boot.py": "from dist import all_reduce\nall_reduce(0)\n\ndef unrelated():\n    pass\n",
    "tests/test_boot.py": "from lib.boot import unrelated\n\ndef test_b():\n    unrelated()\n",
    # a stub runs nothing: what uses its names is not reached through it
    "lib/kinds.pyi": "from dist.c10d import Group\n\ndef make() -> Group: ...\n",
    "tests/test_stub.py": "from lib.kinds import make\n\ndef test_s():\n    make()\n",
    # the use is inside one test: that test alone
    "tests/test_direct.py": (
        "import unittest\nimport dist\n\nclass TestDirect(unittest.TestCase):\n"
        "    def test_uses(self):\n        dist.all_reduce(1)\n\n"
        "    def test_other(self):\n        pass\n" + RUNS_ITSELF
    ),
    # a use at module level: every test
    "tests/test_module_level.py": (
        "from dist.c10d import Group\n\nGROUP = Group()\n\n"
        "def test_a():\n    pass\n\ndef test_b():\n    pass\n"
    ),
    # an import only: every test (the import runs the module)
    "tests/test_import_only.py": "import dist.c10d\n\ndef test_c():\n    pass\n",
    # two hops: through `lib/sync.py`
    "tests/test_far.py": "from lib.sync import sync\n\ndef test_far():\n    sync(0)\n",
    # imports the package that re-exports the changed module's names, uses none of them
    "tests/test_unrelated.py": "import dist\n\ndef test_d():\n    dist.tools.helper()\n",
}


def _affected(out: Path, *args: str) -> tuple[int, list[str], str]:
    result = CliRunner().invoke(cli, ["affected", *args, "--out", str(out)])
    return result.exit_code, result.stdout.splitlines(), result.stderr


def test_the_tests_a_change_reaches_nearest_first_with_their_commands(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    code, lines, _ = _affected(out, "dist/c10d.py")
    assert code == 0
    assert lines == [
        "tests/test_direct.py: 1 hop, uses dist/c10d.py (line 6); 1 of 2 tests",
        "    python tests/test_direct.py -k test_uses",
        "tests/test_import_only.py: 1 hop, imports dist/c10d.py (line 1); 1 of 1 tests",
        "    pytest tests/test_import_only.py::test_c",
        "tests/test_module_level.py: 1 hop, uses dist/c10d.py (lines 1, 3); 2 of 2 tests",
        "    pytest tests/test_module_level.py::test_a",
        "    pytest tests/test_module_level.py::test_b",
        "tests/test_boot.py: 2 hops, uses lib/boot.py (lines 1, 4); 1 of 1 tests",
        "    pytest tests/test_boot.py::test_b",
        "tests/test_far.py: 2 hops, uses lib/sync.py (lines 1, 4); 1 of 1 tests",
        "    pytest tests/test_far.py::test_far",
    ]
    assert _affected(out, "dist/c10d.py", "--depth", "1")[1] == lines[:-4]
    assert _affected(out, "dist/c10d.py", "--files")[1] == [
        "tests/test_direct.py",
        "tests/test_import_only.py",
        "tests/test_module_level.py",
        "tests/test_boot.py",
        "tests/test_far.py",
    ]
    assert _affected(out, "dist/c10d.py", "--tests")[1] == [
        line.strip() for line in lines if line.startswith("    ")
    ]


def test_a_changed_test_file_is_its_own_and_unknown_paths_are_said(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    code, lines, err = _affected(out, "tests/test_far.py", "README.md")
    assert code == 0
    assert lines == [
        "tests/test_far.py: changed; 1 of 1 tests",
        "    pytest tests/test_far.py::test_far",
    ]
    assert err == (
        "docgen: README.md: neither a Python module nor a C, C++ or CUDA file, in the last build\n"
    )
    code, lines, err = _affected(out, "dist/tools.py")  # only `test_unrelated` uses it
    assert code == 0 and lines[0].startswith("tests/test_unrelated.py: 1 hop, uses")
    assert _affected(out, "nothing.py")[0] == 1


def test_a_c_family_file_s_bindings_reach_the_python_that_reads_them(tmp_path: Path) -> None:
    from test_native_calls import TREE as BOUND

    tests = {
        # `forward` reads the binding `fast_cuda.fwd`, `scaled` the operator
        # `fast_ops::scale` and the binding `helper`; `untouched` reads none of them
        "tests/test_iface.py": "from pkg.iface import forward\n\ndef test_f():\n    forward(1)\n",
        "tests/test_scaled.py": "from pkg.iface import scaled\n\ndef test_s():\n    scaled(1)\n",
        "tests/test_other.py": "from pkg.iface import untouched\n\ndef test_u():\n    untouched\n",
    }
    out = built_tree(tmp_path, {**BOUND, **tests})
    code, lines, _ = _affected(out, "csrc/api.cpp")
    assert code == 0
    assert lines == [
        "tests/test_iface.py: 2 hops, uses pkg/iface.py (lines 1, 4); 1 of 1 tests",
        "    pytest tests/test_iface.py::test_f",
        "tests/test_scaled.py: 2 hops, uses pkg/iface.py (lines 1, 4); 1 of 1 tests",
        "    pytest tests/test_scaled.py::test_s",
    ]
    assert _affected(out, "csrc/api.cpp", "--depth", "1")[1] == []  # `pkg/iface.py`: no test


def test_a_path_on_disk_is_read_relative_to_the_tree(tmp_path: Path) -> None:
    out = built_tree(tmp_path, TREE)
    here = os.getcwd()
    os.chdir(tmp_path / "repo" / "lib")
    try:
        code, lines, _ = _affected(out, "sync.py", "--files")
    finally:
        os.chdir(here)
    assert (code, lines) == (0, ["tests/test_far.py", "tests/test_other.py"])


def test_without_a_build_the_command_says_so(tmp_path: Path) -> None:
    code, lines, err = _affected(tmp_path / "none", "a.py")
    assert code == 2 and lines == [] and "run `docgen build` first" in err


def test_a_file_s_reached_definitions_hold_its_uses_and_module_level_code_reaches_all() -> None:
    source = b"import x\n\ndef a():\n    x.f()\n\ndef b():\n    pass\n"
    summary = summarize(scan_data("m.py", source))
    assert reached_names(summary, [1]) == frozenset()  # an import statement alone
    assert reached_names(summary, [1, 4]) == {"a"}
    assert reached_names(summary, [1, 4, 8]) is None  # line 8: module level
    assert reached_names(None, [4]) is None


def use_index(rows: list[tuple[str, CallRow]]) -> RowsFor:
    """The rows by the last name they read, in memory (as the state's keys find them)."""
    found: dict[str, list[tuple[str, CallRow]]] = {}
    for path, row in rows:
        found.setdefault(call_key(row), []).append((path, row))
    return lambda keys: (item for key in sorted(keys) for item in found.get(key, ()))


def _reacher(files: dict[str, bytes]) -> Reacher:
    scanned = {path: scan_data(path, data) for path, data in files.items()}
    modules, _ = map_modules(scanned)
    summaries = {path: summarize(s) for path, s in scanned.items()}
    finder = DefinitionFinder(modules, summaries.get)
    rows = [(p, row) for p, s in sorted(scanned.items()) for row in call_rows(s.facts.python)]
    return Reacher(finder, use_index(rows), importers_of([]), summaries.get)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=7))
def test_a_file_is_as_many_hops_away_as_its_nearest_chain_of_uses(uses: list[int]) -> None:
    """Module `m{i}` (i >= 1) uses a function of `m{j}`, j = uses[i-1] clamped below i:
    its distance from a change of `m0` is one more than the nearest `m{j}`'s."""
    files = {"m0.py": b"def f0():\n    pass\n"}
    used = [min(j, i) for i, j in enumerate(uses)]  # m{i+1} uses m{used[i]}
    for i, j in enumerate(used, start=1):
        files[f"m{i}.py"] = f"from m{j} import f{j}\n\ndef f{i}():\n    f{j}()\n".encode()
    distance = {0: 0}
    for i, j in enumerate(used, start=1):
        distance[i] = distance[j] + 1
    reached = _reacher(files).reach(["m0.py"])
    assert [(r.path, r.distance) for r in reached] == sorted(
        ((f"m{i}.py", d) for i, d in distance.items()), key=lambda pd: (pd[1], pd[0])
    )
    assert all(isinstance(r, Reach) and (r.distance == 0) == (not r.via) for r in reached)
    nearest = _reacher(files).reach(["m0.py"], depth=1)
    assert {r.path for r in nearest} == {f"m{i}.py" for i, d in distance.items() if d <= 1}
