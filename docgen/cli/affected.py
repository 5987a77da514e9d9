"""`docgen affected PATH...`: the test files and tests a change of those files reaches,
nearest first, from the last build's stored index (see `docgen.index.affected`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import click

from docgen.cli.shared import out_option
from docgen.cli.stored import KeptUses, StoredFacts, StoredSummaries, kept_rows
from docgen.model.errors import UsageError
from docgen.model.options import DEFAULT_OUT
from docgen.state import StateDamaged, missing_state, read_state

if TYPE_CHECKING:
    from docgen.index.affected import Reach
    from docgen.index.native_calls import NativeEnd
    from docgen.index.suites import RunnerClasses
    from docgen.model.facts import FileFacts
    from docgen.render.suite_views import RunnableTest
    from docgen.state import State

LINES_SHOWN = 5  # of a file's lines that reach the change, before "and N more"
#: said of a path whose change nothing follows from
NOT_FOLLOWED = "neither a Python module nor a file binding names for Python, in the last build"

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
    from docgen.index.affected import Reacher, binding_readers, importers_of
    from docgen.index.graph import ImportGraph
    from docgen.index.import_rows import IMPORTS
    from docgen.index.native_calls import NATIVE_CALLS
    from docgen.index.python_uses import MODULES_META, DefinitionFinder, read_modules
    from docgen.index.suites import RunnerClasses

    modules = read_modules(state.meta(MODULES_META))
    summaries = StoredSummaries(state)
    finder = DefinitionFinder(modules, summaries.get)
    known = set(modules.values())
    changed = []
    uses = KeptUses(state.kept_stamps(NATIVE_CALLS.name))
    seeds: dict[str, dict[str, set[int]]] = {}
    facts = StoredFacts(state)
    for given in paths:
        path = _tree_path(given, out, state.meta("source_root"))
        made = [] if path in known else state.sites_of_files([path])
        if path in known:
            changed.append(path)
        elif any(site.kind in ("binding", "op") for site in made):
            changed.append(path)
            for reader, by_via in binding_readers(path, made, uses, _ends(state, facts)).items():
                seeds.setdefault(reader, {}).update(by_via)
        else:
            click.echo(f"docgen: {given}: {NOT_FOLLOWED}", err=True)
    importers = importers_of(kept_rows(state, IMPORTS))

    reacher = Reacher(finder, uses, importers, summaries.get)
    reached = reacher.reach(changed, depth, seeds)
    graph = ImportGraph(modules, {p: n for n, p in modules.items()}, {}, {})
    runner = RunnerClasses(facts, graph)
    found = []
    for reach in reached:
        summary = summaries.get(reach.path)
        if summary is None or not summary.suite:
            continue
        tests = _tests(reach.path, facts, runner)
        if tests:
            imports = frozenset(summary.import_lines)
            reaching = _reaching(reach, imports, tests, facts)
            found.append(AffectedFile(reach, imports & set(reach.lines), reaching, len(tests)))
    return found


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
            yield test.command if show == "tests" else f"    {test.command}"


def _how(item: AffectedFile) -> str:
    reach = item.reach
    if reach.distance == 0:
        return "changed"
    verb = "imports" if len(item.imports) == len(reach.lines) else "uses"
    via = reach.via[0] + (f" and {len(reach.via) - 1} more" if len(reach.via) > 1 else "")
    shown = ", ".join(str(n) for n in reach.lines[:LINES_SHOWN])
    more = len(reach.lines) - LINES_SHOWN
    lines = f"{shown} and {more} more" if more > 0 else shown
    hops = "1 hop" if reach.distance == 1 else f"{reach.distance} hops"
    return f"{hops}, {verb} {via} (line{'s' if len(reach.lines) > 1 else ''} {lines})"
