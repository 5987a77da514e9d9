"""Who imports each file, from rows kept per file and made again for the files an edit
changed: the graph equals the one made afresh from every file."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import Mock

import pytest
from conftest import built_copy, clean_pages, page_files, run_build
from hypothesis import given, settings
from hypothesis import strategies as st

import docgen.index.import_rows
from docgen.index.folder_edges import FolderWeights, edge_weights
from docgen.index.graph import ImportGraph, ModuleImports, build_graph
from docgen.index.import_rows import IMPORTS, import_graph
from docgen.model.facts import Import
from docgen.state import open_state

PATHS = ["pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/sub/__init__.py", "pkg/sub/c.py"]
STUB = "pkg/b.pyi"
#: what a module may import: each a plain import or a from-import of the tree's modules
CHOICES = [
    Import(1, "pkg.a"),
    Import(1, "pkg", ("b",), is_from=True),
    Import(1, "pkg.sub", ("c",), is_from=True),
    Import(1, None, ("a",), level=1, is_from=True),
    Import(1, "pkg.sub.c"),
    Import(1, "os"),
]


def _weights(graph: ImportGraph, paths: list[str]) -> FolderWeights:
    return edge_weights(((p, graph.imports_of(p)) for p in paths), set(paths))


def _lines(imports: list[Import]) -> tuple[Import, ...]:
    """The imports on consecutive lines, as a module would hold them."""
    return tuple(
        Import(i + 1, imp.module, imp.names, level=imp.level, is_from=imp.is_from)
        for i, imp in enumerate(imports)
    )


module_imports = st.lists(st.sampled_from(CHOICES), max_size=4).map(_lines)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(module_imports, min_size=len(PATHS), max_size=len(PATHS)),
    st.dictionaries(st.sampled_from(PATHS), module_imports, max_size=3),
)
def test_a_graph_from_kept_rows_equals_one_made_afresh(
    before: list[tuple[Import, ...]], changed: dict[str, tuple[Import, ...]]
) -> None:
    old = [ModuleImports(p, "python", i) for p, i in zip(PATHS, before, strict=True)]
    old.append(ModuleImports(STUB, "python", (Import(1, "pkg.a"),)))
    new = [ModuleImports(f.path, f.kind, changed.get(f.path, f.imports)) for f in old]
    paths = sorted(f.path for f in old)
    digests = {p: "before" for p in paths}
    _, first, _ = import_graph(old, ("", "src"), {}, digests, "code", paths)
    kept = {p: (by, text) for p, by, text in first.to_keep()}
    assert kept.keys() == set(paths)  # a graph made afresh keeps every file's rows
    edited = {**digests, **{p: "after" for p in changed}}
    graph, rows, weights = import_graph(new, ("", "src"), kept, edited, "code", paths)
    fresh = build_graph(new, ("", "src"))
    assert dict(graph.imported_by) == dict(fresh.imported_by)
    assert list(graph.imported_by) == list(fresh.imported_by)  # sorted, as made afresh
    assert dict(graph.modules) == dict(fresh.modules)
    assert dict(graph.module_names) == dict(fresh.module_names)
    assert all(graph.imports[p] == fresh.imports[p] for p in fresh.imports)
    assert weights == _weights(fresh, paths)
    assert sorted(rows.before) == sorted(changed)  # only the edited files' rows made again
    moved = rows.moved(changed)
    lines = {p: {(t, r.line) for r in fresh.imports.get(p, ()) for t in r.targets} for p in paths}
    was = {
        p: {(t, r.line) for r in build_graph(old).imports.get(p, ()) for t in r.targets}
        for p in paths
    }
    assert moved == {t for p in changed for t, _ in lines[p] ^ was[p]}


def test_another_tree_of_modules_makes_every_row_again() -> None:
    files = [ModuleImports(p, "python", (Import(1, "pkg.a"),)) for p in PATHS]
    digests = {p: "d" for p in PATHS}
    _, first, _ = import_graph(files, ("",), {}, digests, "code", PATHS)
    kept = {p: (by, text) for p, by, text in first.to_keep()}
    _, same, weights = import_graph(files, ("",), kept, digests, "code", PATHS)
    assert same.before == {} and weights is not None
    grown = [*files, ModuleImports("pkg/d.py", "python", ())]
    _, again, weights = import_graph(grown, ("",), kept, digests, "code", [*PATHS, "pkg/d.py"])
    assert sorted(again.before) == sorted([*PATHS, "pkg/d.py"]) and weights is None


#: edits of the sample, each with how many times the build that follows makes the graph
#: afresh: none where the kept rows hold, one for a new module (whose name any import
#: may now resolve to)
EDITS = [
    ("minitorch/utils/helpers.py", "\n\nimport minitorch.version\nimport minitorch.nn\n", 0),
    ("minitorch/utils/helpers.py", "\n\ndef added():\n    return 1\n", 0),
    ("minitorch/utils/extra.py", "import minitorch.utils.helpers\n", 1),
]


def test_edits_keep_the_rows_of_other_files_and_equal_a_clean_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    made = Mock(wraps=build_graph)
    monkeypatch.setattr(docgen.index.import_rows, "build_graph", made)
    for rel, text, graphs in EDITS:
        made.reset_mock()
        edited = repo / rel
        edited.write_text((edited.read_text() if edited.exists() else "") + text)
        run_build(repo, out, jobs=1)
        assert made.call_count == graphs, rel
        assert page_files(out) == clean_pages(repo, tmp_path)
        with open_state(out) as state:
            kept = state.kept_per_file(IMPORTS.name)
        python = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*.py*"))
        assert sorted(kept) == python  # every Python file's rows, and only theirs


def test_rows_of_a_file_gone_are_forgotten(tmp_path: Path) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    (repo / "minitorch/utils/helpers.py").unlink()
    run_build(repo, out, jobs=1)
    with open_state(out) as state:
        assert "minitorch/utils/helpers.py" not in state.kept_per_file(IMPORTS.name)
    assert page_files(out) == clean_pages(repo, tmp_path)
