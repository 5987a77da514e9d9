"""One keyword entry per name: the first places linked, the rest by line, bounded."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from docgen.render.entries import ENTRY_TARGETS, ENTRY_WIDTH, keyword_entries
from docgen.render.listing_views import KeywordTarget
from docgen.render.view_refs import LineRef

targets = st.builds(
    KeywordTarget,
    st.text(min_size=1, max_size=600),
    st.text(max_size=300),
    st.none() | st.builds(LineRef, st.integers(1, 10**6), st.text(max_size=300)),
)
by_name = st.dictionaries(st.text(min_size=1, max_size=40), st.lists(targets, min_size=1))


@given(by_name)
def test_every_place_is_linked_listed_by_line_or_counted(
    names: dict[str, list[KeywordTarget]],
) -> None:
    entries = keyword_entries(names)
    assert [e.name for e in entries] == sorted(names)
    for entry in entries:
        places = names[entry.name]
        linked = len(entry.targets)
        assert entry.count == len(places)
        assert 1 <= linked <= ENTRY_TARGETS
        assert list(entry.targets) == places[:linked]  # the first places, in order
        rest = places[linked:]
        assert len(set(entry.more_lines)) == len(entry.more_lines)
        assert set(entry.more_lines) <= {t.line.line for t in rest if t.line is not None}
        listed = set(entry.more_lines)
        unlisted = [t for t in rest if t.line is None or t.line.line not in listed]
        assert entry.more == len(unlisted)


def test_one_place_is_linked_however_wide() -> None:
    wide = KeywordTarget("x" * (2 * ENTRY_WIDTH), "#x", LineRef(3, "src#L3"))
    (entry,) = keyword_entries({"x": [wide]})
    assert (entry.targets, entry.more, entry.count, entry.more_lines) == ((wide,), 0, 1, ())


def test_places_past_the_width_are_listed_by_line_then_counted() -> None:
    place = KeywordTarget("q" * 300, "#a", LineRef(1, "s#L1"))
    many = [place, *(KeywordTarget("q" * 300, "#a", LineRef(n, f"s#L{n}")) for n in range(2, 500))]
    (entry,) = keyword_entries({"forward": many})
    assert len(entry.targets) < ENTRY_TARGETS  # the second place did not fit beside the first
    assert entry.more_lines[:3] == (
        len(entry.targets) + 1,
        len(entry.targets) + 2,
        len(entry.targets) + 3,
    )
    assert entry.more > 0
    assert len(entry.targets) + len(entry.more_lines) + entry.more == 499
