"""The `gpu` tag's evidence on single files: CUDA host code of PyTorch's own kinds
counts, a type annotation does not."""

from __future__ import annotations

import textwrap

from docgen.analyze.headers import cuda_header
from docgen.analyze.tags import analyze
from docgen.scan.cfamily.scanner import scan as scan_cfamily
from docgen.scan.python.scanner import scan as scan_python


def gpu_evidence(path: str, source: str) -> list[tuple[int, str]]:
    text = textwrap.dedent(source)
    data = text.encode("utf-8")
    facts = scan_cfamily(path, data) if path.endswith(".cpp") else scan_python(path, data)
    tags = {t.name: t for t in analyze(facts, text).tags}
    gpu = tags.get("gpu")
    return [(e.line, e.reason) for e in gpu.evidence] if gpu else []


HOST = """\
#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

namespace {
at::Tensor add_one(const at::Tensor& x) {
  at::cuda::CUDAGuard guard(x.device());
  auto stream = ::c10::cuda::getCurrentCUDAStream();
  return x + 1;
}
}  // namespace

TORCH_LIBRARY_IMPL(myops, CUDA, m) {
  m.impl("add_one", &add_one);
}

TORCH_LIBRARY_IMPL(myops, CPU, m) {
  m.impl("add_one", &add_one);
}
"""


def test_cuda_host_code_is_gpu_by_its_headers_guards_streams_and_dispatch_key() -> None:
    assert gpu_evidence("ops.cpp", HOST) == [
        (2, "includes the CUDA header c10/cuda/CUDAGuard.h"),
        (7, "uses at::cuda::CUDAGuard"),
        (8, "uses c10::cuda::getCurrentCUDAStream"),
        (13, "registers kernels for the CUDA dispatch key (TORCH_LIBRARY_IMPL)"),
    ]


def test_cpu_only_host_code_is_not_gpu() -> None:
    cpu = HOST.replace("#include <c10/cuda/CUDAGuard.h>\n", "").replace("CUDA, m", "CPU, m")
    cpu = cpu.replace("  at::cuda::CUDAGuard guard(x.device());\n", "")
    cpu = cpu.replace("  auto stream = ::c10::cuda::getCurrentCUDAStream();\n", "")
    # a comment naming the namespace is prose, not code
    cpu = cpu.replace("return x + 1;", "return x + 1;  // at::cuda::CUDAGuard not needed")
    assert gpu_evidence("ops.cpp", cpu) == []


def test_cuda_headers_by_folder_and_toolkit_name() -> None:
    for header in ("ATen/cuda/CUDAContext.h", "cub/cub.cuh", "cutlass/gemm/gemm.h"):
        assert cuda_header(header), header
    for header in ("cuda_fp8.h", "cusolverDn.h", "nvToolsExt.h", "cuda/std/atomic"):
        assert cuda_header(header) is header.endswith(".h"), header
    for header in ("ATen/ATen.h", "c10/core/Device.h", "torch/library.h", "mycuda.h"):
        assert not cuda_header(header), header


def test_a_type_annotation_alone_is_no_gpu_evidence() -> None:
    annotated = """
    import torch

    def fully_shard(module, stream: torch.cuda.Stream | None = None) -> None:
        event: torch.cuda.Event | None = None
        return None
    """
    assert gpu_evidence("shard.py", annotated) == []
    used = annotated.replace("return None", "return torch.cuda.current_stream()")
    assert [reason for _, reason in gpu_evidence("shard.py", used)] == [
        "uses torch.cuda (calls torch.cuda.current_stream)"
    ]
