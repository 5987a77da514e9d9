"""`docgen affected PATH...`: the test files and tests a change of those files reaches,
nearest first, from the last build's stored index (see `docgen.index.affected`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import click

from docgen.cli.shared import out_option
from docgen.cli.stored import KeptUses, StoredFacts, StoredSummaries, kept_rows
from docgen.model.errors import UsageError
from docgen.model.languages import is_cfamily
from docgen.model.options import DEFAULT_OUT
from docgen.state import StateDamaged, missing_state, read_state

if TYPE_CHECKING:
    from docgen.index.affected import Reach
    from docgen.index.native_calls import CallRow, NativeEnd
    from docgen.index.suites import RunnerClasses
    from docgen.model.cfamily_facts import CFacts
    from docgen.model.facts import FileFacts
    from docgen.model.sites import DefinitionSite
    from docgen.render.suite_views import RunnableTest
    from docgen.state import State

LINES_SHOWN = 5  # of a file's lines that reach the change, before "and N more"
#: said of a path whose change nothing follows from
NOT_FOLLOWED = "neither a Python module nor a C, C++ or CUDA file, in the last build"

AFFECTED_EXAMPLES = """
\b
Examples:
  docgen affected torch/distributed/distributed_c10d.py
  docgen affected $(git diff --name-only main) --tests     one command per test
  pytest $(docgen affected $(git diff --name-only main) --files)
"""


@dataclass(frozen=True)
class AffectedFile:
    """A test file a change reaches, and the tests of it that reach the change."""

    reach: Reach
    imports: frozenset[int]  # of the reach's lines, those of import statements
    tests: tuple[RunnableTest, ...]  # those a use is inside, or all (see `_reaching`)
    total: int  # tests a runner collects from the file


@click.command(name="affected", epilog=AFFECTED_EXAMPLES)
@click.argument("paths", nargs=-1, required=True)
@out_option("The output folder of an earlier `docgen build`.", str(DEFAULT_OUT))
@click.option(
    "--depth",
    type=click.IntRange(min=1),
    default=None,
    help="Follow uses at most this many files away from a changed one (default: all).",
)
@click.option("--files", "show", flag_value="files", help="Print only the test files' paths.")
@click.option("--tests", "show", flag_value="tests", help="Print only the one-test commands.")
def affected_command(paths: tuple[str, ...], out: str, depth: int | None, show: str | None) -> None:
    """Print the test files, and their tests with the command that runs each alone,
    that reach the Python files PATH... through imports and uses of their definitions,
    nearest first: a file that imports a changed file or uses its definitions, then the
    files that use those files' definitions, and so on.

    A test whose own body holds the file's every use is listed alone; a file whose uses
    are elsewhere (at module level, in a helper) or that only imports lists every test.
    Paths are as `git diff --name-only` gives them or relative to here. Exit status 1
    when no test is reached.
    """
    with read_state(Path(out)) as state:
        if state is None:
            raise UsageError(
                f"{missing_state(Path(out))}; run `docgen build` first (or pass --out)"
            )
        try:
            found = _affected(state, Path(out), paths, depth)
        except StateDamaged as exc:
            raise UsageError(
                f"the docgen index in {out} cannot be read ({exc}); rebuild it"
            ) from exc
    for line in _lines(found, show):
        click.echo(line)
    if not found:
        sys.exit(1)


def _affected(
    state: State, out: Path, paths: Sequence[str], depth: int | None
) -> list[AffectedFile]:
    from docgen.index.affected import Reacher, importers_of
    from docgen.index.cfamily_use_rows import CFAMILY_USES
    from docgen.index.graph import ImportGraph
    from docgen.index.import_rows import IMPORTS
    from docgen.index.native_calls import NATIVE_CALLS
    from docgen.index.python_uses import MODULES_META, DefinitionFinder, read_modules
    from docgen.index.suites import RunnerClasses

    modules = read_modules(state.meta(MODULES_META))
    summaries = StoredSummaries(state)
    finder = DefinitionFinder(modules, summaries.get)
    known = set(modules.values())
    c_known = state.kept_stamps(CFAMILY_USES.name).stamps
    changed, c_changed = [], []
    uses = KeptUses(state.kept_stamps(NATIVE_CALLS.name), NATIVE_CALLS)
    facts = StoredFacts(state)
    for given in paths:
        path = _tree_path(given, out, state.meta("source_root"))
        if path in known:
            changed.append(path)
        elif path in c_known:
            c_changed.append(path)
        else:
            click.echo(f"docgen: {given}: {NOT_FOLLOWED}", err=True)
    c_reached = _c_reached(state, facts, c_changed, depth) if c_changed else []
    seeds = _binding_seeds(state, facts, c_reached, uses)
    entries = [(r, frozenset[str]()) for r in c_reached]
    entries += _operator_entries(state, facts, c_reached, modules) if c_reached else []
    importers = importers_of(kept_rows(state, IMPORTS))

    reacher = Reacher(finder, uses, importers, summaries.get)
    reached = reacher.reach(changed + c_changed, depth, seeds, entries)
    graph = ImportGraph(modules, {p: n for n, p in modules.items()}, {}, {})
    runner = RunnerClasses(facts, graph)
    found = []
    for reach in reached:
        if reach.path in c_known:
            cases = _gtest_cases(reach.path, facts)
            if cases:
                found.append(AffectedFile(reach, _include_lines(reach, state), cases, len(cases)))
            continue
        summary = summaries.get(reach.path)
        if summary is None or not summary.suite:
            continue
        tests = _tests(reach.path, facts, runner)
        if tests:
            imports = frozenset(summary.import_lines)
            reaching = _reaching(reach, imports, tests, facts)
            found.append(AffectedFile(reach, imports & set(reach.lines), reaching, len(tests)))
    return found


def _c_reached(
    state: State, facts: StoredFacts, changed: Sequence[str], depth: int | None
) -> list[Reach]:
    """The C-family files a change of C-family files reaches (see
    `docgen.index.cfamily_affected`)."""
    from docgen.cli.stored import stored_visibility
    from docgen.index.cfamily_affected import CFamilyReacher
    from docgen.index.cfamily_rows import INCLUDES
    from docgen.index.cfamily_use_rows import CFAMILY_USES
    from docgen.index.visibility import Visibility

    includes = state.kept_stamps(INCLUDES.name)

    def includers(path: str) -> list[tuple[str, int]]:
        return [(p, row[0]) for p, row in INCLUDES.kept_of(includes, path) if p != path]

    def c_facts(path: str) -> CFacts | None:
        scanned = facts.get(path)
        return scanned.facts.cfamily if scanned is not None else None

    rows = KeptUses(state.kept_stamps(CFAMILY_USES.name), CFAMILY_USES)
    every = cache(partial(stored_visibility, state, includes.stamps))

    def visibility(users: Collection[str]) -> Visibility:
        # each hop's users are other files: the whole graph read once serves them all
        return every()

    reacher = CFamilyReacher(includers, rows, state.find_sites, c_facts, visibility)
    return reacher.reach(changed, depth)


def _operator_entries(
    state: State, facts: StoredFacts, reached: Sequence[Reach], modules: Mapping[str, str]
) -> list[tuple[Reach, frozenset[str]]]:
    """The operator files whose dispatch lines name a reached file's kernels, and the
    stubs binding their operators (see `docgen.index.operator_reach`)."""
    from docgen.index.operator_reach import operator_entries
    from docgen.model.yaml_facts import YamlFacts

    def definitions(path: str) -> list[str]:
        scanned = facts.get(path)
        c = scanned.facts.cfamily if scanned is not None else None
        return [d.qualname for d in c.definitions] if c is not None else []

    yaml_paths = sorted({s.path for s in state.find_sites("*", "glob", "op") if s.kind == "op"})
    operator_files: list[tuple[str, YamlFacts]] = []
    for path in yaml_paths:
        scanned = facts.get(path)
        if scanned is not None and scanned.facts.yaml is not None:
            operator_files.append((path, scanned.facts.yaml))

    def stub_line(stub: str, name: str) -> int | None:
        lines = [s.line for s in state.find_sites(name) if s.path == stub]
        return min(lines) if lines else None

    found = operator_entries(reached, definitions, operator_files, modules, stub_line)
    return [(e.reach, e.names) for e in found]


def _binding_seeds(
    state: State, facts: StoredFacts, reached: Sequence[Reach], uses: KeptUses[CallRow]
) -> dict[int, dict[str, dict[str, set[int]]]]:
    """The Python files that read a name a reached C-family file binds, a hop further
    than it (see `binding_readers`), by distance."""
    from docgen.index.affected import binding_readers

    seeds: dict[int, dict[str, dict[str, set[int]]]] = {}
    made: dict[str, list[DefinitionSite]] = {}  # each reached file's bindings, once
    for site in state.sites_of_files([r.path for r in reached]) if reached else []:
        if site.kind in ("binding", "op"):
            made.setdefault(site.path, []).append(site)
    ends = _ends(state, facts)
    for reach in reached:
        if reach.path in made:
            at = seeds.setdefault(reach.distance + 1, {})
            for reader, by_via in binding_readers(reach.path, made[reach.path], uses, ends).items():
                at.setdefault(reader, {}).update(by_via)
    return seeds


def _gtest_cases(path: str, facts: StoredFacts) -> tuple[RunnableTest, ...]:
    """A C-family test file's googletest, Catch2 or doctest cases, each with the filter
    that runs it alone in the binary built from the file."""
    from docgen.render.suite_views import RunnableTest

    scanned = facts.get(path)
    c = scanned.facts.cfamily if scanned is not None else None
    cases = c.test_cases if c is not None else ()
    return tuple(
        RunnableTest(case.line, case.name, f"--gtest_filter={case.name}")
        if not case.name.startswith('"')
        else RunnableTest(case.line, case.name, case.name)
        for case in cases
    )


def _include_lines(reach: Reach, state: State) -> frozenset[int]:
    """Of a C-family file's lines that reach the change, those of its includes."""
    from docgen.index.cfamily_rows import INCLUDES

    kept = state.kept_stamps(INCLUDES.name)
    rows = INCLUDES.decode(kept.texts([reach.path]).get(reach.path, "[]")) or ()
    return frozenset(row[0] for row in rows if row[3] in reach.via) & frozenset(reach.lines)


def _ends(state: State, facts: StoredFacts) -> Callable[[str], Sequence[NativeEnd]]:
    """Where the tree makes a Python name in C++, as the pages' links read it, from the
    stored index and the stored facts of the build scripts that name its module."""
    from docgen.index.native_calls import native_ends
    from docgen.index.native_trace import roots_for

    def facts_of(path: str) -> FileFacts | None:
        scanned = facts.get(path)
        return scanned.facts if scanned is not None else None

    def ends(name: str) -> Sequence[NativeEnd]:
        return native_ends(name, state.find_sites, roots_for(name, state.find_sites, facts_of))

    return ends


def _tree_path(given: str, out: Path, source_root: str | None) -> str:
    """A path as the tree names it: one on disk under the recorded tree, made relative
    to it; anything else as written (`git diff --name-only` gives the tree's own)."""
    if source_root:
        root = (out / source_root).resolve()
        on_disk = Path(given).resolve()
        if on_disk.exists() and on_disk.is_relative_to(root):
            return on_disk.relative_to(root).as_posix()
    return str(PurePosixPath(given.replace(os.sep, "/")))


def _tests(path: str, facts: StoredFacts, runner: RunnerClasses) -> tuple[RunnableTest, ...]:
    from docgen.render.suite_views import runnable_tests

    scanned = facts.get(path)
    suite = scanned.analysis.suite if scanned is not None else None
    if suite is None:
        return ()
    return runnable_tests(path, suite, runner.of(path))


def _reaching(
    reach: Reach, imports: frozenset[int], tests: tuple[RunnableTest, ...], facts: StoredFacts
) -> tuple[RunnableTest, ...]:
    """The tests whose bodies hold every use (not import) of what the change reaches;
    every test when a use is outside them or the file only imports it (its import runs
    the module), or when the file is itself changed."""
    uses = set(reach.lines) - imports
    scanned = facts.get(reach.path)
    python = scanned.facts.python if scanned is not None else None
    if reach.distance == 0 or not uses or python is None:
        return tests
    spans = {d.qualname: (d.line, d.end_line) for d in python.definitions}
    bodies = [(t, spans[t.function]) for t in tests if t.function in spans]
    inside: set[RunnableTest] = set()
    for line in uses:
        holding = {t for t, (first, last) in bodies if first <= line <= last}
        if not holding:  # a use outside every test: at module level, in a helper
            return tests
        inside |= holding
    return tuple(sorted(inside))


def _lines(found: Sequence[AffectedFile], show: str | None) -> Iterator[str]:
    for item in found:
        reach = item.reach
        if show == "files":
            yield reach.path
            continue
        if show != "tests":
            yield f"{reach.path}: {_how(item)}; {len(item.tests)} of {item.total} tests"
        for test in item.tests:
            if show != "tests":
                yield f"    {test.command}"
            elif not is_cfamily(reach.path):  # a C++ case runs in a binary the tree builds
                yield test.command


def _how(item: AffectedFile) -> str:
    reach = item.reach
    if reach.distance == 0:
        return "changed"
    only = "includes" if is_cfamily(reach.path) else "imports"
    verb = only if len(item.imports) == len(reach.lines) else "uses"
    via = reach.via[0] + (f" and {len(reach.via) - 1} more" if len(reach.via) > 1 else "")
    shown = ", ".join(str(n) for n in reach.lines[:LINES_SHOWN])
    more = len(reach.lines) - LINES_SHOWN
    lines = f"{shown} and {more} more" if more > 0 else shown
    hops = "1 hop" if reach.distance == 1 else f"{reach.distance} hops"
    return f"{hops}, {verb} {via} (line{'s' if len(reach.lines) > 1 else ''} {lines})"
