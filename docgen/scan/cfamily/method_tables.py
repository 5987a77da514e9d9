"""CPython's own bindings: the `PyMethodDef` tables a C or C++ file fills, each entry
a Python function name and the C function that implements it (`{"_initExtension",
THPModule_initExtension, METH_O, nullptr}`), and the module a `PyModuleDef` of the
file names (`{PyModuleDef_HEAD_INIT, "torch._C", nullptr, -1, methods.data()}`).

Which module a table's functions land in is told by code (`PyModule_AddFunctions`,
a table returned to another file and appended there): only when the file declares
one `PyModuleDef` is that module taken as the table's; else the entries keep their
names alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docgen.model.cfamily_facts import Binding
from docgen.scan.cfamily.reader_macros import string_value
from docgen.scan.cfamily.source import Source, descendants

if TYPE_CHECKING:
    from tree_sitter import Node

KIND = "PyMethodDef"
#: a module definition and its module: `PyModuleDef NAME = {PyModuleDef_HEAD_INIT,
#: "torch._C", ...}`
_MODULE_DEF = re.compile(
    rb"\bPyModuleDef\s+(\w+)\s*=\s*\{\s*PyModuleDef_HEAD_INIT\s*,\s*\"([\w.]+)\""
)
#: the C function of an entry, under its casts: `(PyCFunction)(void (*)())f`,
#: `castPyCFunctionWithKeywords(f)`, `PYC_FN(f)`, `reinterpret_cast<PyCFunction>(&f)`
_FUNCTION = re.compile(r"&?\s*((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*(?:\s*<[^()]*>)?)\s*\)*\s*$")
_ENTRIES = frozenset({"initializer_list", "compound_literal_expression"})


def method_tables(source: Source, root: Node) -> list[Binding]:
    """Every entry of the file's `PyMethodDef` tables, with the module its one
    `PyModuleDef` names ("" when it has none or several)."""
    if b"PyMethodDef" not in source.data:
        return []
    modules = set(module_defs(source.data).values())
    module = modules.pop() if len(modules) == 1 else ""
    found = []
    for declaration in descendants(root, "declaration"):
        if "PyMethodDef" not in source.text(declaration.child_by_field_name("type")):
            continue
        for declarator in declaration.children_by_field_name("declarator"):
            value = declarator.child_by_field_name("value")
            if declarator.type != "init_declarator" or value is None:
                continue
            for entry in value.named_children:
                binding = _entry(source, entry, module)
                if binding is not None:
                    found.append(binding)
    return found


def module_defs(data: bytes) -> dict[str, str]:
    """The file's `PyModuleDef`s by variable, with the module each names."""
    return {m.group(1).decode(): m.group(2).decode() for m in _MODULE_DEF.finditer(data)}


def _entry(source: Source, entry: Node, module: str) -> Binding | None:
    """One `{"name", function, flags, doc}` (or `PyMethodDef{...}`), None for the
    table's closing `{nullptr, nullptr, 0, nullptr}`."""
    if entry.type == "compound_literal_expression":
        entry = entry.child_by_field_name("value") or entry
    if entry.type not in _ENTRIES:
        return None
    fields = [c for c in entry.named_children if c.type != "comment"]
    if len(fields) < 2:
        return None
    name = string_value(source.text(fields[0]))
    if not name:
        return None
    written = " ".join(source.text(fields[1]).split())
    found = _FUNCTION.search(written)
    target = found.group(1).replace(" ", "") if found else ""
    return Binding(KIND, name, target, entry.start_point[0] + 1, root=module)
