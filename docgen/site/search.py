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
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from docgen.keywords import DefinitionSite

#: Folder of the site that holds the search's shards and their manifest.
SEARCH_FOLDER = "_search"
#: A shard may not be larger than this; the build warns about one it cannot cut.
SHARD_BUDGET = 256 * 1024
#: Characters of a key at first, and at most.
FIRST_KEY, LAST_KEY = 2, 24

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


def tokens(site: DefinitionSite) -> list[str]:
    """What a query may begin with to find this site."""
    found = words(site.name)
    qualified = site.qualname.lower()
    if qualified not in found:
        found.append(qualified)
    return found


def key_of(text: str, length: int) -> str:
    """The shard key of a token or query: its first characters, in a file-name alphabet
    (JavaScript's `docgenKey` does the same)."""
    return _KEY_CHAR.sub("_", text[:length].lower())


Row = tuple[list[str], list[object]]  # a site's tokens, and its entry in a shard


@dataclass(frozen=True)
class SearchIndex:
    files: dict[str, str]  # site path -> text
    warnings: tuple[str, ...]  # shards over the budget that could not be cut


def search_index(sites: Iterable[DefinitionSite]) -> SearchIndex:
    """The manifest and every shard, deterministic for the same sites."""
    entries = sorted(
        {(s.name, s.kind, s.qualname, s.path, s.anchor) for s in sites if s.anchor or s.path}
    )
    rows: list[Row] = [
        (tokens(DefinitionSite(name, path, 0, kind, qualname, anchor)), list(entry))
        for entry in entries
        for name, kind, qualname, path, anchor in (entry,)
    ]
    shards: dict[str, list[list[object]]] = {}
    split: list[str] = []
    warnings: list[str] = []
    _fill(rows, FIRST_KEY, shards, split, warnings)
    files = {
        f"{SEARCH_FOLDER}/{key}.js": _script("shard", key, rows_)
        for key, rows_ in sorted(shards.items())
    }
    manifest = {"split": sorted(split), "keys": sorted(shards), "first": FIRST_KEY}
    files[f"{SEARCH_FOLDER}/manifest.js"] = _script("manifest", "", manifest)
    return SearchIndex(files, tuple(warnings))


def _fill(
    rows: Sequence[Row],
    length: int,
    shards: dict[str, list[list[object]]],
    split: list[str],
    warnings: list[str],
    prefix: str = "",
) -> None:
    """Put each row in the shard of each of its tokens' first `length` characters, for
    the tokens longer than `prefix` that begin with it; a shard over the budget is cut
    by one more character, keeping only the rows with a token that ends there."""
    grouped: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        under = [t for t in row[0] if key_of(t, len(prefix)) == prefix and len(t) > len(prefix)]
        for key in sorted({key_of(t, length) for t in under}):
            grouped[key].append(row)
    for key, members in sorted(grouped.items()):
        size = len(_script("shard", key, [entry for _, entry in members]).encode("utf-8"))
        if size <= SHARD_BUDGET or length >= LAST_KEY:
            shards[key] = [entry for _, entry in members]
            if size > SHARD_BUDGET:
                warnings.append(
                    f"search shard {key!r} is {size // 1024} kB, over the "
                    f"{SHARD_BUDGET // 1024} kB budget, and cannot be cut further"
                )
            continue
        split.append(key)
        ending = [
            r for r in members if any(key_of(t, length) == key and len(t) <= length for t in r[0])
        ]
        if ending:
            shards[key] = [entry for _, entry in ending]
        _fill(members, length + 1, shards, split, warnings, key)


def _script(kind: str, key: str, data: object) -> str:
    payload = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    # `</` cannot end the script early when a name holds it: JSON allows `<\/`.
    payload = payload.replace("</", "<\\/")
    if kind == "manifest":
        return f"docgenSearch.manifest({payload});\n"
    return f"docgenSearch.shard({json.dumps(key)},{payload});\n"
