"""What a test runner would collect from one Python file, and what each test needs.

Read with `ast` in the worker, beside the scanner's facts, because it needs the
literal arguments of decorators (`@parametrize("flag", [True, False])`,
`@skip_if_lt_x_gpu(4)`) and the checks in test bodies (`if not
at_least_x_gpu(2): self.skipTest(...)`).  Parametrized tests are named as
PyTorch's `instantiate_parametrized_tests` and pytest name them, only where the
values are literals.  Whether a class is a test class is decided later, across
the repository, from its bases (`suites.py`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

from docgen.analyze.expansion import callee, class_marks, dotted, expanded
from docgen.analyze.module_scope import device_names, module_scope
from docgen.analyze.module_values import Values, values_at_definitions, with_values
from docgen.model.facts import CollectedTest, Requirement, Suite, SuiteClass

#: flags of PyTorch's test suite that say a GPU is present, and how many GPUs they mean
GPU_FLAGS = {
    "HAS_GPU": 1,
    "HAS_CUDA": 1,
    "TEST_CUDA": 1,
    "TEST_GPU": 1,
    "HAS_CUDA_AND_TRITON": 1,
    "TEST_MULTIGPU": 2,
    "TEST_MULTIACCELERATOR": 2,
}
#: PyTorch's compute-capability flags: `SM80OrLater` is SM >= 8.0
SM_FLAG = re.compile(r"SM(\d)(\d)OrLater")
#: decorators that need a GPU: (kind, meaning)
GPU_DECORATORS = {
    "requires_cuda": ("gpu", "needs a CUDA GPU"),
    "requires_gpu": ("gpu", "needs a GPU"),
    "onlyCUDA": ("gpu", "runs on CUDA only"),
    "requires_triton": ("triton", "needs a GPU with Triton"),
    "requires_gpu_and_triton": ("triton", "needs a GPU with Triton"),
    "requires_cuda_and_triton": ("triton", "needs a CUDA GPU with Triton"),
    "requires_nccl": ("nccl", "needs NCCL (CUDA GPUs)"),
}
SKIP_CALLS = frozenset({"skipTest", "SkipTest", "skip"})


def _int_arg(call: ast.Call | None, index: int) -> int | None:
    if call is None or len(call.args) <= index:
        return None
    arg = call.args[index]
    return arg.value if isinstance(arg, ast.Constant) and type(arg.value) is int else None


def _reason(call: ast.Call | None, index: int) -> str:
    if call is not None and len(call.args) > index:
        arg = call.args[index]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return ""


def gpus_needed(count: int) -> str:
    return "needs a GPU" if count == 1 else f"needs >= {count} GPUs"


def condition_requirement(test: ast.expr, skip_when: bool, written: str, line: int) -> Requirement:
    """What `skipIf(test)` (skip_when) or `skipUnless(test)` means: a GPU flag or count
    where it reads as one, else the condition as written."""
    wants = not skip_when  # the test runs when `test` is `wants`
    inner = test
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner, wants = test.operand, not wants
    flag = dotted(inner).rsplit(".", 1)[-1]
    sm = SM_FLAG.fullmatch(flag)
    if wants and sm is not None:
        version = f"{sm.group(1)}.{sm.group(2)}"
        return Requirement("sm", f"needs SM >= {version} ({flag})", written, line, 1)
    if wants and flag in GPU_FLAGS:
        count = GPU_FLAGS[flag]
        if count > 1:
            return Requirement("gpus", f"needs >= {count} GPUs ({flag})", written, line, count)
        return Requirement("gpu", f"skipped without a GPU ({flag})", written, line, 1)
    if wants and dotted(inner.func if isinstance(inner, ast.Call) else inner).endswith(
        "cuda.is_available"
    ):
        return Requirement(
            "gpu", "skipped without CUDA (torch.cuda.is_available())", written, line, 1
        )
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Lt)
        and isinstance(test.left, ast.Call)
        and dotted(test.left.func).endswith("device_count")
        and isinstance(test.comparators[0], ast.Constant)
        and type(test.comparators[0].value) is int
        and skip_when
    ):
        count = test.comparators[0].value
        return Requirement("gpus", gpus_needed(count), written, line, count)
    verb = "skipped when" if skip_when else "runs only when"
    return Requirement("condition", f"{verb} {ast.unparse(test)}", written, line)


def decorator_requirement(node: ast.expr) -> Requirement | None:
    """The requirement a decorator states, or None when it states none docgen knows."""
    name, call = callee(node)
    last = name.rsplit(".", 1)[-1]
    written = ast.unparse(node)
    line = node.lineno
    if last == "skip_if_lt_x_gpu":
        count = _int_arg(call, 0)
        if count is not None:
            return Requirement("gpus", gpus_needed(count), written, line, count)
    if last in GPU_DECORATORS:
        kind, text = GPU_DECORATORS[last]
        return Requirement(kind, text, written, line, 1)
    if last in ("expectedFailure", "XFAIL", "xfail"):
        return Requirement("xfail", "expected to fail", written, line)
    if last == "slow" and name in ("slow", "pytest.mark.slow"):
        return Requirement(
            "slow", "marked slow (run only when slow tests are asked for)", written, line
        )
    if last == "skipIfRocm":
        return Requirement("rocm", "not on ROCm", written, line)
    if last == "skipIfTorchDynamo":
        why = _reason(call, 0)
        return Requirement(
            "dynamo", "skipped under TorchDynamo" + (f": {why}" if why else ""), written, line
        )
    if last == "skip" and name in ("unittest.skip", "skip", "pytest.mark.skip"):
        why = _reason(call, 0)
        return Requirement("skip", "always skipped" + (f": {why}" if why else ""), written, line)
    if last == "skip_but_pass_in_sandcastle":  # PyTorch's: a skip that passes in its CI
        why = _reason(call, 0)
        return Requirement("skip", "always skipped" + (f": {why}" if why else ""), written, line)
    if last in SKIP_IF and call is not None and call.args:
        return condition_requirement(call.args[0], last != "skipUnless", written, line)
    return None


#: decorators that skip a test when their condition holds (`skipUnless`: unless it does);
#: PyTorch's `skip_but_pass_in_sandcastle_if(cond, reason)` is its most common
SKIP_IF = frozenset({"skipIf", "skipUnless", "skipif", "skip_but_pass_in_sandcastle_if"})


def body_requirements(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Requirement]:
    """Skips in a body and what guards them: a GPU count, a compute capability, a flag.
    A helper called outside such a guard (`fake_pg = not at_least_x_gpu(2)` picks a fake
    process group) requires nothing."""
    found: list[Requirement] = []
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and _skips(node.body)):
            continue
        gates = [g for call in ast.walk(node.test) if (g := _gate(call)) is not None]
        if gates:
            found.extend(gates)
        else:
            written = f"if {ast.unparse(node.test)}: skip"
            found.append(condition_requirement(node.test, True, written, node.lineno))
    return sorted(found, key=lambda r: (r.line, r.kind, r.text))


def _gate(node: ast.AST) -> Requirement | None:
    """`at_least_x_gpu(2)` or `sm_is_or_higher_than(device, 8, 0)` in a skip's guard."""
    if not isinstance(node, ast.Call):
        return None
    last = dotted(node.func).rsplit(".", 1)[-1]
    if last == "at_least_x_gpu" and (count := _int_arg(node, 0)) is not None:
        return Requirement("gpus", gpus_needed(count), ast.unparse(node), node.lineno, count)
    if last == "sm_is_or_higher_than" and (major := _int_arg(node, 1)) is not None:
        version = f"{major}.{_int_arg(node, 2) or 0}"
        return Requirement("sm", f"needs SM >= {version}", ast.unparse(node), node.lineno, 1)
    return None


def _skips(body: list[ast.stmt]) -> bool:
    for statement in body:
        target = statement.exc if isinstance(statement, ast.Raise) else None
        if isinstance(statement, ast.Expr):
            target = statement.value
        if isinstance(target, ast.Call):
            target = target.func
        if target is not None and dotted(target).rsplit(".", 1)[-1] in SKIP_CALLS:
            return True
    return False


def _tests(
    functions: Iterable[ast.stmt],
    instantiated: bool,
    prefix: str = "test",
    device: str = "",
    marks: Sequence[ast.expr] = (),
    values: Values | None = None,
) -> Iterator[CollectedTest]:
    """The tests of these functions; `device`: the device type a per-device class is
    instantiated for, whose names the tests get (see `module_scope.device_names`);
    `marks` and `values`: as `expansion.expanded` takes them."""
    for node in functions:
        if not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef)
        ) or not node.name.startswith(prefix):
            continue
        requirements = [
            r for d in node.decorator_list if (r := decorator_requirement(d)) is not None
        ]
        requirements += body_requirements(node)
        expansion = expanded(node, instantiated, marks, values)
        names, complete = expansion.names, expansion.complete
        if device:
            named = [device_names(node, name, device) for name in names]
            names = [n for made, _ in named for n in made]
            complete = complete and all(read for _, read in named)
        for name in names:  # each device and dtype name stands for every case
            yield CollectedTest(
                name,
                node.name,
                node.lineno,
                tuple(requirements),
                complete,
                cases=expansion.cases,
                condition=expansion.condition,
                cases_if_true=expansion.cases_if_true,
            )


def collect(text: str, runs_itself: bool = False, selects: bool = False) -> Suite | None:
    """The tests of one file; None when it has none or cannot be read.  A class also
    collects the tests it inherits from classes of the same file (`class
    TestPython(TestMixin, unittest.TestCase)` runs every test of the mixin)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    scope = module_scope(tree, condition_requirement)
    lists_at = values_at_definitions(tree)
    defined = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    classes = []
    functions: list[CollectedTest] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            per_device = node.name in scope.per_device
            devices = scope.per_device.get(node.name, ())
            instantiated = node.name in scope.parametrized or per_device
            device = devices[0] if devices else ""
            tests = _class_tests(node, defined, instantiated, device, lists_at)
            if not tests:
                continue
            bases = tuple(dotted(b) for b in node.bases if dotted(b))
            requirements = (
                tuple(r for d in node.decorator_list if (r := decorator_requirement(d)) is not None)
                + tuple(r for hook in _hooks(node) for r in body_requirements(hook))
                + tuple(scope.hidden[b] for b in bases if b in scope.hidden)
            )
            hidden_by = next((scope.hidden[b].written for b in bases if b in scope.hidden), "")
            classes.append(
                SuiteClass(
                    node.name,
                    node.lineno,
                    bases,
                    requirements,
                    tests,
                    per_device,
                    devices,
                    hidden_by,
                )
            )
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.extend(_tests([node], False, values=lists_at[node.lineno]))
    if not classes and not functions:
        return None
    return Suite(tuple(classes), tuple(functions), runs_itself, selects)


#: methods a test class runs before each test, whose skips apply to all its tests
#: (`skipTestForOldSm` is the hook PyTorch's FSDP tests override)
SETUP_HOOKS = ("setUp", "setUpClass", "skipTest")


def _hooks(node: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [
        s
        for s in node.body
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name.startswith(SETUP_HOOKS)
    ]


def _class_tests(
    node: ast.ClassDef,
    defined: dict[str, ast.ClassDef],
    instantiated: bool,
    device: str = "",
    lists_at: Mapping[int, Values] | None = None,
) -> tuple[CollectedTest, ...]:
    """Its own tests, then those it inherits from the file's classes, first base first;
    each class's `@pytest.mark.parametrize` applies to all of them (pytest reads marks
    through the bases too).  `lists_at`: the module's lists where each class is defined."""
    found: dict[str, list[CollectedTest]] = {}
    seen = {node.name}
    order = [node]
    queue = list(node.bases)
    while queue:  # breadth first: close enough to Python's order for names of one file
        base = queue.pop(0)
        name = dotted(base)
        if name in defined and name not in seen:
            seen.add(name)
            order.append(defined[name])
            queue.extend(defined[name].bases)
    lists = lists_at or {}
    marks = [
        with_values(m, lists.get(owner.lineno, {}))
        for owner in order
        for m in class_marks(owner.decorator_list)
        if isinstance(m, ast.Call)
    ]
    owners: dict[str, str] = {}
    for owner in order:
        values = lists.get(owner.lineno)
        for test in _tests(owner.body, instantiated, device=device, marks=marks, values=values):
            if owners.setdefault(test.function, owner.name) != owner.name:
                continue  # overridden by a class nearer the top
            inherited = "" if owner is node else owner.name
            found.setdefault(test.function, []).append(replace(test, defined_in=inherited))
    return tuple(t for tests in found.values() for t in tests)
