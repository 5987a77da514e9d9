"""Module names, import resolution and the imported-by graph follow the documented rule."""

from __future__ import annotations

from docgen.index.graph import (
    ModuleImports,
    absolute_module,
    absolute_name,
    build_graph,
    map_modules,
    module_name,
)
from docgen.model.facts import Import


def _py(path: str, *imports: Import) -> ModuleImports:
    return ModuleImports(path, "python", imports)


def _imp(line: int, module: str | None, *names: str, level: int = 0) -> Import:
    return Import(line, module, names, level=level, is_from=bool(names) or level > 0)


def test_module_names_under_root_and_src() -> None:
    assert module_name("pkg/core.py", "") == "pkg.core"
    assert module_name("pkg/__init__.py", "") == "pkg"
    assert module_name("src/lib/a.py", "src") == "lib.a"
    assert module_name("src/lib/a.py", "") == "src.lib.a"
    assert module_name("scripts/my-tool/x.py", "") is None
    assert module_name("README.md", "") is None
    modules, names = map_modules(["src/lib/a.py", "pkg/x.py", "pkg/x/__init__.py"])
    assert modules["lib.a"] == "src/lib/a.py"
    assert names["src/lib/a.py"] == "lib.a"
    assert modules["pkg.x"] == "pkg/x/__init__.py"  # a package beats a same-named module


def test_relative_imports_resolve_against_the_package() -> None:
    assert absolute_module(_imp(1, ".x", "y", level=1), "a.b") == "a.b.x"
    assert absolute_module(_imp(1, "..x", "y", level=2), "a.b") == "a.x"
    assert absolute_module(_imp(1, None, "y", level=1), "a.b") == "a.b"
    assert absolute_module(_imp(1, "...x", "y", level=3), "a") == ""
    assert absolute_name("..x.f", "a.b") == "a.x.f"
    assert absolute_name(".f", "") == "f"  # a top-level `__init__.py`'s package is ""
    assert absolute_name(".f", None) == "" and absolute_name("m.f", None) == "m.f"


def test_edges_follow_the_rule() -> None:
    files = [
        _py("pkg/__init__.py"),
        _py("pkg/core.py", _imp(1, "pkg.util"), _imp(2, ".", "helpers", level=1)),
        _py("pkg/util.py", _imp(3, "pkg", "core"), _imp(4, "pkg.util", "thing")),
        _py("pkg/helpers.py", _imp(5, "pkg.core", "*")),
        _py("pkg/ns/mod.py"),  # pkg/ns has no __init__.py: a namespace package
        _py("app.py", _imp(6, "pkg.ns", "mod"), _imp(7, "os.path"), _imp(8, "pkg", "missing")),
    ]
    graph = build_graph(files)
    assert graph.imports_of("pkg/core.py") == ("pkg/helpers.py", "pkg/util.py")
    # `from pkg import core` is pkg.core; `from pkg.util import thing` is itself: no edge.
    assert graph.imports_of("pkg/util.py") == ("pkg/core.py",)
    assert graph.imports_of("pkg/helpers.py") == ("pkg/core.py",)
    # `from pkg import missing`: pkg.missing is no module, so pkg itself is the target.
    assert graph.imports_of("app.py") == ("pkg/__init__.py", "pkg/ns/mod.py")
    assert graph.imported_by["pkg/core.py"] == ("pkg/helpers.py", "pkg/util.py")
    assert "pkg/util.py" in graph.imported_by
    assert "app.py" not in graph.imported_by
    external = [t for t in graph.imports["app.py"] if not t.internal]
    assert [t.absolute for t in external] == ["os.path"]


def test_stubs_are_neither_modules_nor_importers() -> None:
    files = [
        _py("pkg/__init__.py"),
        _py("pkg/core.py"),
        _py("pkg/core.pyi", _imp(1, "pkg.util")),
        _py("pkg/util.py"),
        _py("pkg/only_stub.pyi"),
        _py("app.py", _imp(2, "pkg.only_stub"), _imp(3, "pkg.core")),
    ]
    graph = build_graph(files)
    assert graph.modules["pkg.core"] == "pkg/core.py"
    assert "pkg.only_stub" not in graph.modules
    assert graph.imports_of("app.py") == ("pkg/core.py",)
    assert "pkg/util.py" not in graph.imported_by  # only the stub imports it
    # The stub's own import is still resolved, for its page.
    assert graph.imports["pkg/core.pyi"][0].targets == ("pkg/util.py",)


def test_an_import_resolved_once_for_many_files_never_leads_a_file_to_itself() -> None:
    files = [
        _py("pkg/__init__.py"),
        _py("pkg/a.py", _imp(1, "pkg", "a", "b")),  # imports itself and b
        _py("pkg/b.py", _imp(1, "pkg", "a", "b")),  # the same import: a and itself
        _py("pkg/c.py", _imp(1, "pkg", "a", "b")),
    ]
    graph = build_graph(files)
    assert graph.imports_of("pkg/a.py") == ("pkg/b.py",)
    assert graph.imports_of("pkg/b.py") == ("pkg/a.py",)
    assert graph.imports_of("pkg/c.py") == ("pkg/a.py", "pkg/b.py")
