"""What a runner collects from a test file: names, requirements, test classes, counts."""

from __future__ import annotations

from pathlib import Path

from conftest import run_build
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.analyze.suite import collect
from docgen.index.repo import build_index
from docgen.index.suites import RunnerClasses
from docgen.render.counts import definition_counts
from docgen.render.file_views import code_under_test, is_test_utility
from docgen.render.related import (
    IMPORTED_BY,
    SAME_FOLDER,
    TEST_BASE,
    UNDER_TEST,
    rank_related,
)
from docgen.scan.python.scanner import scan
from docgen.scan.workers import analyzed
from docgen.state import read_state

PYTORCH_STYLE = """
import unittest
from torch.testing._internal.common_utils import (
    instantiate_parametrized_tests, parametrize, run_tests, subtest,
)
from torch.testing._internal.common_distributed import skip_if_lt_x_gpu
from torch.testing._internal.inductor_utils import HAS_GPU


@instantiate_parametrized_tests
class TestA(unittest.TestCase):
    @parametrize("is_seq_parallel", [True, False])
    def test_tp(self, is_seq_parallel):
        def test_closure():
            pass

    @parametrize("x", [1.5, "a b"])
    @parametrize("y,z", [(1, None), subtest((2, 3), name="named")])
    def test_grid(self, x, y, z):
        pass

    @parametrize("f", [abs], name_fn=lambda f: f.__name__)
    def test_opaque(self, f):
        pass

    @skip_if_lt_x_gpu(4)
    @unittest.skipIf(not HAS_GPU, "needs a GPU")
    def test_gpus(self):
        if not at_least_x_gpu(2):
            self.skipTest("2")
        if not sm_is_or_higher_than(torch.device("cuda"), 8, 0):
            raise unittest.SkipTest("old")

    @unittest.skip("broken")
    def test_skipped(self):
        pass

    @unittest.skipIf(not SM80OrLater, "bf16")
    def test_sm(self):
        pass


class TestNotInstantiated(unittest.TestCase):
    @parametrize("v", [1, 2])
    def test_v(self, v):
        pass


if __name__ == "__main__":
    run_tests()
"""


def names(source: str) -> dict[str, list[str]]:
    suite = collect(source, runs_itself=False)
    assert suite is not None
    found = {c.name: [t.name for t in c.tests] for c in suite.classes}
    found[""] = [t.name for t in suite.functions]
    return found


def test_pytorch_parametrize_is_named_as_pytorch_names_it() -> None:
    found = names(PYTORCH_STYLE)
    assert found["TestA"] == [  # in source order, a parametrized test's names sorted
        "test_tp_is_seq_parallel_False",
        "test_tp_is_seq_parallel_True",
        "test_grid_x_1_5_named",
        "test_grid_x_1_5_y_1_z0",
        "test_grid_x_a b_named",
        "test_grid_x_a b_y_1_z0",
        "test_opaque",
        "test_gpus",
        "test_skipped",
        "test_sm",
    ]
    # without instantiate_parametrized_tests nothing is expanded; closures are never tests
    assert found["TestNotInstantiated"] == ["test_v"]


def test_requirements_are_read_for_what_they_mean() -> None:
    suite = collect(PYTORCH_STYLE, runs_itself=True)
    assert suite is not None and suite.runs_itself
    tests = {t.name: t for t in suite.classes[0].tests}
    gpus = [(r.kind, r.text, r.gpus) for r in tests["test_gpus"].requirements]
    assert gpus == [
        ("gpus", "needs >= 4 GPUs", 4),
        ("gpu", "skipped without a GPU (HAS_GPU)", 1),
        ("gpus", "needs >= 2 GPUs", 2),
        ("sm", "needs SM >= 8.0", 1),
    ]
    assert [r.text for r in tests["test_skipped"].requirements] == ["always skipped: broken"]
    assert [r.text for r in tests["test_sm"].requirements] == ["needs SM >= 8.0 (SM80OrLater)"]
    assert not tests["test_opaque"].expanded


def test_pytest_parametrize_ids() -> None:
    source = (
        "import pytest\n"
        "@pytest.mark.parametrize('a', [1, True, None])\n"
        "@pytest.mark.parametrize('b,c', [('x', 2.5)])\n"
        "def test_f(a, b, c): pass\n"
        "@pytest.mark.parametrize('a', [1, 2], ids=['one', 'two'])\n"
        "def test_g(a): pass\n"
    )
    assert names(source)[""] == [
        "test_f[x-2.5-1]",
        "test_f[x-2.5-None]",
        "test_f[x-2.5-True]",
        "test_g[one]",
        "test_g[two]",
    ]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.text(max_size=300))
def test_collect_never_raises(text: str) -> None:
    collect(text, runs_itself=False)


def _index(tmp_path: Path, files: dict[str, str]) -> RunnerClasses:
    scanned = []
    for path, text in files.items():
        facts = scan(path, text.encode())
        scanned.append(analyzed(facts, text))
    index = build_index("demo", scanned)
    return RunnerClasses(index.files, index.graph)


def test_test_classes_are_found_through_bases_in_other_files(tmp_path: Path) -> None:
    classes = _index(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/common.py": (
                "import unittest\n"
                "class Base(unittest.TestCase):\n    '''Sets up two ranks.'''\n"
                "class GPUBase(Base):\n    pass\n"
            ),
            "pkg/reexport.py": "from pkg.common import GPUBase as Exported\n",
            "tests/test_x.py": (
                "from pkg.reexport import Exported\n"
                "from pkg import common\n"
                "class TestOne(Exported):\n    def test_a(self): pass\n"
                "class TestTwo(common.Base):\n    def test_b(self): pass\n"
                "class Plain:\n    def test_c(self): pass\n"
                "class TestBare:\n    def test_d(self): pass\n"
            ),
        },
    )
    infos = {i.suite_class.name: i for i in classes.of("tests/test_x.py")}
    assert [b.name for b in infos["TestOne"].chain] == [
        "pkg.common.GPUBase",
        "pkg.common.Base",
        "unittest.TestCase",
    ]
    assert infos["TestOne"].chain[1].summary == "Sets up two ranks."
    assert infos["TestOne"].chain[0].path == "pkg/common.py"
    assert infos["TestTwo"].collected
    assert not infos["Plain"].collected
    assert infos["TestBare"].collected and infos["TestBare"].chain == ()


def test_counts_separate_local_definitions() -> None:
    source = (
        "class A:\n    def m(self):\n        def fn(): pass\n        class Local: pass\n"
        "    class Inner:\n        def n(self): pass\n"
        "def f():\n    def fn(): pass\n"
    )
    python = scan("x.py", source.encode()).python
    assert python is not None
    counts = definition_counts(python.definitions)
    assert (counts.classes, counts.functions, counts.methods, counts.local) == (2, 1, 2, 3)
    assert counts.phrase() == (
        "2 classes, 1 function and 2 methods, plus 3 local definitions inside functions"
    )


def test_keyword_lines_stay_short_and_aliases_are_found(tmp_path: Path) -> None:
    """A name defined hundreds of times is one bounded bullet; `as` names are keywords."""
    closures = "".join(f"def test_{i}():\n    def fn():\n        pass\n" for i in range(300))
    many = ", ".join(f"name_{i}" for i in range(200))
    source = (
        f"from pkg.common import {many}\n"
        "from torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n"
        "import torch.nn.functional as F\n" + closures
    )
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_many.py").write_text(source)
    out = tmp_path / "out"
    run_build(repo, out)
    page = (out / "tests" / "test_many.py_kw.md").read_text()
    assert max(len(line) for line in page.split("\n")) <= 1000
    fn = next(line for line in page.split("\n") if line.startswith("- **`fn`**"))
    assert fn.startswith("- **`fn`** (300 places) — ")
    assert (
        "- **`FSDP`** — [`from torch.distributed.fsdp import FullyShardedDataParallel as FSDP`]"
        in page
    )
    assert "- **`name_7`** — [`from pkg.common import name_7`]" in page
    with read_state(out) as state:
        assert state is not None
        found = state.find_sites("FSDP")
        assert [str(s) for s in found] == [
            "tests/test_many.py:2: import torch.distributed.fsdp.FullyShardedDataParallel as FSDP"
        ]
        assert [s.qualname for s in state.find_sites("F", kind="import")] == ["torch.nn.functional"]


def test_code_under_test_comes_first_then_test_bases() -> None:
    ranking = rank_related(
        "tests/test_x.py",
        under_test=("pkg/core.py",),
        test_bases=("pkg/testing/common.py",),
        imports=("pkg/testing/common.py",),
        same_folder=("tests/test_x.py", "tests/test_y.py"),
    )
    assert [(r.path, r.reasons) for r in ranking.files] == [
        ("pkg/core.py", (UNDER_TEST,)),
        ("pkg/testing/common.py", (TEST_BASE, IMPORTED_BY)),
        ("tests/test_y.py", (SAME_FOLDER,)),
    ]
    assert is_test_utility("torch/testing/_internal/common_utils.py")
    assert is_test_utility("tests/helpers.py") and is_test_utility("pkg/common_fsdp.py")
    assert not is_test_utility("torch/distributed/fsdp/api.py")
    imports = ("torch/__init__.py", "torch/distributed/api.py", "torch/testing/common.py")
    assert code_under_test(imports) == ("torch/distributed/api.py",)
    assert code_under_test(("pkg/__init__.py",)) == ("pkg/__init__.py",)


def test_pytest_ids_for_objects_params_and_repeats() -> None:
    source = (
        "import pytest\n"
        "@pytest.mark.parametrize('a, b', [(Symbol('x'), -1), (Symbol('y'), -1)])\n"
        "def test_obj(a, b): pass\n"
        "@pytest.mark.parametrize('v', [pytest.param(1, id='one'), pytest.param(2), 'é'])\n"
        "def test_param(v): pass\n"
        "@pytest.mark.parametrize('v', [1, 1, 'x', 'x'])\n"
        "def test_repeat(v): pass\n"
    )
    found = names(source)[""]
    assert found[:2] == ["test_obj[a0--1]", "test_obj[a1--1]"]
    assert "test_param" in found  # a non-ASCII string: pytest escapes it; shown unexpanded
    assert found[-4:] == [
        "test_repeat[1_0]",
        "test_repeat[1_1]",
        "test_repeat[x0]",
        "test_repeat[x1]",
    ]


def test_pytest_ids_for_dtypes_and_arithmetic_as_flash_attention_writes_them() -> None:
    source = (
        "import pytest, torch\n"
        "@pytest.mark.parametrize('dtype', [torch.float16, torch.bfloat16])\n"
        "@pytest.mark.parametrize('causal', [False, True])\n"
        "@pytest.mark.parametrize('seqlen_q,seqlen_k', [(1, 128 * 1024), (-2, 2 ** 3)])\n"
        "def test_fwd(seqlen_q, seqlen_k, causal, dtype): pass\n"
        "@pytest.mark.parametrize('x', [torch.pi])\n"  # a float: named by its value at run time
        "def test_pi(x): pass\n"
    )
    found = names(source)[""]
    assert found[:3] == [
        "test_fwd[-2-8-False-dtype0]",
        "test_fwd[-2-8-False-dtype1]",
        "test_fwd[-2-8-True-dtype0]",
    ]
    assert "test_fwd[1-131072-True-dtype1]" in found and len(found) == 8 + 1
    assert "test_pi" in found  # unexpanded


def test_too_many_cases_are_counted_and_a_condition_is_counted_both_ways() -> None:
    decorators = "".join(
        f"@pytest.mark.parametrize('p{n}', [1, 2, 3, 4])\n" for n in range(5)
    )  # 4 ** 5 = 1,024 cases
    source = (
        "import pytest, torch\n"
        "is_sm75 = torch.cuda.get_device_capability('cuda') == (7, 5)\n"
        f"{decorators}def test_many(p0, p1, p2, p3, p4): pass\n"
        "@pytest.mark.parametrize('dtype', [torch.float16] if is_sm75 else"
        " [torch.float16, torch.bfloat16])\n"
        "@pytest.mark.parametrize('d', [32, 64, 96])\n"
        "def test_dtype(d, dtype): pass\n"
        "@pytest.mark.parametrize('a', [1] if x else [1, 2])\n"
        "@pytest.mark.parametrize('b', [1] if y else [1, 2])\n"
        "def test_two_conditions(a, b): pass\n"
    )
    suite = collect(source)
    assert suite is not None
    tests = {t.name: t for t in suite.functions}
    assert (tests["test_many"].cases, tests["test_many"].expanded) == (1024, True)
    dtype = tests["test_dtype"]
    assert (dtype.condition, dtype.cases, dtype.cases_if_true) == ("is_sm75", 6, 3)
    assert not tests["test_two_conditions"].expanded  # two conditions: not counted


def test_setup_hooks_apply_to_every_test_and_ungated_helpers_require_nothing() -> None:
    source = (
        "import unittest\n"
        "@unittest.skipIf(not HAS_GPU, 'triton')\n"
        "class TestC(FSDPTest):\n"
        "    fake_pg = not at_least_x_gpu(2)\n"
        "    def skipTestForOldSm(self):\n"
        "        if not sm_is_or_higher_than(device, 8, 0):\n"
        "            self.skipTest('bf16')\n"
        "    def test_a(self):\n"
        "        if at_least_x_gpu(2):\n"
        "            pass\n"
    )
    suite = collect(source, runs_itself=False)
    assert suite is not None
    (cls,) = suite.classes
    assert [r.text for r in cls.requirements] == [
        "skipped without a GPU (HAS_GPU)",
        "needs SM >= 8.0",
    ]
    assert cls.tests[0].requirements == ()


#: `all_types()` of torch 2.13's common_dtype.py
ALL_TYPES = ("float32", "float64", "uint8", "int8", "int16", "int32", "int64")


def test_device_type_tests_are_named_as_the_cpu_class_names_them() -> None:
    # test/nn/test_dropout.py and test/test_dlpack.py: `pytest --collect-only` with the
    # CPU wheel collects `TestXCPU::test_foo_cpu` and, per dtype, `test_foo_cpu_float32`
    suite = collect(
        "import torch\n"
        "class TestX(TestCase):\n"
        "    def test_plain(self, device): pass\n"
        "    @dtypes(torch.float32, torch.int64)\n"
        "    def test_typed(self, device, dtype): pass\n"
        "    @dtypes(*all_types())\n"
        "    def test_many(self, device, dtype): pass\n"
        "    @dtypes(*floating_types_and(torch.half, torch.cfloat), torch.float32)\n"
        "    def test_and(self, device, dtype): pass\n"
        "    @dtypes(*my_types())\n"
        "    def test_own(self, device, dtype): pass\n"
        "class TestY(TestCase):\n"
        "    def test_gpu(self, device): pass\n"
        "instantiate_device_type_tests(TestX, globals())\n"
        "instantiate_device_type_tests(TestY, globals(), only_for='cuda')\n"
    )
    assert suite is not None
    x, y = suite.classes
    assert (x.per_device, x.devices) == (True, ("cpu",))
    assert [(t.name, t.expanded) for t in x.tests] == [
        ("test_plain_cpu", True),
        ("test_typed_cpu_float32", True),
        ("test_typed_cpu_int64", True),
        *((f"test_many_cpu_{d}", True) for d in ALL_TYPES),  # PyTorch's helper, read
        ("test_and_cpu_float32", True),  # aliases print as their dtype; no repeats
        ("test_and_cpu_float64", True),
        ("test_and_cpu_float16", True),
        ("test_and_cpu_complex64", True),
        ("test_own_cpu", False),  # a helper of the tree's own: expanded only when collected
    ]
    assert (y.per_device, y.devices) == (True, ())  # no class on a machine without a GPU


def test_a_module_level_fallback_and_sandcastle_skips_are_requirements() -> None:
    suite = collect(
        "from torch.testing._internal.common_utils import NoTest, TEST_CUDA, TestCase\n"
        "if not TEST_CUDA:\n"
        "    TestCase = NoTest\n"
        "class TestTrace(TestCase):\n"
        "    @skip_but_pass_in_sandcastle_if(IS_WINDOWS, 'no NCCL on Windows')\n"
        "    def test_a(self): pass\n"
    )
    assert suite is not None
    (trace,) = suite.classes
    assert [r.text for r in trace.requirements] == [
        "skipped without a GPU (TEST_CUDA); not collected then (TestCase = NoTest)"
    ]
    (test,) = trace.tests
    assert [(r.kind, r.text) for r in test.requirements] == [
        ("condition", "skipped when IS_WINDOWS")
    ]
    assert trace.hidden_by == "if not TEST_CUDA: TestCase = NoTest"


def test_arithmetic_too_big_to_fold_leaves_the_test_unexpanded() -> None:
    source = (
        "import pytest\n"
        "@pytest.mark.parametrize('x', [65536.0 ** 64, 1 // 0, 2 ** 10])\n"
        "def test_big(x): pass\n"
    )
    assert names(source)[""] == ["test_big"]
