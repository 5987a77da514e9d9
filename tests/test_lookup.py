"""The repository-wide lists the pages read (`docgen.render.lookup`)."""

from __future__ import annotations

import posixpath
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.index.repo import build_index
from docgen.model.links import folder_of
from docgen.render.lookup import RepoLookup
from docgen.scan.workers import scan_data

CONTENT = {
    ".py": b"def f():\n    pass\n",
    ".md": b"# Title\n",
    ".h": b"int f(int a);\n",
    ".bin": b"\0\1",
}

paths = st.lists(
    st.tuples(
        st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
        st.sampled_from(["x", "y", "z"]),
        st.sampled_from(sorted(CONTENT)),
    ).map(lambda t: "/".join([*t[0], t[1] + t[2]])),
    min_size=1,
    max_size=12,
    unique=True,
).filter(lambda ps: not any(p.startswith(q.rsplit(".", 1)[0] + "/") for p in ps for q in ps))


@settings(max_examples=60, deadline=None)
@given(paths)
def test_kinds_below_a_folder_are_those_of_its_files(files: list[str]) -> None:
    scanned = [scan_data(p, CONTENT["." + p.rsplit(".", 1)[1]]) for p in files]
    lookup = RepoLookup(build_index("demo", scanned))
    kinds = {s.facts.path: s.facts.kind for s in scanned}
    folders = {""} | {f for p in files for f in _above(p)}
    for folder in folders:
        below = [p for p in files if folder == "" or p.startswith(folder + "/")]
        assert lookup.tree_kinds(folder) == Counter(kinds[p] for p in below), folder
    assert lookup.tree_kinds("nowhere") == Counter()
    for path in files:
        documented = lookup.documented_in(folder_of(path))
        assert (path in documented) == (kinds[path] != "binary")


def _above(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


@settings(max_examples=80, deadline=None)
@given(paths)
def test_folders_hold_every_file_under_every_folder_above_it(chosen: list[str]) -> None:
    from docgen.index.repo import _folders

    folders = _folders(sorted(chosen))
    assert list(folders) == sorted(folders) and "" in folders
    for path in chosen:
        assert folder_of(path) == posixpath.dirname(path)
        assert path in folders[folder_of(path)].files
        parts = path.split("/")
        for depth in range(1, len(parts)):
            parent, child = "/".join(parts[: depth - 1]), "/".join(parts[:depth])
            assert child in folders[parent].subfolders
    listed = sorted(p for entry in folders.values() for p in entry.files)
    assert listed == sorted(chosen)
    for entry in folders.values():
        assert list(entry.subfolders) == sorted(entry.subfolders)
        assert all(folder_of(sub) == entry.path for sub in entry.subfolders)
        assert all(sub in folders for sub in entry.subfolders)
