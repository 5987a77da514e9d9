"""The C-family relations kept between builds, and the facts left encoded meanwhile."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, copy_sample, page_files, run_build

import docgen.file_table
import docgen.index
from docgen.cfamily_relations import (
    CFileSummary,
    decode,
    encode,
    is_cfamily,
    relations_key,
    relations_of,
)
from docgen.facts import ScannedFile
from docgen.file_table import FileTable
from docgen.index import RepoIndex, build_index
from docgen.serialize import dumps
from docgen.state import StateDamaged
from docgen.workers import scan_data

CPPLIKE = FIXTURES / "cpplike"


def _scanned(repo: Path) -> list[ScannedFile]:
    return [
        scan_data(p.relative_to(repo).as_posix(), p.read_bytes())
        for p in sorted(repo.rglob("*"))
        if p.is_file()
    ]


def _summary(path: str) -> CFileSummary:
    return CFileSummary(path, "cfamily", ("test",), 3, (), ("stub",), f"shown:{path}")


def test_kept_relations_read_back_as_the_index_made_them() -> None:
    files = _scanned(CPPLIKE)
    index = build_index("cpplike", files, include_roots=("include",))
    assert index.includes.includes and index.symbols.counterparts_of  # something to keep
    kept = relations_of("k", index.includes, index.symbols, index.files, _summary)
    back = decode(encode(kept), "k")
    assert back == kept
    assert back.include_graph() == index.includes
    assert back.symbols() == index.symbols
    assert set(back.summaries()) == {p for p in index.files if is_cfamily(p)}


def test_relations_made_from_something_else_are_not_reused() -> None:
    files = _scanned(CPPLIKE)
    index = build_index("cpplike", files)
    text = encode(relations_of("k", index.includes, index.symbols, index.files, _summary))
    assert decode(text, "other") is None
    assert decode(text[: len(text) // 2], "k") is None  # cut short: made afresh
    assert decode("", "k") is None
    assert decode(None, "k") is None


def test_the_key_follows_cfamily_facts_paths_roots_and_code() -> None:
    paths = ["a.h", "b.cpp", "c.py"]
    digests = {"a.h": "1", "b.cpp": "2", "c.py": "3"}
    key = relations_key(paths, digests, ("include",), "code")
    assert relations_key(reversed(paths), digests, ("include",), "code") == key
    assert relations_key(paths, {**digests, "c.py": "4"}, ("include",), "code") == key
    assert relations_key(paths, {**digests, "a.h": "5"}, ("include",), "code") != key
    assert relations_key([*paths, "d.txt"], digests, ("include",), "code") != key
    assert relations_key(paths, digests, ("src",), "code") != key
    assert relations_key(paths, digests, ("include",), "new code") != key


def _table() -> tuple[FileTable, dict[str, ScannedFile]]:
    files = {f.facts.path: f for f in _scanned(CPPLIKE)}
    cfamily = {p: dumps(f) for p, f in files.items() if is_cfamily(p)}
    others = {p: f for p, f in files.items() if not is_cfamily(p)}
    return FileTable(others, cfamily, {p: "cfamily" for p in cfamily}), files


def _count_decoding(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose encoded facts are decoded from now on, in order."""
    decoded: list[str] = []
    real = docgen.file_table._decoded

    def counting(path: str, text: str) -> ScannedFile:
        decoded.append(path)
        return real(path, text)

    monkeypatch.setattr(docgen.file_table, "_decoded", counting)
    return decoded


def test_encoded_facts_are_decoded_once_and_only_when_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, files = _table()
    decoded = _count_decoding(monkeypatch)
    assert list(table) == sorted(files) and len(table) == len(files)
    assert all(table.kind(p) == files[p].facts.kind for p in files)
    assert "src/Tensor.cpp" in table and "nowhere.cpp" not in table
    assert table.get("nowhere.cpp") is None
    assert decoded == []
    assert table["src/Tensor.cpp"] == files["src/Tensor.cpp"]
    assert table.get("src/Tensor.cpp") == files["src/Tensor.cpp"]
    assert decoded == ["src/Tensor.cpp"]
    assert dict(table.items()) == files


def test_replacing_a_file_keeps_the_others_encoded() -> None:
    table, files = _table()
    other = files["README.md"]
    replaced = table.replaced({"src/Tensor.cpp": other})
    assert replaced["src/Tensor.cpp"] is other
    assert not replaced.is_encoded("src/Tensor.cpp")
    assert replaced.is_encoded("src/broken.cpp")
    assert set(replaced) == set(table)


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


def _clean_pages(repo: Path, tmp_path: Path) -> dict[str, bytes]:
    out = tmp_path / "clean-out"
    run_build(repo, out, jobs=1)
    return page_files(out)


def test_a_python_edit_leaves_cfamily_facts_encoded_and_equals_a_clean_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    decoded = _count_decoding(monkeypatch)
    indexed: list[RepoIndex] = []
    real_index = docgen.index.build_index

    def spying(*args: Any, **kwargs: Any) -> RepoIndex:
        indexed.append(real_index(*args, **kwargs))
        return indexed[-1]

    monkeypatch.setattr(docgen.index, "build_index", spying)
    with open(repo / "tools/gen.py", "a", encoding="utf-8") as handle:
        handle.write("\n\ndef added():\n    return 2\n")
    report = run_build(repo, out, jobs=1)
    assert report.scanned == 1
    encoded = [p for p in indexed[0].files if indexed[0].files.is_encoded(p)]
    assert encoded == sorted(p for p in indexed[0].files if is_cfamily(p)) != []
    assert decoded == []  # no C-family page was rendered, so no C-family facts were read
    assert page_files(out) == _clean_pages(repo, tmp_path)


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
    assert page_files(out) == _clean_pages(repo, tmp_path)


def test_a_damaged_row_of_encoded_facts_is_scanned_again(tmp_path: Path) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    with sqlite3.connect(out / ".docgen" / "state.sqlite") as conn:
        conn.execute("UPDATE files SET facts = '[1' WHERE path = 'src/Tensor.cpp'")
    conn.close()
    with open(repo / "tools/gen.py", "a", encoding="utf-8") as handle:
        handle.write("\n# a comment\n")
    # its digest is part of what the relations follow from: they are made afresh
    report = run_build(repo, out, jobs=1)
    assert report.scanned == 2  # the edited file and the damaged one
    assert page_files(out) == _clean_pages(repo, tmp_path)


def test_encoded_facts_found_damaged_when_read_make_the_build_start_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _with_python(tmp_path)
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    real = docgen.file_table._decoded
    failed: list[str] = []

    def failing_once(path: str, text: str) -> ScannedFile:
        if not failed:
            failed.append(path)
            raise StateDamaged(f"the cached facts of {path} cannot be read")
        return real(path, text)

    monkeypatch.setattr(docgen.file_table, "_decoded", failing_once)
    # A new project name changes every page, so every C-family page reads its facts.
    (repo / "pyproject.toml").write_text(
        (repo / "pyproject.toml").read_text().replace('name = "', 'name = "renamed-')
    )
    report = run_build(repo, out, jobs=1)
    assert failed
    assert any("discarded" in notice for notice in report.notices)
    assert page_files(out) == _clean_pages(repo, tmp_path)
