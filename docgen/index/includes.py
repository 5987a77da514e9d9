"""Which C-family file includes which, resolved as a compiler would.

`#include "x.h"` is looked up in the including file's folder first, then in
the include roots in order; `#include <x.h>` only in the include roots.  The
roots are the configured `include_roots`, else the repository root.  Without
configured roots, an include that still names no file is matched by path
suffix when a file of the repository ends with it (the way a header tree
installed under `include/` is found); when several do, the one under the nearest
folder above the including file is taken (as an include root there would find it)
and the page names the others, and when none is under a folder above it, none.
With configured roots docgen guesses nothing.  "Included by" is the exact reverse of
the resolved edges.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from docgen.model.facts import ScannedFile
from docgen.model.std_headers import is_standard_header


@dataclass(frozen=True, slots=True)
class ResolvedInclude:
    """An include with the repository file it names, and how that file was found (as a
    compiler would, or by a guess from its suffix when no roots are configured)."""

    line: int
    target: str  # as written
    system: bool
    path: str  # the repository file it names, "" when none
    how: str  # "folder", "root", "suffix", "nearest" (of several by suffix) or "" (unresolved)
    #: for "nearest": the other files whose paths end so; unresolved, all of them
    others: tuple[str, ...] = ()


@dataclass(frozen=True)
class IncludeGraph:
    """Who includes whom inside the repository, both ways, for Dependencies and Included By."""

    includes: Mapping[str, tuple[ResolvedInclude, ...]]  # by including file
    included_by: Mapping[str, tuple[str, ...]]  # file -> sorted including files
    roots: tuple[str, ...]
    guessed: bool  # suffix matching was used (no configured roots)
    #: (file, includer) -> the includer's lines that include it: made once, because a
    #: header included by thousands of files is asked about each of them
    lines: Mapping[tuple[str, str], tuple[int, ...]]

    def includes_of(self, path: str) -> tuple[str, ...]:
        return tuple(sorted({r.path for r in self.includes.get(path, ()) if r.path}))

    def lines_including(self, includer: str, target: str) -> tuple[int, ...]:
        """The lines of `includer` whose includes resolve to `target`."""
        return self.lines.get((target, includer), ())


def suffix_index(paths: Iterable[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for path in paths:
        parts = path.split("/")
        for i in range(1, len(parts)):
            index.setdefault("/".join(parts[i:]), []).append(path)
    return index


@dataclass(frozen=True)
class IncludeSearch:
    """Where a tree's includes are looked for: its files, the include roots, and (with
    no roots configured) the files by every ending of their paths."""

    files: frozenset[str] | set[str]
    roots: Sequence[str]
    suffixes: Mapping[str, list[str]] | None = None
    #: (folder, target, form) -> what it can name: the same for every file of a folder,
    #: and a tree includes a header from many
    _known: dict[tuple[str, str, bool], _Candidates] = field(
        default_factory=dict, compare=False, repr=False
    )

    def resolve(self, source: str, target: str, system: bool) -> tuple[str, str, tuple[str, ...]]:
        """(repository path, how, the other candidates) for one include; ("", "", ())
        when it names no file."""
        key = (posixpath.dirname(source), target, system)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = self._candidates(*key)
        return _chosen(source, target, *found)

    def _candidates(self, folder: str, target: str, system: bool) -> _Candidates:
        """What an include written in a file of `folder` can name."""
        if target.startswith("/") or not target:
            return (), ()
        searched = [(folder, "folder")] if not system else []
        searched.extend((root, "root") for root in self.roots)
        found = []
        for base, how in searched:
            path = posixpath.normpath(posixpath.join(base, target) if base else target)
            if path.startswith("../") or path == "..":
                continue
            if path in self.files:
                found.append((path, how))
        suffixes = self.suffixes
        if system and is_standard_header(target):
            suffixes = None  # `<string.h>` is the library's, whatever else ends so
        by_suffix = tuple(suffixes.get(posixpath.normpath(target), ())) if suffixes else ()
        return tuple(found), by_suffix


#: what an include can name: the files found in search order, each with how, and the
#: files whose paths end with it
_Candidates = tuple[tuple[tuple[str, str], ...], tuple[str, ...]]


def _chosen(
    source: str, target: str, found: tuple[tuple[str, str], ...], by_suffix: tuple[str, ...]
) -> tuple[str, str, tuple[str, ...]]:
    """The first file found that is not the including file itself, else the file whose
    path ends with the include: the one there is (for a bare name, only under a folder
    above the including file), or of several the one an include root above the including
    file would find (the nearest such root), with the others; when no root above it
    holds one, none, with them all."""
    for path, how in found:
        if path != source:
            return path, how, ()
    others = sorted(p for p in by_suffix if p != source)
    written = posixpath.normpath(target)
    folder = posixpath.dirname(source)
    above = [p for p in others if _is_above(p[: len(p) - len(written)].rstrip("/"), folder)]
    if len(others) == 1 and (above or "/" in written):
        # a bare name (`<cuda.h>`) is no evidence for a file deep elsewhere (`torch/cuda.h`)
        return others[0], "suffix", ()
    if above:
        nearest = max(above, key=len)  # one root of each length is above the file
        return nearest, "nearest", tuple(p for p in others if p != nearest)
    return "", "", tuple(others)


def _is_above(root: str, folder: str) -> bool:
    """Whether `root` is `folder` or a folder above it ("" is the repository root)."""
    return not root or folder == root or folder.startswith(root + "/")


def build_include_graph(
    files: Iterable[ScannedFile], all_paths: Iterable[str], roots: Sequence[str] = ()
) -> IncludeGraph:
    paths = frozenset(all_paths)
    guessed = not roots
    search = tuple(roots) if roots else ("",)
    search_in = IncludeSearch(paths, search, suffix_index(sorted(paths)) if guessed else None)
    includes: dict[str, tuple[ResolvedInclude, ...]] = {}
    for scanned in sorted(files, key=lambda f: f.facts.path):
        c = scanned.facts.cfamily
        if c is None or not c.includes:
            continue
        path = scanned.facts.path
        resolved = []
        for inc in c.includes:
            target, how, others = search_in.resolve(path, inc.target, inc.system)
            resolved.append(ResolvedInclude(inc.line, inc.target, inc.system, target, how, others))
        includes[path] = tuple(resolved)
    return include_graph(includes, search, guessed)


def include_graph(
    includes: Mapping[str, tuple[ResolvedInclude, ...]], roots: tuple[str, ...], guessed: bool
) -> IncludeGraph:
    """The graph of these resolved includes (by including file, in path order), with its
    reverse edges: made after resolving, or from the edges a build kept."""
    lines: dict[tuple[str, str], list[int]] = {}
    for path, resolved in includes.items():
        for inc in resolved:
            if inc.path:
                lines.setdefault((inc.path, path), []).append(inc.line)
    reverse: dict[str, list[str]] = {}  # each includer once: `lines` has one key per pair
    for target, path in lines:
        reverse.setdefault(target, []).append(path)
    return IncludeGraph(
        includes=MappingProxyType(dict(includes)),
        included_by=MappingProxyType({k: tuple(sorted(v)) for k, v in sorted(reverse.items())}),
        roots=roots,
        guessed=guessed,
        lines=MappingProxyType({key: tuple(found) for key, found in lines.items()}),
    )
