"""The kinds of C, C++ and CUDA definitions: shared by the facts and by `docgen find
--kind`, which must not load the facts' modules to list its choices."""

from typing import Literal

CKind = Literal[
    "namespace",
    "class",
    "struct",
    "union",
    "enum",
    "function",
    "method",
    "constructor",
    "destructor",
    "operator",
    "field",
    "enumerator",
    "flag",
    "typedef",
    "alias",
    "macro",
    "kernel",
]

#: kinds that have a body: declared in one place and defined in another, and what a
#: class can be defined inside
CALLABLE_KINDS: frozenset[CKind] = frozenset(
    {"function", "method", "constructor", "destructor", "operator", "kernel"}
)

#: the kinds of names a YAML file defines: an operator of an operator file, a
#: `derivatives.yaml` entry, a top-level key, an entry of a top-level list
YamlKind = Literal["op", "derivative", "key", "entry"]
#: a kernel a `TORCH_LIBRARY_IMPL` block's `m.impl` registers for an operator (its
#: `m.def` is an `op`, as a `- func:` entry is)
RegisteredKind = Literal["impl"]
#: a dispatch stub of PyTorch's `DispatchStub.h`: where `DECLARE_DISPATCH` declares
#: it, `DEFINE_DISPATCH` defines it and a `REGISTER_*DISPATCH` gives it a kernel
StubKind = Literal["dispatch stub", "stub definition", "stub kernel"]
#: a Python name a pybind11 or nanobind call makes (`m.def("fwd", &mha_fwd)`)
#: and a compiled module a build script declares (`CUDAExtension(name=...)`)
BindingKind = Literal["binding", "extension"]
