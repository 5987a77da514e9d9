"""What a dispatch-stub macro of PyTorch's `ATen/native/DispatchStub.h` does with the
kernel it is given, and for which devices: a stub is declared once
(`DECLARE_DISPATCH(unary_fn, abs_stub)`), defined once (`DEFINE_DISPATCH(abs_stub)`)
and given a kernel per device by registrations (`REGISTER_DISPATCH(abs_stub,
&abs_kernel)`).

`REGISTER_DISPATCH` means what the file it is compiled in makes it (torch 2.13's
`DispatchStub.h`): under `__CUDACC__` (a `.cu` file) and in the HIP build the CUDA
kernel, in an Objective-C++ file (`.mm`) the MPS kernel, and in a C++ file the CPU
kernel: that file is compiled once per CPU capability (`CPU_CAPABILITY`), and the
macro is defined nowhere else.  On AVX512 it registers no kernel, so that the AVX2
build runs there (`DispatchStubImpl::choose_cpu_impl`); `ALSO_REGISTER_AVX512_DISPATCH`
registers it for AVX512 too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: the CPU capabilities a kernel file is compiled for, as `CPUCapability` lists them:
#: x86's, then POWER's, Z's and Arm's (a build has DEFAULT and those of its machine)
CPU_CAPABILITIES = ("DEFAULT", "AVX2", "AVX512", "VSX", "ZVECTOR", "SVE256", "SVE128")
#: the capabilities `REGISTER_DISPATCH` registers a CPU kernel for
_BUT_AVX512 = tuple(c for c in CPU_CAPABILITIES if c != "AVX512")

#: the devices of the macros that name theirs (`REGISTER_CUDA_DISPATCH`, ...)
_DEVICE_MACROS = {
    "REGISTER_CUDA_DISPATCH": "CUDA",
    "REGISTER_XPU_DISPATCH": "XPU",
    "REGISTER_HPU_DISPATCH": "HPU",
    "REGISTER_HIP_DISPATCH": "HIP",
    "REGISTER_MPS_DISPATCH": "MPS",
    "REGISTER_MTIA_DISPATCH": "MTIA",
    "REGISTER_PRIVATEUSE1_DISPATCH": "PrivateUse1",
}
#: `REGISTER_AVX2_DISPATCH`, ...: one CPU capability
_ONE_CAPABILITY = re.compile(r"REGISTER_(" + "|".join(CPU_CAPABILITIES[1:]) + r")_DISPATCH")
#: a kernel given by name: `&abs_kernel`, `CPU_CAPABILITY::abs_kernel<float>`
_KERNEL = re.compile(r"&?\s*((?:::)?[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)\s*(?:<.*>)?")


@dataclass(frozen=True, slots=True)
class StubRole:
    """What one dispatch-stub macro call does: `declares`, `defines` or `registers` the
    stub; for a registration, the kernel as written ("" when none: `nullptr`, a
    lambda) and where it runs."""

    verb: str
    kernel: str = ""
    devices: str = ""  # "CUDA", "CPU (DEFAULT, AVX2, ...)"; "" when not told


def _cpu(capabilities: tuple[str, ...], note: str = "") -> str:
    return f"CPU ({', '.join(capabilities)}{note})"


def kernel_named(text: str) -> str:
    """The function a registration's argument names (`&abs_kernel` -> `abs_kernel`);
    "" for `nullptr`, a lambda, a cast or anything else."""
    match = _KERNEL.fullmatch(text.strip())
    if match is None:
        return ""
    name = re.sub(r"\s+", "", match.group(1)).removeprefix("::")
    return "" if name in ("nullptr", "NULL") else name


def stub_role(macro: str, target: str, path: str) -> StubRole:
    """What `macro` does in the file at `path`, given the arguments after the stub's
    name (`target`, as `Registration.target` keeps them)."""
    if macro == "DECLARE_DISPATCH":
        return StubRole("declares")
    if macro == "DEFINE_DISPATCH":
        return StubRole("defines")
    if macro == "REGISTER_NO_CPU_DISPATCH":
        return StubRole("registers", "", _cpu(CPU_CAPABILITIES, ": no kernel"))
    args = [a.strip() for a in target.split(",")] if target else []
    if macro == "REGISTER_ARCH_DISPATCH" and len(args) >= 2:
        return StubRole("registers", kernel_named(",".join(args[1:])), _cpu((args[0],)))
    kernel = kernel_named(target)
    if macro in _DEVICE_MACROS:
        return StubRole("registers", kernel, _DEVICE_MACROS[macro])
    one = _ONE_CAPABILITY.fullmatch(macro)
    if one is not None:
        return StubRole("registers", kernel, _cpu((one.group(1),)))
    if macro == "REGISTER_ALL_CPU_DISPATCH":
        return StubRole("registers", kernel, _cpu(CPU_CAPABILITIES, ": one build for all"))
    if macro.startswith("ALSO_REGISTER_"):
        return StubRole("registers", kernel, _cpu(CPU_CAPABILITIES, ": a build for each"))
    if macro == "REGISTER_DISPATCH":
        return StubRole("registers", kernel, _file_devices(path))
    return StubRole("registers", kernel)


def _file_devices(path: str) -> str:
    """Where `REGISTER_DISPATCH` registers a kernel, by the compiler the file's name
    calls (see the module's docstring)."""
    suffix = path.rpartition(".")[2].lower() if "." in path.rpartition("/")[2] else ""
    if suffix in ("cu", "cuh"):
        return "CUDA"
    if suffix == "hip":
        return "CUDA (the HIP build)"
    if suffix == "mm":
        return "MPS"
    return _cpu(_BUT_AVX512, ": a build for each; AVX512 runs the AVX2 build")
