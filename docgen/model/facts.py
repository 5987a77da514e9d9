"""Frozen facts: what scanning and analysis learn about one file.

Every value here is immutable and picklable so that it can cross a process
boundary, sit in a cache and be compared between builds.  A scanner never
raises: a failure is a `Problem` carried inside the facts and shown on the page.
"""

from __future__ import annotations

from dataclasses import dataclass, field, is_dataclass
from typing import Literal

from docgen.model.binding_facts import AttachedDoc, DottedRead, ExtensionModule, NameAlias
from docgen.model.cfamily_facts import CFacts, Registration
from docgen.model.construct import pickled_by_fields
from docgen.model.kinds import CKind
from docgen.model.yaml_facts import YamlFacts

__all__ = ["CKind"]  # kept here too: the scanners import it with the facts

DefinitionKind = Literal["class", "function", "method"]
FileKind = Literal["python", "markdown", "cfamily", "yaml", "text", "binary"]
Severity = Literal["warning", "error"]
FindingCategory = Literal["security", "performance", "pattern"]


@dataclass(frozen=True, slots=True)
class Problem:
    """Something that went wrong while reading or scanning a file (1-based line, 0 if none)."""

    line: int
    message: str
    severity: Severity = "warning"


#: Words of the problem a worker records for a file that timed out: such facts are
#: never cached, another run might not repeat them.
TIMEOUT_WORDS = "took longer than"


@dataclass(frozen=True, slots=True)
class Definition:
    """A class or function at any depth, as written in the source."""

    kind: DefinitionKind
    name: str
    qualname: str  # dotted path of enclosing definitions, e.g. "Outer.method.inner"
    line: int  # line of the `def` / `class` keyword
    end_line: int
    decorators: tuple[str, ...] = ()  # each as written, without the `@`
    bases: tuple[str, ...] = ()  # class bases and keywords as written
    signature: str = ""  # "(a, b=1) -> int" as written; empty for classes
    docstring: str | None = None
    is_async: bool = False
    parent: str | None = None  # qualname of the enclosing definition


AttributeScope = Literal["module", "class", "instance"]


@dataclass(frozen=True, slots=True)
class Attribute:
    """A module or class attribute, or an instance attribute `__init__` sets on `self`,
    at its first binding in that scope, as pdoc and griffe document them.

    `annotation` and `value` are as written, on their lines (None when absent; a
    value longer than `MAX_ATTRIBUTE_VALUE` characters is None with `has_value` True,
    its lines still known from `line` and `end_line`).  `docstring` is the string
    statement right after the binding, or the `#:` comment lines before it or on its
    line; without one, `comment` keeps the plain `#` lines right above it, which is how
    configuration modules (`torch/_dynamo/config.py`) document their settings.
    """

    name: str
    qualname: str  # "Linear.weight", "CONSTANT", "Outer.Inner.x"
    scope: AttributeScope
    line: int
    end_line: int
    annotation: str | None = None
    value: str | None = None
    docstring: str | None = None
    parent: str | None = None  # qualname of the class, None at module level
    has_value: bool = False  # False for a bare annotation (`x: int`)
    comment: str | None = None  # the plain `#` lines right above it, when no docstring
    parent_line: int = 0  # the line of its class's `class` keyword (0 at module level)


#: longest value an Attribute keeps as written (a longer one is told by its lines)
MAX_ATTRIBUTE_VALUE = 160


@dataclass(frozen=True, slots=True)
class Import:
    """One imported module or name.

    `module` is the module as written (`a.b`, `.x`, `..`-relative), or None for
    `from . import y`.  `names` are the imported names (never `*`).
    """

    line: int
    module: str | None
    names: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()  # (bound name, what it stands for)
    level: int = 0  # leading dots of a relative import
    is_from: bool = False
    star: bool = False
    context: tuple[str, ...] = ()  # enclosing blocks: "function", "try", "if", "TYPE_CHECKING"


@dataclass(frozen=True, slots=True)
class CodeRef:
    """A dotted name used in code (not prose, comments or strings), with its lines.

    `name` is a dotted chain rooted at a bare name (`torch.cuda.synchronize`) or,
    for a chain on an expression, a leading dot (`.cuda`).  `call` says whether
    the chain is called.
    """

    name: str
    lines: tuple[int, ...]
    call: bool = False
    #: the lines where the name is only part of a type annotation (`x: torch.cuda.Stream`),
    #: which says what a value may be, not what the code does
    annotation_lines: tuple[int, ...] = ()
    #: how the code writes a use read through a class's first base (`super().forward`,
    #: `self.helper` for `Base.helper`), "" when it writes `name` itself
    written: str = ""


@dataclass(frozen=True, slots=True)
class StringArg:
    """A short string literal passed to a call: `torch.device("cuda")`, `device="cuda"`."""

    callee: str  # as in CodeRef.name
    keyword: str | None  # None for a positional argument
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of code that proves a claim: a security risk, a costly pattern or an idiom.

    Found in the code only (never in strings, comments or docstrings), so a page
    can show each claim with the line that makes it true.
    """

    category: FindingCategory
    kind: str  # stable identifier, e.g. "pickle-load", "sync-in-loop", "dataclass"
    line: int
    message: str  # one plain sentence about this line, e.g. "`pickle.load` runs code ..."
    subject: str = ""  # the class, function or call concerned, e.g. "Config", "torch.load"


@dataclass(frozen=True, slots=True)
class Heading:
    """A Markdown heading, for the outline and the anchors links point at."""

    level: int
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class Link:
    """A link of a Markdown file, checked against the repository when its page is made."""

    target: str
    line: int
    text: str = ""


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """A fenced code block, whose identifiers become keywords of the file."""

    language: str
    line: int
    identifiers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PythonFacts:
    """What the Python scanner learns."""

    module_docstring: str | None = None
    definitions: tuple[Definition, ...] = ()
    attributes: tuple[Attribute, ...] = ()  # in source order
    imports: tuple[Import, ...] = ()
    code_refs: tuple[CodeRef, ...] = ()
    #: bare-name uses of the names module-level imports bind, where no local name
    #: shadows them (see `docgen.scan.python.name_uses`); dropped with `code_refs`
    name_uses: tuple[CodeRef, ...] = ()
    #: bare-name uses of the classes and functions of its own top level, where it reads
    #: the module's binding; dropped with `code_refs`, once `used_here` is made of them
    own_uses: tuple[CodeRef, ...] = ()
    string_args: tuple[StringArg, ...] = ()
    main_guard_calls: tuple[CodeRef, ...] = ()  # calls under `if __name__ == "__main__":`
    dunder_all: tuple[str, ...] | None = None
    findings: tuple[Finding, ...] = ()  # sorted by (category, line, kind, subject)
    parser: str = "libcst"  # "ast" when libcst rejected the file and Python's parser read it
    aliases: tuple[NameAlias, ...] = ()  # module-level `name = dotted.name`, by line
    extensions: tuple[ExtensionModule, ...] = ()  # `CUDAExtension(name=..., sources=[...])`
    #: made from `code_refs` before they are dropped (see `docgen.analyze.dotted_reads`)
    reads: tuple[DottedRead, ...] = ()
    #: its top-level classes and functions that its own code uses outside their own
    #: bodies, sorted (see `docgen.analyze.tags.analyzed`)
    used_here: tuple[str, ...] = ()
    attached: tuple[AttachedDoc, ...] = ()  # `add_docstr(torch.add, "...")`, by line
    #: the operators it registers through `torch.library`, as library blocks are read
    registrations: tuple[Registration, ...] = ()


@dataclass(frozen=True, slots=True)
class MarkdownFacts:
    """What the Markdown scanner learns."""

    headings: tuple[Heading, ...] = ()
    code_identifiers: tuple[str, ...] = ()  # sorted, unique
    code_blocks: tuple[CodeBlock, ...] = ()
    links: tuple[Link, ...] = ()


@dataclass(frozen=True, slots=True)
class FileFacts:
    """Everything docgen knows about one file after scanning."""

    path: str  # repo-relative, POSIX separators
    kind: FileKind
    language: str  # "python", "markdown", "toml", ... or "" when unknown
    size: int
    sha256: str
    line_count: int = 0
    encoding: str = "utf-8"
    parsed: bool = True  # False when the language scanner could not parse the file
    problems: tuple[Problem, ...] = ()
    python: PythonFacts | None = None
    markdown: MarkdownFacts | None = None
    cfamily: CFacts | None = None
    yaml: YamlFacts | None = None


@dataclass(frozen=True, slots=True)
class Evidence:
    """A source line that proves a claim."""

    line: int
    text: str  # the stripped source line, shortened
    reason: str  # why this line counts, e.g. "calls .cuda()"


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag of a file with the lines that justify it: no tag is given without evidence."""

    name: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True, slots=True)
class Requirement:
    """A condition a test runs under, read from a decorator or a check in its body."""

    kind: str  # "skip", "xfail", "slow", "gpus", "gpu", "triton", "rocm", "nccl", "dynamo",
    # "sm", "condition"
    text: str  # what it means: "needs >= 4 GPUs"
    written: str  # the code that says so: "skip_if_lt_x_gpu(4)"
    line: int
    gpus: int = 0  # GPUs it needs (1 for "a GPU"), 0 when it needs none


@dataclass(frozen=True, slots=True)
class CollectedTest:
    """One test as a runner names it (a parametrized method gives several)."""

    name: str  # `test_x_is_seq_parallel_True`, `test_y[1-2]`
    function: str  # the method or function as written
    line: int
    requirements: tuple[Requirement, ...] = ()
    expanded: bool = True  # False: parametrized with values docgen cannot read
    defined_in: str = ""  # the class of the same file it is inherited from, "" for its own
    #: how many tests the row stands for: a function whose parametrized names are too
    #: many to list is one row, its names counted
    cases: int = 1
    #: for values that depend on a condition (`[fp16] if is_sm75 else [fp16, bf16]`): the
    #: condition as written, `cases` counting them where it is false, `cases_if_true`
    #: where it is true
    condition: str = ""
    cases_if_true: int = 0


@dataclass(frozen=True, slots=True)
class SuiteClass:
    """A top-level class with test methods; whether a runner collects it is decided across
    the repository, through its bases."""

    name: str
    line: int
    bases: tuple[str, ...]  # dotted names as written (the imports resolve them)
    requirements: tuple[Requirement, ...]  # from the class's own decorators
    tests: tuple[CollectedTest, ...]
    per_device: bool = False  # instantiate_device_type_tests makes one class per device
    #: of those, the device types a machine with only a CPU gets (`("cpu",)`, or () when
    #: `only_for` / `except_for` leave it out); its tests are named for the first
    devices: tuple[str, ...] = ()
    #: the module-level fallback that hides it (`if not TEST_CUDA: TestCase = NoTest`),
    #: as written; "" when none does
    hidden_by: str = ""


@dataclass(frozen=True, slots=True)
class Suite:
    """What a test runner would collect from one file."""

    classes: tuple[SuiteClass, ...] = ()
    functions: tuple[CollectedTest, ...] = ()  # module-level `test_*` functions (pytest)
    runs_itself: bool = False  # its `__main__` guard runs the tests
    selects: bool = False  # ... through unittest's command line: `python FILE -k NAME` runs one


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the analyzer concludes from a file's facts."""

    tags: tuple[Tag, ...] = ()
    suite: Suite | None = None


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """A file's facts and analysis, the unit that crosses from workers to the build."""

    facts: FileFacts
    analysis: Analysis = field(default_factory=Analysis)


#: every fact class of this module, so that a new one is never left to the slow way
for _fact in [v for v in list(globals().values()) if is_dataclass(v) and isinstance(v, type)]:
    if _fact.__module__ == __name__:
        pickled_by_fields(_fact)
