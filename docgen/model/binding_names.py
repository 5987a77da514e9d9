"""The Python names a C-family file's pybind11 and nanobind calls make, spelled as
Python imports them: shared by the keyword index (each binding a `binding` site) and by
the links from Python's calls to them (`docgen.index.native_calls`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from docgen.model.cfamily_facts import Binding

#: a module block's name that is a macro the build defines (`TORCH_EXTENSION_NAME`),
#: not the module's own name
_MACRO_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
#: binding kinds that make no Python name of their own
UNNAMED_KINDS = frozenset({"module"})
#: binding calls whose second argument is a callable: with no C++ name there, a lambda
CALLABLE_BINDINGS = frozenset(
    {
        "def",
        "def_static",
        "def_property",
        "def_property_readonly",
        "def_property_static",
        "def_property_readonly_static",
        "def_prop_rw",
        "def_prop_ro",
        "def_prop_rw_static",
        "def_prop_ro_static",
    }
)


def module_root(bindings: Iterable[Binding]) -> str:
    """The module a file's bindings are made in, as its one `PYBIND11_MODULE(name, m)`
    block writes it (`_C`); "" when the file has none, several, or the name is a macro
    (the build script that compiles the file names it then, see `ExtensionModule`)."""
    written = {b.name for b in bindings if b.kind == "module"}
    if len(written) != 1:
        return ""
    (name,) = written
    return "" if _MACRO_NAME.fullmatch(name) else name


def bound_qualname(binding: Binding, root: str = "") -> str:
    """`_C.sub.Foo.bar`: the binding's name below its module (the module its function
    imports, else `root`, "" unknown), through its submodule and its class."""
    parts = (binding.root or root, binding.module, binding.owner, binding.name)
    return ".".join(p for p in parts if p)


def bound_binding(bindings: Iterable[Binding], line: int, qualname: str) -> Binding | None:
    """The binding of this line and qualified name (see `bound_qualname`), if any."""
    made = list(bindings)
    root = module_root(made)
    return next((b for b in made if b.line == line and bound_qualname(b, root) == qualname), None)


def binds_lambda(binding: Binding | None) -> bool:
    """Whether a binding's C++ is a lambda: a callable with no C++ name written."""
    return binding is not None and not binding.target and binding.kind in CALLABLE_BINDINGS
