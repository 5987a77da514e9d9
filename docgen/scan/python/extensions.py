"""What a Python file says of names made in C++: its module-level aliases of dotted
names (`aten = torch.ops.aten`, `flash_attn_3_gpu = torch.ops.flash_attn_3`) and the
compiled extension modules a setuptools script declares, with their source files.

Both are read from Python's own tree, through the bodies that run at module level
(`if`, `try`, `with`, loops), never into a function or a class."""

from __future__ import annotations

import ast

from docgen.model.binding_facts import ExtensionModule, NameAlias
from docgen.model.python_names import dotted_name as dotted
from docgen.scan.python.attributes import assignment_bindings, scope_statements

#: the calls that declare a compiled module: setuptools', torch's and pybind11's
EXTENSION_MAKERS = frozenset(
    {"Extension", "CppExtension", "CUDAExtension", "SyclExtension", "Pybind11Extension"}
)


def name_aliases(tree: ast.Module) -> tuple[NameAlias, ...]:
    """Each module-level `name = dotted.name` (and `name: T = dotted.name`)."""
    found = []
    for statement in scope_statements(tree.body):
        if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
            continue
        for name, _, value in assignment_bindings(statement):
            written = dotted(value) if value is not None else None
            if written is not None and "." in written:
                found.append(NameAlias(name, written, statement.lineno))
    return tuple(found)


def extension_modules(tree: ast.Module, text: str) -> tuple[ExtensionModule, ...]:
    """Each `CUDAExtension(name="...", sources=[...])` and its kin, wherever the file
    calls one (a `setup(ext_modules=[...])` list, an `ext_modules.append(...)`)."""
    if "Extension(" not in text:
        return ()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        maker = dotted(node.func)
        short = maker.rsplit(".", 1)[-1] if maker else ""
        if short not in EXTENSION_MAKERS:
            continue
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        name_node = keywords.get("name", node.args[0] if node.args else None)
        sources_node = keywords.get("sources", node.args[1] if len(node.args) > 1 else None)
        if not isinstance(name_node, ast.Constant) or not isinstance(name_node.value, str):
            continue
        sources: list[str] = []
        complete = isinstance(sources_node, (ast.List, ast.Tuple))
        for item in sources_node.elts if isinstance(sources_node, (ast.List, ast.Tuple)) else ():
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                sources.append(item.value)
            else:
                complete = False
        found.append(ExtensionModule(short, name_node.value, tuple(sources), node.lineno, complete))
    return tuple(sorted(found, key=lambda e: (e.line, e.name)))
