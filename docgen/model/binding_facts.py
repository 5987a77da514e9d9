"""Facts of a Python file that say where its names are made in C++: the module-level
names it binds to another module's name (`aten = torch.ops.aten`) and the compiled
extension modules its build script declares (`CUDAExtension(name="flash_attn_2_cuda",
sources=["csrc/flash_attn/flash_api.cpp", ...])`), and the docstrings it attaches to
names made in C++ (`add_docstr(torch.add, r"...")`)."""

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


@dataclass(frozen=True, slots=True)
class AttachedDoc:
    """A docstring a module attaches at import to an object made elsewhere:
    `add_docstr(torch.add, r"...")` (PyTorch's `torch._C._add_docstr` sets the
    `__doc__` of a function made in C++), so that the page of the name's stub or
    binding can show it."""

    target: str  # as written: `torch.add`, `_linalg.linalg_cross`, `torch._C.TensorBase.abs`
    line: int
    #: the text as written; None when code docgen does not run makes it (a variable)
    text: str | None
    #: the arguments of a `.format(...)` that fills fields of `text` at import, as
    #: written (`**common_args`); "" when none does
    fields: str = ""
    via: str = ""  # the call as written: `add_docstr(torch.add, ...)`, `add_docstr_all("abs", ...)`
    #: the name the call's result is bound to (`cross`; `Tensor.detach` in a class), or ""
    bound: str = ""


for _fact in (NameAlias, ExtensionModule, DottedRead, AttachedDoc):
    pickled_by_fields(_fact)
