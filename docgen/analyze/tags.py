"""Tags with evidence, decided from code facts only.

Prose, comments and strings never reach here: the Python scanner records only
names used in code (`CodeRef`), imports and short literal call arguments, so a
docstring that says "cuda" cannot make a file a GPU file.  Every tag carries the
lines that prove it.
"""

from __future__ import annotations

import fnmatch
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, replace

from docgen.analyze.dotted_reads import dotted_reads
from docgen.analyze.headers import TEST_HEADERS, cuda_header
from docgen.analyze.own_uses import used_here
from docgen.analyze.suite import collect
from docgen.model.facts import (
    Analysis,
    CodeRef,
    Evidence,
    FileFacts,
    PythonFacts,
    ScannedFile,
    Suite,
    Tag,
)

#: Evidence text is the stripped source line, cut to this many characters.
EVIDENCE_WIDTH = 120

TEST_FILE_PATTERNS = ("test_*.py", "*_test.py")
TEST_RUNNER_CALLS = frozenset(
    {
        "unittest.main",
        "pytest.main",
        "absltest.main",
        "run_tests",
        "torch.testing._internal.common_utils.run_tests",
        "common_utils.run_tests",
        "absl.testing.absltest.main",
        "unittest.TextTestRunner",
    }
)
ACCELERATOR_DEVICES = ("cuda", "xpu", "mps", "hip")
DEVICE_KEYWORDS = frozenset({"device", "device_type", "map_location"})
DEVICE_CALLEES = ("torch.device", ".to", ".device")
MESH_CALLEES = frozenset({"init_device_mesh", "DeviceMesh"})


@dataclass(frozen=True)
class _Rule:
    """A dotted-name prefix that proves a tag, and how to say why."""

    tag: str
    prefix: str
    reason: str

    def matches(self, name: str) -> bool:
        return name == self.prefix or name.startswith(self.prefix + ".")


NAME_RULES: tuple[_Rule, ...] = (
    _Rule("gpu", "torch.cuda", "uses torch.cuda"),
    _Rule("gpu", "torch.backends.cudnn", "uses cuDNN settings"),
    _Rule("gpu", "triton", "uses Triton"),
    _Rule("gpu", "cupy", "uses CuPy"),
    _Rule("gpu", "pycuda", "uses PyCUDA"),
    _Rule("gpu", "numba.cuda", "uses numba.cuda"),
    _Rule("jit", "torch.jit", "uses TorchScript (torch.jit)"),
    _Rule("jit", "torch.compile", "calls torch.compile"),
    _Rule("jit", "torch.compiler", "uses torch.compiler"),
    _Rule("jit", "torch._dynamo", "uses TorchDynamo"),
    _Rule("jit", "torch._inductor", "uses TorchInductor"),
    _Rule("jit", "triton.jit", "compiles a Triton kernel"),
    _Rule("jit", "triton.autotune", "compiles a Triton kernel"),
    _Rule("jit", "numba.jit", "compiles with numba"),
    _Rule("jit", "numba.njit", "compiles with numba"),
    _Rule("jit", "numba.cuda.jit", "compiles with numba"),
    _Rule("jit", "jax.jit", "compiles with JAX"),
    _Rule("distributed", "torch.distributed", "uses torch.distributed"),
    _Rule("distributed", "torch.nn.parallel.DistributedDataParallel", "uses DDP"),
    _Rule("distributed", "mpi4py", "uses MPI"),
    _Rule("distributed", "horovod", "uses Horovod"),
)

#: The rules by the first part of their prefix: a name is tried only against the rules
#: of its own first part (most names called in a file match none).
RULES_BY_ROOT: dict[str, tuple[_Rule, ...]] = {
    root: tuple(r for r in NAME_RULES if r.prefix.partition(".")[0] == root)
    for root in sorted({r.prefix.partition(".")[0] for r in NAME_RULES})
}

TAG_ORDER = ("test", "gpu", "jit", "distributed")


def module_of(path: str) -> str:
    """The dotted package a repo-relative Python path belongs to (its folder)."""
    return posixpath.dirname(path).replace("/", ".")


def resolve_relative(module: str, package: str) -> str:
    """`..x` inside package `a.b.c` is `a.b.x`; an absolute name stays as it is."""
    level = len(module) - len(module.lstrip("."))
    if level == 0:
        return module
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    rest = module[level:]
    return ".".join([*base, rest] if rest else base)


def alias_map(facts: PythonFacts, package: str) -> dict[str, str]:
    """Bound name -> the absolute dotted name it stands for."""
    aliases: dict[str, str] = {}
    for imp in facts.imports:
        for bound, target in imp.aliases:
            aliases.setdefault(bound, resolve_relative(target, package))
    return aliases


def canonical(name: str, aliases: dict[str, str]) -> str:
    """Replace the first component of a dotted name by what its import binds it to."""
    if name.startswith("."):
        return name
    head, _, rest = name.partition(".")
    target = aliases.get(head)
    if target is None:
        return name
    return f"{target}.{rest}" if rest else target


class _Collector:
    """Gathers (tag, line, reason) and turns them into sorted, de-duplicated tags."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._found: dict[str, dict[int, str]] = {}
        self._weak: dict[str, dict[int, str]] = {}
        self._first: set[tuple[str, int]] = set()

    def add(self, tag: str, line: int, reason: str, first: bool = False) -> None:
        """`first`: evidence that states a requirement outright (a test that needs GPUs),
        listed before the rest."""
        self._found.setdefault(tag, {}).setdefault(line, reason)
        if first and self._found[tag][line] == reason:
            self._first.add((tag, line))

    def add_weak(self, tag: str, line: int, reason: str) -> None:
        """Evidence that alone makes no tag (a CPU fallback asks whether CUDA is there);
        listed after the strong evidence when there is some."""
        self._weak.setdefault(tag, {}).setdefault(line, reason)

    def tags(self) -> tuple[Tag, ...]:
        result = []
        for name in TAG_ORDER:
            found = self._found.get(name)
            if not found:
                continue
            weak = {n: r for n, r in self._weak.get(name, {}).items() if n not in found}
            strong = sorted(
                found.items(), key=lambda item: ((name, item[0]) not in self._first, item)
            )
            evidence = tuple(
                Evidence(line, self._text(line), reason)
                for line, reason in [*strong, *sorted(weak.items())]
            )
            result.append(Tag(name, evidence))
        return tuple(result)

    def _text(self, line: int) -> str:
        if not 1 <= line <= len(self._lines):
            return ""
        text = self._lines[line - 1].strip()
        return text if len(text) <= EVIDENCE_WIDTH else text[: EVIDENCE_WIDTH - 1] + "…"


#: Calls that ask whether code is being compiled or traced: they make code
#: compile-aware, but they compile nothing, so they are no evidence of `jit`.
COMPILE_QUERIES = frozenset(
    {"is_compiling", "is_dynamo_compiling", "is_scripting", "is_tracing", "is_exporting"}
)


#: Calls that ask whether a GPU is there: code that falls back to the CPU makes them, so
#: they are weak evidence of `gpu`, never enough alone.
GPU_QUERIES = frozenset(
    {
        "torch.cuda.is_available",
        "torch.cuda.device_count",
        "torch.cuda.is_bf16_supported",
        "torch.cuda.get_device_capability",
        "torch.cuda.get_device_name",
    }
)


def _name_rules(collector: _Collector, name: str, lines: Iterable[int], verb: str) -> None:
    if name.rsplit(".", 1)[-1] in COMPILE_QUERIES:
        return
    if name in GPU_QUERIES:
        for line in lines:
            collector.add_weak("gpu", line, f"runs on CUDA when available ({name}())")
        return
    for rule in RULES_BY_ROOT.get(name.partition(".")[0], ()):
        if rule.matches(name):
            reason = rule.reason if name == rule.prefix else f"{rule.reason} ({verb} {name})"
            for line in lines:
                collector.add(rule.tag, line, reason)


def _test_evidence(
    facts: FileFacts, py: PythonFacts, aliases: dict[str, str], c: _Collector
) -> None:
    name = posixpath.basename(facts.path)
    if name == "conftest.py":
        c.add("test", 0, "pytest loads conftest.py files")
    elif any(fnmatch.fnmatchcase(name, pattern) for pattern in TEST_FILE_PATTERNS):
        c.add("test", 0, "file name matches pytest's test_*.py / *_test.py patterns")
    test_methods: dict[str, int] = {}
    for definition in py.definitions:
        if definition.kind == "method" and definition.name.startswith("test") and definition.parent:
            test_methods.setdefault(definition.parent, definition.line)
    for definition in py.definitions:
        if definition.kind != "class" or definition.qualname not in test_methods:
            continue
        for base in definition.bases:
            full = canonical(base, aliases)
            if full.rsplit(".", 1)[-1].endswith("TestCase"):
                c.add(
                    "test",
                    definition.line,
                    f"{definition.name} subclasses {base} and has test methods",
                )
                break
    for ref, _ in _test_runs(py, aliases):
        for line in ref.lines:
            c.add("test", line, f"the __main__ guard runs the tests ({ref.name}())")


def _device_evidence(py: PythonFacts, aliases: dict[str, str], c: _Collector) -> None:
    for arg in py.string_args:
        device = arg.value.split(":", 1)[0].lower()
        if device not in ACCELERATOR_DEVICES:
            continue
        callee = canonical(arg.callee, aliases)
        if arg.keyword is None and callee.rsplit(".", 1)[-1] in MESH_CALLEES:
            c.add("gpu", arg.line, f"builds a {arg.value.upper()} device mesh ({arg.callee})")
        elif (arg.keyword in DEVICE_KEYWORDS) or (
            arg.keyword is None and any(callee.endswith(end) for end in DEVICE_CALLEES)
        ):
            how = f"{arg.keyword}={arg.value!r}" if arg.keyword else f"{arg.callee}({arg.value!r})"
            c.add("gpu", arg.line, f"puts work on an accelerator ({how})")
    for ref in py.code_refs:
        if ref.call and (ref.name == ".cuda" or ref.name.endswith(".cuda")):
            full = canonical(ref.name, aliases)
            if full != "torch.cuda":
                for line in ref.lines:
                    c.add("gpu", line, "moves data to the GPU (.cuda())")


def _cfamily_tags(facts: FileFacts, text: str | None) -> Analysis:
    """Tags of a C, C++ or CUDA file, from its code: kernels, launches, CUDA calls, tests."""
    c = facts.cfamily
    if c is None:
        return Analysis()
    collector = _Collector(text.split("\n") if text else [])
    for case in c.test_cases:
        named = case.name.startswith('"')  # Catch2's or doctest's, named by a string
        collector.add(
            "test", case.line, f"defines the {'test' if named else 'gtest'} case {case.name}"
        )
    for inc in c.includes:
        if inc.target in TEST_HEADERS:
            collector.add("test", inc.line, f"includes {inc.target}")
        if cuda_header(inc.target):
            collector.add("gpu", inc.line, f"includes the CUDA header {inc.target}")
    for d in c.definitions:
        if d.kind == "kernel":
            collector.add("gpu", d.line, f"defines the CUDA kernel {d.name} (__global__)")
        elif "__device__" in d.attributes:
            collector.add("gpu", d.line, f"defines {d.name} for the GPU (__device__)")
    for launch in c.launches:
        collector.add("gpu", launch.line, f"launches the kernel {launch.kernel} (<<<...>>>)")
    for call in c.gpu_calls:  # a qualified name is a use of PyTorch's CUDA namespaces
        verb = "uses" if "::" in call.name else "calls"
        collector.add("gpu", call.line, f"{verb} {call.name}")
    for r in c.registrations:
        if "CUDA" in r.dispatch_key:
            reason = f"registers kernels for the {r.dispatch_key} dispatch key ({r.macro})"
            collector.add("gpu", r.line, reason)
        elif r.macro == "REGISTER_CUDA_DISPATCH":
            collector.add("gpu", r.line, f"registers the CUDA kernel of {r.name} ({r.macro})")
    return Analysis(collector.tags())


def analyze(facts: FileFacts, text: str | None) -> Analysis:
    """Tags of one file from its code; prose never carries tags."""
    if facts.kind == "cfamily":
        return _cfamily_tags(facts, text)
    py = facts.python
    if facts.kind != "python" or py is None:
        return Analysis()
    collector = _Collector(text.split("\n") if text else [])
    package = module_of(facts.path)
    aliases = alias_map(py, package)
    _test_evidence(facts, py, aliases, collector)
    for imp in py.imports:
        targets = [resolve_relative(imp.module, package)] if imp.module else []
        if imp.is_from:
            base = resolve_relative(imp.module or "." * imp.level, package)
            targets += [f"{base}.{n}" if base else n for n in imp.names]
        for target in targets:
            _name_rules(collector, target, (imp.line,), "imports")
    names_on: dict[int, list[str]] = {}
    for ref in py.code_refs:
        for line in ref.lines:
            names_on.setdefault(line, []).append(ref.name)
    for ref in py.code_refs:
        if ref.name.startswith("."):
            continue
        # `torch.cuda` is also recorded as the head of `torch.cuda.is_available()`: the
        # longer name on the same line says what the code does
        longer = ref.name + "."
        typed = ref.annotation_lines  # a type annotation is no use of the thing
        lines = [
            n
            for n in ref.lines
            if n not in typed and not any(o.startswith(longer) for o in names_on[n])
        ]
        if lines:
            verb = "calls" if ref.call else "uses"
            _name_rules(collector, canonical(ref.name, aliases), lines, verb)
    _device_evidence(py, aliases, collector)
    suite = None
    if text is not None and any(d.name.startswith("test") for d in py.definitions):
        suite = collect(text, *_runs_itself(py, aliases))
    if suite is not None:
        _requirement_evidence(suite, collector)
    return Analysis(collector.tags(), suite)


#: runners that take unittest's command line (`-k NAME`) from `sys.argv`
SELECTING_RUNNERS = frozenset({"unittest.main", "run_tests"})


def _test_runs(py: PythonFacts, aliases: dict[str, str]) -> list[tuple[CodeRef, bool]]:
    """Calls under `__main__` that run the tests (a runner, or the file's own tests), each
    with whether `python FILE -k NAME` selects one through it (unittest's command line)."""
    own_tests = {
        d.name for d in py.definitions if d.kind == "function" and d.name.startswith("test")
    }
    found = []
    for ref in py.main_guard_calls:
        full = canonical(ref.name, aliases)
        short = ref.name.rsplit(".", 1)[-1]
        if full in TEST_RUNNER_CALLS or ref.name in TEST_RUNNER_CALLS or short == "run_tests":
            found.append((ref, full in SELECTING_RUNNERS or short == "run_tests"))
        elif ref.name in own_tests:
            found.append((ref, False))
    return found


def _runs_itself(py: PythonFacts, aliases: dict[str, str]) -> tuple[bool, bool]:
    runs = _test_runs(py, aliases)
    return bool(runs), any(selects for _, selects in runs)


def _requirement_evidence(suite: Suite, c: _Collector) -> None:
    """A test that needs GPUs is evidence of `gpu`, each with what it needs."""
    requirements = [r for cls in suite.classes for r in cls.requirements]
    tests = [*suite.functions, *(t for cls in suite.classes for t in cls.tests)]
    requirements += [r for t in tests for r in t.requirements]
    for r in requirements:
        if r.gpus:
            c.add("gpu", r.line, f"{r.text} ({r.written})", first=True)


def analyzed(facts: FileFacts, text: str | None) -> ScannedFile:
    """A file's facts with its analysis, ready for the index, the cache and the pages.

    The code references and literal arguments exist only for the analyzer; once
    the tags (with their evidence) are decided they are dropped, which halves
    what crosses from the workers and what the cache stores and reads back.
    """
    analysis = analyze(facts, text)
    if facts.python is not None:
        reads = dotted_reads(facts.python)
        slim = replace(
            facts.python,
            code_refs=(),
            name_uses=(),
            own_uses=(),
            string_args=(),
            main_guard_calls=(),
            reads=reads,
            used_here=used_here(facts.python),
        )
        facts = replace(facts, python=slim)
    return ScannedFile(facts, analysis)
