"""The facts rows of the state database: read by path, and left there until needed."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import copy_sample, run_build
from hypothesis import given
from hypothesis import strategies as st

from docgen.cli.build_options import resolve_options
from docgen.cli.check import check
from docgen.cli.clean import clean
from docgen.model.digests import facts_digest
from docgen.model.errors import DocgenError
from docgen.model.sources import SourceFile
from docgen.scan import learned_macros
from docgen.scan.cfamily.preprocess.macro_def import MacroDef
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.learned_macros import learned_settings
from docgen.state import STATE_DIR, State, missing_state, open_state, read_state
from docgen.state.db import STATE_FILE
from docgen.state.facts import StoredFacts, read_facts, stamp_text

CHILD_TEXT: list[str] = []


def _database(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A built sample's state database, and its facts rows (path -> JSON)."""
    out = tmp_path / "out"
    run_build(copy_sample("cpplike", tmp_path), out, jobs=1)
    database = out / STATE_DIR / STATE_FILE
    with sqlite3.connect(database) as conn:
        rows = dict(conn.execute("SELECT path, facts FROM files"))
    conn.close()
    return database, rows


def _read_in_child(stored: StoredFacts, path: str, pipe: object) -> None:
    pipe.send(stored[path])  # type: ignore[attr-defined]


def test_rows_are_read_by_path_with_their_digests_kept(tmp_path: Path) -> None:
    database, rows = _database(tmp_path)
    paths = sorted(rows)
    with sqlite3.connect(database) as conn:
        assert read_facts(conn, [*paths, "missing.py"]) == rows
        kept = dict(conn.execute("SELECT path, digest FROM files"))
    conn.close()
    assert kept == {path: facts_digest(text) for path, text in rows.items()}


def test_stored_facts_are_read_when_asked_in_any_process(tmp_path: Path) -> None:
    database, rows = _database(tmp_path)
    path = sorted(rows)[0]
    stored = StoredFacts(str(database), {path: facts_digest(rows[path])})
    assert list(stored) == [path] and len(stored) == 1 and path in stored
    assert stored[path] == rows[path]
    if "fork" in multiprocessing.get_all_start_methods():
        here, there = multiprocessing.get_context("fork").Pipe()
        child = multiprocessing.get_context("fork").Process(
            target=_read_in_child, args=(stored, path, there)
        )
        child.start()
        assert here.recv() == rows[path]  # through the child's own connection
        child.join()
        assert child.exitcode == 0


def test_a_row_that_no_longer_holds_its_digest_is_missing(tmp_path: Path) -> None:
    database, rows = _database(tmp_path)
    path = sorted(rows)[0]
    stored = StoredFacts(str(database), {path: facts_digest(rows[path]), "gone.py": "x"})
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE files SET facts = '[]' WHERE path = ?", (path,))
    conn.close()
    with pytest.raises(KeyError):
        stored[path]
    assert stored.get(path) is None and stored.get("gone.py") is None


def test_rows_of_another_facts_key_are_forgotten_by_the_next_build(tmp_path: Path) -> None:
    """Rows made by other code of docgen's (another facts key) are deleted, whether their
    path is still in the tree or not; the rows of this build's key are kept."""
    database, rows = _database(tmp_path)
    kept = sorted(rows)[0]
    with sqlite3.connect(database) as conn:
        conn.execute(
            "INSERT INTO files SELECT 'gone/old.py', stamp, sha256, 'other code', digest, "
            "summary, facts FROM files WHERE path = ?",
            (kept,),
        )
    conn.close()
    edited = tmp_path / "cpplike" / "README.md"  # a build with something to do
    edited.write_text(edited.read_text() + "\nOne more line.\n")
    run_build(tmp_path / "cpplike", tmp_path / "out", jobs=1)
    with sqlite3.connect(database) as conn:
        after = {path for (path,) in conn.execute("SELECT path FROM files")}
    conn.close()
    assert after == set(rows)


def test_a_state_of_another_version_reads_as_none(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_build(copy_sample("cpplike", tmp_path), out, jobs=1)
    with read_state(out) as state:
        assert state is not None
    with open_state(out) as writable:
        writable.set_meta("state_version", "0")
    with read_state(out) as state:
        assert state is None


def _header(tmp_path: Path, name: str, text: str) -> SourceFile:
    path = tmp_path / "repo" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    st = path.stat()
    return SourceFile(name, str(path), st.st_size, (st.st_size, st.st_mtime_ns, 0, st.st_ino))


def test_scan_settings_round_trip_through_json() -> None:
    settings = ScanSettings.of(
        "c", attribute={"API", "HOST()"}, namespace=[("NS", "a::b")], wrapper=[("W()", 1)]
    )
    back = ScanSettings.from_json(settings.to_json())
    assert back == settings and back is not None and back.key() == settings.key()
    assert ScanSettings.from_json("[1]") is None and ScanSettings.from_json("") is None


def test_scan_settings_are_learned_again_only_when_a_header_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _header(tmp_path, "api.h", '#define MY_API __attribute__((visibility("default")))\n')
    other = _header(tmp_path, "other.h", "#define OTHER 1\n")
    out = tmp_path / "out"
    with open_state(out) as state:
        first = learned_settings(state, [api, other], "cpp", ("EXTRA",))
    assert {"MY_API", "EXTRA"} <= first.attribute_macros
    learned: list[int] = []
    real = learned_macros.learned_macro_defs

    def counted(state: State, sources: Sequence[SourceFile]) -> list[MacroDef]:
        learned.append(len(sources))
        return real(state, sources)

    monkeypatch.setattr(learned_macros, "learned_macro_defs", counted)
    with open_state(out) as state:
        assert learned_settings(state, [api, other], "cpp", ("EXTRA",)) == first
    assert learned == []  # kept from the last build
    changed = _header(tmp_path, "other.h", "#define OTHER_API [[nodiscard]]\n#define X 2\n")
    with open_state(out) as state:
        again = learned_settings(state, [api, changed], "cpp", ("EXTRA",))
        assert learned_settings(state, [api, changed], "cpp", ()) != again  # configured differ
    assert learned == [2, 2]
    assert "OTHER_API" in again.attribute_macros
    unstamped = SourceFile(changed.path, changed.abs_path, changed.size)
    with open_state(out) as state:
        assert learned_settings(state, [api, unstamped], "cpp", ("EXTRA",)) == again
        assert learned_settings(state, [api, unstamped], "cpp", ("EXTRA",)) == again
    assert learned == [2, 2, 2, 2]  # without a stamp, a header is always read


def test_a_state_of_another_version_is_still_cleaned_and_named_in_messages(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    repo = copy_sample("cpplike", tmp_path)
    run_build(repo, out, jobs=1)
    pages = sorted(p for p in out.rglob("*.md"))
    assert pages
    with open_state(out) as writable:
        writable.set_meta("state_version", "0")
    assert missing_state(out) == (
        f"the docgen state in {out} cannot be used: it was written by another version of docgen"
    )
    with pytest.raises(DocgenError, match="written by another version of docgen"):
        check(resolve_options(repo, out, 1))
    report = clean(out)
    assert sorted(out / p for p in report.removed) == pages
    assert not any(out.rglob("*.md"))
    assert missing_state(out) == f"no docgen build in {out}"


@given(st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=5))
def test_a_stamp_is_kept_as_json_writes_it(stamp: list[int]) -> None:
    assert stamp_text(tuple(stamp)) == json.dumps(stamp)
