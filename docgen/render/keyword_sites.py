"""The keyword sites a build reads: every site of the repository, or, when the last
build's letter pages can stay as they are, only the sites on the letters that the
changed files' names fall on.

A letter page shows the names of its own letter only, so a new definition in one
file changes the pages of its name's letter and the entry page, not the rest.
The last build keeps each letter's pages as the entry page lists them (first and
last name, counts) with the digest of what every page shares; while that digest
is the same, an edit reads the sites of the letters where a changed file's sites
came, went or moved, and the other letters' pages are left as they are.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from docgen.analyze.sites import sites_of
from docgen.index.keywords import definition_sites
from docgen.index.repo import RepoIndex
from docgen.model.letters import letter_of, letter_page
from docgen.model.sites import DefinitionSite, site_order
from docgen.render import keyword_views
from docgen.render.keyword_views import KeywordPlan, PartSummary
from docgen.state import State

#: The state database's key for the last build's letter pages.
LETTERS_KEY = "keyword_letters"

#: More changed files than this and every site is read: the letters they touch are
#: then most of the index anyway.
CHANGED_AT_MOST = 2000


@dataclass(frozen=True)
class KeywordSites:
    """The sites a build's keyword pages are made from: every site (sorted), or those on
    the letters made again, with the letters whose pages stay as they are (`kept`)
    and every site of the files whose sites changed (`changed`)."""

    sites: list[DefinitionSite]
    kept: Mapping[str, tuple[PartSummary, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    changed: list[DefinitionSite] | None = None  # None: `sites` are every site
    changed_paths: frozenset[str] = frozenset()  # the files whose sites changed
    #: what each file's stored sites were made from, as read (None: not read)
    marks: Mapping[str, str] | None = None

    @property
    def to_store(self) -> list[DefinitionSite]:
        """What the stored index must be given: at least every site of every file whose
        sites changed (see `State.store_sites`)."""
        return self.sites if self.changed is None else self.changed


def read_keyword_sites(
    state: State,
    index: RepoIndex,
    fresh: Mapping[str, list[DefinitionSite]],
    made_from: Mapping[str, str],
    previous_pages: Mapping[str, str],
    common: str,
) -> KeywordSites:
    """The sites for this build's keyword pages (see the module's docstring).

    `fresh`: sites made with the facts in this build; `made_from`: what each file's
    sites are made from now; `previous_pages`: the inputs digest of each page the last
    build wrote that is still as it wrote it; `common`: the digest of what all pages
    share, which the kept pages must have been made with."""
    last = last_letters(state, common)
    if last:
        marks = state.site_marks()
        changed = {p for p in marks.keys() | made_from.keys() if marks.get(p) != made_from.get(p)}
        if len(changed) <= CHANGED_AT_MOST:
            found = _changed_letters(state, index, fresh, changed, last, previous_pages)
            if found is not None:
                return replace(found, marks=MappingProxyType(marks))
    stored = state.stored_sites(made_from)
    return KeywordSites(definition_sites(index, {**stored, **fresh}))


def _changed_letters(
    state: State,
    index: RepoIndex,
    fresh: Mapping[str, list[DefinitionSite]],
    changed: Set[str],
    last: Mapping[str, tuple[PartSummary, ...]],
    previous_pages: Mapping[str, str],
) -> KeywordSites | None:
    """The sites on the letters that `changed` files touch, or None when the index now
    fits on one page (which lists every name)."""
    new: list[DefinitionSite] = []
    for path in sorted(changed):
        scanned = index.files.get(path)
        if scanned is not None and scanned.facts.kind != "binary":
            found = fresh.get(path)
            new.extend(found if found is not None else sites_of(scanned))
    # A letter changes where a site on it comes, goes or moves; the sites a changed
    # file still has, on the same lines, leave their letters as they were.
    # (Counted, not as sets: two equal sites, `import a as b, a as b`, are two places.)
    old, now = Counter(state.sites_of_files(changed)), Counter(new)
    letters = {letter_of(site.name) for site in (old - now) + (now - old)}
    letters |= {  # a page the user removed or changed is made again
        letter
        for letter, parts in last.items()
        if any(letter_page(letter, i) not in previous_pages for i in range(1, len(parts) + 1))
    }
    kept = {letter: parts for letter, parts in last.items() if letter not in letters}
    sites = state.letter_sites(letters, changed) + [s for s in new if letter_of(s.name) in letters]
    sites.sort(key=site_order)
    names = len({site.name for site in sites}) + sum(p[2] for ps in kept.values() for p in ps)
    if names <= keyword_views.SINGLE_PAGE_LIMIT:
        return None
    return KeywordSites(sites, MappingProxyType(kept), new, changed_paths=frozenset(changed))


def with_letters(state: State, keyword: KeywordSites, letters: Set[str]) -> KeywordSites:
    """The sites with these letters made again too (where the counts of uses of a name
    on them changed): their pages are no longer kept."""
    more = {letter for letter in letters if letter in keyword.kept}
    if not more:
        return keyword
    sites = [
        *keyword.sites,
        *state.letter_sites(more, keyword.changed_paths),
        *(s for s in keyword.changed or () if letter_of(s.name) in more),
    ]
    sites.sort(key=site_order)
    kept = {letter: parts for letter, parts in keyword.kept.items() if letter not in more}
    return replace(keyword, sites=sites, kept=MappingProxyType(kept))


def last_letters(state: State, common: str) -> dict[str, tuple[PartSummary, ...]]:
    """The last build's letter pages, when it made them with the same `common` digest
    ({} otherwise, or when its index fitted on one page)."""
    stored = state.meta(LETTERS_KEY)
    if not stored:
        return {}
    try:
        data = json.loads(stored)
        if data["common"] != common:
            return {}
        return {
            str(letter): tuple((str(f), str(t), int(n), int(d)) for f, t, n, d in parts)
            for letter, parts in data["letters"].items()
        }
    except (ValueError, KeyError, TypeError):
        return {}


def store_sites(
    state: State,
    sites: Iterable[DefinitionSite],
    made_from: Mapping[str, str],
    marks: Mapping[str, str] | None = None,
) -> None:
    """Store the keyword index behind `docgen find` before this build's letter pages are
    all written (see `store_letters`), and in the same transaction forget the last
    build's letter pages: a build stopped in between leaves the next one to make every
    letter again, not to keep pages that the stored index no longer matches.  `marks`:
    the stored sites' marks this build read (`KeywordSites.marks`), not read again."""
    state.store_sites(sites, made_from, marks)
    state.set_meta(LETTERS_KEY, "")


def store_letters(
    state: State, plan: KeywordPlan, common: str, unwritten: Set[str] = frozenset()
) -> None:
    """Keep this build's letter pages for the next build: none for a one-page index, and
    none when one of its keyword pages could not be written (`unwritten`), so that the
    next build makes them all again rather than keep a page that is not what it says."""
    pages = {job.page for job in plan.jobs} | set(plan.kept)
    letters = {} if pages & unwritten else plan.letters
    parts = {letter: [list(part) for part in found] for letter, found in sorted(letters.items())}
    data = {"common": common, "letters": parts}
    state.set_meta(LETTERS_KEY, json.dumps(data, ensure_ascii=False) if letters else "")
