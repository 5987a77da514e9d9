"""View-models of the docs page of a C, C++ or CUDA file: definitions, registrations
and kernel launches (its includes are in `include_views`, its keyword page's groups
in `cfamily_kw_views`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from docgen.index.cfamily_keyed import Includes
from docgen.index.symbols import specialization_arguments, written_owner_arguments
from docgen.model.anchors import AnchoredCDefinition
from docgen.model.binding_names import UNNAMED_KINDS, binds_lambda, bound_qualname
from docgen.model.cfamily_facts import CDefinition
from docgen.model.facts import FileFacts
from docgen.model.kinds import CALLABLE_KINDS
from docgen.model.links import docs_page
from docgen.render.context import Linker
from docgen.render.lookup import RepoLookup
from docgen.render.native_views import NativeCallerView
from docgen.render.operator_links import KernelUse
from docgen.render.view_refs import LineRef, LinkView, UsesView
from docgen.scan.cfamily.reader_macros import gtest_body_scope

#: kind -> (singular, plural) in the overview's counts, in this order
KIND_WORDS: dict[str, tuple[str, str]] = {
    "namespace": ("namespace", "namespaces"),
    "class": ("class", "classes"),
    "struct": ("struct", "structs"),
    "union": ("union", "unions"),
    "enum": ("enum", "enums"),
    "function": ("function", "functions"),
    "kernel": ("CUDA kernel", "CUDA kernels"),
    "method": ("method", "methods"),
    "constructor": ("constructor", "constructors"),
    "destructor": ("destructor", "destructors"),
    "operator": ("operator", "operators"),
    "field": ("field", "fields"),
    "enumerator": ("enumerator", "enumerators"),
    "flag": ("command-line flag", "command-line flags"),
    "typedef": ("typedef", "typedefs"),
    "alias": ("type alias", "type aliases"),
    "macro": ("macro", "macros"),
}


@dataclass(frozen=True)
class CountView:
    """A count with its word, so templates never build plurals."""

    count: int
    word: str


@dataclass(frozen=True)
class CFamilyOverview:
    """The opening sentences of a C-family page: what the file holds, and how its
    includes meet the rest of the repository."""

    dialect: str
    counts: tuple[CountView, ...]  # definitions by kind, declarations included
    declarations: int  # of those, declarations without a body
    includes: int  # include lines
    resolved: int  # of those, naming a file of this repository
    included_by: int
    registrations: int
    launches: int
    bindings: int  # Python names bound with pybind11
    errors: tuple[LineRef, ...]
    tags: tuple[str, ...]


@dataclass(frozen=True)
class CDefinitionView:
    """One C-family definition's heading and declaration as written."""

    kind: str
    name: str
    qualname: str
    anchor: str
    heading_level: int
    line: LineRef
    end_line: int
    declaration: str
    written_as: str  # the macro use that writes the declaration, "" for one written out
    value: str  # a macro's replacement text, an enumerator's value, a flag's default
    is_definition: bool
    template: str
    bases: tuple[str, ...]
    attributes: tuple[str, ...]
    doc: str
    parent: LinkView | None  # the class of this file it belongs to
    counterparts: tuple[LinkView, ...]  # where it is defined (or declared), other places
    file_local: bool
    local_to: LinkView | None  # the function it is defined in (a class in a function body)
    local_to_test: str = ""  # the googletest case it is defined in ("Suite.Name"), if any
    #: the operators whose dispatch lines name it as their kernel, with those lines' keys
    kernel_of: tuple[tuple[LinkView, tuple[str, ...]], ...] = ()
    #: how many overloads of its name one file declares (a dispatch line names a
    #: kernel, not which overload)
    kernel_shared: int = 0
    used: UsesView | None = None  # where other files use it, for its first section


@dataclass(frozen=True)
class LaunchView:
    """One `<<<...>>>` kernel launch, linked to the kernel when this file defines it."""

    kernel: str
    line: LineRef
    config: str
    href: str  # the kernel's heading on this page, "" when defined elsewhere
    through: str = ""  # the local variable or pointer launched, set to `kernel`
    in_macro: str = ""  # the macro whose `#define` holds the launch


@dataclass(frozen=True)
class BindingView:
    """One Python name a pybind11 call binds, with the C++ it binds: linked to its
    heading when this file defines that C++."""

    kind: str  # the call (`def`, `def_readwrite`, ...), or `class`, `enum`, `module`
    python_name: str  # `Owner.name` for a member of a bound class
    target: str  # the C++ as written, "" for a lambda
    href: str  # the target's heading on this page, "" when defined elsewhere
    line: LineRef
    callers: tuple[NativeCallerView, ...] = ()  # the Python that reads the name
    modules: tuple[str, ...] = ()  # a module block's: what the build scripts compile it into
    lambda_bound: bool = False  # a callable bound with no C++ name: a lambda


def overview(
    facts: FileFacts, graph: Includes, tags: tuple[str, ...], linker: Linker
) -> CFamilyOverview:
    c = facts.cfamily
    assert c is not None
    kinds: Counter[str] = Counter(d.kind for d in c.definitions)
    counts = tuple(
        CountView(kinds[kind], words[0] if kinds[kind] == 1 else words[1])
        for kind, words in KIND_WORDS.items()
        if kinds[kind]
    )
    resolved = graph.includes.get(facts.path, ())
    return CFamilyOverview(
        dialect=c.dialect,
        counts=counts,
        declarations=sum(1 for d in c.definitions if not d.is_definition),
        includes=len(c.includes),
        resolved=sum(1 for r in resolved if r.path),
        included_by=len(graph.included_by.get(facts.path, ())),
        registrations=len(c.registrations),
        launches=len(c.launches),
        bindings=sum(1 for b in c.bindings if b.kind not in UNNAMED_KINDS),
        errors=tuple(linker.line(facts.path, n, facts.line_count) for n in c.error_lines),
        tags=tags,
    )


#: the kinds whose definitions hold members
_OWNERS = frozenset({"class", "struct", "union", "enum"})


def _parents(items: tuple[AnchoredCDefinition, ...]) -> dict[str, list[AnchoredCDefinition]]:
    """Classes (and enums, whose enumerators they hold) of this file by qualified name,
    for "Member of" links: a template and its specializations share one."""
    found: dict[str, list[AnchoredCDefinition]] = {}
    for item in items:
        if item.definition.kind in _OWNERS and item.definition.is_definition:
            found.setdefault(item.definition.qualname, []).append(item)
    return found


def _owner(
    d: CDefinition, parents: dict[str, list[AnchoredCDefinition]]
) -> AnchoredCDefinition | None:
    """The class a member belongs to: the definition of that name whose body holds it
    (`TypedOperatorHandle<Return(Args...)>`'s members are the specialization's, not
    the primary template's), else the first (a member defined out of line)."""
    if "::" not in d.qualname:
        return None
    owner = d.qualname.rpartition("::")[0]
    candidates = parents.get(owner)
    if not candidates:
        return None
    for item in candidates:
        if item.definition.line <= d.line <= item.definition.end_line:
            return item
    # out of line: the specialization its name is written with (`V<float>::isnan`), else
    # the primary template
    written = written_owner_arguments(d, owner.rpartition("::")[2])
    by_arguments = {specialization_arguments(i.definition): i for i in reversed(candidates)}
    return by_arguments.get(written) or by_arguments.get("") or candidates[0]


def definition_views(
    facts: FileFacts,
    items: tuple[AnchoredCDefinition, ...],
    linker: Linker,
    lookup: RepoLookup,
    kernels: Mapping[str, tuple[KernelUse, ...]] | None = None,
    used: Mapping[str, UsesView] | None = None,
) -> tuple[CDefinitionView, ...]:
    """Each definition's section; `kernels`: the operator dispatch lines that name a
    kernel of the file (see `operator_links`); `used`: where other files use each
    qualified name, shown on its first section."""
    parents = _parents(items)
    shown_uses: set[str] = set()
    callables = {i.definition.qualname: i for i in items if i.definition.kind in CALLABLE_KINDS}
    tests = _test_scopes(facts)
    views = []
    for item in items:
        d = item.definition
        local_to = _enclosing_function(d, callables) if d.file_local else None
        owner = _owner(d, parents)
        parent = (
            LinkView(owner.definition.qualname, linker.here(owner.anchor))
            if owner is not None and owner is not item
            else None
        )
        counterparts = tuple(
            LinkView(
                f"{s.path}:{s.line}",
                linker.to_page(docs_page(s.path), lookup.c_anchor(s.path, s.line, s.qualname)),
            )
            for s in lookup.index.symbols.counterparts(facts.path, d)
        )
        views.append(
            CDefinitionView(
                kind=d.kind,
                name=d.name,
                qualname=d.qualname,
                anchor=item.anchor,
                heading_level=4 if parent is not None else 3,
                line=linker.line(facts.path, d.line, facts.line_count),
                end_line=d.end_line,
                declaration=d.declaration,
                written_as=d.written_as,
                value=d.value,
                is_definition=d.is_definition,
                template=d.template,
                bases=d.bases,
                attributes=d.attributes,
                doc=d.doc or "",
                parent=parent,
                counterparts=counterparts,
                file_local=d.file_local,
                local_to=(
                    LinkView(local_to.definition.qualname, linker.here(local_to.anchor))
                    if local_to is not None
                    else None
                ),
                local_to_test=_enclosing_test(d, tests) if d.file_local else "",
                kernel_of=tuple(
                    (LinkView(u.operator, linker.to_page(docs_page(u.path), u.anchor)), u.keys)
                    for u in (kernels or {}).get(d.qualname, ())
                ),
                kernel_shared=max(
                    (u.shared for u in (kernels or {}).get(d.qualname, ())), default=0
                ),
                used=_first_uses(d.qualname, used, shown_uses),
            )
        )
    return tuple(views)


def _first_uses(
    qualname: str, used: Mapping[str, UsesView] | None, shown: set[str]
) -> UsesView | None:
    """A qualified name's uses on the first of its sections (its overloads share them)."""
    if used is None or qualname in shown or qualname not in used:
        return None
    shown.add(qualname)
    return used[qualname]


def _test_scopes(facts: FileFacts) -> dict[str, str]:
    """`Suite_Name_Test::TestBody` (the scope the scanner gives what a test's body
    defines, see `gtest_body_scope`) -> "Suite.Name", for this file's test cases."""
    c = facts.cfamily
    found: dict[str, str] = {}
    for case in c.test_cases if c is not None else ():
        for macro in ("TEST", "TYPED_TEST"):  # the two ways googletest names a body
            scope = gtest_body_scope(macro, case.name.split(".", 1))
            if scope is not None:
                found["::".join(scope)] = case.name
    return found


def _enclosing_test(d: CDefinition, tests: dict[str, str]) -> str:
    """The test case whose body defines `d` ("" if none)."""
    parts = d.qualname.split("::")
    for i in (i for i, part in enumerate(parts[:-1]) if part == "TestBody"):
        for start in range(max(0, i - 2), i):
            if found := tests.get("::".join(parts[start : i + 1])):
                return found
    return ""


def _enclosing_function(
    d: CDefinition, callables: dict[str, AnchoredCDefinition]
) -> AnchoredCDefinition | None:
    """The function of this file whose body holds `d` (its scope's nearest callable whose
    lines hold `d`'s), for a class defined in a function and the members of that class."""
    scope = d.qualname
    while "::" in scope:
        scope = scope.rpartition("::")[0]
        found = callables.get(scope)
        if found is not None and found.definition.line <= d.line <= found.definition.end_line:
            return found
    return None


def launch_views(
    facts: FileFacts, items: tuple[AnchoredCDefinition, ...], linker: Linker
) -> tuple[LaunchView, ...]:
    c = facts.cfamily
    assert c is not None
    kernels = {i.definition.name: i.anchor for i in items if i.definition.kind == "kernel"}
    return tuple(
        LaunchView(
            k.kernel,
            linker.line(facts.path, k.line, facts.line_count),
            k.config,
            linker.here(kernels[k.kernel]) if k.kernel in kernels else "",
            k.through,
            k.in_macro,
        )
        for k in c.launches
    )


def binding_views(
    facts: FileFacts,
    linker: Linker,
    callers: Mapping[int, tuple[NativeCallerView, ...]] | None = None,
    modules: tuple[str, ...] = (),
    targets: Mapping[tuple[int, str], tuple[tuple[str, str], ...]] | None = None,
) -> tuple[BindingView, ...]:
    """The file's bindings, each target linked to the heading of the C++ it names
    (`targets`: where each is defined, see `docgen.index.native_calls.target_sites`);
    `callers`: the Python uses of each by its line; `modules`: what the file is
    compiled into."""
    c = facts.cfamily
    assert c is not None
    views = []
    for b in c.bindings:
        found = (targets or {}).get((b.line, b.target), ())
        href = ""
        if found:
            path, anchor = found[0]
            href = (
                linker.here(anchor)
                if path == facts.path
                else linker.to_page(docs_page(path), anchor)
            )
        module = b.kind == "module"
        views.append(
            BindingView(
                b.kind,
                b.name if module else bound_qualname(b),
                b.target,
                href,
                linker.line(facts.path, b.line, facts.line_count),
                () if module else (callers or {}).get(b.line, ()),
                modules if module else (),
                binds_lambda(b),
            )
        )
    return tuple(views)
