"""How many other files use each Python and C-family definition of the tree, and on how many lines,
for the repository keyword index (whose pages list every definition): kept in the
state between builds.  A build counts again the files whose uses it looked for (see
`docgen.render.use_links`: every file for a first build, an edit's scope after it);
the other files keep the counts the last build found, which an edit cannot have
changed (their uses moved no row).  The names whose counts changed tell the keyword
letters whose pages must be made again."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from docgen.render.use_links import UseLinks

#: the state's meta key of the counts: {path: [[qualified name, files, lines], ...]}
USE_COUNTS_META = "use-counts"
#: (other files, their lines) of one definition's uses
Count = tuple[int, int]
Counts = Mapping[str, Mapping[str, Count]]  # path -> qualified name -> count


@dataclass(frozen=True)
class UseCounts:
    """Every used Python definition's count, and the names whose counts this build
    changed."""

    counts: Counts = field(default_factory=lambda: MappingProxyType({}))
    changed: frozenset[str] = frozenset()  # last names
    as_kept: bool = False  # the same as the counts the state keeps (nothing to write)

    def of(self, path: str, qualname: str) -> Count | None:
        return self.counts.get(path, {}).get(qualname)

    def text(self) -> str:
        """The counts as the state keeps them (sorted: the same counts, the same text)."""
        rows = {
            path: [[q, files, lines] for q, (files, lines) in sorted(by_name.items())]
            for path, by_name in sorted(self.counts.items())
        }
        return json.dumps(rows, separators=(",", ":"))


def read_counts(text: str | None) -> dict[str, dict[str, Count]] | None:
    """The counts kept with `UseCounts.text`; None when none are kept or unreadable."""
    if not text:
        return None
    try:
        found = json.loads(text)
        return {
            str(path): {str(q): (int(files), int(lines)) for q, files, lines in rows}
            for path, rows in found.items()
        }
    except (ValueError, TypeError, AttributeError):
        return None


def _last(qualname: str) -> str:
    """The last name of a Python (`a.b`) or C-family (`a::b`) qualified name."""
    return qualname.rpartition("::")[2].rpartition(".")[2]


def use_counts(stored: Counts | None, links: UseLinks, paths: Collection[str]) -> UseCounts:
    """The counts of the tree's Python and C-family files (`paths`): counted again for the files
    `links` looked for, the last build's (`stored`, None: none kept) for the others."""
    kept = stored is not None
    stored = stored or {}
    merged: dict[str, Mapping[str, Count]] = {}
    changed: set[str] = set()
    for path in sorted(set(paths)):
        before = stored.get(path, {})
        if links.has(path):
            now = {q: (len(u), sum(len(x.lines) for x in u)) for q, u in links.of(path).items()}
            moved = {q for q in before.keys() | now.keys() if before.get(q) != now.get(q)}
            changed.update(_last(q) for q in moved)
        else:
            now = dict(before)
        if now:
            merged[path] = MappingProxyType(now)
    for path in stored.keys() - set(paths):  # a file gone: its names' counts with it
        changed.update(_last(q) for q in stored[path])
    return UseCounts(MappingProxyType(merged), frozenset(changed), kept and not changed)
