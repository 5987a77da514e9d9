"""How a large letter of the keyword index is cut into pages: in order, none too long,
and cut where names' beginnings differ, so that a new name leaves the other pages be."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from docgen.model.letters import name_order
from docgen.render.keyword_views import _chunks, _pages

NAMES = st.lists(
    st.text(alphabet="abAB_xyzé0", min_size=1, max_size=6).map(lambda s: "b" + s),
    unique=True,
    max_size=80,
)


def ordered(names: list[str]) -> list[str]:
    return sorted(names, key=name_order)


@given(NAMES, st.integers(min_value=1, max_value=12))
def test_pages_keep_every_name_in_order_and_none_is_too_long(names: list[str], limit: int) -> None:
    names = ordered(names)
    pages = _pages(names, limit)
    assert [n for page in pages for n in page] == names
    assert all(0 < len(page) <= limit for page in pages)
    assert _pages(names, limit) == pages


def test_a_new_name_changes_its_own_page_only() -> None:
    names = ordered(
        [f"ba{i:02}" for i in range(6)] + [f"be{i:02}" for i in range(5)] + ["bo1", "bo2"]
    )
    before = _pages(names, 8)
    after = _pages(ordered([*names, "be99"]), 8)
    assert before == [tuple(names[:6]), tuple(names[6:])]
    assert after[0] == before[0]  # the `ba` page is as it was
    assert after[1] == (*names[6:11], "be99", "bo1", "bo2")


def test_names_that_share_long_beginnings_are_cut_by_count() -> None:
    prefix = "b" + "x" * 3000
    names = ordered([prefix + f"{i:04}" for i in range(2500)] + ["bA", "Ba"])
    pages = _pages(names, 1000)
    assert [len(p) for p in pages] == [2, 1000, 1000, 500]
    same = ordered(["Bcase", "bcase", "BCASE"])
    assert _pages(same, 2) == [tuple(same[:2]), tuple(same[2:])]


@given(
    NAMES.flatmap(
        lambda names: st.tuples(
            st.just(names), st.lists(st.integers(1, 9), min_size=len(names), max_size=len(names))
        )
    ),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=20),
)
def test_pages_are_cut_by_places_too_and_only_a_heavy_name_stands_alone_over_them(
    names_and_weights: tuple[list[str], list[int]], limit: int, places: int
) -> None:
    names, weights = names_and_weights
    weight = dict(zip(names, weights, strict=True))
    names = ordered(names)
    weights = [weight[n] for n in names]
    pages = _pages(names, limit, weights, places)
    assert [n for page in pages for n in page] == names
    for page in pages:
        assert 0 < len(page) <= limit
        assert sum(weight[n] for n in page) <= places or len(page) == 1
    assert _pages(names, limit, weights, places) == pages
    assert _pages(names, limit, [1] * len(names), len(names)) == _pages(names, limit)


def test_a_name_defined_in_many_places_gets_a_page_of_its_own() -> None:
    names = ordered(["sa", "schema", "schema_str", "self_", "set"])
    places = {"sa": 1, "schema": 3122, "schema_str": 3102, "self_": 298, "set": 137}
    pages = _pages(names, 1000, [places[n] for n in names], 2000)
    assert pages == [("sa",), ("schema",), ("schema_str",), ("self_", "set")]


def test_chunks_name_each_letters_pages() -> None:
    names = ordered(["apple", "avocado", "banana", "berry", "blue", "cherry"])
    chunks = _chunks(names, 2)
    assert [(c.page, c.part, c.parts, c.names) for c in chunks] == [
        ("keywords-a.md", 1, 1, ("apple", "avocado")),
        ("keywords-b.md", 1, 2, ("banana", "berry")),
        ("keywords-b-2.md", 2, 2, ("blue",)),
        ("keywords-c.md", 1, 1, ("cherry",)),
    ]
