"""Which C-family files a change of C-family files reaches, nearest first, for `docgen
affected`: from the kept include rows, the kept rows of the names each file's code
writes and the stored definitions, without parsing.

A file is one hop from a changed file when it includes it or its code uses one of its
declarations as `docgen.index.cfamily_uses` resolves them (a source file defining a
function declared in a header is reached by the header's users).  A file is a hop
further when its code uses a declaration a hop nearer that was reached: one whose
lines hold a use of what was reached before it (with the classes around it, whose
members are called through objects of their type), or every declaration of a file
whose use stands outside them all.  An include alone reaches no declaration, as an
import alone reaches none in Python: following includes further would reach every
file through a header every file includes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.index.affected import Reach
from docgen.index.cfamily_use_rows import DIRECTIVE, DIRECTIVE_KEY, CUseRow, is_header, row_lines
from docgen.index.cfamily_uses import resolved_uses
from docgen.index.visibility import Visibility
from docgen.model.cfamily_facts import CFacts
from docgen.model.sites import DefinitionSite

#: the kinds whose lines a reached declaration is told by (a namespace reaches nothing)
_HOLDERS_LEFT_OUT = frozenset({"namespace"})
#: the sites of a dispatch stub that call it: where it is declared and defined
_STUB_KINDS = frozenset({"dispatch stub", "stub definition"})


@dataclass
class CFamilyReacher:
    """Follows a change of C-family files out to the C-family files that use it."""

    includers: Callable[[str], Sequence[tuple[str, int]]]  # the files including it, lines
    rows_for: Callable[[Collection[str]], Iterable[tuple[str, CUseRow]]]  # by last name
    named: Callable[[str], Sequence[DefinitionSite]]
    facts_of: Callable[[str], CFacts | None]
    visibility: Callable[[Collection[str]], Visibility]

    def reach(self, changed: Iterable[str], depth: int | None = None) -> list[Reach]:
        """Every C-family file the `changed` ones reach within `depth` hops (None: any),
        nearest first, then by path; the changed files at distance 0."""
        found = {path: Reach(0, path, (), ()) for path in sorted(set(changed))}
        frontier: dict[str, frozenset[str] | None] = dict.fromkeys(found)
        distance = 0
        while frontier and (depth is None or distance < depth):
            distance += 1
            lines = self._hop(frontier, distance == 1, found)
            frontier = {}
            for path in sorted(lines):
                by_via = lines[path]
                every = {n for via_lines in by_via.values() for n in via_lines}
                found[path] = Reach(distance, path, tuple(sorted(by_via)), tuple(sorted(every)))
                names = self._reached(path, every)
                if names is None or names:
                    frontier[path] = names
        return sorted(found.values())

    def _hop(
        self,
        frontier: Mapping[str, frozenset[str] | None],
        with_includes: bool,
        known: Mapping[str, Reach],
    ) -> dict[str, dict[str, set[int]]]:
        """The files not yet `known` that include a changed file (`with_includes`) or use
        one of `frontier`'s reached declarations: via which file, on which lines."""
        found: dict[str, dict[str, set[int]]] = {}
        if with_includes:
            for target in sorted(frontier):
                for path, line in self.includers(target):
                    if path not in known:
                        found.setdefault(path, {}).setdefault(target, set()).add(line)
        declared = self._declared(frontier)
        stubs = self._registered(frontier)
        keys = {q.rpartition("::")[2] for q in declared} | stubs.keys()
        held: dict[str, list[CUseRow]] = {}
        for path, row in self.rows_for(keys | {DIRECTIVE_KEY}):
            if path not in known or row[3] == DIRECTIVE:  # a header's, read by all
                held.setdefault(path, []).append(row)
        for name, registering in sorted(stubs.items()):
            # the files calling a dispatch stub run the kernels registered for it: those
            # declaring or defining it, on their lines that name it
            for site in self.named(name):
                if site.kind in _STUB_KINDS and site.path not in known:
                    lines = {
                        n
                        for row in held.get(site.path, ())
                        if row[0] == name
                        for n in row_lines(row)
                    } or {site.line}
                    for via in registering:
                        found.setdefault(site.path, {}).setdefault(via, set()).update(lines)
        if not held:
            return found
        visibility = self.visibility(held)
        for use in resolved_uses(held, keys, self.named, visibility):
            for via in declared.get(use.qualname, ()):
                if not is_header(via) or visibility.sees(use.user, via):
                    found.setdefault(use.user, {}).setdefault(via, set()).update(use.lines)
        return found

    def _declared(self, frontier: Mapping[str, frozenset[str] | None]) -> dict[str, set[str]]:
        """The reached qualified names of the frontier's files, with the files declaring
        or defining them there."""
        found: dict[str, set[str]] = {}
        for path, names in frontier.items():
            c = self.facts_of(path)
            for d in c.definitions if c is not None else ():
                if d.kind not in _HOLDERS_LEFT_OUT and (names is None or d.qualname in names):
                    found.setdefault(d.qualname, set()).add(path)
        return found

    def _registered(self, frontier: Mapping[str, frozenset[str] | None]) -> dict[str, set[str]]:
        """The dispatch stubs the frontier's files register kernels for, with those files."""
        found: dict[str, set[str]] = {}
        for path in frontier:
            c = self.facts_of(path)
            for r in c.registrations if c is not None else ():
                if r.is_dispatch_stub and r.macro.startswith("REGISTER"):
                    found.setdefault(r.name, set()).add(path)
        return found

    def _reached(self, path: str, lines: Iterable[int]) -> frozenset[str] | None:
        """The declarations of a file that its `lines` reach: the innermost holding each
        line, with the classes around it; None (every one) when a line is outside all."""
        c = self.facts_of(path)
        if c is None:
            return frozenset()
        spans = [d for d in c.definitions if d.kind not in _HOLDERS_LEFT_OUT]
        found: set[str] = set()
        for line in lines:
            inside = [d for d in spans if d.line <= line <= d.end_line]
            if not inside:
                return None
            innermost = min(inside, key=lambda d: (d.end_line - d.line, -d.line))
            parts = innermost.qualname.split("::")
            found.update("::".join(parts[:n]) for n in range(1, len(parts) + 1))
        return frozenset(found)
