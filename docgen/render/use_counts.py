"""How many other files use each Python and C-family definition of the tree, and on how many lines,
for the repository keyword index (whose pages list every definition): kept in the
state between builds.  A build counts again the files whose uses it looked for (see
`docgen.render.use_links`: every file for a first build, an edit's scope after it);
the other files keep the counts the last build found, which an edit cannot have
changed (their uses moved no row).  The names whose counts changed tell the keyword
letters whose pages must be made again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from docgen.render.use_links import FileUses, UseLinks

#: the state's meta key of the counts: {path: [[qualified name, files, lines, digest], ...]}
USE_COUNTS_META = "use-counts"
#: (other files, their lines) of one definition's uses
Count = tuple[int, int]
Counts = Mapping[str, Mapping[str, Count]]  # path -> qualified name -> count
#: path -> qualified name -> the digest of its uses (every file and line)
Digests = Mapping[str, Mapping[str, str]]


@dataclass(frozen=True)
class Stored:
    """The last build's counts, and the digests of the uses they count."""

    counts: Counts
    digests: Digests


@dataclass(frozen=True)
class UseCounts:
    """Every used Python definition's count, and the names whose counts this build
    changed."""

    counts: Counts = field(default_factory=lambda: MappingProxyType({}))
    changed: frozenset[str] = frozenset()  # last names
    as_kept: bool = False  # the same as the counts the state keeps (nothing to write)
    digests: Digests = field(default_factory=lambda: MappingProxyType({}))

    def of(self, path: str, qualname: str) -> Count | None:
        return self.counts.get(path, {}).get(qualname)

    def inputs(self, path: str) -> list[str]:
        """What a file's pages show of the files that use it, for their digests: the
        same whether its uses were looked for by this build or kept from the last."""
        digests = self.digests.get(path, {})
        return [
            f"{q}={files},{lines},{digests.get(q, '')}"
            for q, (files, lines) in sorted(self.counts.get(path, {}).items())
        ]

    def text(self) -> str:
        """The counts as the state keeps them (sorted: the same counts, the same text)."""
        rows = {
            path: [
                [q, files, lines, self.digests.get(path, {}).get(q, "")]
                for q, (files, lines) in sorted(by_name.items())
            ]
            for path, by_name in sorted(self.counts.items())
        }
        return json.dumps(rows, separators=(",", ":"))


def read_counts(text: str | None) -> dict[str, dict[str, Count]] | None:
    """The counts kept with `UseCounts.text`; None when none are kept or unreadable."""
    stored = read_stored(text)
    return {p: dict(by_name) for p, by_name in stored.counts.items()} if stored else None


def read_stored(text: str | None) -> Stored | None:
    """The counts and digests kept with `UseCounts.text`; None when none are kept or
    they cannot be read (a row without its digest: counted again)."""
    if not text:
        return None
    try:
        found = json.loads(text)
        counts: dict[str, dict[str, Count]] = {}
        digests: dict[str, dict[str, str]] = {}
        for path, rows in found.items():
            for q, files, lines, digest in rows:
                counts.setdefault(str(path), {})[str(q)] = (int(files), int(lines))
                digests.setdefault(str(path), {})[str(q)] = str(digest)
        return Stored(counts, digests)
    except (ValueError, TypeError, AttributeError):
        return None


def _last(qualname: str) -> str:
    """The last name of a Python (`a.b`) or C-family (`a::b`) qualified name."""
    return qualname.rpartition("::")[2].rpartition(".")[2]


def use_counts(stored: Stored | None, links: UseLinks, paths: Collection[str]) -> UseCounts:
    """The counts of the tree's Python and C-family files (`paths`): counted again for the
    files `links` looked for, the last build's (`stored`, None: none kept) for the
    others, each with the digest of the uses it counts."""
    kept = stored is not None
    counts: Counts = stored.counts if stored is not None else {}
    kept_digests: Digests = stored.digests if stored is not None else {}
    wanted = set(paths)
    # the files not looked for keep the last build's counts as they are read
    merged: dict[str, Mapping[str, Count]] = {p: c for p, c in counts.items() if p in wanted}
    digested: dict[str, Mapping[str, str]] = {p: d for p, d in kept_digests.items() if p in merged}
    changed: set[str] = set()
    digests_changed = False
    for path in sorted(p for p in wanted if links.has(p)):
        before = counts.get(path, {})
        found = links.of(path)
        now = {q: (len(u), sum(len(x.lines) for x in u)) for q, u in found.items()}
        moved = {q for q in before.keys() | now.keys() if before.get(q) != now.get(q)}
        changed.update(_last(q) for q in moved)
        digests = {q: _digest(u) for q, u in found.items()}
        digests_changed |= digests != dict(kept_digests.get(path, {}))
        if now:
            merged[path], digested[path] = MappingProxyType(now), MappingProxyType(digests)
        else:
            merged.pop(path, None)
            digested.pop(path, None)
    for path in counts.keys() - wanted:  # a file gone: its names' counts with it
        changed.update(_last(q) for q in counts[path])
    unchanged = kept and not changed and not digests_changed
    return UseCounts(
        MappingProxyType(dict(sorted(merged.items()))),
        frozenset(changed),
        unchanged,
        MappingProxyType(digested),
    )


def _digest(uses: Iterable[FileUses]) -> str:
    """Every file and line of one definition's uses, as a short digest."""
    text = "|".join(u.key() for u in uses)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
