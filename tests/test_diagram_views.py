"""Folder import diagrams: every folder's edges made in one pass equal each folder's
edges counted over its own subtree, on the sample repositories and on random trees."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.index.folder_edges import FolderWeights, merged_weights
from docgen.index.repo import RepoIndex, build_index, import_weights, include_weights
from docgen.render.diagram_views import import_diagram
from docgen.scan.workers import scan_data

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def subtree_weights(index: RepoIndex, folder: str) -> Counter[tuple[str, str]]:
    """A folder's edges the plain way: each file below it is one node per file or
    subfolder of `folder`, and every import or include between two nodes counts."""
    prefix = folder + "/" if folder else ""
    node_of: dict[str, str] = {}
    pending = [folder]
    while pending:
        entry = index.folders[pending.pop()]
        for path in entry.files:
            rest = path[len(prefix) :]
            node_of[path] = rest if "/" not in rest else rest.split("/", 1)[0] + "/"
        pending.extend(entry.subfolders)
    weights: Counter[tuple[str, str]] = Counter()
    for path in sorted(node_of):
        for target in (*index.graph.imports_of(path), *index.includes.includes_of(path)):
            a, b = node_of[path], node_of.get(target)
            if b is not None and a != b:
                weights[(a, b)] += 1
    return weights


def index_of(files: dict[str, str], include_roots: tuple[str, ...] = ()) -> RepoIndex:
    scanned = [scan_data(path, text.encode()) for path, text in sorted(files.items())]
    return build_index("sample", scanned, include_roots=include_roots)


def all_weights(index: RepoIndex) -> FolderWeights:
    """The edges made by imports and those made by includes, counted together."""
    return merged_weights(import_weights(index), include_weights(index))


def assert_same_as_per_folder(index: RepoIndex) -> None:
    weights = all_weights(index)
    for folder in index.folders:
        assert weights.get(folder, Counter()) == subtree_weights(index, folder), folder
    assert set(weights) <= set(index.folders)


def fixture_files(name: str) -> dict[str, str]:
    root = FIXTURES / name
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_the_samples_edges_equal_those_counted_per_folder() -> None:
    torchlike = index_of(fixture_files("torchlike"))
    assert any(import_weights(torchlike).values())  # the sample has edges to draw
    assert not any(include_weights(torchlike).values())  # and no C-family file
    assert_same_as_per_folder(torchlike)
    cpplike = index_of(fixture_files("cpplike"), ("include", "."))
    assert any(include_weights(cpplike).values())
    assert_same_as_per_folder(cpplike)


def test_merged_weights_add_the_counts_of_every_part() -> None:
    one: FolderWeights = {"a": Counter({("x", "y"): 2}), "b": Counter({("p", "q"): 1})}
    two: FolderWeights = {"a": Counter({("x", "y"): 1, ("y", "x"): 4})}
    assert merged_weights(one, two) == {
        "a": Counter({("x", "y"): 3, ("y", "x"): 4}),
        "b": Counter({("p", "q"): 1}),
    }
    assert one["a"] == Counter({("x", "y"): 2})  # the parts are left as they were


MODULES = ["pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c", "pkg.sub.deep.d", "other.e"]


def module_path(module: str, package: bool) -> str:
    return module.replace(".", "/") + ("/__init__.py" if package else ".py")


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(MODULES),
        st.tuples(st.booleans(), st.lists(st.sampled_from(MODULES), max_size=4)),
        min_size=1,
    )
)
def test_random_trees_edges_equal_those_counted_per_folder(
    tree: dict[str, tuple[bool, list[str]]],
) -> None:
    files: dict[str, str] = {}
    for module, (package, imports) in tree.items():
        path = module_path(module, package or module in ("pkg", "pkg.sub"))
        files[path] = "".join(f"import {name}\n" for name in imports)
    index = index_of(files)
    assert_same_as_per_folder(index)
    for folder in index.folders:
        diagram = import_diagram(all_weights(index).get(folder))
        assert (diagram is None) == (not subtree_weights(index, folder))
