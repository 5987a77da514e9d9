"""Facts of a Python file that say where its names are made in C++: the module-level
names it binds to another module's name (`aten = torch.ops.aten`) and the compiled
extension modules its build script declares (`CUDAExtension(name="flash_attn_2_cuda",
sources=["csrc/flash_attn/flash_api.cpp", ...])`)."""

from __future__ import annotations

from dataclasses import dataclass

from docgen.model.construct import pickled_by_fields


@dataclass(frozen=True, slots=True)
class NameAlias:
    """A module-level `name = dotted.name` (in any `if`, `try` or `with` body there):
    what Python finds when the file's code later reads `name`."""

    name: str
    value: str  # the dotted name as written
    line: int


@dataclass(frozen=True, slots=True)
class ExtensionModule:
    """A compiled module a setuptools script declares: its import name and the source
    files listed for it as plain strings (relative to the script's folder, as
    setuptools reads them)."""

    maker: str  # the call as written: `CUDAExtension`, `CppExtension`, `Pybind11Extension`
    name: str  # `flash_attn_2_cuda`, `flash_attn_3._C`
    sources: tuple[str, ...]
    line: int
    #: False when its `sources` is not one list of plain strings (a variable, a
    #: comprehension, `glob(...)`): the files listed are then only some of them
    complete: bool = True


@dataclass(frozen=True, slots=True)
class DottedRead:
    """A dotted name a Python file's code reads whose first name an import or a
    module-level alias binds, as Python resolves it (`flash_attn_gpu.fwd` with `import
    flash_attn_2_cuda as flash_attn_gpu` is `flash_attn_2_cuda.fwd`), with the lines
    where no longer name read there extends it."""

    name: str
    written: str
    lines: tuple[int, ...]


for _fact in (NameAlias, ExtensionModule, DottedRead):
    pickled_by_fields(_fact)
