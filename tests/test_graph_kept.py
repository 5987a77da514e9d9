"""The import graph's edges kept between builds, brought up to date from the files an edit
scans, equal the graph made afresh from every file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from unittest.mock import Mock

import pytest
from conftest import built_copy, clean_pages, page_files, run_build
from hypothesis import given, settings
from hypothesis import strategies as st

import docgen.index.repo
from docgen.index.folder_edges import FolderWeights, edge_weights
from docgen.index.graph import ImportGraph, ModuleImports, build_graph
from docgen.index.graph_kept import GraphEdit, KeptGraph, decode, encode, graph_key, patched_graph
from docgen.model.facts import Import
from docgen.state import open_state
from docgen.state.db import IMPORT_GRAPH, IMPORT_GRAPH_KEY

PATHS = ["pkg/__init__.py", "pkg/a.py", "pkg/b.py", "pkg/sub/__init__.py", "pkg/sub/c.py"]
STUB = "pkg/b.pyi"
#: what a module may import: each a plain import or a from-import of the tree's modules
IMPORTS = [
    Import(1, "pkg.a"),
    Import(1, "pkg", ("b",), is_from=True),
    Import(1, "pkg.sub", ("c",), is_from=True),
    Import(1, None, ("a",), level=1, is_from=True),
    Import(1, "pkg.sub.c"),
    Import(1, "os"),
]


def _weights(graph: ImportGraph, paths: list[str]) -> FolderWeights:
    return edge_weights(((p, graph.imports_of(p)) for p in paths), set(paths))


def _kept(files: list[ModuleImports]) -> KeptGraph:
    graph = build_graph(files)
    paths = sorted(f.path for f in files)
    return KeptGraph("key", graph.imported_by, _weights(graph, paths))


def _same(graph: ImportGraph, weights: FolderWeights, fresh: ImportGraph, paths: list[str]) -> None:
    assert dict(graph.imported_by) == dict(fresh.imported_by)
    assert list(graph.imported_by) == list(fresh.imported_by)  # sorted, as made afresh
    assert dict(graph.modules) == dict(fresh.modules)
    assert dict(graph.module_names) == dict(fresh.module_names)
    assert set(graph.imports) == set(fresh.imports)
    assert all(graph.imports[p] == fresh.imports[p] for p in fresh.imports)
    assert weights == _weights(fresh, paths)


def _lines(imports: list[Import]) -> tuple[Import, ...]:
    """The imports on consecutive lines, as a module would hold them."""
    return tuple(
        Import(i + 1, imp.module, imp.names, level=imp.level, is_from=imp.is_from)
        for i, imp in enumerate(imports)
    )


module_imports = st.lists(st.sampled_from(IMPORTS), max_size=4).map(_lines)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(module_imports, min_size=len(PATHS), max_size=len(PATHS)),
    st.dictionaries(st.sampled_from(PATHS), module_imports, max_size=3),
)
def test_a_patched_graph_equals_one_made_afresh(
    before: list[tuple[Import, ...]], changed: dict[str, tuple[Import, ...]]
) -> None:
    old = [ModuleImports(p, "python", i) for p, i in zip(PATHS, before, strict=True)]
    old.append(ModuleImports(STUB, "python", (Import(1, "pkg.a"),)))
    new = [ModuleImports(f.path, f.kind, changed.get(f.path, f.imports)) for f in old]
    edits = {p: GraphEdit("python", before[PATHS.index(p)]) for p in changed}
    paths = sorted(f.path for f in old)
    patched = patched_graph(_kept(old), new, edits, ("", "src"), set(paths))
    assert patched is not None
    _same(*patched, build_graph(new), paths)


def test_a_file_that_leaves_or_joins_the_graph_has_it_made_afresh() -> None:
    files = [ModuleImports(p, "python", (Import(1, "pkg.a"),)) for p in PATHS]
    kept = _kept(files)
    now_binary = [
        ModuleImports(f.path, "binary" if f.path == "pkg/b.py" else f.kind, f.imports)
        for f in files
    ]
    edit = {"pkg/b.py": GraphEdit("python", (Import(1, "pkg.a"),))}
    assert patched_graph(kept, now_binary, edit, ("",), set(PATHS)) is None
    was_binary = {"pkg/b.py": GraphEdit("binary", None)}
    assert patched_graph(kept, files, was_binary, ("",), set(PATHS)) is None


def test_a_kept_graph_that_does_not_hold_an_edited_file_is_not_patched() -> None:
    files = [ModuleImports(p, "python", (Import(1, "pkg.a"),)) for p in PATHS]
    kept = KeptGraph("key", {}, {})  # says nobody imports pkg/a.py
    edit = {"pkg/b.py": GraphEdit("python", (Import(1, "pkg.a"),))}
    assert patched_graph(kept, files, edit, ("",), set(PATHS)) is None


def test_kept_edges_round_trip() -> None:
    files = [ModuleImports(p, "python", (Import(1, "pkg.sub.c"),)) for p in PATHS]
    graph = build_graph(files)
    weights = _weights(graph, PATHS)
    kept = decode(encode(graph, weights), "k1")
    assert kept is not None and kept.key == "k1"
    assert dict(kept.imported_by) == dict(graph.imported_by)
    assert kept.weights == weights and all(type(c) is Counter for c in kept.weights.values())
    assert decode("[1, 2", "k1") is None and decode('["1", 3, []]', "k1") is None
    assert decode('["0", [], []]', "k1") is None  # another format
    assert decode(None, "k1") is None


def test_the_key_follows_python_files_their_facts_the_roots_and_the_code() -> None:
    digests = {"pkg/a.py": "1", "pkg/b.pyi": "2", "README.md": "3", "x.cpp": "4"}
    key = graph_key(digests.items(), ("",), "code")
    assert key == graph_key(reversed(list(digests.items())), ("",), "code")
    assert key == graph_key({**digests, "README.md": "5"}.items(), ("",), "code")
    assert key != graph_key({**digests, "pkg/b.pyi": "5"}.items(), ("",), "code")
    assert key != graph_key({**digests, "pkg/c.py": ""}.items(), ("",), "code")
    assert key != graph_key(digests.items(), ("", "src"), "code")
    assert key != graph_key(digests.items(), ("",), "other code")


#: edits of the sample, each with how many times the build that follows makes the graph
#: afresh: none where the kept one is brought up to date, one for a new module (whose
#: name any import may now resolve to)
EDITS = [
    ("minitorch/utils/helpers.py", "\n\nimport minitorch.version\nimport minitorch.nn\n", 0),
    ("minitorch/utils/helpers.py", "\n\ndef added():\n    return 1\n", 0),
    ("minitorch/utils/extra.py", "import minitorch.utils.helpers\n", 1),
]


def test_edits_bring_the_kept_graph_up_to_date_and_equal_a_clean_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    made = Mock(wraps=build_graph)
    monkeypatch.setattr(docgen.index.repo, "build_graph", made)
    for rel, text, graphs in EDITS:
        made.reset_mock()
        edited = repo / rel
        edited.write_text((edited.read_text() if edited.exists() else "") + text)
        run_build(repo, out, jobs=1)
        assert made.call_count == graphs, rel
        assert page_files(out) == clean_pages(repo, tmp_path)


def test_the_state_keeps_the_edges_with_what_they_were_made_from(tmp_path: Path) -> None:
    with open_state(tmp_path) as state:
        assert state.kept_import_graph("k1") is None
        state.keep_import_graph("k1", "edges")
        assert state.kept_import_graph("k1") == "edges"
        assert state.kept_import_graph("k2") is None
        state.keep_import_graph("k2", None)  # the same edges, made from other facts
        assert state.kept_import_graph("k2") == "edges"
        assert state.kept_import_graph("k1") is None


def test_an_edit_that_moves_no_import_keeps_the_edges_as_they_were(tmp_path: Path) -> None:
    repo, out = built_copy("torchlike", tmp_path)
    with open_state(out) as state:
        before = state.meta(IMPORT_GRAPH), state.meta(IMPORT_GRAPH_KEY)
    leaf = repo / "minitorch/utils/helpers.py"
    leaf.write_text(leaf.read_text() + "\n\ndef added():\n    return 1\n")
    run_build(repo, out, jobs=1)
    with open_state(out) as state:
        after = state.meta(IMPORT_GRAPH), state.meta(IMPORT_GRAPH_KEY)
    assert before[0] and after[0] == before[0]  # the edges as they were
    assert after[1] != before[1]  # made from the file's new facts
