"""Names followed through the modules that re-export them: the origin of an import, a
module's tests through its package, and a test page's code under test."""

from __future__ import annotations

from pathlib import Path

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.index.graph import ImportGraph, ModuleImports, build_graph
from docgen.index.reexports import Origins
from docgen.scan.python.scanner import scan

FILES = {
    "pkg/__init__.py": "from pkg._impl import run, Helper as Aid\nfrom pkg import sub\n",
    "pkg/_impl/__init__.py": "from ._run import run\nfrom ._help import Helper\n",
    "pkg/_impl/_run.py": "def run():\n    pass\n",
    "pkg/_impl/_help.py": "class Helper:\n    pass\n",
    "pkg/sub.py": "def leaf():\n    pass\n",
    "pkg/loop_a.py": "from pkg.loop_b import x\n",
    "pkg/loop_b.py": "from pkg.loop_a import x\n",
    "tests/test_run.py": (
        "from pkg import run, sub, Aid\nimport pkg.sub\n\ndef test_run():\n    run()\n"
    ),
}


def graph() -> ImportGraph:
    files = []
    for path, text in FILES.items():
        facts = scan(path, text.encode("utf-8")).python
        assert facts is not None
        files.append(ModuleImports(path, "python", facts.imports))
    return build_graph(files)


def origins() -> Origins:
    return Origins(graph())


def test_a_name_is_followed_to_the_file_that_binds_it() -> None:
    found = origins()
    assert found.of_name("pkg/__init__.py", "run") == "pkg/_impl/_run.py"
    assert found.of_name("pkg/_impl/__init__.py", "Helper") == "pkg/_impl/_help.py"
    # bound under another name: the walk stops at the module that binds it
    assert found.of_name("pkg/__init__.py", "Aid") == "pkg/__init__.py"
    # a name nobody imports is the module's own; a cycle ends where it started
    assert found.of_name("pkg/sub.py", "leaf") == "pkg/sub.py"
    assert found.of_name("pkg/loop_a.py", "x") in ("pkg/loop_a.py", "pkg/loop_b.py")


def test_a_tests_imports_reach_the_defining_files_and_submodules() -> None:
    imports = graph()
    reached = Origins(imports).of_imports(imports.imports["tests/test_run.py"])
    assert reached == ("pkg/__init__.py", "pkg/_impl/_run.py", "pkg/sub.py")


def test_pages_follow_re_exports(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for rel, text in FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    build(resolve_options(repo, out, 1))
    run_page = (out / "pkg/_impl/_run.py_docs.md").read_text(encoding="utf-8")
    testing = run_page.split("## Testing & Usage\n", 1)[1].split("\n## ", 1)[0]
    assert "through a module that re-exports its names):" in testing
    assert "[`tests/test_run.py`]" in testing
    test_page = (out / "tests/test_run.py_docs.md").read_text(encoding="utf-8")
    related = test_page.split("## Related Files\n", 1)[1].split("\n## ", 1)[0]
    under_test = [line for line in related.splitlines() if "code under test" in line]
    assert any("pkg/_impl/_run.py" in line for line in under_test)
    assert any("pkg/sub.py" in line for line in under_test)
    assert not any("pkg/_impl/__init__.py" in line for line in under_test)


def test_a_name_imported_under_another_name_is_not_followed() -> None:
    files = {
        "pkg/__init__.py": "from pkg._impl import run as _run\n\ndef run():\n    return _run()\n",
        "pkg/_impl.py": "def run():\n    pass\n",
    }
    found = []
    for path, text in files.items():
        facts = scan(path, text.encode("utf-8")).python
        assert facts is not None
        found.append(ModuleImports(path, "python", facts.imports))
    assert Origins(build_graph(found)).of_name("pkg/__init__.py", "run") == "pkg/__init__.py"
