"""Frozen facts of a C, C++ or CUDA file: its definitions, includes, kernel launches,
pybind11 and CPython bindings, dispatcher registrations and the code uses a scanner
reads; immutable and picklable as every fact (see `docgen.model.facts`)."""

from __future__ import annotations

from dataclasses import dataclass, is_dataclass

from docgen.model.construct import pickled_by_fields
from docgen.model.kinds import CKind


@dataclass(frozen=True, slots=True)
class CDefinition:
    """A named C, C++ or CUDA entity, as a C++ reader would search for it.

    `qualname` joins enclosing namespaces and classes with `::`
    (`at::native::add_out`, `Foo::~Foo`); an out-of-line `Foo::bar` gets its
    class from the qualifier it is written with.
    """

    kind: CKind
    name: str
    qualname: str
    line: int
    end_line: int
    declaration: str  # the header as written (macros included), on one line
    is_definition: bool = True  # False for a prototype or a declaration without a body
    template: str = ""  # "template <typename T>" as written, "" when not a template
    bases: tuple[str, ...] = ()  # base classes as written, access included
    attributes: tuple[str, ...] = ()  # neutralised macros and CUDA qualifiers on it, as written
    doc: str | None = None  # the `///` or `/** */` comment right above it, markers removed
    file_local: bool = False  # in an anonymous namespace or `static` at file scope
    #: a macro's replacement text as written (continuation lines joined by newlines),
    #: an enumerator's value, a flag's default; "" for other kinds or none written
    value: str = ""
    #: the macro use that writes this declaration, as written (`TORCH_IMPL_FUNC(add_out)`),
    #: when `declaration` is that use expanded; "" for a declaration written out
    written_as: str = ""


@dataclass(frozen=True, slots=True)
class CInclude:
    """An `#include` line as written; where it leads is decided across the repository."""

    line: int
    target: str  # as written between the quotes or angle brackets
    system: bool  # `<...>` rather than `"..."`


@dataclass(frozen=True, slots=True)
class KernelLaunch:
    """A CUDA `kernel<<<config>>>(...)` launch inside a function body."""

    kernel: str
    line: int
    config: str  # what stands between `<<<` and `>>>`, as written
    #: the local variable or pointer launched, when `kernel` is what it was set to
    through: str = ""
    #: the macro whose `#define` holds the launch, "" for one in a function body
    in_macro: str = ""


@dataclass(frozen=True, slots=True)
class Binding:
    """A Python name a pybind11 call binds (`m.def("fwd", &mha_fwd)`): what it is, the
    name Python sees, the C++ it binds as written ("" for a lambda), and the Python
    class it is a member of ("" at module level).

    `kind`: the call (`def`, `def_static`, `def_readwrite`, `def_property`, `value`,
    `def_submodule`, `attr`, ...), `class`, `enum` or `exception` for what
    `py::class_<T>(m, "Name")` and its kin make (`target`: `T`), or `module` for a
    `PYBIND11_MODULE(name, m)` block (`name` as written there).  `module`: the dotted
    path of the submodule it is made in below the module the function is given
    (`m.def_submodule("linalg")`), "" for that module itself.  `root`: the module an
    import in the function names, when that is what `module` is below
    (`PyImport_ImportModule("torch._C")`), "" when it is the module given.
    """

    kind: str
    name: str
    target: str
    line: int
    owner: str = ""
    module: str = ""
    root: str = ""


@dataclass(frozen=True, slots=True)
class RegisteredOp:
    """An operator an `m.def` or `m.impl` call registers: a kind of its own, never a function."""

    verb: str  # "def" or "impl"
    name: str  # the operator name (`add.out`), without its schema
    line: int
    schema: str = ""  # the whole string given to `m.def`, when it has one
    target: str = ""  # the C++ function given with it (`&mha_fwd`, `TORCH_FN(f)`), if named


@dataclass(frozen=True, slots=True)
class Registration:
    """A PyTorch operator library block or a dispatch stub macro.

    `macro` is what is written (`TORCH_LIBRARY_IMPL`, `REGISTER_DISPATCH`, ...);
    `name` the library namespace or the stub's name.
    """

    macro: str
    name: str
    line: int
    end_line: int
    dispatch_key: str = ""  # TORCH_LIBRARY_IMPL's second argument
    target: str = ""  # REGISTER_DISPATCH's kernel, DECLARE_DISPATCH's function type
    ops: tuple[RegisteredOp, ...] = ()
    #: the file's own macro whose use at `line` makes this call (`IMPLEMENT_FLOAT_KERNEL`)
    through: str = ""
    defines_kernel: bool = False  # whether that macro defines the kernel it registers too

    @property
    def is_dispatch_stub(self) -> bool:
        """Whether it declares, defines or registers a dispatch stub (`DECLARE_DISPATCH`,
        `REGISTER_CPU_DISPATCH`, ...): pages link the files that name the same stub."""
        return "DISPATCH" in self.macro


@dataclass(frozen=True, slots=True)
class CodeUse:
    """A call or macro use in code that a tag is decided from (`cudaMalloc`, `TEST_F`)."""

    name: str
    line: int


#: the scope of a name a `#define`'s body writes (it is read where the macro expands)
MACRO_BODY = "#define"
#: the kinds of `CNameUse` that are no use: what a namespace's own lines say of a name
DIRECTIVE, FORWARD, USING = "directive", "forward", "using"


@dataclass(frozen=True, slots=True)
class CNameUse:
    """Lines where a file's code writes a name one way, in one scope: what the index
    looks up across files (see `docgen.scan.cfamily.name_uses`)."""

    name: str  # as written, blanks removed: `at::native::add_out`, `::c10::Device`, `Tensor`
    #: the innermost namespace or class the lines stand in, "" at file scope, `MACRO_BODY`
    scope: str
    #: the `using namespace n;` (as `n::`) and `using n::name;` open on the lines
    usings: tuple[str, ...]
    call: bool  # followed by `(` or `<`: a call, a construction or a template's arguments
    lines: tuple[int, ...]
    #: "" for a use; at namespace scope (`scope`: the namespace, "" at file scope), what
    #: else names it: `DIRECTIVE` (`using namespace name;`, `name` the namespace it
    #: nominates), `FORWARD` (`class name;`) or `USING` (`using name;`, `name` qualified)
    kind: str = ""


@dataclass(frozen=True, slots=True)
class CFacts:
    """What the C, C++ and CUDA scanner learns."""

    dialect: str  # the grammar that read it: "c", "cpp" or "cuda"
    definitions: tuple[CDefinition, ...] = ()
    includes: tuple[CInclude, ...] = ()
    launches: tuple[KernelLaunch, ...] = ()
    registrations: tuple[Registration, ...] = ()
    bindings: tuple[Binding, ...] = ()  # pybind11's, by line
    #: CUDA runtime / driver API calls (`cudaMalloc`), and the names of PyTorch's CUDA
    #: namespaces a body uses (`at::cuda::CUDAGuard`, `c10::cuda::getCurrentCUDAStream`)
    gpu_calls: tuple[CodeUse, ...] = ()
    #: gtest's `TEST(...)` cases named "Suite.Case"; Catch2's and doctest's
    #: `TEST_CASE("...")` by their string, quotes kept
    test_cases: tuple[CodeUse, ...] = ()
    error_lines: tuple[int, ...] = ()  # lines where the grammar found a syntax error
    neutralised: tuple[str, ...] = ()  # macro names blanked before parsing, sorted
    uses: tuple[CNameUse, ...] = ()  # the names the code writes, by name


#: every fact class of this module, so that a new one is never left to the slow way
for _fact in [v for v in list(globals().values()) if is_dataclass(v) and isinstance(v, type)]:
    if _fact.__module__ == __name__:
        pickled_by_fields(_fact)
