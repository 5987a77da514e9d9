"""The headers whose inclusion is evidence of a tag: the CUDA toolkit's and the CUDA
support of PyTorch and its libraries (`gpu`), and the test frameworks' (`test`)."""

from __future__ import annotations

import re

#: headers whose inclusion means the file uses the CUDA toolkit
CUDA_HEADERS = frozenset(
    {
        "cuda.h",
        "cuda_runtime.h",
        "cuda_runtime_api.h",
        "cuda_fp16.h",
        "cuda_bf16.h",
        "cublas_v2.h",
        "cublasLt.h",
        "cudnn.h",
        "cufft.h",
        "curand.h",
        "cusparse.h",
        "nccl.h",
        "nvrtc.h",
    }
)
#: folders of headers that only CUDA code includes: PyTorch's CUDA support (c10's and
#: ATen's), CUB, CUTLASS and CuTe
CUDA_HEADER_FOLDERS = ("c10/cuda/", "ATen/cuda/", "ATen/native/cuda/", "cub/", "cutlass/", "cute/")
#: CUDA toolkit headers by name (`cuda_fp8.h`, `cusolverDn.h`, `nvToolsExt.h`, ...)
CUDA_HEADER_NAME = re.compile(
    r"(?:cuda|cublas|cudnn|cufft|curand|cusparse|cusolver|nccl|nvrtc|nvToolsExt|nvml|nvtx3/)"
    r"[\w/]*\.h(?:pp)?"
)


def cuda_header(target: str) -> bool:
    """Whether an include names a header only CUDA code includes."""
    return (
        target in CUDA_HEADERS
        or target.startswith(CUDA_HEADER_FOLDERS)
        or CUDA_HEADER_NAME.fullmatch(target) is not None
    )


#: the headers of googletest, Catch2 and doctest, as test files include them
TEST_HEADERS = frozenset(
    {"gtest/gtest.h", "gmock/gmock.h", "catch2/catch_test_macros.hpp", "catch2/catch_all.hpp"}
    | {"catch2/catch.hpp", "catch.hpp", "doctest/doctest.h", "doctest.h"}
)
