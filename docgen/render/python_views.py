"""Docs page sections for a Python file, read straight from its facts.

Every statement these views make is something the scanner saw (a decorator, a
base, an import line) or the analyzer proved (a tag with evidence); nothing is
guessed from names alone, and a section with nothing to say is None.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence

from docgen.model.anchors import (
    AnchoredDefinition,
    definition_anchors,
    definition_heading_level,
)
from docgen.model.facts import Analysis, Definition, FileFacts, PythonFacts
from docgen.model.links import docs_page
from docgen.render.attached_views import AttachedDocView
from docgen.render.context import Linker
from docgen.render.counts import definition_counts
from docgen.render.docstring_markdown import Resolve
from docgen.render.docstring_views import docstring_view, example_sources, examples_of
from docgen.render.filters import shell_quote
from docgen.render.finding_views import PATTERN_TITLES, FindingGroup, FindingView, pattern_groups
from docgen.render.import_text import module_as_written
from docgen.render.native_views import NativeCallView
from docgen.render.stub_views import OperatorUseView
from docgen.render.suite_views import FileSuiteView
from docgen.render.view_refs import LinkView, UsesView
from docgen.render.views import (
    ArchitectureView,
    AttributeView,
    DefinitionView,
    HierarchyItem,
    MemberView,
    PatternsView,
    PythonOverview,
    UsageView,
)

DUNDER_ALL_SHOWN = 60  # names of `__all__` listed before "and N more"

_DATACLASS = {"dataclass", "dataclasses.dataclass"}
_ENUM_BASES = {
    name
    for bare in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum")
    for name in (bare, f"enum.{bare}")
}
_ABSTRACT_BASES = {
    "ABC",
    "abc.ABC",
    "Protocol",
    "typing.Protocol",
    "typing_extensions.Protocol",
}
_ABC_META = {"ABCMeta", "abc.ABCMeta"}
_ABSTRACT_METHOD = {"abstractmethod", "abc.abstractmethod"}
_PROPERTY = {"property", "cached_property", "functools.cached_property"}
_PROPERTY_ACCESSOR = (".setter", ".getter", ".deleter")
_CONTEXT_MANAGER = {
    "contextmanager",
    "contextlib.contextmanager",
    "asynccontextmanager",
    "contextlib.asynccontextmanager",
}
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_LINE_BREAK_INDENT = re.compile(r"\s*\n\s*")


_COMMA_BEFORE_CLOSE = re.compile(r",\s*\n\s*([)\]}])")
_AFTER_OPEN = re.compile(r"([(\[{])\s*\n\s*")
_BEFORE_CLOSE = re.compile(r"\s*\n\s*([)\]}])")


def one_line_code(text: str) -> str:
    """Code written over several lines, folded onto one as a formatter would print it.

    A line break after an opening bracket or before a closing one disappears,
    with the trailing comma a formatter adds there; any other line break and
    its indentation become one space.  Code already on one line is unchanged.
    """
    if "\n" not in text:
        return text
    text = _COMMA_BEFORE_CLOSE.sub(r"\1", text)
    text = _AFTER_OPEN.sub(r"\1", text)
    text = _BEFORE_CLOSE.sub(r"\1", text)
    return _LINE_BREAK_INDENT.sub(" ", text)


def declaration(definition: Definition) -> str:
    """`class Foo(Base)` or `async def bar(x) -> int`: the header as written, on one line."""
    if definition.kind == "class":
        bases = ", ".join(definition.bases)
        text = f"class {definition.name}" + (f"({bases})" if bases else "")
    else:
        prefix = "async def" if definition.is_async else "def"
        text = f"{prefix} {definition.name}{definition.signature or '()'}"
    return one_line_code(text)


def first_paragraph(docstring: str | None) -> str:
    """The docstring's first paragraph on one line ("" when there is none)."""
    if not docstring or not docstring.strip():
        return ""
    return " ".join(_PARAGRAPH_BREAK.split(docstring.strip(), maxsplit=1)[0].split())


def first_sentence(text: str) -> str:
    """Up to the first full stop followed by a space, whole (a listing's line for the
    file; its page shows the whole docstring)."""
    match = re.search(r"[.!?](\s|$)", text)
    return text[: match.start() + 1] if match else text


def _call_name(expression: str) -> str:
    """`dataclass(frozen=True)` -> `dataclass`: the decorator or base without its arguments."""
    return expression.split("(", 1)[0].split("[", 1)[0].strip()


def _is_keyword(base: str) -> bool:
    key, sep, _ = base.partition("=")
    return bool(sep) and key.strip().isidentifier()


def _positional_bases(definition: Definition) -> list[str]:
    return [b for b in definition.bases if not _is_keyword(b)]


def same_file_names(
    module: str,
    anchors: Mapping[str, str],
    linker: Linker,
    parent: str | None = None,
    elsewhere: Mapping[str, tuple[str, str]] | None = None,
) -> Resolve:
    r"""What links a docstring's role (`:func:\`name\``) to a definition of this file
    (`anchors`, see `definition_anchors`): by its qualified name, with or without the
    `module`'s name or `parent`'s (the class a method's docstring speaks from); else to
    where `elsewhere` says it leads in another file (see `docgen.render.role_links`);
    "" for a name defined nowhere in the tree, shown as code."""
    others = elsewhere or {}

    def resolve(target: str) -> str:
        candidates = [target]
        if module and target.startswith(module + "."):
            candidates.append(target[len(module) + 1 :])
        if parent:
            candidates.append(f"{parent}.{target}")
        for name in candidates:
            anchor = anchors.get(name)
            if anchor:
                return linker.here(anchor)
        found = others.get(target)
        if found is None:
            return ""
        path, anchor = found
        page = docs_page(path)
        if page == linker.page:
            return linker.here(anchor) if anchor else ""
        return linker.to_page(page, anchor)

    return resolve


def definition_views(
    path: str,
    facts: FileFacts,
    anchored: tuple[AnchoredDefinition, ...],
    linker: Linker,
    module: str = "",
    attributes: Mapping[tuple[str, int], tuple[AttributeView, ...]] | None = None,
    elsewhere: Mapping[str, tuple[str, str]] | None = None,
    operators: Mapping[str, tuple[OperatorUseView, ...]] | None = None,
    native: Mapping[str, tuple[NativeCallView, ...]] | None = None,
    attached: Mapping[str, tuple[AttachedDocView, ...]] | None = None,
    used: Mapping[str, UsesView] | None = None,
) -> tuple[DefinitionView, ...]:
    """Each definition's section (`module`: the file's module name, which a docstring's
    role may write before a name; `attributes`: each class's, see `attribute_views`;
    `elsewhere`: where its roles lead in other files; `operators`: the C++ operators
    a stub's names run, by qualified name, see `stub_views`; `native`: the names each
    definition reads that the tree makes in C++, see `native_views`; `attached`: the
    docstrings other files attach to a definition, by its anchor, see `attached_views`;
    `used`: where other files use each, by qualified name, see `use_views`; None when
    not looked for)."""
    anchors = definition_anchors(anchored)
    resolvers: dict[str | None, Resolve] = {}
    members: dict[str, list[MemberView]] = defaultdict(list)
    for item in anchored:
        d = item.definition
        if d.kind == "method" and d.parent is not None:
            members[d.parent].append(MemberView(d.name, declaration(d), linker.here(item.anchor)))
    views = []
    for item in anchored:
        d = item.definition
        parent = None
        if d.parent is not None:
            parent_anchor = anchors.get(d.parent)
            parent = LinkView(d.parent, linker.here(parent_anchor) if parent_anchor else "")
        views.append(
            DefinitionView(
                kind=d.kind,
                name=d.name,
                qualname=d.qualname,
                anchor=item.anchor,
                heading_level=definition_heading_level(d),
                line=linker.line(path, d.line, facts.line_count),
                end_line=d.end_line,
                declaration=declaration(d),
                signature=d.signature,
                is_async=d.is_async,
                decorators=tuple(one_line_code(x) for x in d.decorators),
                bases=tuple(one_line_code(x) for x in d.bases),
                parent=parent,
                methods=tuple(members.get(d.qualname, ())) if d.kind == "class" else (),
                attributes=(attributes or {}).get((d.qualname, d.line), ())
                if d.kind == "class"
                else (),
                docstring=docstring_view(
                    d.docstring, _resolver(resolvers, module, anchors, linker, d, elsewhere)
                ),
                operators=(operators or {}).get(d.qualname, ()),
                native_calls=(native or {}).get(d.qualname, ()),
                attached_docs=(attached or {}).get(item.anchor, ()),
                used=used.get(d.qualname) if used is not None else None,
            )
        )
    return tuple(views)


def _resolver(
    made: dict[str | None, Resolve],
    module: str,
    anchors: Mapping[str, str],
    linker: Linker,
    definition: Definition,
    elsewhere: Mapping[str, tuple[str, str]] | None = None,
) -> Resolve:
    """The `same_file_names` of a definition's docstring, one per class it speaks from."""
    parent = definition.qualname if definition.kind == "class" else definition.parent
    found = made.get(parent)
    if found is None:
        found = made[parent] = same_file_names(module, anchors, linker, parent, elsewhere)
    return found


def python_overview(
    python: PythonFacts,
    tags: tuple[str, ...],
    imported_by: int = 0,
    resolve: Resolve | None = None,
) -> PythonOverview:
    module = docstring_view(python.module_docstring, resolve) if resolve else None
    return PythonOverview(
        docstring=first_paragraph(python.module_docstring),
        docstring_view=module,
        counts=definition_counts(python.definitions),
        imports=len({module_as_written(i) for i in python.imports}),
        tags=tags,
        imported_by=imported_by,
    )


def architecture_view(
    anchored: tuple[AnchoredDefinition, ...], linker: Linker
) -> ArchitectureView | None:
    """The class hierarchy, only when a class has bases (where each definition sits is
    under Detailed Analysis)."""
    anchors = definition_anchors(anchored)
    by_name: dict[str, str] = {}
    for item in anchored:
        if item.definition.kind == "class":
            by_name.setdefault(item.definition.name, item.definition.qualname)
            by_name.setdefault(item.definition.qualname, item.definition.qualname)
    classes = [a for a in anchored if a.definition.kind == "class"]
    hierarchy: tuple[HierarchyItem, ...] = ()
    if any(a.definition.bases for a in classes):
        hierarchy = tuple(
            HierarchyItem(
                qualname=a.definition.qualname,
                href=linker.here(a.anchor),
                bases=a.definition.bases,
                local_bases=tuple(
                    LinkView(by_name[b], linker.here(anchors[by_name[b]]))
                    for b in _positional_bases(a.definition)
                    if b in by_name and by_name[b] != a.definition.qualname
                ),
            )
            for a in classes
        )
    if not hierarchy:
        return None
    return ArchitectureView(hierarchy)


def _decorator_names(definition: Definition) -> set[str]:
    return {_call_name(d) for d in definition.decorators}


def patterns_view(
    path: str,
    facts: FileFacts,
    anchored: tuple[AnchoredDefinition, ...],
    linker: Linker,
    source_lines: Sequence[str] | None,
) -> PatternsView | None:
    """The idioms the scanner found in the code (resolved through the file's imports),
    plus properties, which the definitions show by their decorators."""
    python = facts.python
    if python is None:
        return None
    anchors = definition_anchors(anchored)
    groups = [
        g for g in pattern_groups(facts, linker, source_lines, anchors) if g.kind != "dunder-all"
    ]
    properties = tuple(
        FindingView(
            line=linker.line(path, a.definition.line, facts.line_count),
            code="",
            message="",
            subject=a.definition.qualname,
            href=linker.here(a.anchor),
        )
        for a in anchored
        if a.definition.kind != "class"
        and (
            _decorator_names(a.definition) & _PROPERTY
            or any(x.endswith(_PROPERTY_ACCESSOR) for x in _decorator_names(a.definition))
        )
    )
    if properties:
        groups.append(FindingGroup("property", "Properties", properties))
    order = {kind: i for i, (kind, _) in enumerate(PATTERN_TITLES)}
    groups.sort(key=lambda g: (order.get(g.kind, len(order)), g.kind))
    exported = python.dunder_all
    all_lines = [f.line for f in python.findings if f.kind == "dunder-all"]
    if not groups and exported is None:
        return None
    return PatternsView(
        groups=tuple(groups),
        dunder_all=None if exported is None else exported[:DUNDER_ALL_SHOWN],
        dunder_all_total=0 if exported is None else len(exported),
        dunder_all_line=linker.line(path, all_lines[0], facts.line_count) if all_lines else None,
    )


def usage_view(
    path: str,
    facts: FileFacts,
    analysis: Analysis,
    anchored: tuple[AnchoredDefinition, ...],
    linker: Linker,
    tested_by: tuple[str, ...],
    suite: FileSuiteView | None,
) -> UsageView | None:
    """How to run a test file and what it collects; for a module, the tests that exercise
    it and the examples its docstrings give.  None for files that are not Python or
    could not be parsed."""
    python = facts.python
    if facts.kind != "python" or python is None or not facts.parsed:
        return None
    test_tags = [t for t in analysis.tags if t.name == "test"]
    if not test_tags and suite is None:
        examples = examples_of(
            python.module_docstring, ((a.definition, linker.here(a.anchor)) for a in anchored)
        )
        return UsageView(
            commands=(),
            suite=None,
            is_test=False,
            tested_by=tuple(linker.page_link(p, docs_page(p)) for p in tested_by),
            examples=example_sources(examples),
        )
    return UsageView(run_commands(path, analysis), suite)


def run_commands(path: str, analysis: Analysis) -> tuple[str, ...]:
    """pytest, and `python path` when the file's `__main__` guard runs its tests."""
    quoted = shell_quote(path)
    runs_itself = analysis.suite is not None and analysis.suite.runs_itself
    return (f"pytest {quoted}", f"python {quoted}") if runs_itself else (f"pytest {quoted}",)
