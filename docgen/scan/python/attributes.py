"""Module, class and instance attributes from Python's own tree, as pdoc and griffe
document them: the first binding of each name in its scope, with its annotation and
value as written and its docstring.

A scope's statements are read through `if`, `try`, `with`, loops and `match` (the
bodies that run in that scope) but never into a function: a function's locals are
not attributes, except the `self.name = ...` bindings of a class's own `__init__`.
A name the scope also binds with `def`, `class` or `import` is documented as that
and is left out here, as is `__all__` (the page tells the public names from it).
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from docgen.model.facts import MAX_ATTRIBUTE_VALUE, Attribute, AttributeScope
from docgen.scan.python.ast_names import STATEMENT_BODIES

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TYPE_ALIAS: tuple[type[ast.stmt], ...] = (
    (ast.TypeAlias,) if hasattr(ast, "TypeAlias") else ()  # `type X = ...`, Python 3.12+
)
#: the lines of a text as Python's tokenizer counts them (form feeds do not end a line)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_DOC_COMMENT = "#:"
#: a comment that speaks to a tool, not to a reader (type-checker ignores, lint pragmas)
_PRAGMA = re.compile(
    r"#\s*(?:type:|noqa\b|pyre-\w+|pyrefly\b|pylint:|mypy:|ruff:|fmt:|isort:|pragma\b|flake8\b|nosec\b)"
)


class SourceText:
    """Pieces of the source by `ast` position (column offsets count UTF-8 bytes)."""

    def __init__(self, text: str) -> None:
        self._lines = [m.group(0) for m in _LINE.finditer(text)]
        self._encoded: dict[int, bytes] = {}

    def line(self, number: int) -> str:
        """Line `number` (1-based) without its end, "" past the end."""
        if 0 < number <= len(self._lines):
            return self._lines[number - 1].rstrip("\r\n")
        return ""

    def _bytes(self, number: int) -> bytes:
        found = self._encoded.get(number)
        if found is None:
            found = self._encoded[number] = self.line(number).encode("utf-8")
        return found

    def segment(self, node: ast.AST) -> str:
        """The text of an expression as written."""
        first, last = getattr(node, "lineno", 0), getattr(node, "end_lineno", None) or 0
        start, end = getattr(node, "col_offset", 0), getattr(node, "end_col_offset", None)
        if not first or end is None:
            return ""
        if first == last:
            return self._bytes(first)[start:end].decode("utf-8", "replace")
        rows = [self._bytes(first)[start:].decode("utf-8", "replace")]
        rows.extend(self.line(n) for n in range(first + 1, last))
        rows.append(self._bytes(last)[:end].decode("utf-8", "replace"))
        return "\n".join(rows)

    def after(self, line: int, column: int) -> str:
        """What follows byte `column` on `line` (a trailing comment)."""
        return self._bytes(line)[column:].decode("utf-8", "replace")


@dataclass(slots=True)
class _Scope:
    """The bindings of one module or class body, first binding first."""

    found: dict[str, Attribute] = field(default_factory=dict)
    bound_otherwise: set[str] = field(default_factory=set)  # by def, class or import


def attributes_of(tree: ast.Module, text: str | SourceText) -> tuple[Attribute, ...]:
    """Every attribute of the module, its classes (at any depth) and their `__init__`s,
    in source order."""
    source = text if isinstance(text, SourceText) else SourceText(text)
    found: list[Attribute] = []
    stack: list[tuple[Sequence[ast.stmt], str | None, AttributeScope, int]] = [
        (tree.body, None, "module", 0)
    ]
    while stack:
        body, owner, scope, line = stack.pop()
        found.extend(
            replace(a, parent_line=line) for a in _scope_attributes(body, owner, scope, source)
        )
        for node, qualname in _classes_within(body, owner):
            stack.append((node.body, qualname, "class", node.lineno))
    return tuple(sorted(found, key=lambda a: (a.line, a.qualname)))


def _classes_within(
    body: Sequence[ast.stmt], owner: str | None
) -> Iterator[tuple[ast.ClassDef, str]]:
    """Classes defined in this body or in the functions under it, with their qualnames
    as `Definition.qualname` writes them."""
    for node, _ in _with_next(body):
        if isinstance(node, ast.ClassDef):
            yield node, _join(owner, node.name)
        elif isinstance(node, _FUNCTIONS):
            yield from _classes_within(node.body, _join(owner, node.name))


def _scope_attributes(
    body: Sequence[ast.stmt], owner: str | None, scope: AttributeScope, source: SourceText
) -> list[Attribute]:
    found = _Scope()
    for node, following in _with_next(body):
        if isinstance(node, (ast.ClassDef, *_FUNCTIONS)):
            found.bound_otherwise.add(node.name)
            if scope == "class" and node.name == "__init__" and isinstance(node, _FUNCTIONS):
                instance = _instance_attributes(node, owner, source)
                for attribute in instance:
                    found.found.setdefault(f"self.{attribute.name}", attribute)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.bound_otherwise.update(
                alias.asname or alias.name.split(".")[0] for alias in node.names
            )
        else:
            for name, annotation, value in assignment_bindings(node):
                _add(found, name, node, annotation, value, following, owner, scope, source)
    plain = {k: v for k, v in found.found.items() if not k.startswith("self.")}
    names = set(plain) | found.bound_otherwise
    instance_only = [
        v for k, v in found.found.items() if k.startswith("self.") and v.name not in names
    ]
    kept = [v for k, v in plain.items() if k not in found.bound_otherwise and k != "__all__"]
    return kept + instance_only


def scope_statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Each statement that runs in the scope `body` is the top of, in source order:
    through `if`, `try`, `with`, loops and `match`, never into a function or a class."""
    for node, _ in _with_next(body):
        yield node


def _with_next(body: Sequence[ast.stmt]) -> Iterator[tuple[ast.stmt, ast.stmt | None]]:
    """Each statement of the scope with the statement right after it in its own block."""
    for index, node in enumerate(body):
        yield node, body[index + 1] if index + 1 < len(body) else None
        if isinstance(node, (ast.ClassDef, *_FUNCTIONS)):
            continue
        for name in STATEMENT_BODIES.get(type(node), ()):
            children = getattr(node, name)
            if children and isinstance(children[0], ast.stmt):
                yield from _with_next(children)
            else:  # except handlers or match cases: each body is a block of its own
                for child in children:
                    yield from _with_next(child.body)


Binding = tuple[str, ast.expr | None, ast.expr | None]  # name, annotation, value


def assignment_bindings(node: ast.stmt, receiver: str | None = None) -> Iterator[Binding]:
    """The names an assignment binds (`receiver`: those set on it, `self.x = ...`)."""
    if isinstance(node, ast.Assign):
        single = len(node.targets) == 1 and not isinstance(node.targets[0], (ast.Tuple, ast.List))
        for target in node.targets:
            for name in _target_names(target, receiver):
                yield name, None, node.value if single else None
    elif isinstance(node, ast.AnnAssign):
        for name in _target_names(node.target, receiver):
            yield name, node.annotation, node.value
    elif isinstance(node, _TYPE_ALIAS) and receiver is None:
        alias_name = getattr(node, "name", None)
        if isinstance(alias_name, ast.Name):
            yield alias_name.id, None, getattr(node, "value", None)


def _target_names(target: ast.expr, receiver: str | None) -> Iterator[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _target_names(element, receiver)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value, receiver)
    elif receiver is None and isinstance(target, ast.Name):
        yield target.id
    elif (
        receiver is not None
        and isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == receiver
    ):
        yield target.attr


def _instance_attributes(
    init: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None, source: SourceText
) -> list[Attribute]:
    """What `__init__` sets on its first parameter, first binding first."""
    parameters = [*init.args.posonlyargs, *init.args.args]
    if owner is None or not parameters:
        return []
    receiver = parameters[0].arg
    found = _Scope()
    for node, following in _with_next(init.body):
        for name, annotation, value in assignment_bindings(node, receiver):
            _add(found, name, node, annotation, value, following, owner, "instance", source)
    return list(found.found.values())


def _add(
    scope: _Scope,
    name: str,
    node: ast.stmt,
    annotation: ast.expr | None,
    value: ast.expr | None,
    following: ast.stmt | None,
    owner: str | None,
    kind: AttributeScope,
    source: SourceText,
) -> None:
    if name in scope.found:
        return
    written = source.segment(value) if value is not None else None
    docstring = _docstring(node, following, source)
    scope.found[name] = Attribute(
        name=name,
        qualname=_join(owner, name),
        scope=kind,
        line=node.lineno,
        end_line=node.end_lineno or node.lineno,
        annotation=source.segment(annotation) if annotation is not None else None,
        value=written if written is not None and len(written) <= MAX_ATTRIBUTE_VALUE else None,
        docstring=docstring,
        parent=owner,
        has_value=value is not None or isinstance(node, ast.Assign),
        comment=None if docstring is not None else _comment_above(node.lineno, source),
    )


def _docstring(node: ast.stmt, following: ast.stmt | None, source: SourceText) -> str | None:
    """The string right after the binding, else its `#:` comments (before it or trailing)."""
    if (
        isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
        and isinstance(following.value.value, str)
    ):
        return inspect.cleandoc(following.value.value) or None
    above: list[str] = []
    number = node.lineno - 1
    while number > 0 and source.line(number).strip().startswith(_DOC_COMMENT):
        above.append(source.line(number).strip()[len(_DOC_COMMENT) :].strip())
        number -= 1
    if above:
        return "\n".join(reversed(above)) or None
    end_line, end = node.end_lineno, node.end_col_offset
    if end_line is not None and end is not None:
        trailing = source.after(end_line, end).strip()
        if trailing.startswith(_DOC_COMMENT):
            return trailing[len(_DOC_COMMENT) :].strip() or None
    return None


def _comment_above(line: int, source: SourceText) -> str | None:
    """The `#` lines right above a binding (no blank line between), without their `#`
    and without the pragmas among them."""
    rows: list[str] = []
    number = line - 1
    while number > 0 and (text := source.line(number).lstrip()).startswith("#"):
        if not _PRAGMA.match(text):
            rows.append(text[1:])
        number -= 1
    if not rows:
        return None
    rows.reverse()
    margin = min((len(r) - len(r.lstrip()) for r in rows if r.strip()), default=0)
    return "\n".join(r[margin:].rstrip() for r in rows).strip("\n") or None


def _join(owner: str | None, name: str) -> str:
    return f"{owner}.{name}" if owner else name
