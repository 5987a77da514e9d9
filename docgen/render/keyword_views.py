"""The repository-wide keyword index: `keywords.md`, split by first letter when large.

Every name links each of its definitions twice: to the heading on the file's
docs page and to the source line.  The pages sit at the output root under
names no mirrored page can have (mirrored pages end in `_docs.md`, `_kw.md`,
`/index.md` or `/doc.md`), and a small repository gets one page.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from docgen.model.letters import LETTERS, letter_of, letter_page, name_order
from docgen.model.links import docs_page, folder_index
from docgen.render.context import Linker, RenderContext
from docgen.render.listing_views import KeywordPart, KeywordsView, NameEntry, SiteView
from docgen.render.use_counts import UseCounts
from docgen.render.view_refs import LinkView
from docgen.render.views import FrontMatter

if TYPE_CHECKING:  # docgen.index.keywords imports docgen.model.anchors: no import cycle at run time
    from docgen.model.sites import DefinitionSite

KEYWORDS_PAGE = "keywords.md"
KEYWORDS_KIND = "keywords"  # front matter `kind`
ROOT_SOURCE = "."
#: more distinct names than this and the index splits into letter pages
SINGLE_PAGE_LIMIT = 1_500
#: more names than this under one letter and that letter splits into numbered pages
#: (a page of 500 names is about 125 KB of Markdown); a new name remakes its page, so
#: the page's size is part of what a one-file edit costs
LETTER_PAGE_LIMIT = 500
#: nor more places (definitions and imports) than this on one letter page, about 300 KB,
#: unless one name alone has them (whole torch/ has names defined in 4,000 places)
LETTER_PAGE_PLACES = 1_000


@dataclass(frozen=True)
class _Chunk:
    """The names of one keyword letter page, with its place among the letter's pages."""

    page: str
    letter: str
    part: int
    parts: int
    names: tuple[str, ...]


def _chunks(
    names: Sequence[str],
    limit: int,
    places_of: Callable[[str], int] | None = None,
    places: int | None = None,
) -> list[_Chunk]:
    """Letter pages: names grouped by letter, each group cut into pages of at most `limit`
    names and, with `places_of`, at most `places` places (see `_pages`)."""
    by_letter: dict[str, list[str]] = {}
    for name in names:
        by_letter.setdefault(letter_of(name), []).append(name)
    chunks = []
    size = max(limit, 1)
    for letter in LETTERS:
        group = by_letter.get(letter, [])
        weights = [places_of(name) for name in group] if places_of is not None else None
        pages = _pages(group, size, weights, places)
        for i, piece in enumerate(pages):
            chunks.append(_Chunk(letter_page(letter, i + 1), letter, i + 1, len(pages), piece))
    return chunks


def _pages(
    names: Sequence[str],
    limit: int,
    weights: Sequence[int] | None = None,
    places: int | None = None,
) -> list[tuple[str, ...]]:
    """A letter's names (in `name_order`) cut into pages of at most `limit` names and of
    at most `places` in weight (`weights`, one a name: its places), where their
    beginnings differ: runs that share a beginning (case ignored) stay on one page, and
    the runs fill pages in order.  A new name then changes its own page only, not every
    page after it, unless it overfills that page.  A name heavier than a page has one
    of its own."""
    before = list(itertools.accumulate(weights or [1] * len(names), initial=0))
    most = places if weights is not None and places is not None else before[-1]
    pages: list[tuple[str, ...]] = []
    start = end = 0
    for _, run_end in _runs(names, limit, before, max(most, 1)):  # runs follow each other
        if end > start and (run_end - start > limit or before[run_end] - before[start] > most):
            pages.append(tuple(names[start:end]))
            start = end
        end = run_end
    if end > start:
        pages.append(tuple(names[start:end]))
    return pages


def _runs(
    names: Sequence[str], limit: int, before: Sequence[int], most: int
) -> list[tuple[int, int]]:
    """`names` (in order, so case-folded beginnings are contiguous) cut into runs, as
    (start, end), of at most `limit` names and `most` in weight (`before[i]`: the weight
    of the names before the i-th): a longer run is cut where the character after its
    names' common beginning changes, again and again (a stack, not recursion: names may
    share long beginnings), and in order where its names agree to the end."""
    folded = [name.casefold() for name in names]

    def fits(start: int, end: int) -> bool:
        return end - start <= limit and before[end] - before[start] <= most

    runs: list[tuple[int, int]] = []
    pending = [(0, len(names))]
    while pending:
        start, end = pending.pop()
        if fits(start, end):
            runs.append((start, end))
            continue
        depth = _shared(folded[start], folded[end - 1])
        if folded[start] == folded[end - 1]:  # nothing left to tell them apart by
            while start < end:
                cut = start + 1
                while cut < end and fits(start, cut + 1):
                    cut += 1
                runs.append((start, cut))
                start = cut
            continue
        parts = []
        begin = start
        for i in range(start + 1, end + 1):
            if i == end or folded[i][: depth + 1] != folded[begin][: depth + 1]:
                parts.append((begin, i))
                begin = i
        pending.extend(reversed(parts))
    return runs


def _shared(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with alike."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class KeywordJob(NamedTuple):
    """One keyword page: its path, what it shows (for its inputs digest: a letter page
    depends on its own names only, so a new definition changes one letter page and the
    entry page), and the function that makes its view."""

    page: str
    #: made when the page is digested, on the core that renders it
    inputs: Callable[[], Sequence[str]]
    make: Callable[[], KeywordsView]


def _site_inputs(
    names: Iterable[str],
    by_name: Mapping[str, list[DefinitionSite]],
    line_counts: Mapping[str, int],
    counts: UseCounts,
    head: str,
) -> list[str]:
    """`head`, then what a page shows of each site: a line is linked only where it is in
    the file; a Python definition's count of uses."""
    parts = [head]
    for name in names:
        parts.append(name)
        for s in by_name[name]:
            linked = 1 <= s.line <= line_counts.get(s.path, 0)
            used = counts.of(s.path, s.qualname)
            parts.append(f"{s.kind}|{s.qualname}|{s.path}|{s.line}|{s.anchor}|{linked}|{used}")
    return parts


def _front(context: RenderContext) -> FrontMatter:
    return FrontMatter(ROOT_SOURCE, KEYWORDS_KIND, "", (), "", context.generator)


def _entries(
    names: Iterable[str],
    by_name: Mapping[str, list[DefinitionSite]],
    line_counts: Mapping[str, int],
    counts: UseCounts,
    linker: Linker,
) -> tuple[NameEntry, ...]:
    entries = []
    for name in names:
        sites = []
        for site in sorted(by_name[name], key=lambda s: (s.path, s.line, s.qualname, s.anchor)):
            line = linker.line(site.path, site.line, line_counts.get(site.path, 0))
            files, lines = counts.of(site.path, site.qualname) or (0, 0)
            sites.append(
                SiteView(
                    kind=site.kind,
                    qualname=site.qualname,
                    href=linker.to_page(docs_page(site.path), site.anchor),
                    location=f"{site.path}:{site.line}",
                    line_href=line.href,
                    use_files=files,
                    uses=lines,
                )
            )
        entries.append(NameEntry(name, tuple(sites)))
    return tuple(entries)


#: A letter page as the entry page lists it: first and last name, names, places.
PartSummary = tuple[str, str, int, int]


@dataclass(frozen=True)
class KeywordPlan:
    """The keyword pages of a build: those to digest (and render where their inputs
    changed), those carried over from the last build as they are, and every letter's
    pages as the entry page lists them (for the next build; empty for a single page)."""

    jobs: list[KeywordJob]
    kept: tuple[str, ...]
    letters: dict[str, tuple[PartSummary, ...]]


def keywords_view_jobs(
    sites: Sequence[DefinitionSite],
    line_counts: Mapping[str, int],
    context: RenderContext,
    *,
    single_page_limit: int | None = None,
    letter_page_limit: int | None = None,
    kept: Mapping[str, Sequence[PartSummary]] | None = None,
) -> KeywordPlan:
    """Each keyword page with its inputs and a function that makes its view: the plan
    (which names on which page) is made here, the entries of each page only when its
    view is made, so the pages of a large index can be made on every core.

    With `kept`, the index is split and `sites` are those of the other letters only:
    the letters in `kept` keep the pages the last build made (a letter page shows its
    own names only), and the entry page lists them from their summaries.
    """
    single_limit = SINGLE_PAGE_LIMIT if single_page_limit is None else single_page_limit
    letter_limit = LETTER_PAGE_LIMIT if letter_page_limit is None else letter_page_limit
    kept = kept or {}
    counts = context.use_counts
    by_name: dict[str, list[DefinitionSite]] = {}
    for site in sites:
        by_name.setdefault(site.name, []).append(site)
    names = sorted(by_name, key=name_order)
    summaries = [p for parts in kept.values() for p in parts]
    total_names = len(names) + sum(p[2] for p in summaries)
    total_definitions = len(sites) + sum(p[3] for p in summaries)
    linker = Linker(KEYWORDS_PAGE, context.source_root)  # every keyword page is at the root
    entry = KeywordsView(
        page=KEYWORDS_PAGE,
        project=context.project,
        front=_front(context),
        is_entry=True,
        letter="",
        part=1,
        parts=1,
        names=0,
        definitions=0,
        total_names=total_names,
        total_definitions=total_definitions,
        entries=(),
        pages=(),
        entry_page=None,
        folder_index=linker.page_link(folder_index(""), folder_index("")),
    )

    def definitions(chosen: Iterable[str]) -> int:
        return sum(len(by_name[n]) for n in chosen)

    if total_names <= single_limit:
        if kept:
            raise ValueError("kept letter pages, but the index fits on one page")

        def single() -> KeywordsView:
            entries = _entries(names, by_name, line_counts, counts, linker)
            return replace(entry, names=total_names, definitions=total_definitions, entries=entries)

        inputs = partial(_site_inputs, names, by_name, line_counts, counts, str(total_definitions))
        return KeywordPlan([KeywordJob(KEYWORDS_PAGE, inputs, single)], (), {})
    chunks = _chunks(names, letter_limit, lambda name: len(by_name[name]), LETTER_PAGE_PLACES)
    made: dict[str, list[PartSummary]] = {}
    for c in chunks:
        made.setdefault(c.letter, []).append(
            (c.names[0], c.names[-1], len(c.names), definitions(c.names))
        )
    letters = {label: tuple(found) for label, found in [*made.items(), *kept.items()]}
    parts = tuple(
        KeywordPart(label, i, len(letters[label]), linker.to_page(letter_page(label, i)), *part)
        for label in LETTERS
        if label in letters
        for i, part in enumerate(letters[label], 1)
    )
    entry_view = replace(entry, pages=parts)
    entry_inputs = (f"{total_names}|{total_definitions}", *map(repr, parts))
    jobs = [KeywordJob(KEYWORDS_PAGE, lambda: entry_inputs, lambda: entry_view)]

    def letter(c: _Chunk) -> KeywordsView:
        return replace(
            entry,
            page=c.page,
            is_entry=False,
            letter=c.letter,
            part=c.part,
            parts=c.parts,
            names=len(c.names),
            definitions=definitions(c.names),
            entries=_entries(c.names, by_name, line_counts, counts, linker),
            entry_page=LinkView(KEYWORDS_PAGE, linker.to_page(KEYWORDS_PAGE)),
        )

    for c in chunks:
        head = f"{c.letter}|{c.part}|{c.parts}"
        inputs = partial(_site_inputs, c.names, by_name, line_counts, counts, head)
        jobs.append(KeywordJob(c.page, inputs, partial(letter, c)))
    kept_pages = tuple(
        sorted(letter_page(label, i) for label, ps in kept.items() for i in range(1, len(ps) + 1))
    )
    return KeywordPlan(jobs, kept_pages, letters)
