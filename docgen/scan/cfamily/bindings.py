"""pybind11 bindings: the Python names a C++ file makes and the C++ each one binds.

`PYBIND11_MODULE(name, m) { m.def("fwd", &mha_fwd, "doc"); }`, `py::class_<T>(m,
"Name").def("f", &T::f).def_readwrite("x", &T::x)`, `py::enum_<E>(m, "E").value("A",
E::A)`, `m.def_submodule("sub")`: read from the calls' syntax, through the chains of
`.def` calls and the local variables a class or a submodule is kept in.  A lambda binds
no named C++; its binding says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from docgen.model.cfamily_facts import Binding
from docgen.scan.cfamily.method_tables import module_defs
from docgen.scan.cfamily.reader_macros import string_value
from docgen.scan.cfamily.source import Source, bare, descendants, one_line

if TYPE_CHECKING:
    from tree_sitter import Node

#: bytes a body that binds holds: cheap to look for before it is opened
BINDING_BYTES = re.compile(rb"\.def(?:_\w+)?\s*\(|\b(?:class_|enum_)\s*<")
#: the methods of a module, a class or an enum that bind a Python name (its first
#: argument, a string)
_VERBS = frozenset(
    {
        "def",
        "def_static",
        "def_readwrite",
        "def_readonly",
        "def_readwrite_static",
        "def_readonly_static",
        "def_property",
        "def_property_readonly",
        "def_property_static",
        "def_property_readonly_static",
        "def_submodule",
        # nanobind's
        "def_rw",
        "def_ro",
        "def_rw_static",
        "def_ro_static",
        "def_prop_rw",
        "def_prop_ro",
        "def_prop_rw_static",
        "def_prop_ro_static",
        "value",
        "attr",
    }
)
#: what makes a class or an enum of a module: `py::class_<T, ...>(m, "Name", ...)`
_MAKERS = {"class_": "class", "enum_": "enum", "exception": "exception"}
#: a C++ name a binding's second argument gives: `&ns::f`, `py::overload_cast<int>(&f)`
_TARGET = re.compile(r"&?\s*(?:::\s*)?((?:[A-Za-z_]\w*\s*::\s*)*~?[A-Za-z_]\w*)")
_CAST = re.compile(r"(?:py::|pybind11::)?(?:overload_cast|const_overload_cast)\s*<.*>\s*\((.*)\)")


class _Owner(NamedTuple):
    """What a receiver of `.def` stands for: a class (its Python and C++ names, and the
    submodule it is made in) or a module (`python` and `cpp` empty; `module` the
    submodule's dotted path below the module, "" for the module itself; `root` the
    module an import names, when it is below that: `torch._C`)."""

    python: str
    cpp: str
    module: str = ""
    root: str = ""

    @property
    def is_module(self) -> bool:
        return not self.cpp and not self.python


def bindings_in_order(bindings: Iterable[Binding]) -> tuple[Binding, ...]:
    """Bindings by line, then class, name, kind and target (every field: no order a set
    gave is left), each once: the order the facts keep them in."""
    return tuple(sorted(set(bindings), key=lambda b: (b.line, b.owner, b.name, b.kind, b.target)))


@dataclass(frozen=True)
class FileNames:
    """What a file declares once for all its bodies' bindings: its aliases of the makers
    (by name, with what they make) and its `PyModuleDef`s (by variable, with the module
    each names)."""

    makers: Mapping[str, str]
    defined: Mapping[str, str]


def file_names(data: bytes) -> FileNames:
    return FileNames(_maker_aliases(data), module_defs(data))


def bindings_in(
    source: Source, body: Node, modules: tuple[str, ...] = (), names: FileNames | None = None
) -> list[Binding]:
    """The bindings a function body (or a `PYBIND11_MODULE` block) makes.
    `modules`: the names that stand for a module there, beside the function's parameters
    and the locals whose type or value names a module (`py::module_ m`, `auto m =
    py::handle(mod).cast<py::module>()`): `m.def` on another name (`torch::Library`'s
    in `TORCH_LIBRARY(ns, m)`) binds nothing.  `names`: the file's, when read already."""
    if not BINDING_BYTES.search(source.data, body.start_byte, body.end_byte):
        return []
    reader = _Reader(source, names or file_names(source.data))
    for module in modules:
        reader.owners[module] = _MODULE
    reader.parameters(body)
    found = reader.variables(body)
    for call in descendants(body, "call_expression"):
        binding = reader.binding(call)
        if binding is not None:
            found.append(binding)
    return found


class _Reader:
    def __init__(self, source: Source, names: FileNames) -> None:
        self.source = source
        self.owners: dict[str, _Owner] = {}  # local variable -> what it holds
        #: the makers of classes and enums by name, the file's aliases of them included
        self.makers = {**_MAKERS, **names.makers}
        #: the file's `PyModuleDef`s by variable, with the module each names
        self.defined = names.defined

    def text(self, node: Node | None) -> str:
        return self.source.text(node)

    def parameters(self, body: Node) -> None:
        """The parameters of the function whose body this is that are modules."""
        function = body.parent
        declarator = function.child_by_field_name("declarator") if function else None
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        params = declarator.child_by_field_name("parameters") if declarator else None
        for param in params.named_children if params is not None else ():
            name = param.child_by_field_name("declarator")
            while name is not None and name.type != "identifier":
                name = name.child_by_field_name("declarator") or (
                    name.named_children[-1] if name.named_children else None
                )
            if name is not None and _MODULE_TYPE.search(
                self.text(param.child_by_field_name("type"))
            ):
                self.owners[self.text(name)] = _MODULE

    def variables(self, body: Node) -> list[Binding]:
        """The local variables that hold a class or a submodule: `py::class_<T> cls(m,
        "T");`, `auto cls = py::class_<T>(m, "T").def(...);`, `auto sub =
        m.def_submodule("sub");`; the bindings of the classes so declared."""
        declared: list[Binding] = []
        nodes = descendants(body, "init_declarator")
        if b"PyModule_AddObject" in self.source.data[body.start_byte : body.end_byte]:
            nodes += [c for c in descendants(body, "call_expression") if _adds_object(self, c)]
        for node in sorted(nodes, key=lambda n: n.start_byte):
            if node.type == "call_expression":
                self.added(node)
                continue
            name = node.child_by_field_name("declarator")
            while name is not None and name.type in ("pointer_declarator", "reference_declarator"):
                name = (
                    name.child_by_field_name("declarator") or name.named_children[-1]
                )  # `PyObject* m`
            if name is None or name.type != "identifier":
                continue
            value = node.child_by_field_name("value")
            declaration = node.parent
            kind = declaration.child_by_field_name("type") if declaration else None
            owner = None
            if value is not None and value.type == "argument_list":  # `py::class_<T> c(m, "T")`
                owner = self.made(self.text(kind), value) if kind is not None else None
                if owner is not None and kind is not None:
                    maker = self.makers[_maker_name(self.text(kind))]
                    declared.append(_made(maker, owner, node.start_point[0] + 1))
            elif value is not None:
                owner = self.imported(value) or self.owner(value)
                if owner is None and (
                    _MODULE_TYPE.search(self.text(kind)) or _MODULE_TYPE.search(self.text(value))
                ):
                    owner = _MODULE
            if owner is not None:
                self.owners[self.text(name)] = owner
        return declared

    def imported(self, value: Node) -> _Owner | None:
        """The module a local is made to hold by an import (`THPObjectPtr(
        PyImport_ImportModule("torch._C"))`, `py::module::import("torch._C")`), or by a
        cast of a local that holds one (`py::handle(mod).cast<py::module>()`)."""
        text = " ".join(self.text(value).split())
        found = _IMPORT.search(text)
        if found is not None:
            return _Owner("", "", "", found.group(1))
        created = _CREATE.search(text)
        if created is not None and created.group(1) in self.defined:
            return _Owner("", "", "", self.defined[created.group(1)])
        cast = _CAST_MODULE.fullmatch(text)
        known = self.owners.get(cast.group(1)) if cast is not None else None
        return known if known is not None and known.is_module else None

    def added(self, call: Node) -> None:
        """`PyModule_AddObject(parent, "name", child)`: `child` is the submodule `name`
        of the module `parent` holds, when `parent` holds one whose module is known."""
        arguments = call.child_by_field_name("arguments")
        args = arguments.named_children if arguments is not None else []
        if len(args) != 3 or args[0].type != "identifier":
            return
        parent = self.owners.get(self.text(args[0]))
        name = string_value(self.text(args[1]))
        child = self.text(args[2]).rsplit(")", 1)[-1].strip()  # `(PyObject*)child`
        if parent is None or not parent.is_module or not name or not _WORD.fullmatch(child):
            return
        self.owners[child] = _Owner("", "", f"{parent.module}.{name}".lstrip("."), parent.root)

    def made(self, maker: str, arguments: Node) -> _Owner | None:
        """The class `py::class_<T, ...>(scope, "Name")` makes, None for another call."""
        _, _, rest = maker.partition("<")
        kind = self.makers.get(_maker_name(maker))
        args = arguments.named_children
        if kind is None or len(args) < 2 or not rest:
            return None
        python = string_value(self.text(args[1]))
        if python is None:
            return None
        cpp = bare(rest.rsplit(">", 1)[0].split(",", 1)[0].strip())
        scope = self.owner(args[0])
        if scope is None:
            return _Owner(python, cpp)
        # a class or an enum made in a class (`py::enum_<T::Kind>(cls, "Kind")`) is its member
        inside = f"{scope.python}.{python}" if scope.python else python
        return _Owner(inside, cpp, scope.module, scope.root)

    def owner(self, receiver: Node) -> _Owner | None:
        """What a chain of calls ends in: the class its root makes, the submodule, or
        the variable's class; None for a module (or what is not read)."""
        node = receiver
        while node.type == "call_expression":
            function = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            if function is None or arguments is None:
                return None
            if function.type == "field_expression":
                verb = self.text(function.child_by_field_name("field"))
                if verb == "def_submodule":
                    name = _first_string(self, arguments)
                    parent = function.child_by_field_name("argument")
                    above = self.owner(parent) if parent is not None else None
                    if above is None or not above.is_module or not name:
                        return None
                    return _Owner("", "", f"{above.module}.{name}".lstrip("."), above.root)
                if verb not in _VERBS:
                    return None
                node = function.child_by_field_name("argument") or node
                if node is function:
                    return None
                continue
            return self.made(self.text(function), arguments)
        if node.type == "identifier":
            return self.owners.get(self.text(node))
        return None

    def binding(self, call: Node) -> Binding | None:
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if function is None or arguments is None:
            return None
        line = call.start_point[0] + 1
        if function.type != "field_expression":  # `py::class_<T>(m, "Name")` itself
            made = self.made(self.text(function), arguments)
            if made is None:
                return None
            return _made(self.makers[_maker_name(self.text(function))], made, line)
        field = function.child_by_field_name("field")
        verb = self.text(field)
        if field is None or verb not in _VERBS:
            return None
        line = field.start_point[0] + 1  # a chain's call is on its `.def`'s line
        receiver = function.child_by_field_name("argument")
        args = arguments.named_children
        if receiver is None or not args:
            return None
        name = _first_string(self, arguments)
        if name is None:
            if verb != "def" or "init" not in self.text(args[0]):
                return None
            name = "__init__"  # `.def(py::init<int>())`: a constructor
            target = one_line(self.text(args[0]))
        else:
            target = (
                _target(self.text(args[1])) if len(args) > 1 and verb != "def_submodule" else ""
            )
        owner = self.owner(receiver)
        if owner is None:
            return None  # not a module's nor a bound class's: `torch::Library::def`
        return Binding(verb, name, target, line, owner.python, owner.module, owner.root)


#: what the module a binding is made in stands for
_MODULE = _Owner("", "")
#: a type or a value that is a module: `py::module_`, `pybind11::module`, `.cast<py::module>()`,
#: nanobind's `nb::module_`
_MODULE_TYPE = re.compile(r"\b(?:py|pybind11|nb|nanobind)\s*::\s*module_?\b")


def _made(kind: str, made: _Owner, line: int) -> Binding:
    """The binding of a class or an enum: its name, and the class it is made in."""
    owner, _, name = made.python.rpartition(".")
    return Binding(kind, name, made.cpp, line, owner, made.module, made.root)


#: an import of a module by its dotted name, in C++
_IMPORT = re.compile(
    r"(?:\bPyImport_ImportModule|\b(?:py|pybind11)\s*::\s*module_?\s*::\s*import)"
    r"\s*\(\s*\"([\w.]+)\"\s*\)"
)
#: a module made from a definition of the file: `PyModule_Create(&_module)`
_CREATE = re.compile(r"\bPyModule_Create2?\s*\(\s*&\s*(\w+)\s*[,)]")
_WORD = re.compile(r"[A-Za-z_]\w*")
#: a cast of a local to a module: `py::handle(mod).cast<py::module>()`
_CAST_MODULE = re.compile(
    r"(?:py|pybind11)\s*::\s*handle\s*\(\s*(\w+)\s*\)\s*\.\s*cast\s*<[^<>]*module_?\s*>\s*\(\s*\)"
)
#: a file's alias of a maker: `template <typename T> using intrusive_ptr_class_ =
#: py::class_<T, c10::intrusive_ptr<T>>;`
_MAKER_ALIAS = re.compile(
    rb"\busing\s+(\w+)\s*=\s*(?:py|pybind11|nb|nanobind)\s*::\s*(class_|enum_|exception)\s*<"
)


def _adds_object(reader: _Reader, call: Node) -> bool:
    function = call.child_by_field_name("function")
    return function is not None and reader.text(function) == "PyModule_AddObject"


def _maker_aliases(data: bytes) -> dict[str, str]:
    """The file's aliases of pybind11's makers, by name, with what they make."""
    return {m.group(1).decode(): _MAKERS[m.group(2).decode()] for m in _MAKER_ALIAS.finditer(data)}


def _maker_name(maker: str) -> str:
    """`py::class_<T, Base>` -> `class_`."""
    return maker.partition("<")[0].strip().rsplit("::", 1)[-1]


_STRINGS = frozenset({"string_literal", "concatenated_string", "raw_string_literal"})


def _first_string(reader: _Reader, arguments: Node) -> str | None:
    args = arguments.named_children
    return string_value(reader.text(args[0])) if args and args[0].type in _STRINGS else None


def _target(text: str) -> str:
    """The C++ name a binding's second argument gives (`&Foo::bar` -> `Foo::bar`,
    `py::overload_cast<int>(&f)` -> `f`), "" for a lambda or another expression."""
    text = " ".join(text.split())
    cast = _CAST.fullmatch(text)
    if cast is not None:
        text = cast.group(1)
    found = _TARGET.fullmatch(text.strip())
    return found.group(1).replace(" ", "") if found else ""
