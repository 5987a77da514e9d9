"""The tests table of a test file: what a runner collects, what each test needs, and the
command that runs it alone."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.index.suites import CollectedClass, first_line
from docgen.model.anchors import AnchoredDefinition
from docgen.model.facts import CollectedTest, FileFacts, Requirement, Suite
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.filters import shell_quote
from docgen.render.view_refs import LineRef, LinkView


@dataclass(frozen=True)
class NeedView:
    """What a test needs, and the code that says so."""

    text: str  # "needs >= 4 GPUs"
    written: str  # "skip_if_lt_x_gpu(4)"


@dataclass(frozen=True)
class CollectedView:
    """One test a runner collects, with what it needs and the command that runs it alone."""

    name: str
    href: str  # the function's heading on this page
    line: LineRef
    needs: tuple[NeedView, ...]  # strongest kind first
    command: str
    expanded: bool = True  # False: parametrized with values docgen cannot read
    inherited_from: str = ""  # the class of this file that defines it, "" for its own
    cases: int = 1  # the tests the row stands for (too many parametrized names to list)
    condition: str = ""  # what its values depend on: `cases` where false, then where true
    cases_if_true: int = 0


@dataclass(frozen=True)
class SuiteClassView:
    """A class with test methods: whether a runner collects it, and why (its bases)."""

    name: str
    href: str
    line: LineRef
    collected: bool
    pytest_only: bool  # collected by its name (`Test*`, no TestCase base): pytest, not unittest
    bases: tuple[str, ...]  # as written
    chain: tuple[LinkView, ...]  # its base, that base's base, ... down to a TestCase
    provides: str  # the first line of its nearest documented base's docstring
    docstring: str
    per_device: bool
    devices: tuple[str, ...]  # the device types a machine with only a CPU instantiates
    tests: tuple[CollectedView, ...]


@dataclass(frozen=True)
class FileSuiteView:
    """The tests of one file."""

    classes: tuple[SuiteClassView, ...]
    functions: tuple[CollectedView, ...]
    total: int  # tests a runner collects (parametrized ones counted by name)
    selects: bool  # `python FILE -k NAME` runs one test (unittest's command line)
    unread: int = 0  # rows counted once whose parametrized values docgen cannot read
    condition: str = ""  # the one condition some tests' values depend on
    total_if_true: int = 0  # `total` where that condition is true
    hidden: int = 0  # of `total`, the tests of classes a module-level fallback hides
    hidden_by: str = ""  # that fallback, as written


#: requirement kinds, strongest first: the order a test's needs are listed in
NEED_ORDER = (
    "skip",
    "xfail",
    "slow",
    "gpus",
    "gpu",
    "triton",
    "nccl",
    "sm",
    "rocm",
    "dynamo",
    "condition",
)


def _needs(*groups: tuple[Requirement, ...]) -> tuple[NeedView, ...]:
    """Requirements of the class, then the test's own, strongest kind first, once each."""
    order = {kind: i for i, kind in enumerate(NEED_ORDER)}
    seen: set[NeedView] = set()
    needs = []
    for r in sorted(
        (r for g in groups for r in g), key=lambda r: (order.get(r.kind, len(order)), r.line)
    ):
        need = NeedView(r.text, r.written)
        if need not in seen:
            seen.add(need)
            needs.append(need)
    return tuple(needs)


def command(path: str, test: CollectedTest, owner: str, selects: bool) -> str:
    """`python path -k name` when the file runs its own tests (and unittest collects the
    test), else pytest's node id."""
    if selects:
        return f"python {shell_quote(path)} -k {shell_quote(test.name)}"
    node = "::".join(p for p in (path, owner, test.name) if p)
    return f"pytest {shell_quote(node)}"


def suite_view(
    facts: FileFacts,
    suite: Suite,
    anchored: tuple[AnchoredDefinition, ...],
    classes: tuple[CollectedClass, ...],
    linker: Linker,
) -> FileSuiteView:
    path = facts.path
    anchors = {a.definition.qualname: a.anchor for a in anchored}

    def row(
        test: CollectedTest,
        owner: str,
        inherited: tuple[Requirement, ...],
        pytest: bool = False,
        run_as: str = "",  # the class a runner collects the test from, when not `owner`
    ) -> CollectedView:
        qualname = f"{test.defined_in or owner}.{test.function}" if owner else test.function
        anchor = anchors.get(qualname, "")
        return CollectedView(
            name=test.name,
            href=linker.here(anchor) if anchor else "",
            line=linker.line(path, test.line, facts.line_count),
            needs=_needs(inherited, test.requirements),
            command=command(path, test, run_as or owner, suite.selects and not pytest),
            expanded=test.expanded,
            inherited_from=test.defined_in,
            cases=test.cases,
            condition=test.condition,
            cases_if_true=test.cases_if_true,
        )

    class_views = []
    in_total: list[CollectedView] = []  # the rows a runner collects here
    hidden = 0
    hidden_by = ""
    docstrings = {
        a.definition.qualname: first_line(a.definition.docstring)
        for a in anchored
        if a.definition.kind == "class"
    }
    for info in classes:
        cls = info.suite_class
        run_as = f"{cls.name}{cls.devices[0].upper()}" if cls.devices else ""
        tests = tuple(
            row(t, cls.name, cls.requirements, info.pytest_only, run_as) for t in cls.tests
        )
        if info.collected and (cls.devices or not cls.per_device):
            in_total.extend(tests)
            if cls.hidden_by:
                hidden += sum(t.cases for t in tests)
                hidden_by = hidden_by or cls.hidden_by
        chain = tuple(
            LinkView(b.name, linker.to_page(docs_page(b.path), "") if b.path else "")
            for b in info.chain
        )
        provides = next((b.summary for b in info.chain if b.summary), "")
        class_views.append(
            SuiteClassView(
                name=cls.name,
                href=linker.here(anchors[cls.name]) if cls.name in anchors else "",
                line=linker.line(path, cls.line, facts.line_count),
                collected=info.collected,
                pytest_only=info.pytest_only,
                bases=cls.bases,
                chain=chain,
                provides=provides,
                docstring=docstrings.get(cls.name, ""),
                per_device=cls.per_device,
                devices=cls.devices,
                tests=tests,
            )
        )
    functions = tuple(row(t, "", ()) for t in suite.functions)
    counted = [*functions, *in_total]
    total = sum(t.cases for t in counted)
    unread = sum(1 for t in counted if not t.expanded)
    conditions = {t.condition for t in counted if t.condition}
    condition = conditions.pop() if len(conditions) == 1 else ""
    shift = sum(t.cases_if_true - t.cases for t in counted if t.condition) if condition else 0
    if len(conditions) > 1:  # counted once each, as values known only when it runs
        conditional = [t for t in counted if t.condition]
        total -= sum(t.cases - 1 for t in conditional)
        unread += len(conditional)
    return FileSuiteView(
        tuple(class_views),
        functions,
        total,
        suite.selects,
        unread,
        condition,
        total + shift if condition else 0,
        hidden,
        hidden_by,
    )


@dataclass(frozen=True, order=True)
class RunnableTest:
    """A test a runner collects from a file, with the command its page gives to run it
    alone (for `docgen affected`)."""

    line: int
    function: str  # the function's qualified name in the file: `TestX.test_y`, `test_z`
    command: str


def runnable_tests(
    path: str, suite: Suite, classes: tuple[CollectedClass, ...]
) -> tuple[RunnableTest, ...]:
    """The tests of `suite` that a runner collects, as its page lists them, by line."""
    found = [
        RunnableTest(t.line, t.function, command(path, t, "", suite.selects))
        for t in suite.functions
    ]
    for info in classes:
        cls = info.suite_class
        if not info.collected or (cls.per_device and not cls.devices):
            continue
        owner = f"{cls.name}{cls.devices[0].upper()}" if cls.devices else cls.name
        selects = suite.selects and not info.pytest_only
        for t in cls.tests:
            function = f"{t.defined_in or cls.name}.{t.function}"
            found.append(RunnableTest(t.line, function, command(path, t, owner, selects)))
    return tuple(sorted(found))
