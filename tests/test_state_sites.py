"""The keyword index's table: filled whole or a file at a time, indexed either way."""

from __future__ import annotations

import pickle
import sqlite3

import pytest

import docgen.state.sites
from docgen.model.sites import DefinitionSite
from docgen.state.sites import INDEXES, find_sites, site_marks, store_sites


def site(name: str, path: str, line: int) -> DefinitionSite:
    return DefinitionSite(name, path, line, "function", name, f"function-{name}")


def indexes(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    return {name for (name,) in rows if not name.startswith("sqlite_")}


def test_a_first_fill_and_later_updates_keep_rows_and_indexes() -> None:
    conn = sqlite3.connect(":memory:")
    first = [site("alpha", "a.py", 1), site("beta", "b.py", 2), site("gamma", "b.py", 9)]
    store_sites(conn, first, {"a.py": "1", "b.py": "1"})
    assert indexes(conn) == set(INDEXES)
    assert find_sites(conn, "*", "glob") == sorted(first, key=lambda s: (s.name, s.path))
    # b.py changed: only its rows are replaced; the table is not empty, indexes stay
    second = [site("alpha", "a.py", 1), site("delta", "b.py", 4)]
    store_sites(conn, second, {"a.py": "1", "b.py": "2"})
    assert indexes(conn) == set(INDEXES)
    assert [s.name for s in find_sites(conn, "*", "glob")] == ["alpha", "delta"]
    # every file changed: the emptied table is filled again, then indexed
    third = [site("omega", "c.py", 3)]
    store_sites(conn, third, {"c.py": "1"})
    assert indexes(conn) == set(INDEXES)
    assert find_sites(conn, "omega") == third
    plan = " ".join(
        str(row)
        for row in conn.execute("EXPLAIN QUERY PLAN SELECT * FROM definitions WHERE name = 'x'")
    )
    assert "definitions_name" in plan


def test_rows_of_a_file_that_left_are_removed_even_without_a_mark() -> None:
    conn = sqlite3.connect(":memory:")
    store_sites(conn, [site("alpha", "a.py", 1)], {"a.py": "1"})
    # sites of a file the marks do not cover: kept marked, so that they can go
    store_sites(conn, [site("alpha", "a.py", 1), site("stray", "s.py", 2)], {"a.py": "1"})
    assert [s.name for s in find_sites(conn, "*", "glob")] == ["alpha", "stray"]
    store_sites(conn, [site("alpha", "a.py", 1)], {"a.py": "1"})
    assert [s.name for s in find_sites(conn, "*", "glob")] == ["alpha"]
    # a file gone from the tree takes its rows and its mark along
    store_sites(conn, [], {})
    assert find_sites(conn, "*", "glob") == []
    assert conn.execute("SELECT count(*) FROM site_sources").fetchone() == (0,)


def test_a_site_pickles_as_its_field_values() -> None:
    """Sites cross from the scan workers to the build, one list per file."""
    site = DefinitionSite("add", "aten/add.h", 3, "function", "at::add", "at-add")
    assert "__reduce__" in vars(DefinitionSite)
    assert pickle.loads(pickle.dumps(site)) == site
    assert pickle.loads(pickle.dumps([site, site])) == [site, site]


def test_marks_read_before_are_used_as_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that read the marks to find its changed files hands them over: the table
    ends as it would after reading them again, and they are not read again."""
    given, again = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    first = [site("alpha", "a.py", 1), site("beta", "b.py", 2)]
    for conn in (given, again):
        store_sites(conn, first, {"a.py": "1", "b.py": "1"})
    marks = site_marks(given)
    store_sites(again, [site("delta", "b.py", 4)], {"a.py": "1", "b.py": "2"})

    def refuse(conn: sqlite3.Connection) -> dict[str, str]:
        raise AssertionError("the marks were read again")

    monkeypatch.setattr(docgen.state.sites, "site_marks", refuse)
    store_sites(given, [site("delta", "b.py", 4)], {"a.py": "1", "b.py": "2"}, marks)
    rows = "SELECT * FROM definitions ORDER BY name"
    assert list(given.execute(rows)) == list(again.execute(rows))
    sources = "SELECT * FROM site_sources ORDER BY path"
    assert (
        list(given.execute(sources))
        == list(again.execute(sources))
        == [("a.py", "1"), ("b.py", "2")]
    )
