"""A relation's kept rows read no sooner than needed: a file's rows when it is asked for,
the files of a key through the keys the state keeps, and the include graph and the
declaration pairs of a file made from the rows of the few files that share them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, clean_pages, copy_sample, page_files, run_build

import docgen.state.readers
from docgen.index.cfamily_keyed import KeyedIncludes, KeyedPairs
from docgen.index.cfamily_rows import DECLARATIONS, INCLUDES
from docgen.index.relations import Relation, RelationRows, made_from
from docgen.index.repo import build_index
from docgen.scan.workers import scan_data
from docgen.state import StateDamaged, open_state


def _row(data: list[str | int]) -> tuple[str, int]:
    name, line = data
    if not isinstance(name, str) or not isinstance(line, int):
        raise TypeError("a use is (name, line)")
    return name, line


USES: Relation[tuple[str, int]] = Relation("uses", "1", lambda row: row[0], _row, keyed=True)


def _kept_in_state(out: Path, rows: dict[str, tuple[tuple[str, int], ...]]) -> dict[str, str]:
    """Keep `rows` as a build would, and what they were made from."""
    sources = made_from(USES.context("tree"), {p: p for p in rows}, rows)
    with open_state(out) as state:
        fresh = [(p, sources[p], USES.encode(r)) for p, r in rows.items()]
        keys = [(p, [], sorted({k for k, _ in r})) for p, r in rows.items()]
        state.keep_per_file(USES.name, fresh, [], keys)
    return sources


def _counting_texts(monkeypatch: pytest.MonkeyPatch) -> list[list[str] | None]:
    """The paths each read of kept texts asks for (None: every one)."""
    asked: list[list[str] | None] = []
    real = docgen.state.readers.KeptPerFile.texts

    def counted(self: Any, paths: Any = None) -> dict[str, str]:
        asked.append(None if paths is None else sorted(paths))
        return real(self, paths)

    monkeypatch.setattr(docgen.state.readers.KeptPerFile, "texts", counted)
    return asked


def test_a_file_s_rows_are_read_when_asked_for_and_keys_find_their_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    rows = {"a.py": (("x", 1),), "b.py": (("y", 2), ("x", 3)), "c.py": (("z", 4),)}
    sources = _kept_in_state(out, rows)
    asked = _counting_texts(monkeypatch)
    with open_state(out) as state:
        kept = RelationRows(USES, state.kept_stamps(USES.name), sources, lambda p: ())
        assert asked == [] and kept.before == {}  # nothing read: every row still holds
        assert kept.holding({"x"}) == {"a.py", "b.py"}
        assert asked == [["a.py", "b.py"]]  # the files the keys name, not c.py
        assert kept.rows["b.py"] == (("y", 2), ("x", 3))
        assert kept.rows["c.py"] == (("z", 4),)
        assert asked == [["a.py", "b.py"], ["c.py"]]
        assert dict(kept.rows) == rows  # every row read already: nothing more is read
        assert len(asked) == 2


def test_a_key_that_lingers_names_no_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    sources = _kept_in_state(out, {"a.py": (("x", 1),)})
    with open_state(out) as state:  # a key kept for rows that no longer hold it
        state.keep_per_file(USES.name, [], [], [("a.py", [], ["stale"])])
    with open_state(out) as state:
        kept = RelationRows(USES, state.kept_stamps(USES.name), sources, lambda p: ())
        assert kept.holding({"stale"}) == set()
        assert kept.holding({"x"}) == {"a.py"}


def test_rows_made_again_stand_for_their_kept_keys(tmp_path: Path) -> None:
    out = tmp_path / "out"
    sources = _kept_in_state(out, {"a.py": (("x", 1),), "b.py": (("y", 2),)})
    edited = {**sources, "a.py": "edited"}
    with open_state(out) as state:
        kept = RelationRows(USES, state.kept_stamps(USES.name), edited, lambda p: (("y", 9),))
        assert kept.before == {"a.py": (("x", 1),)}
        assert kept.holding({"x"}) == set()  # a.py no longer points at x
        assert kept.holding({"y"}) == {"a.py", "b.py"}
        assert kept.keys_to_keep() == [("a.py", ["x"], ["y"])]


def test_a_kept_row_that_cannot_be_read_when_asked_for_is_the_state_damaged(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    sources = _kept_in_state(out, {"a.py": (("x", 1),)})
    with open_state(out) as state:
        state.keep_per_file(USES.name, [("a.py", sources["a.py"], "[[1")], [])
    with open_state(out) as state:
        kept = RelationRows(USES, state.kept_stamps(USES.name), sources, lambda p: ())
        with pytest.raises(StateDamaged):
            kept.rows["a.py"]


def test_keyed_includes_and_pairs_answer_as_the_graph_made_from_the_facts() -> None:
    repo = FIXTURES / "cpplike"
    files = [
        scan_data(p.relative_to(repo).as_posix(), p.read_bytes())
        for p in sorted(repo.rglob("*"))
        if p.is_file()
    ]
    index = build_index("cpplike", files, include_roots=("include",))
    side = index.c_family
    kept = {r.relation.name: {p: (by, t) for p, by, t in r.to_keep()} for r in side.every()}
    includes = RelationRows(INCLUDES, kept[INCLUDES.name], side.includes._made_from, tuple)
    declared = RelationRows(
        DECLARATIONS, kept[DECLARATIONS.name], side.declarations._made_from, tuple
    )
    graph = KeyedIncludes(includes, side.roots, side.guessed)
    pairs = KeyedPairs(declared, side.specialized)
    made = index.includes
    assert made.included_by  # something to compare
    for path in index.files:
        assert graph.included_by.get(path, ()) == made.included_by.get(path, ())
        assert graph.includes.get(path, ()) == made.includes.get(path, ())
        scanned = index.files[path]
        for d in scanned.facts.cfamily.definitions if scanned.facts.cfamily else ():
            assert pairs.counterparts(path, d) == index.symbols.counterparts(path, d)


def test_a_header_edit_reads_the_rows_of_the_files_that_share_its_names_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = copy_sample("cpplike", tmp_path / "work")
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    asked = _counting_texts(monkeypatch)
    header = repo / "include/mini/core/Tensor.h"
    header.write_text(header.read_text().replace("namespace core {\n", "namespace core {\n\n", 1))
    run_build(repo, out, jobs=1)
    assert asked and None not in asked  # never every row of a relation
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_builds_leave_no_connection_to_the_kept_rows_open(tmp_path: Path) -> None:
    """A pre-commit hook or a test run makes many builds in one process."""
    repo = copy_sample("cpplike", tmp_path / "work")
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    header = repo / "include/mini/core/Tensor.h"

    def open_files() -> int:
        return len(os.listdir("/proc/self/fd"))

    header.write_text(header.read_text() + "\n")
    run_build(repo, out, jobs=1)
    before = open_files()
    for _ in range(3):
        header.write_text(header.read_text() + "\n")
        run_build(repo, out, jobs=1)
    assert open_files() == before
