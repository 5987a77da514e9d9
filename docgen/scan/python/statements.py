"""The statements both walks of a Python file meet (definitions and imports): the
libcst walk through statement bodies, where each statement stands (from `ast`, or
from libcst's positions when the two walks disagree), and the facts read from its
libcst node as written (see `docgen.scan.python.scanner`)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from docgen.model.facts import Definition, Import
from docgen.scan.python.ast_names import (
    STATEMENT_BODIES,
    from_import,
    plain_import,
)
from docgen.scan.python.signatures import Source, signature

CstFound = cst.FunctionDef | cst.ClassDef | cst.Import | cst.ImportFrom
AstFound = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom
# A statement-walk task: node, enclosing block kinds, enclosing qualname, in a class body.
_Task = tuple[cst.CSTNode, tuple[str, ...], str | None, bool]


@dataclass(frozen=True, slots=True)
class Found:
    """A definition or import met by the libcst walk, with where it stands."""

    node: CstFound
    context: tuple[str, ...]
    parent: str | None  # qualname of the enclosing definition
    in_class: bool  # the nearest enclosing definition is a class


@dataclass(frozen=True, slots=True)
class Span:
    """A definition's lines and docstring, taken from `ast` or from libcst's positions."""

    line: int
    end_line: int
    docstring: str | None
    column: int | None = None  # UTF-8 byte column of the `def`/`async`, when ast knows it


# --- the libcst statement walk ------------------------------------------------


def walk_cst(module: cst.Module) -> list[Found]:
    """Definitions and imports in source order, descending only into statement bodies.

    Iterative so that deeply nested blocks cannot exhaust the interpreter stack.
    """
    found: list[Found] = []
    stack: list[_Task] = [(stmt, (), None, False) for stmt in reversed(module.body)]
    while stack:
        node, ctx, parent, in_class = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in node.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    found.append(Found(small, ctx, parent, in_class))
            continue
        children: list[_Task] = []
        if isinstance(node, cst.IndentedBlock):
            children = [(stmt, ctx, parent, in_class) for stmt in node.body]
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            found.append(Found(node, ctx, parent, in_class))
            qualname = f"{parent}.{node.name.value}" if parent else node.name.value
            is_class = isinstance(node, cst.ClassDef)
            block = "class" if is_class else "function"
            children = [(node.body, (*ctx, block), qualname, is_class)]
        elif isinstance(node, cst.If):
            block = "TYPE_CHECKING" if _is_type_checking(node.test) else "if"
            children = [(node.body, (*ctx, block), parent, in_class)]
            if isinstance(node.orelse, cst.If):  # elif: a branch of the same statement
                children.append((node.orelse, ctx, parent, in_class))
            elif isinstance(node.orelse, cst.Else):  # runs at run time even under TYPE_CHECKING
                children.append((node.orelse.body, (*ctx, "if"), parent, in_class))
        elif isinstance(node, (cst.For, cst.While)):
            inner = (*ctx, "loop")
            children = [(node.body, inner, parent, in_class)]
            if node.orelse is not None:
                children.append((node.orelse.body, inner, parent, in_class))
        elif isinstance(node, (cst.Try, cst.TryStar)):
            inner = (*ctx, "try")
            children = [(node.body, inner, parent, in_class)]
            children += [(handler.body, inner, parent, in_class) for handler in node.handlers]
            if node.orelse is not None:
                children.append((node.orelse.body, inner, parent, in_class))
            if node.finalbody is not None:
                children.append((node.finalbody.body, inner, parent, in_class))
        elif isinstance(node, cst.With):
            children = [(node.body, (*ctx, "with"), parent, in_class)]
        elif isinstance(node, cst.Match):
            inner = (*ctx, "match")
            children = [(case.body, inner, parent, in_class) for case in node.cases]
        stack.extend(reversed(children))
    return found


def _is_type_checking(test: cst.BaseExpression) -> bool:
    """`TYPE_CHECKING`, `typing.TYPE_CHECKING` or the same through another module name."""
    if isinstance(test, cst.Name):
        return test.value == "TYPE_CHECKING"
    return (
        isinstance(test, cst.Attribute)
        and test.attr.value == "TYPE_CHECKING"
        and isinstance(test.value, cst.Name)
    )


def _dotted(node: cst.BaseExpression) -> str:
    """`a.b.c` of a Name/Attribute chain, without any whitespace as written."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
    return ".".join(reversed(parts))


# --- positions ----------------------------------------------------------------


def ast_walk_statements(tree: ast.Module) -> list[AstFound]:
    """The `ast` twin of `walk_cst`: same pre-order over statement bodies."""
    found: list[AstFound] = []
    stack: list[ast.AST] = list(reversed(tree.body))
    blocks = STATEMENT_BODIES
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(node)
        fields = blocks.get(type(node))
        if fields is None:
            continue
        children: list[ast.AST] = []
        for field in fields:
            children.extend(getattr(node, field, ()))
        stack.extend(reversed(children))
    return found


def cst_key(node: CstFound) -> tuple[object, ...]:
    if isinstance(node, cst.FunctionDef):
        return ("def", node.name.value)
    if isinstance(node, cst.ClassDef):
        return ("class", node.name.value)
    if isinstance(node, cst.Import):
        return ("import", tuple(_dotted(alias.name) for alias in node.names))
    module = _dotted(node.module) if node.module is not None else None
    return ("from", len(node.relative), module)


def ast_key(node: AstFound) -> tuple[object, ...]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ("def", node.name)
    if isinstance(node, ast.ClassDef):
        return ("class", node.name)
    if isinstance(node, ast.Import):
        return ("import", tuple(alias.name for alias in node.names))
    return ("from", node.level or 0, node.module)


def cst_spans(module: cst.Module, found: list[Found]) -> list[Span]:
    """Lines and docstrings from libcst: several parses' cost, for when ast cannot help."""
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    spans: list[Span] = []
    for item in found:
        code_range = positions[item.node]
        node = item.node
        docstring = (
            node.get_docstring(clean=True)
            if isinstance(node, (cst.FunctionDef, cst.ClassDef))
            else None
        )
        spans.append(Span(code_range.start.line, code_range.end.line, docstring))
    return spans


def ast_span(node: AstFound) -> Span:
    docstring = None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        docstring = ast.get_docstring(node, clean=True)
    return Span(node.lineno, node.end_lineno or node.lineno, docstring, node.col_offset)


# --- facts from libcst nodes --------------------------------------------------


def definition(module: cst.Module, source: Source, item: Found, span: Span) -> Definition:
    node = item.node
    assert isinstance(node, (cst.FunctionDef, cst.ClassDef))
    name = node.name.value
    qualname = f"{item.parent}.{name}" if item.parent else name
    decorators = tuple(module.code_for_node(dec.decorator) for dec in node.decorators)
    if isinstance(node, cst.ClassDef):
        return Definition(
            kind="class",
            name=name,
            qualname=qualname,
            line=span.line,
            end_line=span.end_line,
            decorators=decorators,
            bases=tuple(_arg_code(module, arg) for arg in (*node.bases, *node.keywords)),
            docstring=span.docstring,
            parent=item.parent,
        )
    return Definition(
        kind="method" if item.in_class else "function",
        name=name,
        qualname=qualname,
        line=span.line,
        end_line=span.end_line,
        decorators=decorators,
        signature=signature(module, source, node, span.line, span.column),
        docstring=span.docstring,
        is_async=node.asynchronous is not None,
        parent=item.parent,
    )


def _arg_code(module: cst.Module, arg: cst.Arg) -> str:
    """A class base or keyword as written, without its trailing comma."""
    value = module.code_for_node(arg.value)
    if arg.keyword is not None:
        equal = module.code_for_node(arg.equal) if isinstance(arg.equal, cst.AssignEqual) else "="
        return f"{arg.keyword.value}{equal}{value}"
    return f"{arg.star}{value}"


def imports_of(
    node: cst.Import | cst.ImportFrom, context: tuple[str, ...], line: int
) -> list[Import]:
    """One Import per module of `import a, b`; one per statement for `from` imports."""
    if isinstance(node, cst.Import):
        return [
            plain_import(
                line,
                _dotted(alias.name),
                _dotted(alias.asname.name) if alias.asname is not None else None,
                context,
            )
            for alias in node.names
        ]
    written = _dotted(node.module) if node.module is not None else ""
    star = isinstance(node.names, cst.ImportStar)
    pairs: list[tuple[str, str | None]] = []
    if not isinstance(node.names, cst.ImportStar):
        pairs = [
            (_dotted(alias.name), _dotted(alias.asname.name) if alias.asname else None)
            for alias in node.names
        ]
    return [from_import(line, len(node.relative), written, pairs, star, context)]


def dunder_all(module: cst.Module) -> tuple[str, ...] | None:
    """`__all__` when the top level spells it out with string literals, else None."""
    names: list[str] | None = None
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                if any(_is_all(target.target) for target in small.targets):
                    names = _literal_strings(small.value)
            elif isinstance(small, cst.AnnAssign):
                if _is_all(small.target) and small.value is not None:
                    names = _literal_strings(small.value)
            elif isinstance(small, cst.AugAssign):
                if _is_all(small.target):
                    extra = _literal_strings(small.value)
                    plus = isinstance(small.operator, cst.AddAssign)
                    names = (
                        names + extra if names is not None and extra is not None and plus else None
                    )
            elif isinstance(small, cst.Expr):
                names = _all_method_call(small.value, names)
    return tuple(names) if names is not None else None


def _all_method_call(value: cst.BaseExpression, names: list[str] | None) -> list[str] | None:
    """Follow `__all__.extend([...])` / `__all__.append("x")`; any other method loses track."""
    if not (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and _is_all(value.func.value)
    ):
        return names
    if names is None or len(value.args) != 1 or value.args[0].keyword or value.args[0].star:
        return None
    method = value.func.attr.value
    argument = value.args[0].value
    if method == "extend":
        extra = _literal_strings(argument)
        return names + extra if extra is not None else None
    if method == "append":
        single = _literal_string(argument)
        return [*names, single] if single is not None else None
    return None


def _is_all(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "__all__"


def _literal_strings(node: cst.BaseExpression) -> list[str] | None:
    if not isinstance(node, (cst.List, cst.Tuple)):
        return None
    strings: list[str] = []
    for element in node.elements:
        value = _literal_string(element.value) if isinstance(element, cst.Element) else None
        if value is None:
            return None
        strings.append(value)
    return strings


def _literal_string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None
