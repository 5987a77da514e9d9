"""Which classes a test runner collects, decided across the repository.

A class is a test class when one of its bases is, following bases through the
files that define them (`FSDPTest` in `common_fsdp.py`, itself a
`MultiProcessTestCase`, itself a `TestCase`) until a name that ends in
`TestCase` (`unittest.TestCase`, Django's, PyTorch's); pytest also collects a
`Test*` class without bases.  Each file's suite is resolved once, for every
page that shows it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from docgen.analyze.tags import TAG_ORDER, alias_map, canonical, module_of
from docgen.index.graph import ImportGraph
from docgen.model.facts import Evidence, ScannedFile, SuiteClass, Tag

MAX_DEPTH = 25  # bases followed before a chain is given up


def first_line(docstring: str | None) -> str:
    """What a class says of itself in a line: its docstring's first, "" without one."""
    return (docstring or "").strip().split("\n", 1)[0]


@dataclass(frozen=True)
class BaseLink:
    """One step of a test class's chain of bases."""

    name: str  # as the import makes it: `torch.testing._internal.common_fsdp.FSDPTest`
    path: str  # the repository file that defines it, "" when outside the repository
    line: int
    summary: str  # the first line of its docstring, "" when it has none


@dataclass(frozen=True)
class CollectedClass:
    """A test class and whether a runner collects it, with the chain of bases that decides."""

    suite_class: SuiteClass
    collected: bool
    chain: tuple[BaseLink, ...]  # from the class's own base to the `TestCase` that ends it
    pytest_only: bool = False  # a `Test*` class no base makes a TestCase: pytest collects it


class RunnerClasses:
    """Test classes of the repository, resolved on demand and remembered."""

    def __init__(self, files: Mapping[str, ScannedFile], graph: ImportGraph) -> None:
        self._files = files
        self._graph = graph
        self._aliases: dict[str, dict[str, str]] = {}
        self._chains: dict[str, tuple[BaseLink, ...] | None] = {}

    def of(self, path: str) -> tuple[CollectedClass, ...]:
        scanned = self._files.get(path)
        suite = scanned.analysis.suite if scanned is not None else None
        if suite is None:
            return ()
        infos = []
        for cls in suite.classes:
            chain = self._first_chain(path, cls.bases, 0)
            by_name = chain is None and cls.name.startswith("Test")  # pytest: bases aside
            infos.append(CollectedClass(cls, chain is not None or by_name, chain or (), by_name))
        return tuple(infos)

    def _aliases_of(self, path: str) -> dict[str, str]:
        found = self._aliases.get(path)
        if found is None:
            python = self._files[path].facts.python
            found = alias_map(python, module_of(path)) if python is not None else {}
            self._aliases[path] = found
        return found

    def _first_chain(
        self, path: str, bases: tuple[str, ...], depth: int
    ) -> tuple[BaseLink, ...] | None:
        for base in bases:
            full = canonical(base, self._aliases_of(path))
            if "." not in full:
                full = f"{self._graph.module_names.get(path, '')}.{full}".lstrip(".")
            chain = self._chain(full, depth)
            if chain is not None:
                return chain
        return None

    def _chain(self, name: str, depth: int) -> tuple[BaseLink, ...] | None:
        """The bases from `name` (dotted) down to a `TestCase`, or None when it is no test base."""
        if name in self._chains:
            return self._chains[name]
        self._chains[name] = None  # a cycle reads as "not a test base"
        result: tuple[BaseLink, ...] | None = None
        found = self._locate(name, 0) if depth < MAX_DEPTH else None
        if found is not None:
            defined, path, definition_line, summary, bases = found
            link = BaseLink(defined, path, definition_line, summary)
            rest = self._first_chain(path, bases, depth + 1)
            if rest is not None:
                result = (link, *rest)
            elif defined.rsplit(".", 1)[-1].endswith("TestCase"):
                result = (link,)  # a `TestCase` by its name, its own bases unknown
        elif name.rsplit(".", 1)[-1].endswith("TestCase"):
            result = (BaseLink(name, "", 0, ""),)
        self._chains[name] = result
        return result

    def _locate(self, name: str, hops: int) -> tuple[str, str, int, str, tuple[str, ...]] | None:
        """(name where defined, file, line, docstring line, bases as written) of a class
        defined in the repository, following a name its module only imports."""
        if hops > MAX_DEPTH:
            return None
        module, _, short = name.rpartition(".")
        path = self._graph.modules.get(module)
        if path is None or path not in self._files:
            return None
        python = self._files[path].facts.python
        if python is None:
            return None
        for d in python.definitions:
            if d.kind == "class" and d.parent is None and d.name == short:
                return name, path, d.line, first_line(d.docstring), d.bases
        target = self._aliases_of(path).get(short)
        if target is not None and target != name:
            return self._locate(target, hops + 1)
        return None


@dataclass(frozen=True)
class ResolvedSuites:
    """Files with `test` evidence found through bases in other files, and what it added."""

    files: dict[str, ScannedFile]  # only those given `test` evidence through bases elsewhere
    derived: dict[str, str]  # what that evidence added, by path (for page digests)
    classes: dict[str, tuple[CollectedClass, ...]]  # each test file's classes, resolved


def resolve_suites(
    files: Mapping[str, ScannedFile], suites: Iterable[str], graph: ImportGraph
) -> ResolvedSuites:
    """Every test file's classes resolved once, for every page that shows them; and the
    files whose test classes are test classes only through a base in another file
    (`class TestX(FSDPTest)`), with that as `test` evidence.  `suites`: the paths of the
    files with a test suite; only they and the files their bases lead to are read."""
    resolver = RunnerClasses(files, graph)
    classes = {path: resolver.of(path) for path in sorted(suites)}
    result: dict[str, ScannedFile] = {}
    added_by_path: dict[str, str] = {}
    for path in classes:
        scanned = files[path]
        if scanned.analysis.suite is None or scanned.facts.python is None:
            continue
        tags = {t.name: t for t in scanned.analysis.tags}
        test = tags.get("test")
        have = {e.line for e in test.evidence} if test is not None else set()
        heads = {(d.name, d.line): d for d in scanned.facts.python.definitions if d.kind == "class"}
        added = []
        for info in classes[path]:
            cls = info.suite_class
            if not info.chain or not info.chain[0].path or cls.line in have:
                continue
            via = " ← ".join(".".join(b.name.rsplit(".", 2)[-2:]) for b in info.chain)
            head = heads.get((cls.name, cls.line))
            text = f"class {cls.name}({', '.join(head.bases)}):" if head else f"class {cls.name}"
            reason = f"{cls.name} is a test class through its bases ({via})"
            added.append(Evidence(cls.line, text, reason))
        if not added:
            continue
        evidence = tuple(sorted([*(test.evidence if test else ()), *added], key=lambda e: e.line))
        tags["test"] = Tag("test", evidence)
        ordered = tuple(tags[name] for name in TAG_ORDER if name in tags)
        result[path] = replace(scanned, analysis=replace(scanned.analysis, tags=ordered))
        added_by_path[path] = "|".join(f"{e.line}:{e.reason}" for e in added)
    return ResolvedSuites(result, added_by_path, classes)
