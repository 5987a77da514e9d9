"""What a Python file's top level binds (`docgen.index.top_bindings`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.index.repo import build_index
from docgen.index.top_bindings import file_bindings
from docgen.scan.workers import scan_data

PACKAGE = {
    "pkg/__init__.py": b"from .core import run as go, Thing\nfrom . import sub\n"
    b"from pkg.sub import *\nimport pkg.core as c\nimport os.path\n"
    b"__all__ = ['go', 'Thing']\n",
    "pkg/core.py": b"def run():\n    pass\n\nclass Thing:\n    pass\n\n"
    b"from ..up import x\nfrom ...far import z\n",
    "pkg/sub/__init__.py": b"from .. import core\nfrom ...too.far import y\n",
}


def _index(files: dict[str, bytes]):  # type: ignore[no-untyped-def]
    return build_index("demo", [scan_data(p, data) for p, data in sorted(files.items())])


def test_a_package_binds_its_imports_by_their_absolute_modules() -> None:
    index = _index(PACKAGE)
    init = file_bindings(index, "pkg/__init__.py")
    assert init is not None
    assert init.imported == {
        "go": [("pkg.core", "run")],
        "Thing": [("pkg.core", "Thing")],
        "sub": [("pkg", "sub")],
    }
    assert init.stars == ("pkg.sub",)
    assert init.modules == {"c": ["pkg.core"], "os": ["os"]}
    assert init.exported == ("go", "Thing")
    core = file_bindings(index, "pkg/core.py")
    assert core is not None
    assert core.definitions == {"run": "function", "Thing": "class"}
    # `..up` is the top-level `up`; `...far` climbs above the top: no module, no binding
    assert core.imported == {"x": [("up", "x")]}
    sub = file_bindings(index, "pkg/sub/__init__.py")
    assert sub is not None
    assert sub.imported == {"core": [("pkg", "core")], "y": [("too.far", "y")]}


def test_a_file_without_python_facts_binds_nothing() -> None:
    index = _index({"notes.md": b"# Notes\n", **PACKAGE})
    assert file_bindings(index, "notes.md") is None


modules = st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3).map(".".join)
imports = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(["", *"abc"]), st.sampled_from("xyz")),
    max_size=6,
)


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(modules, imports, min_size=1, max_size=5))
def test_each_import_is_made_absolute_as_the_import_graph_makes_it(
    tree: dict[str, list[tuple[int, str, str]]],
) -> None:
    """The bindings make imports absolute without resolving them to files: the modules
    they name are those of the graph's resolved imports, one for one."""
    files = {}
    for module, lines in tree.items():
        text = "".join(
            f"from {'.' * level}{name} import {what}\n" if level or name else f"import {what}\n"
            for level, name, what in lines
        )
        files[module.replace(".", "/") + ".py"] = text.encode()
    index = _index(files)
    for path in files:
        bindings = file_bindings(index, path)
        assert bindings is not None
        absolute = {t.absolute for t in index.graph.imports[path] if t.absolute}
        named = {m for found in bindings.imported.values() for m, _ in found}
        named |= {m for found in bindings.modules.values() for m in found}
        assert named == absolute, path
