"""Code references of one Python file, from its `ast` tree: dotted names and what is
called, short string arguments, calls under the `__main__` guard, and the security,
cost and idiom findings (see python_security and python_idioms)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from docgen.model.facts import CodeRef, Finding, StringArg
from docgen.scan.python.ast_names import STATEMENT_BODIES
from docgen.scan.python.idioms import idiom_findings
from docgen.scan.python.security import security_findings

#: string arguments worth recording: identifiers, devices, paths, not prose
MAX_STRING_ARG = 64
_STRING_ARG = re.compile(r"[A-Za-z0-9_:./\-]+")


#: fields that never hold an expression: names, flags, operators, load/store contexts
_LEAF_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "name", "names", "module", "level", "asname"}
    | {"kind", "conversion", "is_async", "simple", "tag", "type_comment", "kwd_attrs", "rest"}
)


def _child_fields() -> Mapping[type, tuple[str, ...]]:
    table: dict[type, tuple[str, ...]] = {}
    for value in vars(ast).values():
        if isinstance(value, type) and issubclass(value, ast.AST) and value._fields:
            table[value] = tuple(f for f in value._fields if f not in _LEAF_FIELDS)
    table[ast.Constant] = ()
    return MappingProxyType(table)


#: ast node class -> the fields the code-reference walk descends into
CHILD_FIELDS = _child_fields()


@dataclass(frozen=True, slots=True)
class References:
    """What `references` finds in one tree."""

    code_refs: tuple[CodeRef, ...] = ()
    string_args: tuple[StringArg, ...] = ()
    main_guard_calls: tuple[CodeRef, ...] = ()
    findings: tuple[Finding, ...] = ()


def references(tree: ast.Module, package: str | None = None) -> References:
    """Dotted names, short string arguments and main-guard calls, from code only."""
    attributes, calls = _attributes_and_calls(tree)
    # The walk is pre-order, so an inner chain comes after its outer chain:
    # naming in reverse order finds every inner name already computed.
    names: dict[int, str] = {}
    for attribute in reversed(attributes):
        value = attribute.value
        if isinstance(value, ast.Attribute):
            base = names.get(id(value)) or _chain_name(value, names)
        elif isinstance(value, ast.Name):
            base = value.id
        else:
            base = ""
        names[id(attribute)] = f"{base}.{attribute.attr}"

    called = {id(call.func) for call in calls}
    typed = _annotation_attributes(tree)
    lines: dict[tuple[str, bool], set[int]] = {}
    in_code: dict[tuple[str, bool], set[int]] = {}  # the lines outside annotations
    for attribute in attributes:
        key = (names[id(attribute)], id(attribute) in called)
        line = attribute.end_lineno or attribute.lineno  # the attribute's own line
        found = lines.get(key)
        if found is None:
            lines[key] = {line}
        else:
            found.add(line)
        if typed and id(attribute) not in typed:
            in_code.setdefault(key, set()).add(line)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name):
            lines.setdefault((func.id, True), set()).add(func.lineno)

    return References(
        code_refs=_merged(lines, in_code if typed else None),
        string_args=_string_args(calls, names),
        main_guard_calls=_main_guard_calls(tree, names),
        findings=_findings(tree, calls, package),
    )


def _findings(
    tree: ast.Module, calls: Sequence[ast.Call], package: str | None = None
) -> tuple[Finding, ...]:
    """Security risks, costly patterns and idioms, each on its line (see python_security
    and python_idioms); sorted and without repeats."""
    found = {*security_findings(tree, calls), *idiom_findings(tree, calls, package)}
    return tuple(sorted(found, key=lambda f: (f.category, f.line, f.kind, f.subject, f.message)))


def _attributes_and_calls(tree: ast.AST) -> tuple[list[ast.Attribute], list[ast.Call]]:
    """Every Attribute and Call node, parents before children.

    What `ast.walk` finds, at under half its cost: no generators, and no visits to
    fields that cannot hold an expression.
    """
    attributes: list[ast.Attribute] = []
    calls: list[ast.Call] = []
    stack: list[object] = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    child_fields = CHILD_FIELDS
    while stack:
        node = pop()
        if isinstance(node, ast.Attribute):
            attributes.append(node)
        elif isinstance(node, ast.Call):
            calls.append(node)
        fields = child_fields.get(type(node))
        if fields is None:  # None in Dict.keys, or a node class this table does not know
            fields = getattr(node, "_fields", None) or ()
        for field in fields:
            value = getattr(node, field, None)
            if type(value) is list:
                extend(value)
            elif value is not None:
                push(value)
    return attributes, calls


def _chain_name(attribute: ast.Attribute, names: dict[int, str]) -> str:
    value = attribute.value
    if isinstance(value, ast.Attribute):
        base = names.get(id(value))
        if base is None:
            base = _chain_name(value, names)
    elif isinstance(value, ast.Name):
        base = value.id
    else:
        base = ""
    return f"{base}.{attribute.attr}"


def _ref_line(node: ast.expr) -> int:
    """The line of an attribute's name (a chain may span lines), else the start."""
    if isinstance(node, ast.Attribute):
        return node.end_lineno or node.lineno
    return node.lineno


def _callee(func: ast.expr, names: dict[int, str]) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return names.get(id(func))
    return None


def _merged(
    lines: dict[tuple[str, bool], set[int]],
    in_code: Mapping[tuple[str, bool], set[int]] | None = None,
) -> tuple[CodeRef, ...]:
    """One CodeRef per name and call; `in_code`, when given, the lines of each outside
    annotations (the others become its `annotation_lines`)."""
    empty: set[int] = set()
    return tuple(
        CodeRef(
            name,
            tuple(sorted(line_set)),
            call,
            tuple(sorted(line_set - in_code.get((name, call), empty)))
            if in_code is not None
            else (),
        )
        for (name, call), line_set in sorted(lines.items())
    )


_FUNCTION_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _annotation_attributes(tree: ast.Module) -> set[int]:
    """The ids of the Attribute nodes inside annotations (parameters, returns, `x: T`),
    found through the statements only."""
    roots: list[ast.expr] = []
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, _FUNCTION_DEFS):
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            roots.extend(a.annotation for a in every if a is not None and a.annotation)
            if node.returns is not None:
                roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
        for field in STATEMENT_BODIES.get(type(node), ()):
            stack.extend(getattr(node, field))
    return {id(n) for root in roots for n in ast.walk(root) if isinstance(n, ast.Attribute)}


def _string_args(calls: Iterable[ast.Call], names: dict[int, str]) -> tuple[StringArg, ...]:
    found: set[tuple[str, str, str, int]] = set()  # keyword "" sorts positional first
    for call in calls:
        callee = _callee(call.func, names)
        if callee is None:
            continue
        for arg in call.args:
            value = _short_string(arg)
            if value is not None:
                found.add((callee, "", value, arg.lineno))
        for keyword in call.keywords:
            value = _short_string(keyword.value)
            if value is not None and keyword.arg is not None:
                found.add((callee, keyword.arg, value, keyword.value.lineno))
    return tuple(
        StringArg(callee, keyword or None, value, line)
        for callee, keyword, value, line in sorted(found)
    )


def _short_string(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
        if len(value) <= MAX_STRING_ARG and _STRING_ARG.fullmatch(value):
            return value
    return None


def _main_guard_calls(tree: ast.Module, names: dict[int, str]) -> tuple[CodeRef, ...]:
    lines: dict[tuple[str, bool], set[int]] = {}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.If) and _is_main_test(stmt.test)):
            continue
        for inner in stmt.body:
            for call in _attributes_and_calls(inner)[1]:
                callee = _callee(call.func, names)
                if callee is not None:
                    lines.setdefault((callee, True), set()).add(_ref_line(call.func))
    return _merged(lines)


def _is_main_test(test: ast.expr) -> bool:
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = (test.left, test.comparators[0])
    has_name = any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides)
    has_main = any(isinstance(side, ast.Constant) and side.value == "__main__" for side in sides)
    return has_name and has_main
