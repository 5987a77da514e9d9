"""One keyword entry per name, however many places define it: the first few linked, the
rest by line number, within a bounded line, so that no keyword-page line grows without
bound (a module with 99 `forward` methods still gets one readable bullet)."""

from __future__ import annotations

from docgen.render.listing_views import KeywordEntry, KeywordTarget

#: places of one name linked with their labels, at most
ENTRY_TARGETS = 3
#: characters one keyword bullet may take, links included
ENTRY_WIDTH = 1000
#: what a bullet takes besides its places: the bold name, the count, the joining words
ENTRY_FRAME = 80


def _width(target: KeywordTarget) -> int:
    """About what one linked place takes in the rendered bullet."""
    line = target.line
    return len(target.label) + len(target.href) + (len(line.href) + 16 if line else 0) + 10


def keyword_entries(by_name: dict[str, list[KeywordTarget]]) -> tuple[KeywordEntry, ...]:
    entries = []
    for name in sorted(by_name):
        places = by_name[name]
        if len(places) == 1:  # most names: the one place is linked, whatever its width
            entries.append(KeywordEntry(name, (places[0],), 0, 1, ()))
            continue
        budget = ENTRY_WIDTH - ENTRY_FRAME - 2 * len(name)
        linked: list[KeywordTarget] = []
        for target in places[:ENTRY_TARGETS]:
            if linked and _width(target) > budget:
                break
            linked.append(target)
            budget -= _width(target)
        rest = places[len(linked) :]
        lines: list[int] = []
        for number in dict.fromkeys(t.line.line for t in rest if t.line is not None):
            budget -= len(str(number)) + 3  # "L123, "
            if budget < 0:
                break
            lines.append(number)
        listed = set(lines)
        unlisted = sum(1 for t in rest if t.line is None or t.line.line not in listed)
        entries.append(KeywordEntry(name, tuple(linked), unlisted, len(places), tuple(lines)))
    return tuple(entries)
