"""Classes, functions and imports from Python's own parser, for the files libcst rejects.

libcst's grammar lags CPython's in places (a parenthesised annotated target such as
`(x): int`, which CPython's test suite uses on purpose); such a file still has every
definition and import an `ast` walk finds.  The walk mirrors the libcst one (same
order, same qualified names, same import contexts); text that libcst would cut from
the source as written (decorators, bases, signatures) is `ast.unparse`'s rendering.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from types import MappingProxyType

from docgen.model.facts import Definition, Import

#: a statement, its enclosing blocks, the qualified name of its definition, in a class?
_Task = tuple[ast.stmt, tuple[str, ...], str | None, bool]
#: `try` and (Python 3.11+) `try ... except*`
TRY_STATEMENTS: tuple[type[ast.stmt], ...] = (
    ast.Try,
    *([ast.TryStar] if hasattr(ast, "TryStar") else []),
)


#: ast statement class -> its statement-body fields, in source order
STATEMENT_BODIES: Mapping[type, tuple[str, ...]] = MappingProxyType(
    {
        cls: fields
        for names, fields in (
            (("FunctionDef", "AsyncFunctionDef", "ClassDef", "With", "AsyncWith"), ("body",)),
            (("ExceptHandler", "match_case"), ("body",)),
            (("If", "For", "AsyncFor", "While"), ("body", "orelse")),
            (("Try", "TryStar"), ("body", "handlers", "orelse", "finalbody")),
            (("Match",), ("cases",)),
        )
        for name in names
        if (cls := getattr(ast, name, None)) is not None
    }
)


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return (
        isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
        and isinstance(test.value, ast.Name)
    )


def definitions_and_imports(tree: ast.Module) -> tuple[list[Definition], list[Import]]:
    """Every class, function and import, in source order, as the libcst scan gives them."""
    definitions: list[Definition] = []
    imports: list[Import] = []
    stack: list[_Task] = [(stmt, (), None, False) for stmt in reversed(tree.body)]
    while stack:
        node, ctx, parent, in_class = stack.pop()
        groups: list[tuple[list[ast.stmt], tuple[str, ...]]] = []
        owner, klass = parent, in_class
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.extend(_imports(node, ctx))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            definitions.append(_definition(node, parent, in_class))
            owner = f"{parent}.{node.name}" if parent else node.name
            klass = isinstance(node, ast.ClassDef)
            groups.append((node.body, (*ctx, "class" if klass else "function")))
        elif isinstance(node, ast.If):
            groups.append(
                (node.body, (*ctx, "TYPE_CHECKING" if _is_type_checking(node.test) else "if"))
            )
            if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                groups.append((node.orelse, ctx))  # elif: a branch of the same statement
            else:
                groups.append((node.orelse, (*ctx, "if")))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            groups.append((node.body + node.orelse, (*ctx, "loop")))
        elif isinstance(node, TRY_STATEMENTS):
            handlers = [s for h in getattr(node, "handlers", ()) for s in h.body]
            parts = [
                *getattr(node, "body", ()),
                *handlers,
                *getattr(node, "orelse", ()),
                *getattr(node, "finalbody", ()),
            ]
            groups.append((parts, (*ctx, "try")))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            groups.append((node.body, (*ctx, "with")))
        elif isinstance(node, ast.Match):
            groups.append(([s for case in node.cases for s in case.body], (*ctx, "match")))
        children = [(s, inner, owner, klass) for stmts, inner in groups for s in stmts]
        stack.extend(reversed(children))
    return definitions, imports


def _definition(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, parent: str | None, in_class: bool
) -> Definition:
    qualname = f"{parent}.{node.name}" if parent else node.name
    decorators = tuple(ast.unparse(d) for d in node.decorator_list)
    docstring = ast.get_docstring(node, clean=True)
    end = node.end_lineno or node.lineno
    if isinstance(node, ast.ClassDef):
        keywords = [
            f"{k.arg}={ast.unparse(k.value)}" if k.arg else f"**{ast.unparse(k.value)}"
            for k in node.keywords
        ]
        return Definition(
            kind="class",
            name=node.name,
            qualname=qualname,
            line=node.lineno,
            end_line=end,
            decorators=decorators,
            bases=(*(ast.unparse(b) for b in node.bases), *keywords),
            docstring=docstring,
            parent=parent,
        )
    signature = f"({ast.unparse(node.args)})"
    if node.returns is not None:
        signature += f" -> {ast.unparse(node.returns)}"
    return Definition(
        kind="method" if in_class else "function",
        name=node.name,
        qualname=qualname,
        line=node.lineno,
        end_line=end,
        decorators=decorators,
        signature=signature,
        docstring=docstring,
        is_async=isinstance(node, ast.AsyncFunctionDef),
        parent=parent,
    )


def _imports(node: ast.Import | ast.ImportFrom, context: tuple[str, ...]) -> list[Import]:
    """One Import per module of `import a, b`; one per statement for `from` imports."""
    if isinstance(node, ast.Import):
        return [plain_import(node.lineno, a.name, a.asname, context) for a in node.names]
    star = any(alias.name == "*" for alias in node.names)
    pairs = [(alias.name, alias.asname) for alias in node.names]
    return [from_import(node.lineno, node.level or 0, node.module or "", pairs, star, context)]


def plain_import(line: int, module: str, asname: str | None, context: tuple[str, ...]) -> Import:
    """`import a.b` (binds `a`) or `import a.b as c`: the facts both Python readers make."""
    top = module.split(".", 1)[0]
    aliases = ((asname, module),) if asname is not None else ((top, top),)
    return Import(line=line, module=module, aliases=aliases, context=context)


def from_import(
    line: int,
    level: int,
    written: str,
    pairs: list[tuple[str, str | None]],
    star: bool,
    context: tuple[str, ...],
) -> Import:
    """`from ..m import a, b as c` from its parts (name, alias or None per imported name)."""
    prefix = "." * level + written
    joiner = "" if prefix.endswith(".") else "."
    return Import(
        line=line,
        module=prefix if written else None,
        names=() if star else tuple(name for name, _ in pairs),
        aliases=()
        if star
        else tuple((bound or name, prefix + joiner + name) for name, bound in pairs),
        level=level,
        is_from=True,
        star=star,
        context=context,
    )
