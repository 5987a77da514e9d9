"""Which files a docs page lists under Related Files, best first, and why.

Kept pure (paths in, ranking out) so that the order can be tested without
building pages.  A relation is a fact from the index: a test that exercises
the file, an import or an include in either direction, a C-family header and its
source file (`pair_of`), or a shared folder.  Scores add up,
so a test in the same folder that imports the file outranks one that only
shares its name.
"""

from __future__ import annotations

import heapq
import itertools
import posixpath
from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docgen.index.cfamily_keyed import Includes

#: The reasons a page shows, with their weights, in the order a file's reasons are listed.
UNDER_TEST = "code under test (this test imports it)"
TEST_BASE = "defines a base of this file's test classes"
TESTS = "tests this file"
PAIR = "header or source of the same name"
IMPORTS = "imports this file"
IMPORTED_BY = "imported by this file"
INCLUDES = "includes this file"
INCLUDED_BY = "included by this file"
SAME_FOLDER = "same folder"
WEIGHTS: dict[str, int] = {
    UNDER_TEST: 10,  # first, whatever else relates a helper
    TEST_BASE: 5,
    TESTS: 4,
    PAIR: 4,
    IMPORTS: 3,
    IMPORTED_BY: 3,
    INCLUDES: 3,
    INCLUDED_BY: 3,
    SAME_FOLDER: 1,
}

RELATED_LIMIT = 12


@dataclass(frozen=True)
class Related:
    """A file related to another, with the reasons that make it so."""

    path: str
    score: int
    reasons: tuple[str, ...]  # in the order of WEIGHTS


@dataclass(frozen=True)
class Ranking:
    """The related files shown, best first, and how many the limit left out."""

    files: tuple[Related, ...]  # by score (highest first), then path
    more: int  # related files left out by the limit


def _key(item: Related) -> tuple[int, str]:
    return (-item.score, item.path)


def _contains(ordered: Sequence[str], path: str) -> bool:
    at = bisect_left(ordered, path)
    return at < len(ordered) and ordered[at] == path


def _ordered(reasons: list[str]) -> tuple[str, ...]:
    return tuple(r for r in WEIGHTS if r in reasons)


def rank_related(
    path: str,
    *,
    tests: Iterable[str] = (),
    importers: Iterable[str] = (),
    imports: Iterable[str] = (),
    pair: Iterable[str] = (),
    includers: Iterable[str] = (),
    included: Iterable[str] = (),
    same_folder: Sequence[str] = (),
    under_test: Iterable[str] = (),
    test_bases: Iterable[str] = (),
    limit: int = RELATED_LIMIT,
) -> Ranking:
    """The files related to `path`, ranked, at most `limit` of them.

    `tests` exercise the file, `importers` import it, `imports` are what it
    imports, `pair` is a C-family header's source file (or the reverse),
    `includers` include it and `included` are what it includes; `same_folder`
    are the files of its folder, sorted and unique (it may be among them).  For a test
    file, `under_test` are the modules it imports that are not test utilities (they
    come first) and `test_bases` the files that define its test classes' bases.
    A folder can hold thousands of files and every one of them gets a page,
    so files related only by folder are never scored one by one: they all
    weigh the same and are taken in path order, as needed.
    """
    found: dict[str, list[str]] = {}
    relations = (
        (UNDER_TEST, under_test),
        (TEST_BASE, test_bases),
        (TESTS, tests),
        (PAIR, pair),
        (IMPORTS, importers),
        (IMPORTED_BY, imports),
        (INCLUDES, includers),
        (INCLUDED_BY, included),
    )
    for reason, paths in relations:
        for other in paths:
            if other != path and reason not in found.setdefault(other, []):
                found[other].append(reason)
    scored = []
    in_folder = 0
    for other, reasons in found.items():
        if _contains(same_folder, other):
            reasons.append(SAME_FOLDER)
            in_folder += 1
        scored.append((-sum(WEIGHTS[r] for r in reasons), other))
    # A header included by thousands of files: only the shown few become `Related`.
    best = heapq.nsmallest(max(limit, 0), scored)
    strong = [Related(other, -score, _ordered(found[other])) for score, other in best]

    def folder_only() -> Iterator[Related]:
        for other in same_folder:
            if other != path and other not in found:
                yield Related(other, WEIGHTS[SAME_FOLDER], (SAME_FOLDER,))

    weak = len(same_folder) - in_folder - _contains(same_folder, path)
    shown = tuple(itertools.islice(heapq.merge(strong, folder_only(), key=_key), max(limit, 0)))
    return Ranking(shown, len(found) + weak - len(shown))


#: C-family header suffixes, for the pairing of a header with its source file
HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".h++", ".inl")
#: suffixes a header's source file (or a source file's header) may have
PAIR_SUFFIXES = (*HEADER_SUFFIXES, ".c", ".cc", ".cpp", ".cxx", ".c++", ".cu")


def pair_of(path: str, graph: Includes, files: Collection[str]) -> tuple[str, ...]:
    """A header's source files and a source file's header: the same stem, in the same
    folder or linked by an include.  (A folder can hold thousands of files: the folder's
    candidates are looked up by name, never listed.)"""
    stem, suffix = posixpath.splitext(posixpath.basename(path))
    header = suffix.lower() in HEADER_SUFFIXES
    base = posixpath.join(posixpath.dirname(path), stem)
    siblings = {base + s for s in PAIR_SUFFIXES if base + s in files}
    linked = (*graph.includes_of(path), *graph.included_by.get(path, ()))
    # A header can have thousands of includers: the name is compared before anything else.
    named = (p for p in linked if p.rpartition("/")[2].startswith(stem))
    found = []
    for other in sorted({*siblings, *named}):
        other_stem, other_suffix = posixpath.splitext(posixpath.basename(other))
        if other == path or other_stem != stem:
            continue
        if (other_suffix.lower() in HEADER_SUFFIXES) != header and other_suffix:
            found.append(other)
    return tuple(found)
