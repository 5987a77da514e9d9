"""One keyword entry per name, however many places define it: the first few linked, the
rest by line number, so that no keyword-page line grows without bound."""

from __future__ import annotations

from .views import KeywordEntry, KeywordTarget

#: places of one name linked with their labels
ENTRY_TARGETS = 3
#: further places listed by line number before "and N more"
ENTRY_LINES = 80


def keyword_entries(by_name: dict[str, list[KeywordTarget]]) -> tuple[KeywordEntry, ...]:
    entries = []
    for name in sorted(by_name):
        places = by_name[name]
        rest = places[ENTRY_TARGETS:]
        lines = tuple(dict.fromkeys(t.line.line for t in rest if t.line is not None))
        lines = lines[:ENTRY_LINES]
        listed = set(lines)
        unlisted = sum(1 for t in rest if t.line is None or t.line.line not in listed)
        entries.append(
            KeywordEntry(
                name,
                tuple(places[:ENTRY_TARGETS]),
                more=unlisted,
                count=len(places),
                more_lines=lines,
            )
        )
    return tuple(entries)
