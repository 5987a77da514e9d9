"""The site's symbol search: the keyword index cut into small script files.

A name is found by the words it is made of: `DetectAnomalyGuard` by `detect...`,
`anomaly...` and `guard...`, `add_out` by `add...` and `out...`, a qualified name
`at::native::add_out` by its whole text too.  Each entry goes into the shard of
the first characters of each of its words, so a query reads one shard, named by
its own first characters; a shard over the size budget is cut by one more
character.  Shards are scripts that hand their entries to the page's search
(`<script src>` works from `file://`, where fetching JSON does not), loaded only
when someone searches.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from docgen.model.links import page_stem
from docgen.model.sites import DefinitionSite
from docgen.render.use_counts import Counts
from docgen.site import SEARCH_FOLDER

#: A shard may not be larger than this; the build warns about one it cannot cut.
SHARD_BUDGET = 256 * 1024
#: Characters of a key at first, and at most.
FIRST_KEY, LAST_KEY = 2, 96

#: Room kept in a shard for the script around its entries (and escaped `</`).
_WRAPPER = 1024

_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_.:~]+")
_KEY_CHAR = re.compile(r"[^a-z0-9]")


def words(name: str) -> list[str]:
    """The lower-case suffixes of `name` that start a word (the name itself first)."""
    found = [name.lower()]
    for match in _WORD_START.finditer(name):
        rest = name[match.end() :].lower()
        if rest and rest not in found:
            found.append(rest)
    return found


def tokens(name: str, qualname: str) -> list[str]:
    """What a query may begin with to find a site of this name."""
    found = words(name)
    qualified = qualname.lower()
    if qualified not in found:
        found.append(qualified)
    return found


def key_of(text: str, length: int) -> str:
    """The shard key of a token or query: its first characters, in a file-name alphabet
    (JavaScript's `docgenKey` does the same)."""
    return _KEY_CHAR.sub("_", text[:length].lower())


@dataclass(frozen=True)
class _Row:
    """One site: the tokens that find it (as keys), its entry in a shard, its size there."""

    tokens: tuple[str, ...]
    entry: tuple[str | int, ...]  # name, kind, qualname, path, anchor (see `_entry`)
    size: int
    order: int  # its place among all entries, which are sorted


@dataclass(frozen=True)
class SearchIndex:
    """The search index's files, and the shards it could not keep within budget."""

    files: dict[str, str]  # site path -> text
    warnings: tuple[str, ...]  # shards over the budget that could not be cut


def search_index(sites: Iterable[DefinitionSite], counts: Counts | None = None) -> SearchIndex:
    """The manifest and every shard, deterministic for the same sites and `counts` (how
    many other files use each Python definition, see `docgen.render.use_counts`)."""
    entries = sorted(
        _entry(site, counts or {})
        for site in {(s.name, s.kind, s.qualname, s.path, s.anchor) for s in sites}
    )
    rows = [
        _Row(
            tuple(sorted({key_of(t, len(t)) for t in tokens(str(e[0]), str(e[2]))})),
            e,
            len(json.dumps(e, ensure_ascii=True, separators=(",", ":"))) + 1,
            order,
        )
        for order, e in enumerate(entries)
    ]
    shards: dict[str, list[_Row]] = {}
    split: list[str] = []
    warnings: list[str] = []
    _fill([(t, row) for row in rows for t in row.tokens], FIRST_KEY, shards, split, warnings)
    files = {
        f"{SEARCH_FOLDER}/{key}.js": _script("shard", key, [list(r.entry) for r in members])
        for key, members in sorted(shards.items())
    }
    manifest = {"split": sorted(split), "keys": sorted(shards), "first": FIRST_KEY}
    files[f"{SEARCH_FOLDER}/manifest.js"] = _script("manifest", "", manifest)
    return SearchIndex(files, tuple(warnings))


def _entry(site: tuple[str, str, str, str, str], counts: Counts) -> tuple[str | int, ...]:
    """name, kind, qualname, path, anchor, then the page stem when it is not the path,
    then (its stem or "") the number of other files that use it, when any do."""
    stem = page_stem(site[3])
    used = counts.get(site[3], {}).get(site[2])
    if used:
        return (*site, stem if stem != site[3] else "", used[0])
    return (*site, stem) if stem != site[3] else site


def _fill(
    pairs: Sequence[tuple[str, _Row]],
    length: int,
    shards: dict[str, list[_Row]],
    split: list[str],
    warnings: list[str],
) -> None:
    """Put each row in the shard of its tokens' first `length` characters (`pairs`: each
    token with its row); a shard over the budget is cut by one more character, keeping
    only the rows with a token that ends there."""
    by_token: dict[str, list[tuple[str, _Row]]] = defaultdict(list)
    for token, row in pairs:
        by_token[token[:length]].append((token, row))
    for key in sorted(by_token):
        members = _ordered(row for _, row in by_token[key])
        if sum(r.size for r in members) <= _room() or length >= LAST_KEY:
            shards[key] = _within_budget(key, members, warnings)
            continue
        split.append(key)
        ending = _ordered(row for token, row in by_token[key] if token == key)
        if ending:
            shards[key] = _within_budget(key, ending, warnings)
        deeper = [(token, row) for token, row in by_token[key] if len(token) > length]
        # Where every longer token goes on with the same characters, the keys in
        # between would each hold all of them: they are only marked as cut.
        common = os.path.commonprefix([token for token, _ in deeper])  # noqa: RUF071
        skip_to = max(length + 1, min(len(common), LAST_KEY))
        split.extend(common[:n] for n in range(length + 1, skip_to))
        _fill(deeper, skip_to, shards, split, warnings)


def _ordered(rows: Iterable[_Row]) -> list[_Row]:
    """Rows once each, in entry order (a row may come through several tokens)."""
    once = {row.order: row for row in rows}
    return [once[order] for order in sorted(once)]


def _room() -> int:
    """What a shard's entries may take: the budget less the script around them."""
    return SHARD_BUDGET - min(_WRAPPER, SHARD_BUDGET // 4)


def _within_budget(key: str, members: list[_Row], warnings: list[str]) -> list[_Row]:
    """The shard's rows, cut to the budget when they cannot be split (one name with more
    sites than fit: definitions before imports, in qualified-name order, are kept)."""
    if sum(r.size for r in members) <= _room():
        return members
    ordered = sorted(members, key=lambda r: (r.entry[1] == "import", r.entry[2], r.entry))
    kept: list[_Row] = []
    total = 0
    for row in ordered:
        if kept and total + row.size > _room():
            break
        kept.append(row)
        total += row.size
    warnings.append(
        f"search shard {key!r} would be over the {SHARD_BUDGET // 1024} kB budget: it lists "
        f"{len(kept)} of its {len(members)} sites (a query shows the first few dozen)"
    )
    return _ordered(kept)


def _script(kind: str, key: str, data: object) -> str:
    payload = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    # `</` cannot end the script early when a name holds it: JSON allows `<\/`.
    payload = payload.replace("</", "<\\/")
    if kind == "manifest":
        return f"docgenSearch.manifest({payload});\n"
    return f"docgenSearch.shard({json.dumps(key)},{payload});\n"
