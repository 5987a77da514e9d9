"""Dispatch stubs from declaration to kernels, per device and CPU capability: what each
macro of `DispatchStub.h` means (`docgen.model.stub_devices`), the keyword sites,
`docgen find NAME --trace` and the stub's calls listed on each page that names it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from docgen.cli.main import cli
from docgen.model.stub_devices import StubRole, kernel_named, stub_role
from docgen.scan.cfamily.preprocess.stub_macros import stub_macro_registrations
from tests.conftest import clean_pages, page_files, page_section, run_build, write_tree

_CPU_EACH = (
    "CPU (DEFAULT, AVX2, VSX, ZVECTOR, SVE256, SVE128: a build for each; "
    "AVX512 runs the AVX2 build)"
)


_ALL = "DEFAULT, AVX2, AVX512, VSX, ZVECTOR, SVE256, SVE128"


def test_a_stub_is_declared_by_declare_dispatch_and_defined_by_define_dispatch() -> None:
    assert stub_role("DECLARE_DISPATCH", "unary_fn", "native/UnaryOps.h") == StubRole("declares")
    assert stub_role("DEFINE_DISPATCH", "", "native/UnaryOps.cpp") == StubRole("defines")


@pytest.mark.parametrize(
    ("macro", "target", "path", "kernel", "devices"),
    [
        ("REGISTER_DISPATCH", "&k", "native/cpu/K.cpp", "k", _CPU_EACH),
        ("REGISTER_DISPATCH", "&k", "native/cuda/K.cu", "k", "CUDA"),
        ("REGISTER_DISPATCH", "&k", "native/hip/K.hip", "k", "CUDA (the HIP build)"),
        ("REGISTER_DISPATCH", "&k", "native/mps/K.mm", "k", "MPS"),
        ("REGISTER_CUDA_DISPATCH", "&k", "native/K.cpp", "k", "CUDA"),
        ("REGISTER_MPS_DISPATCH", "k", "native/K.cpp", "k", "MPS"),
        ("REGISTER_PRIVATEUSE1_DISPATCH", "&k", "a.cpp", "k", "PrivateUse1"),
        ("REGISTER_ARCH_DISPATCH", "DEFAULT, &k", "a.cpp", "k", "CPU (DEFAULT)"),
        ("REGISTER_AVX512_DISPATCH", "&k", "a.cpp", "k", "CPU (AVX512)"),
        ("REGISTER_SVE256_DISPATCH", "&k", "a.cpp", "k", "CPU (SVE256)"),
        ("REGISTER_ALL_CPU_DISPATCH", "&k", "a.cpp", "k", f"CPU ({_ALL}: one build for all)"),
        ("ALSO_REGISTER_AVX512_DISPATCH", "&k", "a.cpp", "k", f"CPU ({_ALL}: a build for each)"),
        ("REGISTER_NO_CPU_DISPATCH", "", "a.cpp", "", f"CPU ({_ALL}: no kernel)"),
        ("REGISTER_DISPATCH", "nullptr", "a.cpp", "", _CPU_EACH),
        ("REGISTER_FOO_DISPATCH", "&k", "a.cpp", "k", ""),  # a macro docgen does not know
    ],
)
def test_each_macro_registers_its_kernel_for_the_devices_dispatchstub_h_gives_it(
    macro: str, target: str, path: str, kernel: str, devices: str
) -> None:
    assert stub_role(macro, target, path) == StubRole("registers", kernel, devices)


@pytest.mark.parametrize(
    ("written", "kernel"),
    [
        ("&abs_kernel", "abs_kernel"),
        ("& CPU_CAPABILITY::abs_kernel", "CPU_CAPABILITY::abs_kernel"),
        ("&::at::native::k<float>", "at::native::k"),
        ("nullptr", ""),
        ("[](TensorIterator& it) {}", ""),
        ("static_cast<fn>(&k)", ""),
    ],
)
def test_a_registered_kernel_is_read_only_when_it_is_named(written: str, kernel: str) -> None:
    assert kernel_named(written) == kernel


#: shaped as PyTorch's `Fill.h`, `Fill.cpp`, `cpu/FillKernel.cpp` and `cuda/FillKernel.cu`
#: (pytorch/pytorch at 0d0444e and 131c37b), cut down, with an MPS and a DEFAULT-only one
_TREE = {
    "native/Fill.h": """#pragma once
#include <ATen/native/DispatchStub.h>

namespace at::native {
DECLARE_DISPATCH(void(*)(TensorIterator&, const c10::Scalar&), fill_stub)
} // namespace at::native
""",
    "native/Fill.cpp": """#include <ATen/native/Fill.h>

namespace at { namespace native {

Tensor& fill_out(Tensor& self, const Scalar& value) {
  fill_stub(iter.device_type(), iter, value);
  return self;
}

DEFINE_DISPATCH(fill_stub);

}} // namespace at::native
""",
    "native/cpu/FillKernel.cpp": """#include <ATen/native/Fill.h>

namespace at { namespace native {
namespace {

void fill_kernel(TensorIterator& iter, const Scalar& value_scalar) {
  cpu_kernel_vec(iter, [=]() -> scalar_t { return value; });
}

} // namespace

REGISTER_DISPATCH(fill_stub, &fill_kernel);

}} // namespace at::native
""",
    "native/cuda/FillKernel.cu": """#include <ATen/native/Fill.h>

namespace at {
namespace native {

void fill_kernel_cuda(TensorIterator& iter, const Scalar& value) {
  gpu_kernel(iter, FillFunctor<scalar_t>(value.to<scalar_t>()));
}

REGISTER_DISPATCH(fill_stub, &fill_kernel_cuda);

} // namespace native
} // namespace at
""",
    "native/mps/operations/Fill.mm": """#include <ATen/native/Fill.h>

namespace at::native {
static void fill_mps(TensorIterator& iter, const Scalar& value) {}
REGISTER_DISPATCH(fill_stub, &fill_mps);
} // namespace at::native
""",
    # the idiom of `cpu/UnaryOpsKernel.cpp`: a macro that defines and registers a kernel
    "native/cpu/UnaryOpsKernel.cpp": """#include <ATen/native/Fill.h>

namespace at::native {
namespace {
#define IMPLEMENT_FLOAT_KERNEL(dispatchtypes, op)                             \\
  static void op##_kernel(TensorIterator& iter) {                             \\
    TORCH_INTERNAL_ASSERT(iter.ntensors() == 2);                              \\
  }                                                                           \\
  REGISTER_DISPATCH(op ## _stub, &op##_kernel)

} // anonymous namespace

IMPLEMENT_FLOAT_KERNEL(FLOATING, fill)
} // namespace at::native
""",
    "native/quantized/Fill.cpp": """#include <ATen/native/Fill.h>

namespace at::native {
REGISTER_ARCH_DISPATCH(fill_stub, DEFAULT, &fill_elsewhere);
} // namespace at::native
""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output of one build of `_TREE`, which the tests that only read share."""
    repo, out = tmp_path_factory.mktemp("stubs") / "repo", tmp_path_factory.mktemp("out")
    write_tree(repo, _TREE)
    run_build(repo, out, jobs=1)
    return out


def _invoke(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output.splitlines()


def test_find_lists_where_a_stub_is_declared_defined_and_given_kernels(built: Path) -> None:
    out = built
    assert _invoke("find", "fill_stub", "--out", str(out)) == (
        0,
        [
            "native/Fill.cpp:10: stub definition fill_stub",
            "native/Fill.h:5: dispatch stub fill_stub",
            "native/cpu/FillKernel.cpp:12: stub kernel fill_stub",
            "native/cpu/UnaryOpsKernel.cpp:13: stub kernel fill_stub",
            "native/cuda/FillKernel.cu:10: stub kernel fill_stub",
            "native/mps/operations/Fill.mm:5: stub kernel fill_stub",
            "native/quantized/Fill.cpp:4: stub kernel fill_stub",
        ],
    )
    kinds = _invoke("find", "fill_stub", "--kind", "dispatch stub", "--out", str(out))
    assert kinds == (0, ["native/Fill.h:5: dispatch stub fill_stub"])


def test_trace_follows_a_stub_to_each_kernel_per_device_and_to_its_definition(
    built: Path,
) -> None:
    out = built
    assert _invoke("find", "fill_stub", "--trace", "--out", str(out)) == (
        0,
        [
            "native/Fill.h:5: dispatch stub fill_stub (DECLARE_DISPATCH)",
            "native/Fill.cpp:10: stub definition fill_stub (DEFINE_DISPATCH)",
            f"native/cpu/FillKernel.cpp:12: kernel of fill_stub for {_CPU_EACH}"
            " → fill_kernel (REGISTER_DISPATCH)",
            "native/cpu/FillKernel.cpp:6: function at::native::fill_kernel",
            f"native/cpu/UnaryOpsKernel.cpp:13: kernel of fill_stub for {_CPU_EACH}"
            " → fill_kernel (REGISTER_DISPATCH, through the macro IMPLEMENT_FLOAT_KERNEL)",
            "native/cpu/UnaryOpsKernel.cpp:13: fill_kernel: defined by the macro"
            " IMPLEMENT_FLOAT_KERNEL, used here",
            "native/cuda/FillKernel.cu:10: kernel of fill_stub for CUDA"
            " → fill_kernel_cuda (REGISTER_DISPATCH)",
            "native/cuda/FillKernel.cu:6: function at::native::fill_kernel_cuda",
            "native/mps/operations/Fill.mm:5: kernel of fill_stub for MPS"
            " → fill_mps (REGISTER_DISPATCH)",
            "native/mps/operations/Fill.mm:4: function at::native::fill_mps",
            "native/quantized/Fill.cpp:4: kernel of fill_stub for CPU (DEFAULT)"
            " → fill_elsewhere (REGISTER_ARCH_DISPATCH)",
            "native/quantized/Fill.cpp:4: fill_elsewhere: defined nowhere in this tree",
        ],
    )


def test_trace_says_when_no_file_of_the_tree_declares_the_stub(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(
        repo,
        {"cuda/Conj.cu": "void conj_cuda(T& it) {}\nREGISTER_DISPATCH(conj_stub, &conj_cuda);\n"},
    )
    run_build(repo, out, jobs=1)
    assert _invoke("find", "conj_stub", "--trace", "--out", str(out)) == (
        0,
        [
            "cuda/Conj.cu:2: conj_stub: declared nowhere in this tree (no DECLARE_DISPATCH)",
            "cuda/Conj.cu:2: kernel of conj_stub for CUDA → conj_cuda (REGISTER_DISPATCH)",
            "cuda/Conj.cu:1: function conj_cuda",
        ],
    )
    page = (out / "cuda/Conj.cu_docs.md").read_text(encoding="utf-8")
    assert "  - no file of this repository declares `conj_stub` (`DECLARE_DISPATCH`)" in page


def test_each_page_naming_a_stub_lists_its_other_calls_with_their_devices(
    built: Path,
) -> None:
    out = built
    header = (out / "native/Fill.h_docs.md").read_text(encoding="utf-8")
    section = page_section(header, "### Registrations")
    listed = [line.strip() for line in section.splitlines() if line.strip().startswith("- ")]
    assert listed[0].endswith(
        "`DECLARE_DISPATCH` `fill_stub`, a stub of type "
        "`void(*)(TensorIterator&, const c10::Scalar&)`"
    )
    others = [line.split(": ", 1)[1] for line in listed[2:]]
    assert [line.split(") [L", 1)[0] for line in listed[2:]] == [
        "- [`native/Fill.cpp`](Fill.cpp_docs.md",
        "- [`native/cpu/FillKernel.cpp`](cpu/FillKernel.cpp_docs.md",
        "- [`native/cpu/UnaryOpsKernel.cpp`](cpu/UnaryOpsKernel.cpp_docs.md",
        "- [`native/cuda/FillKernel.cu`](cuda/FillKernel.cu_docs.md",
        "- [`native/mps/operations/Fill.mm`](mps/operations/Fill.mm_docs.md",
        "- [`native/quantized/Fill.cpp`](quantized/Fill.cpp_docs.md",
    ]
    assert others == [
        "`DEFINE_DISPATCH`",
        f"`REGISTER_DISPATCH` → `fill_kernel`, for {_CPU_EACH}",
        f"`IMPLEMENT_FLOAT_KERNEL` expands to `REGISTER_DISPATCH` → `fill_kernel`, for {_CPU_EACH}",
        "`REGISTER_DISPATCH` → `fill_kernel_cuda`, for CUDA",
        "`REGISTER_DISPATCH` → `fill_mps`, for MPS",
        "`REGISTER_ARCH_DISPATCH` → `fill_elsewhere`, for CPU (DEFAULT)",
    ]
    cuda = (out / "native/cuda/FillKernel.cu_docs.md").read_text(encoding="utf-8")
    assert "declares `fill_stub`" not in cuda  # Fill.h declares it
    assert (
        "`REGISTER_DISPATCH` `fill_stub` → "
        "[`fill_kernel_cuda`](FillKernel.cu_docs.md#function-atnativefill_kernel_cuda), for CUDA"
    ) in cuda
    macro = (out / "native/cpu/UnaryOpsKernel.cpp_docs.md").read_text(encoding="utf-8")
    assert (
        "`IMPLEMENT_FLOAT_KERNEL` expands to `REGISTER_DISPATCH` `fill_stub` → `fill_kernel`"
        f" (which the macro defines), for {_CPU_EACH}"
    ) in macro
    # a kernel defined in no file of the tree is named, not linked
    elsewhere = (out / "native/quantized/Fill.cpp_docs.md").read_text(encoding="utf-8")
    assert "→ `fill_elsewhere`, for CPU (DEFAULT)" in elsewhere


def test_an_edited_kernel_file_updates_every_page_of_its_stub(tmp_path: Path) -> None:
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, _TREE)
    run_build(repo, out, jobs=1)
    cuda = repo / "native/cuda/FillKernel.cu"
    cuda.write_text(cuda.read_text().replace("&fill_kernel_cuda", "&fill_cuda_v2"), "utf-8")
    run_build(repo, out, jobs=1)
    header = (out / "native/Fill.h_docs.md").read_text(encoding="utf-8")
    assert "→ `fill_cuda_v2`, for CUDA" in header and "fill_kernel_cuda" not in header
    assert page_files(out) == clean_pages(repo, tmp_path)
    # the registration gone: the other pages no longer list it
    cuda.write_text(cuda.read_text().replace("REGISTER_DISPATCH(fill_stub, &fill_cuda_v2);", ""))
    run_build(repo, out, jobs=1)
    header = (out / "native/Fill.h_docs.md").read_text(encoding="utf-8")
    assert "FillKernel.cu" not in page_section(header, "### Registrations")
    assert page_files(out) == clean_pages(repo, tmp_path)


def test_a_files_own_macro_registers_a_kernel_at_each_use() -> None:
    text = b"""#define IMPLEMENT(dispatchtypes, op)            \\
  static void op##_kernel(TensorIterator& iter) {} \\
  REGISTER_DISPATCH(op ## _stub, &op##_kernel)
#define ONLY_REGISTERS(op) ALSO_REGISTER_AVX512_DISPATCH(op##_stub, &other_##op)
#define NESTED(op) IMPLEMENT(FLOATING, op)

IMPLEMENT(FLOATING, ceil)
  IMPLEMENT(FLOATING,
            floor)
ONLY_REGISTERS(sin)
IMPLEMENT(too, many, arguments)
"""
    found = [
        (r.line, r.end_line, r.macro, r.name, r.target, r.through, r.defines_kernel)
        for r in stub_macro_registrations(text)
    ]
    assert sorted(found) == [
        (7, 7, "REGISTER_DISPATCH", "ceil_stub", "&ceil_kernel", "IMPLEMENT", True),
        (8, 9, "REGISTER_DISPATCH", "floor_stub", "&floor_kernel", "IMPLEMENT", True),
        (
            10,
            10,
            "ALSO_REGISTER_AVX512_DISPATCH",
            "sin_stub",
            "&other_sin",
            "ONLY_REGISTERS",
            False,
        ),
    ]
    assert stub_macro_registrations(b"IMPLEMENT(FLOATING, ceil)\n") == []  # no `#define` here
