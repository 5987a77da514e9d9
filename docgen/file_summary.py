"""What a build reads of every file that is not C-family, kept beside its facts.

The index and the digest of every page read little of most files: a file's kind,
tags and problems, a module's imports, a Markdown file's link targets.  An edit
decodes that summary for each unchanged file and the whole facts only of the
files whose pages it renders (see `docgen.file_table`); C-family files have
their own summaries, kept with their relations (`docgen.cfamily_relations`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from docgen.facts import Definition, Import, Problem, PythonFacts, ScannedFile, Tag
from docgen.scan.languages import is_cfamily
from docgen.serialize import dumps


@dataclass(frozen=True, slots=True)
class FileSummary:
    """The parts of a file's facts that every build reads, whichever pages it renders."""

    kind: str
    line_count: int
    tags: tuple[str, ...]  # the names of `page_tags`
    problems: tuple[Problem, ...]
    #: None when the file has no Python facts; aliases only where one binds a name other
    #: than the import's own (see `summary_import`)
    imports: tuple[Import, ...] | None
    suite: bool  # whether the analysis found a test suite in it
    links: tuple[str, ...]  # the targets of a Markdown file's links, in order
    #: the top-level classes and functions, (name, kind), the first of each name, in order
    top_level: tuple[tuple[str, str], ...] = ()
    exported: tuple[str, ...] | None = None  # the module's `__all__`


def page_tags(scanned: ScannedFile) -> tuple[Tag, ...]:
    """The file's tags, sorted by name; a Markdown file is documentation, never a test."""
    tags = {t.name: t for t in scanned.analysis.tags}
    if scanned.facts.kind == "markdown":
        tags.pop("test", None)
    return tuple(tags[name] for name in sorted(tags))


def top_level(python: PythonFacts) -> dict[str, str]:
    """What the top level of a module defines: name -> "class" or "function", the first
    definition of each name (later ones rebind it, and the first is the one listed)."""
    found: dict[str, str] = {}
    for d in python.definitions:
        if is_top_level(d):
            found.setdefault(d.name, d.kind)
    return found


def is_top_level(definition: Definition) -> bool:
    """Whether a definition is a module's own class or function (what it can export)."""
    return definition.parent is None and definition.kind in ("class", "function")


def summarize(scanned: ScannedFile) -> FileSummary:
    facts = scanned.facts
    python = facts.python
    return FileSummary(
        kind=facts.kind,
        line_count=facts.line_count,
        tags=tuple(t.name for t in page_tags(scanned)),
        problems=facts.problems,
        imports=tuple(map(summary_import, python.imports)) if python is not None else None,
        suite=scanned.analysis.suite is not None,
        links=tuple(link.target for link in facts.markdown.links) if facts.markdown else (),
        top_level=tuple(top_level(python).items()) if python is not None else (),
        exported=python.dunder_all if python is not None else None,
    )


def summary_import(imp: Import) -> Import:
    """The import with no aliases where each binds the name as written (`import a.b`
    binds `a`, `from m import x` binds `x`): nine imports in ten, whose aliases were a
    third of the bytes every build decodes (see `plain_binding`)."""
    if imp.is_from:
        plain = all(bound == name for (bound, _), name in zip(imp.aliases, imp.names, strict=False))
    else:
        plain = imp.aliases == plain_binding(imp)
    return replace(imp, aliases=()) if plain and imp.aliases else imp


def plain_binding(imp: Import) -> tuple[tuple[str, str], ...]:
    """What a plain import binds, (name, module), where a summary left its aliases out:
    `import a.b` binds `a`."""
    top = (imp.module or "").split(".", 1)[0]
    return ((top, top),)


def summary_text(scanned: ScannedFile) -> str:
    """What a file's row keeps of its summary: its JSON, "" for a C-family file (whose
    summary is kept with the C-family relations)."""
    if is_cfamily(scanned.facts.path):
        return ""
    return dumps(summarize(scanned))
