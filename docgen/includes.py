"""Which C-family file includes which, resolved as a compiler would.

`#include "x.h"` is looked up in the including file's folder first, then in
the include roots in order; `#include <x.h>` only in the include roots.  The
roots are the configured `include_roots`, else the repository root.  Without
configured roots, an include that still names no file is matched by path
suffix when exactly one file of the repository ends with it (the way a header
tree installed under `include/` is found); with configured roots docgen
guesses nothing.  "Included by" is the exact reverse of the resolved edges.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from docgen.facts import ScannedFile


@dataclass(frozen=True, slots=True)
class ResolvedInclude:
    """An include with the repository file it names, and how that file was found (as a
    compiler would, or by a guess from its suffix when no roots are configured)."""

    line: int
    target: str  # as written
    system: bool
    path: str  # the repository file it names, "" when none
    how: str  # "folder", "root", "suffix" or "" (unresolved)


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


def _suffix_index(paths: Iterable[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for path in paths:
        parts = path.split("/")
        for i in range(1, len(parts)):
            index.setdefault("/".join(parts[i:]), []).append(path)
    return index


def resolve(
    source: str,
    target: str,
    system: bool,
    files: frozenset[str] | set[str],
    roots: Sequence[str],
    suffixes: Mapping[str, list[str]] | None,
) -> tuple[str, str]:
    """(repository path, how) for one include; ("", "") when it names no file."""
    if target.startswith("/") or not target:
        return "", ""
    candidates: list[tuple[str, str]] = []
    if not system:
        candidates.append((posixpath.dirname(source), "folder"))
    candidates.extend((root, "root") for root in roots)
    for folder, how in candidates:
        path = posixpath.normpath(posixpath.join(folder, target)) if folder else target
        path = posixpath.normpath(path)
        if path.startswith("../") or path == "..":
            continue
        if path in files and path != source:
            return path, how
    if suffixes is not None:
        found = [p for p in suffixes.get(posixpath.normpath(target), ()) if p != source]
        if len(found) == 1:
            return found[0], "suffix"
    return "", ""


def build_include_graph(
    files: Iterable[ScannedFile], all_paths: Iterable[str], roots: Sequence[str] = ()
) -> IncludeGraph:
    paths = frozenset(all_paths)
    guessed = not roots
    search = tuple(roots) if roots else ("",)
    suffixes = _suffix_index(sorted(paths)) if guessed else None
    includes: dict[str, tuple[ResolvedInclude, ...]] = {}
    for scanned in sorted(files, key=lambda f: f.facts.path):
        c = scanned.facts.cfamily
        if c is None or not c.includes:
            continue
        path = scanned.facts.path
        resolved = []
        for inc in c.includes:
            target, how = resolve(path, inc.target, inc.system, paths, search, suffixes)
            resolved.append(ResolvedInclude(inc.line, inc.target, inc.system, target, how))
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
