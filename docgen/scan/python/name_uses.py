"""Where a Python file's code uses, by its bare name, a name that a module-level import
binds (`from m import f` then `f(x)`, `class A(Base)`, `@wraps`): the uses that a
dotted chain (`m.f`, see `docgen.scan.python.refs`) does not show.

A name is a use of an import only where Python would read what an import bound: a
function, lambda or comprehension that binds the same name otherwise (a parameter, an
assignment, a loop target) shadows the module's import in its body and the scopes
inside it, unless it declares the name `global`; one that imports the name itself
binds it by that import; a class body's own names count in that body only.
Decorators, default values, annotations and a class's bases are read in the enclosing
scope, as Python reads them.  One walk of the tree (under half the cost of parsing it).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field

from docgen.model.facts import CodeRef
from docgen.model.python_names import dotted_name
from docgen.scan.python.ast_names import STATEMENT_BODIES
from docgen.scan.python.refs import CHILD_FIELDS

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (*_FUNCTIONS, ast.Lambda, ast.ClassDef, *_COMPREHENSIONS)
_IMPORTS = (ast.Import, ast.ImportFrom)
_BUILTINS = frozenset(dir(builtins))


class _FreeNames:
    """The names a module with a `from m import *` tracks: any but a builtin's, since
    which names the star binds is the tree's to tell."""

    def __contains__(self, name: object) -> bool:
        return name not in _BUILTINS


def _bound_by(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        return
    for alias in node.names:
        if alias.name != "*":
            yield alias.asname or alias.name.split(".")[0]


@dataclass
class _Scope:
    parent: _Scope | None
    is_class: bool = False
    bound: set[str] = field(default_factory=set)  # by anything but an import
    imports: set[str] = field(default_factory=set)  # by an import of its own
    declared: set[str] = field(default_factory=set)  # `global` and `nonlocal`
    star: bool = False  # the module's: a `from m import *` may bind what nothing else does
    first_base: str = ""  # a class body's: its first base as written, when a dotted name
    name: str = ""  # a class body's: the class's name
    members: frozenset[str] = frozenset()  # a class body's: the names its body binds
    #: a method's: its first parameter (`self`), through which it reads its class's names
    self_name: str = ""

    def reads_module(self, name: str) -> bool:
        """Whether `name` read here is the module's own binding: no function around it
        (nor this scope, a class body included) binds it otherwise."""
        scope, first = self, True
        while scope.parent is not None:
            if name in scope.declared:
                return True
            if (first or not scope.is_class) and (name in scope.bound or name in scope.imports):
                return False
            scope, first = scope.parent, False
        return True

    def reads_import(self, name: str) -> bool:
        """Whether `name` read here is what an import binds: the nearest scope that binds
        it (this one, or a function around it: a class's names are not seen inside its
        methods) binds it by imports only, or none does and the module's imports do (the
        module's own imports, inside `if`, `try` and `with` too, known once the walk is
        done)."""
        scope, first = self, True
        while scope.parent is not None:  # up to the module
            if name in scope.declared:
                break  # `global name`: the module's binding
            if first or not scope.is_class:
                if name in scope.bound:
                    return False
                if name in scope.imports:
                    return True
            scope, first = scope.parent, False
        while scope.parent is not None:
            scope = scope.parent
        return name in scope.imports or (scope.star and name not in scope.bound)


def name_uses(tree: ast.Module) -> tuple[CodeRef, ...]:
    """Each bare-name use of an import-bound name, by name and whether it is called,
    with its lines, sorted: the head of a dotted chain is not one (the chain is).  In a
    module with a `from m import *`, a name nothing in the module binds (nor a
    builtin's) is one too: the star's, if it binds it.  A method's `super().name` is a
    use of `name` of its class's first base, when an import binds the base's first
    name: named `Base.name` (the one kind of use whose name holds a dot); so is its
    `self.name` of a name its class's body does not bind nor any method sets through
    `self` (an instance's attribute)."""
    return module_uses(tree)[0]


def module_uses(tree: ast.Module) -> tuple[tuple[CodeRef, ...], tuple[CodeRef, ...]]:
    """`name_uses`, and each bare-name use of a class or function the module itself
    defines at its top level (`if`, `try` and `with` blocks included), read where its
    binding is the module's, and each `self.name` of a method of a top-level class
    whose body binds `name` (as `Class.name`): one walk for all."""
    statements = [node for node in _statements(tree.body) if isinstance(node, _IMPORTS)]
    star = any(alias.name == "*" for node in statements for alias in node.names)
    imported = frozenset(n for node in statements for n in _bound_by(node))
    own = frozenset(_module_definitions(tree.body))
    tracked: Container[str] = _FreeNames() if star else imported | own
    if not star and not imported and not own:
        return (), ()
    module = _Scope(None, star=star)
    loads: list[tuple[ast.Name, _Scope]] = []
    supers: list[tuple[ast.Attribute, _Scope]] = []  # `super().name` in a method
    selfs: list[tuple[ast.Attribute, _Scope]] = []  # `self.name` in a method
    stored: set[tuple[int, str]] = set()  # (class scope, name) of each `self.name = ...`
    not_bare: set[int] = set()  # the heads of chains
    called: set[int] = set()
    stack: list[tuple[object, _Scope]] = [(node, module) for node in tree.body]
    pop, push = stack.pop, stack.append
    while stack:
        node, scope = pop()
        kind = type(node)
        if kind is ast.Name:
            assert isinstance(node, ast.Name)
            if node.id in tracked:
                if type(node.ctx) is ast.Load:
                    loads.append((node, scope))
                else:
                    scope.bound.add(node.id)
            continue
        if kind is ast.Attribute:
            assert isinstance(node, ast.Attribute)
            if type(node.value) is ast.Name:
                not_bare.add(id(node.value))
                method = _method_of(scope, node.value.id)
                if method is not None and method.parent is not None:
                    if type(node.ctx) is ast.Load:
                        selfs.append((node, method))
                    else:
                        stored.add((id(method.parent), node.attr))
            elif _is_super(node.value):
                supers.append((node, scope))
        elif kind is ast.Call:
            assert isinstance(node, ast.Call)
            called.add(id(node.func))
        elif isinstance(node, _SCOPES):
            _enter(node, scope, tracked, push)
            continue
        elif kind is ast.Import or kind is ast.ImportFrom:
            assert isinstance(node, _IMPORTS)
            scope.imports.update(_bound_by(node))
            continue
        elif kind is ast.Global or kind is ast.Nonlocal:
            assert isinstance(node, (ast.Global, ast.Nonlocal))
            scope.declared.update(node.names)
            continue
        elif kind is ast.ExceptHandler or kind is ast.MatchAs or kind is ast.MatchStar:
            name = getattr(node, "name", None)
            if isinstance(name, str) and name in tracked:
                scope.bound.add(name)
        for child_field in CHILD_FIELDS.get(kind, ()):
            value = getattr(node, child_field, None)
            if type(value) is list:
                for item in value:
                    push((item, scope))
            elif value is not None:
                push((value, scope))
    lines: dict[tuple[str, bool], set[int]] = {}
    own_lines: dict[tuple[str, bool], set[int]] = {}
    for name, scope in loads:
        if id(name) in not_bare:
            continue
        key = (name.id, id(name) in called)
        if (name.id in imported or star) and scope.reads_import(name.id):
            lines.setdefault(key, set()).add(name.lineno)
        elif name.id in own and scope.reads_module(name.id):
            own_lines.setdefault(key, set()).add(name.lineno)
    based: dict[tuple[str, bool, str], set[int]] = {}  # read through a base, as written
    for attribute, scope in supers:  # read through the class's first base
        _read_through_base(attribute, scope.parent, imported, star, called, based)
    for attribute, method in selfs:  # the class's own name, else its first base's
        owner = method.parent
        assert owner is not None
        if (id(owner), attribute.attr) in stored:
            continue  # an instance's attribute, set through `self`
        if attribute.attr in owner.members:
            if owner.parent is not None and owner.parent.parent is None:  # a top-level class
                key = (f"{owner.name}.{attribute.attr}", id(attribute) in called)
                own_lines.setdefault(key, set()).add(attribute.lineno)
        else:
            _read_through_base(attribute, owner, imported, star, called, based)
    through = tuple(
        CodeRef(name, tuple(sorted(found)), call, written=written)
        for (name, call, written), found in sorted(based.items())
    )
    return tuple(sorted((*_refs(lines), *through), key=_ref_order)), _refs(own_lines)


def _ref_order(ref: CodeRef) -> tuple[str, bool, str]:
    return ref.name, ref.call, ref.written


def _method_of(scope: _Scope, name: str) -> _Scope | None:
    """The method whose first parameter `name` read in `scope` is (a function inside it
    reads the method's), None when none is or another scope binds the name."""
    while scope.parent is not None:
        if scope.self_name:
            return scope if scope.self_name == name else None
        if scope.is_class:
            return None
        scope = scope.parent
    return None


def _read_through_base(
    attribute: ast.Attribute,
    owner: _Scope | None,
    imported: Container[str],
    star: bool,
    called: set[int],
    based: dict[tuple[str, bool, str], set[int]],
) -> None:
    """`name` read through a class's first base (`super().name`, `self.name` the class
    does not bind): a use of `Base.name` when an import binds the base's first name,
    kept with how the code writes it (`super().name`, `self.name`)."""
    if owner is None or not owner.is_class or not owner.first_base or owner.parent is None:
        return
    head = owner.first_base.partition(".")[0]
    if (head in imported or star) and owner.parent.reads_import(head):
        value = attribute.value
        through = value.id if isinstance(value, ast.Name) else "super()"
        written = f"{through}.{attribute.attr}"
        key = (f"{owner.first_base}.{attribute.attr}", id(attribute) in called, written)
        based.setdefault(key, set()).add(attribute.lineno)


def _is_super(node: ast.expr) -> bool:
    """`super()`, or `super(Class, self)`."""
    return (
        type(node) is ast.Call
        and type(node.func) is ast.Name
        and node.func.id == "super"
        and len(node.args) in (0, 2)
    )


def _refs(lines: dict[tuple[str, bool], set[int]]) -> tuple[CodeRef, ...]:
    return tuple(
        CodeRef(name, tuple(sorted(found)), call) for (name, call), found in sorted(lines.items())
    )


def _module_definitions(body: Iterable[ast.stmt]) -> Iterator[str]:
    """The names of the classes and functions a module's top level defines, in its
    `if`, `try`, `with` and loop blocks too (not inside the definitions)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            yield node.name
            continue
        for name in STATEMENT_BODIES.get(type(node), ()):
            stack.extend(getattr(node, name))


def _enter(
    node: ast.AST,
    scope: _Scope,
    imported: Container[str],
    push: Callable[[tuple[object, _Scope]], None],
) -> None:
    """A scope's parts read where it stands, pushed with that scope, and its own with a
    scope of its own (its name bound where it stands; its parameters in it)."""
    inner = _Scope(scope, is_class=isinstance(node, ast.ClassDef))
    if isinstance(node, ast.ClassDef):
        inner.first_base = (dotted_name(node.bases[0]) or "") if node.bases else ""
        inner.name, inner.members = node.name, frozenset(_class_members(node.body))
    elif isinstance(node, _FUNCTIONS) and scope.is_class:
        leading = [*node.args.posonlyargs, *node.args.args][:1]
        static = any(dotted_name(d) == "staticmethod" for d in node.decorator_list)
        inner.self_name = leading[0].arg if leading and not static else ""
    outer: list[object]
    own: list[object]
    if isinstance(node, (*_FUNCTIONS, ast.ClassDef)) and node.name in imported:
        scope.bound.add(node.name)
    if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
        args = node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        inner.bound.update(a.arg for a in every if a is not None and a.arg in imported)
        outer = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
        outer += [a.annotation for a in every if a is not None and a.annotation is not None]
        if isinstance(node, ast.Lambda):
            own = [node.body]
        else:
            outer += node.decorator_list
            outer += [node.returns] if node.returns is not None else []
            own = list(node.body)
    elif isinstance(node, ast.ClassDef):
        outer = [*node.decorator_list, *node.bases, *node.keywords]
        own = list(node.body)
    else:
        assert isinstance(node, _COMPREHENSIONS)
        first, *rest = node.generators
        outer = [first.iter]  # the first iterable is read outside, as Python does
        own = [first.target, *first.ifs]
        for generator in rest:
            own += [generator.target, generator.iter, *generator.ifs]
        own += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    for child in outer:
        push((child, scope))
    for child in own:
        push((child, inner))


def _class_members(body: Iterable[ast.stmt]) -> Iterator[str]:
    """The names a class body binds: its methods, classes and attributes."""
    for node in body:
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            yield from (t.id for t in targets if isinstance(t, ast.Name))


def _statements(body: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every statement, in functions and classes too (an import is one)."""
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        for name in STATEMENT_BODIES.get(type(node), ()):
            stack.extend(getattr(node, name))
