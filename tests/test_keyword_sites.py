"""The keyword index of an edit: only the letters the changed files touch are read and
made again, and the output is still a clean build's, byte for byte."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from conftest import pages_and_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.model.letters import letter_of
from docgen.render import keyword_views
from docgen.state import State


@contextmanager
def small_pages(single: int = 3, letter: int = 2, places: int = 3) -> Iterator[None]:
    """Split the index as a large repository's is, with a handful of names."""
    with (
        mock.patch.object(keyword_views, "SINGLE_PAGE_LIMIT", single),
        mock.patch.object(keyword_views, "LETTER_PAGE_LIMIT", letter),
        mock.patch.object(keyword_views, "LETTER_PAGE_PLACES", places),
    ):
        yield


def write_tree(repo: Path, files: dict[str, list[str]]) -> None:
    shutil.rmtree(repo, ignore_errors=True)
    for rel, names in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"def {name}():\n    pass\n\n\n" for name in names))


BASE = {
    "pkg/a.py": ["alpha", "apple", "Avocado", "beta"],
    "pkg/b.py": ["banana", "berry", "cherry", "_private"],
    "pkg/c.py": ["cedar", "delta", "echo", "émile"],
}


def test_an_edit_reads_the_letters_it_touches_and_equals_a_clean_build(
    tmp_path: Path,
) -> None:
    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    with small_pages():
        write_tree(repo, BASE)
        build(resolve_options(repo, out, 1))
        write_tree(repo, {**BASE, "pkg/b.py": ["banana", "berry", "cherry", "zebra"]})
        with mock.patch.object(State, "stored_sites", side_effect=AssertionError("read all")):
            report = build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    keyword_pages = sorted(p for p in report.written + report.pruned if p.startswith("keywords"))
    # `_private` left letter `_`, `zebra` came to `z`; the entry page counts them
    assert keyword_pages == ["keywords-_.md", "keywords-z.md", "keywords.md"]
    assert pages_and_rows(out) == pages_and_rows(clean)


def test_a_keyword_page_removed_by_hand_is_made_again(tmp_path: Path) -> None:
    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    with small_pages():
        write_tree(repo, BASE)
        build(resolve_options(repo, out, 1))
        (out / "keywords-d.md").unlink()
        write_tree(repo, {**BASE, "pkg/a.py": [*BASE["pkg/a.py"], "zulu"]})
        report = build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    assert "keywords-d.md" in report.written
    assert pages_and_rows(out) == pages_and_rows(clean)


def test_an_index_that_shrinks_to_one_page_is_made_whole(tmp_path: Path) -> None:
    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    with small_pages(single=10):
        write_tree(repo, BASE)
        build(resolve_options(repo, out, 1))
        assert (out / "keywords-a.md").exists()
        write_tree(repo, {"pkg/a.py": BASE["pkg/a.py"]})
        build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    assert not (out / "keywords-a.md").exists()
    assert pages_and_rows(out) == pages_and_rows(clean)


def test_a_site_written_twice_counts_twice(tmp_path: Path) -> None:
    """`import numpy as np, numpy as np` is two places of `np`, as a clean build says."""
    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    with small_pages():
        write_tree(repo, BASE)
        (repo / "pkg" / "m.py").write_text("import numpy as np\n")
        build(resolve_options(repo, out, 1))
        (repo / "pkg" / "m.py").write_text("import numpy as np, numpy as np\n")
        report = build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    assert "keywords-n.md" in report.written
    assert pages_and_rows(out) == pages_and_rows(clean)


def test_a_keyword_page_that_could_not_be_written_is_not_kept(tmp_path: Path) -> None:
    """A letter page whose write failed is not what the summary says: the next build
    makes every letter again rather than keep it."""
    from docgen.write import pages as write

    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    real = write.PageWriter._write

    def full_disk(self: write.PageWriter, rel: str, data: bytes, inputs: str) -> object:
        if rel.startswith("keywords-b"):
            raise OSError(28, "No space left on device")
        return real(self, rel, data, inputs)

    with small_pages():
        write_tree(repo, BASE)
        build(resolve_options(repo, out, 1))
        write_tree(repo, {**BASE, "pkg/a.py": [*BASE["pkg/a.py"], "berry2"]})
        with mock.patch.object(write.PageWriter, "_write", full_disk):
            failed = build(resolve_options(repo, out, 1))
        write_tree(repo, {**BASE, "pkg/a.py": [*BASE["pkg/a.py"], "berry2"], "pkg/e.py": ["eel"]})
        build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    assert any(w.path.startswith("keywords-b") for w in failed.warnings)
    assert pages_and_rows(out) == pages_and_rows(clean)


NAMES = st.sampled_from(
    ["alpha", "Apple", "amber", "bravo", "Bison", "charlie", "_x", "__y", "zeta", "émile", "ß"]
)
TREES = st.dictionaries(
    st.sampled_from(["m1.py", "m2.py", "pkg/m3.py", "pkg/sub/m4.py"]),
    st.lists(NAMES, max_size=5, unique=True),
    max_size=4,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(TREES, TREES, st.integers(1, 3))
def test_any_edit_of_a_split_index_equals_a_clean_build(
    before: dict[str, list[str]], after: dict[str, list[str]], letter_limit: int
) -> None:
    root = Path(tempfile.mkdtemp(prefix="docgen-kw-"))
    try:
        repo, out, clean = root / "repo", root / "out", root / "clean"
        with small_pages(single=2, letter=letter_limit):
            write_tree(repo, before)
            repo.mkdir(exist_ok=True)
            build(resolve_options(repo, out, 1))
            write_tree(repo, after)
            repo.mkdir(exist_ok=True)
            build(resolve_options(repo, out, 1))
            build(resolve_options(repo, clean, 1))
        assert pages_and_rows(out) == pages_and_rows(clean)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize(
    "name", ["a", "Z", "_", "__init__", "é", "ß", "中", "", "[", "`", "{", "~", "0", "@"]
)
def test_letter_ranges_hold_every_name_of_their_letter(tmp_path: Path, name: str) -> None:
    """The stored index read by letter finds a name exactly on its own letter."""
    from docgen.model.sites import DefinitionSite

    out = tmp_path / "out"
    out.mkdir()
    from docgen.state import open_state

    with open_state(out) as state:
        state.store_sites([DefinitionSite(name, "f.py", 1, "function", name, "")], {"f.py": "m"})
        for letter in keyword_views.LETTERS:
            found = state.letter_sites([letter], ())
            assert [s.name for s in found] == ([name] if letter == letter_of(name) else [])


def test_a_build_stopped_after_storing_the_index_leaves_no_stale_letter_page(
    tmp_path: Path,
) -> None:
    """The keyword index is stored while the pages render, before the letter pages'
    summary: a build stopped in between must not leave the next one keeping pages the
    stored index no longer matches."""
    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    with small_pages():
        write_tree(repo, BASE)
        build(resolve_options(repo, out, 1))
        write_tree(repo, {**BASE, "pkg/a.py": [*BASE["pkg/a.py"], "bravo"]})

        def stopped(jobs: object, workers: int, meanwhile: Callable[[], None]) -> None:
            meanwhile()  # what runs while the workers render, then Ctrl-C
            raise KeyboardInterrupt

        with (
            mock.patch("docgen.render.produce.render_all", side_effect=stopped),
            pytest.raises(KeyboardInterrupt),
        ):
            build(resolve_options(repo, out, 1))
        build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    assert pages_and_rows(out) == pages_and_rows(clean)


def _with_uses(repo: Path, used: list[str]) -> None:
    """`BASE` and a file that imports and calls `used` of `pkg/a.py` and `pkg/c.py`."""
    write_tree(repo, BASE)
    lines = [f"from pkg.{'a' if n in BASE['pkg/a.py'] else 'c'} import {n}\n" for n in used]
    lines += [f"{n}()\n" for n in used]
    (repo / "app.py").write_text("".join(lines), encoding="utf-8")


def test_a_name_whose_uses_changed_makes_its_letter_again_and_equals_a_clean_build(
    tmp_path: Path,
) -> None:
    repo, out, clean = tmp_path / "repo", tmp_path / "out", tmp_path / "clean"
    with small_pages():
        _with_uses(repo, ["alpha"])
        build(resolve_options(repo, out, 1))
        text = (out / "keywords-a.md").read_text(encoding="utf-8")
        assert "used in 1 other file (2 lines)" in text
        _with_uses(repo, ["alpha", "cedar"])  # `cedar` is used now: letter `c` changes
        with mock.patch.object(State, "stored_sites", side_effect=AssertionError("read all")):
            report = build(resolve_options(repo, out, 1))
        build(resolve_options(repo, clean, 1))
    keyword_pages = sorted(p for p in report.written if p.startswith("keywords"))
    assert keyword_pages == ["keywords-c.md"]
    assert "used in 1 other file (2 lines)" in (out / "keywords-c.md").read_text(encoding="utf-8")
    assert pages_and_rows(out) == pages_and_rows(clean)


NAMES = st.sampled_from([*BASE["pkg/a.py"], *BASE["pkg/c.py"]])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(NAMES, max_size=4, unique=True), st.lists(NAMES, max_size=4, unique=True))
def test_any_change_of_uses_in_a_split_index_equals_a_clean_build(
    before: list[str], after: list[str]
) -> None:
    root = Path(tempfile.mkdtemp(prefix="docgen-uses-"))
    try:
        repo, out, clean = root / "repo", root / "out", root / "clean"
        with small_pages(single=2, letter=2):
            _with_uses(repo, before)
            build(resolve_options(repo, out, 1))
            _with_uses(repo, after)
            build(resolve_options(repo, out, 1))
            build(resolve_options(repo, clean, 1))
        assert pages_and_rows(out) == pages_and_rows(clean)
    finally:
        shutil.rmtree(root, ignore_errors=True)
