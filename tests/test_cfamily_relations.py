"""The C-family relations kept between builds, and the facts left encoded meanwhile."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, clean_pages, copy_sample, count_decoding, page_files, run_build

import docgen.index.file_table
import docgen.index.repo
import docgen.state.readers
from docgen.index.attached_rows import ATTACHED_DOCS
from docgen.index.cfamily_relations import (
    CFileSummary,
    decode,
    encode,
    relations_key,
    relations_of,
)
from docgen.index.cfamily_rows import RELATIONS, include_names, kept_side
from docgen.index.file_table import FileTable
from docgen.index.native_calls import NATIVE_CALLS
from docgen.index.repo import RepoIndex, build_index, include_weights
from docgen.index.role_rows import ROLES
from docgen.model.digests import code_digest
from docgen.model.facts import ScannedFile
from docgen.model.languages import is_cfamily
from docgen.model.report import BuildReport
from docgen.model.serialize import dumps
from docgen.scan.workers import scan_data
from docgen.state import StateDamaged, open_state

CPPLIKE = FIXTURES / "cpplike"


def _scanned(repo: Path) -> list[ScannedFile]:
    return [
        scan_data(p.relative_to(repo).as_posix(), p.read_bytes())
        for p in sorted(repo.rglob("*"))
        if p.is_file()
    ]


def _summary(path: str) -> CFileSummary:
    stubs = (("add_stub", 2, "REGISTER_DISPATCH", "&add_kernel", ""),)
    return CFileSummary(path, "cfamily", ("test",), 3, (), stubs, f"shown:{path}")


def test_kept_relations_read_back_as_the_index_made_them() -> None:
    files = _scanned(CPPLIKE)
    index = build_index("cpplike", files, include_roots=("include",))
    assert index.includes.includes and index.symbols.counterparts_of  # something to keep
    weights = include_weights(index)
    assert any(weights.values())
    names = index.include_names
    kept = relations_of("k", index.c_family, index.files, _summary, weights, names)
    back = decode(encode(kept), "k")
    assert back == kept
    assert back.include_weights() == weights
    assert set(back.summaries()) == {p for p in index.files if is_cfamily(p)}
    # every relation's rows, as kept, make the same include graph and pairs again
    rows = {
        r.relation.name: {p: (by, text) for p, by, text in r.to_keep()}
        for r in index.c_family.every()
    }
    assert sorted(rows) == sorted(r.name for r in RELATIONS)
    side = kept_side(
        back.names,
        back.roots,
        back.guessed,
        frozenset(back.specialized),
        index.files,
        rows,
        {},  # the facts digests `build_index` was given: none
        code_digest(),
        index.files,
        (),
    )
    graph, made = side.include_graph(), index.includes
    assert dict(graph.includes) == dict(made.includes)
    assert dict(graph.included_by) == dict(made.included_by)
    for path in index.files:
        assert graph.includes_of(path) == made.includes_of(path)
        for includer in made.included_by.get(path, ()):
            assert graph.lines_including(includer, path) == made.lines_including(includer, path)
    assert (graph.roots, graph.guessed) == (made.roots, made.guessed)
    pairs = side.symbols()
    for scanned in files:
        for d in scanned.facts.cfamily.definitions if scanned.facts.cfamily else ():
            assert pairs.counterparts(scanned.facts.path, d) == index.symbols.counterparts(
                scanned.facts.path, d
            )
    assert index.symbols.counterparts_of  # some pairs to compare
    assert all(not r.before for r in side.every())  # every row kept


def test_relations_made_from_something_else_are_not_reused() -> None:
    files = _scanned(CPPLIKE)
    index = build_index("cpplike", files)
    kept = relations_of("k", index.c_family, index.files, _summary, {}, index.include_names)
    text = encode(kept)
    assert decode(text, "other") is None
    assert decode(text[: len(text) // 2], "k") is None  # cut short
    assert decode("", "k") is None
    assert decode(None, "k") is None


def test_the_key_follows_cfamily_facts_roots_code_and_the_paths_an_include_can_name() -> None:
    paths = ["a.h", "b.cpp", "c.py"]
    digests = {"a.h": "1", "b.cpp": "2", "c.py": "3"}
    names = ["a.h", "gen.inc"]

    def key(paths: list[str], digests: dict[str, str], roots: str = "include") -> str:
        return relations_key(paths, digests, (roots,), "code", names)

    kept = key(paths, digests)
    assert relations_key(reversed(paths), digests, ("include",), "code", names) == kept
    assert key(paths, {**digests, "c.py": "4"}) == kept  # not a C-family file
    assert key([*paths, "d.txt", "x/c.py"], digests) == kept  # no include can name them
    assert key([*paths, "x/gen.inc"], digests) != kept  # `#include "gen.inc"` may now
    assert key([*paths, "x/a.h"], digests) != kept
    assert key([*paths, "e.cuh"], {**digests, "e.cuh": "5"}) != kept
    assert key(paths, {**digests, "a.h": "5"}) != kept
    assert key(paths, digests, "src") != kept
    assert relations_key(paths, digests, ("include",), "new code", names) != kept
    assert relations_key(paths, digests, ("include",), "code", ["a.h"]) != kept


def test_include_names_are_the_last_parts_of_the_targets() -> None:
    index = build_index("cpplike", _scanned(CPPLIKE), include_roots=("include",))
    names = include_names(index.includes)
    targets = {r.target for rs in index.includes.includes.values() for r in rs}
    assert {t.rsplit("/", 1)[-1] for t in targets} <= set(names)
    assert "ScalarType.h" in names and "Tensor.h" in names


def _table() -> tuple[FileTable, dict[str, ScannedFile]]:
    files = {f.facts.path: f for f in _scanned(CPPLIKE)}
    cfamily = {p: dumps(f) for p, f in files.items() if is_cfamily(p)}
    others = {p: f for p, f in files.items() if not is_cfamily(p)}
    return FileTable(others, cfamily, {p: "cfamily" for p in cfamily}), files


def _spy_on_index(monkeypatch: pytest.MonkeyPatch) -> list[RepoIndex]:
    """Every index the builds make from now on, in order."""
    indexed: list[RepoIndex] = []
    real = docgen.index.repo.build_index

    def spying(*args: Any, **kwargs: Any) -> RepoIndex:
        indexed.append(real(*args, **kwargs))
        return indexed[-1]

    monkeypatch.setattr(docgen.index.repo, "build_index", spying)
    return indexed


def test_encoded_facts_are_decoded_once_and_only_when_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, files = _table()
    decoded = count_decoding(monkeypatch)
    assert list(table) == sorted(files) and len(table) == len(files)
    assert all(table.kind(p) == files[p].facts.kind for p in files)
    assert "src/Tensor.cpp" in table and "nowhere.cpp" not in table
    assert table.get("nowhere.cpp") is None
    assert decoded == []
    assert table["src/Tensor.cpp"] == files["src/Tensor.cpp"]
    assert table.get("src/Tensor.cpp") == files["src/Tensor.cpp"]
    assert decoded == ["src/Tensor.cpp"]
    assert dict(table.items()) == files


def test_damaged_encoded_facts_are_the_state_damaged() -> None:
    table = FileTable({}, {"a.h": "[1, 2", "b.h": dumps(_scanned(CPPLIKE)[0])}, {})
    with pytest.raises(StateDamaged):
        table["a.h"]
    with pytest.raises(StateDamaged):
        table["b.h"]  # another file's facts


def _with_python(tmp_path: Path) -> Path:
    repo = copy_sample("cpplike", tmp_path / "work")
    (repo / "tools").mkdir()
    (repo / "tools/gen.py").write_text('"""Generates."""\n\n\ndef gen():\n    return 1\n')
    return repo


def _renamed_and_built(repo: Path, out: Path) -> BuildReport:
    """A build after a new project name, which changes every page."""
    (repo / "pyproject.toml").write_text(
        (repo / "pyproject.toml").read_text().replace('name = "', 'name = "renamed-')
    )
    return run_build(repo, out, jobs=1)


def test_a_python_edit_leaves_cfamily_facts_encoded_and_equals_a_clean_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _with_python(tmp_path)
    (repo / "tools/util.py").write_text("class Helper:\n    pass\n")
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    decoded = count_decoding(monkeypatch)
    indexed = _spy_on_index(monkeypatch)
    kept_rows: list[str] = []
    real_texts = docgen.state.readers.KeptPerFile.texts

    def counted_texts(self: Any, paths: Any = None) -> dict[str, str]:
        kept_rows.append(self._kind)
        return real_texts(self, paths)

    monkeypatch.setattr(docgen.state.readers.KeptPerFile, "texts", counted_texts)
    with open(repo / "tools/gen.py", "a", encoding="utf-8") as handle:
        handle.write("\n\ndef added():\n    return 2\n")
    report = run_build(repo, out, jobs=1)
    assert (report.scanned, report.reused) == (1, report.files - 1)
    encoded = [p for p in indexed[0].files if indexed[0].files.is_encoded(p)]
    assert [p for p in encoded if is_cfamily(p)] == sorted(filter(is_cfamily, indexed[0].files))
    assert encoded != [] and "tools/gen.py" not in encoded  # only what was scanned is decoded
    # No C-family page was rendered, so no C-family facts were read (the page of the
    # folder tools/ lists the classes of its other file).
    assert decoded == ["tools/util.py"]
    # nor the kept include graph and declaration pairs (the edited Python file's role
    # native-call and attached-docstring rows are: what they were tells what its edit
    # moved)
    python = (ROLES.name, NATIVE_CALLS.name, ATTACHED_DOCS.name)
    assert [kind for kind in kept_rows if kind not in python] == []
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_kept_relations_found_damaged_when_read_make_the_build_start_afresh(
    tmp_path: Path,
) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    database = out / ".docgen" / "state.sqlite"
    with sqlite3.connect(database) as conn:
        query = "SELECT count(*) FROM per_file WHERE kind = 'includes'"
        assert conn.execute(query).fetchone()[0]
        conn.execute("UPDATE per_file SET text = '[1' WHERE kind = 'includes'")
    conn.close()
    report = _renamed_and_built(repo, out)  # the C-family pages read the relations
    assert any("discarded" in notice for notice in report.notices)
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_header_edit_makes_the_relations_again(tmp_path: Path) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    scalar = repo / "include/mini/core/ScalarType.h"
    scalar.write_text(scalar.read_text().replace("Int };", "Int, Half };"))
    run_build(repo, out, jobs=1)
    with open(repo / "tools/gen.py", "a", encoding="utf-8") as handle:
        handle.write("\n# a comment\n")
    run_build(repo, out, jobs=1)  # reuses what the header edit kept
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_damaged_row_of_encoded_facts_is_scanned_again_once_read(tmp_path: Path) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    with sqlite3.connect(out / ".docgen" / "state.sqlite") as conn:
        conn.execute("UPDATE files SET facts = '[1' WHERE path = 'src/Tensor.cpp'")
    conn.close()
    with open(repo / "tools/gen.py", "a", encoding="utf-8") as handle:
        handle.write("\n# a comment\n")
    # No page of it is made again, so its row is not read: its pages stay as they were.
    report = run_build(repo, out, jobs=1)
    assert report.scanned == 1
    assert page_files(out) == clean_pages(repo, tmp_path)
    # A header edit that adds an include makes the relations again from every C-family
    # file's facts (one that keeps its includes patches them: see below).
    scalar = repo / "include/mini/core/ScalarType.h"
    scalar.write_text("#include <cstddef>\n" + scalar.read_text())
    report = run_build(repo, out, jobs=1)
    assert report.scanned == 2  # the edited header and the damaged one
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_encoded_facts_found_damaged_when_read_make_the_build_start_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    real = docgen.index.file_table._decoded
    failed: list[str] = []

    def failing_once(path: str, text: str) -> ScannedFile:
        if not failed:
            failed.append(path)
            raise StateDamaged(f"the cached facts of {path} cannot be read")
        return real(path, text)

    monkeypatch.setattr(docgen.index.file_table, "_decoded", failing_once)
    report = _renamed_and_built(repo, out)  # every C-family page reads its facts
    assert failed
    assert any("discarded" in notice for notice in report.notices)
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_new_file_no_include_can_name_keeps_the_relations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _with_python(tmp_path)
    ring = repo / "c/ring.c"
    ring.write_text('#include "table.txt"\n' + ring.read_text())
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    indexed = _spy_on_index(monkeypatch)
    (repo / "tools/more.py").write_text("def more():\n    return 3\n")
    run_build(repo, out, jobs=1)
    assert indexed[-1].files.is_encoded("c/ring.c")  # reused
    assert page_files(out) == clean_pages(repo, tmp_path)
    (repo / "c/table.txt").write_text("1, 2, 3\n")  # what `#include "table.txt"` names
    run_build(repo, out, jobs=1)
    assert not indexed[-1].files.is_encoded("c/ring.c")  # made again
    assert indexed[-1].includes.included_by["c/table.txt"] == ("c/ring.c",)
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_file_of_another_kind_that_an_include_names_lists_its_includers(
    tmp_path: Path,
) -> None:
    """Its related files name the C-family files that include it: when one stops, its
    page is made again, as a clean build makes it."""
    repo = _with_python(tmp_path)
    (repo / "src/ops.def").write_text("OP(add)\nOP(mul)\n")
    tensor = repo / "src/Tensor.cpp"
    written = tensor.read_text()
    tensor.write_text('#include "ops.def"\n' + written)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    assert "Tensor.cpp" in (out / "src/ops.def_docs.md").read_text()
    tensor.write_text(written)
    report = run_build(repo, out, jobs=1)
    assert "src/ops.def_docs.md" in report.written
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_kept_rows_are_read_when_asked_and_only_as_their_stamps_were(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with open_state(out) as state:
        state.keep_per_file("includes", [("a.h", "s1", "[1]"), ("b.h", "s2", "[2]")], [])
    with open_state(out) as state:
        kept = state.kept_stamps("includes")
        assert kept.stamps == {"a.h": "s1", "b.h": "s2"}
        assert kept.texts(["b.h"]) == {"b.h": "[2]"}
        assert kept.texts() == {"a.h": "[1]", "b.h": "[2]"}
        state.keep_per_file("includes", [("a.h", "s3", "[3]")], [])
        state.commit()
        with pytest.raises(StateDamaged):
            kept.texts()  # kept again since its stamps were read


def _built(tmp_path: Path) -> tuple[Path, Path]:
    """The sample with a Python file, and its first build."""
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    return repo, out


def _comment_in_python(repo: Path) -> None:
    with open(repo / "tools/gen.py", "a", encoding="utf-8") as handle:
        handle.write("\n# a comment\n")


def kept_relations(out: Path) -> dict[str, str]:
    """The C-family relations a build kept, every row of them, as stored."""
    with sqlite3.connect(out / ".docgen" / "state.sqlite") as conn:
        rows = conn.execute("SELECT key, value FROM meta WHERE key LIKE 'cfamily_relations%'")
        found = dict(rows)
        kinds = tuple(r.name for r in RELATIONS)
        query = "SELECT kind, path, stamp, text FROM per_file WHERE kind IN (?, ?, ?)"
        for kind, path, stamp, text in conn.execute(query, kinds):
            found[f"{kind}:{path}"] = f"{stamp}\n{text}"
    conn.close()
    return found


def clean_relations(repo: Path, tmp_path: Path) -> dict[str, str]:
    out = tmp_path / "clean-relations"
    if out.exists():
        shutil.rmtree(out)
    run_build(repo, out, jobs=1)
    return kept_relations(out)


EDITS = {
    # lines shift under every pair of the header and its source file
    "shifted": ("include/mini/core/Tensor.h", "namespace core {\n", "namespace core {\n\n\n"),
    # a new declaration, not defined anywhere
    "declared": (
        "include/mini/core/Tensor.h",
        "MINI_API Tensor add(",
        "MINI_API Tensor sub(const Tensor& a, const Tensor& b);\nMINI_API Tensor add(",
    ),
    # a definition gone: the header's declaration loses its pair
    "undefined": ("src/Tensor.cpp", "Tensor::~Tensor() { --live_count_; }\n", ""),
    # a dispatch stub registered two lines lower
    "stub moved": ("src/ops/BinaryOps.cpp", "REGISTER_DISPATCH", "\n\nREGISTER_DISPATCH"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_header_edit_that_keeps_its_includes_keeps_the_relations_but_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    """Pages and kept relations as a clean build makes them, with the facts of the
    C-family files that hold none of the edited names left encoded."""
    repo, out = _built(tmp_path)
    indexed = _spy_on_index(monkeypatch)
    path, old, new = EDITS[edit]
    source = repo / path
    assert old in source.read_text()
    source.write_text(source.read_text().replace(old, new, 1))
    report = run_build(repo, out, jobs=1)
    assert report.scanned == 1
    index = indexed[-1]
    assert index.include_weights is not None  # the relations kept, their rows made again:
    assert set(index.c_family.declarations.before) == {path}  # the edited file's only
    assert index.files.is_encoded("c/ring.c") and index.files.is_encoded("src/cuda/Relu.cu")
    assert page_files(out) == clean_pages(repo, tmp_path)
    assert kept_relations(out) == clean_relations(repo, tmp_path)
    # the next build reuses what the patch kept
    _comment_in_python(repo)
    run_build(repo, out, jobs=1)
    assert indexed[-1].c_family is not index.c_family
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_header_edit_of_its_class_specializations_makes_the_relations_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, out = _built(tmp_path)
    indexed = _spy_on_index(monkeypatch)
    header = repo / "include/mini/core/Tensor.h"
    special = "template <>\nstruct TypedView<int> {\n  int& at(int64_t i);\n};\n\n"
    header.write_text(header.read_text().replace("using TensorList", special + "using TensorList"))
    run_build(repo, out, jobs=1)
    assert indexed[-1].include_weights is None  # made again
    assert not indexed[-1].files.is_encoded("c/ring.c")
    assert page_files(out) == clean_pages(repo, tmp_path)
    assert kept_relations(out) == clean_relations(repo, tmp_path)
