"""What a build reads of every file that is not C-family, kept beside its facts.

The index and the digest of every page read little of most files: a file's kind,
tags and problems, a module's imports, a Markdown file's link targets.  An edit
decodes that summary for each unchanged file and the whole facts only of the
files whose pages it renders (see `docgen.index.file_table`); C-family files have
their own summaries, kept with their relations (`docgen.index.cfamily_relations`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, replace
from typing import overload

from docgen.discover.readfile import hash_source
from docgen.model.construct import maker
from docgen.model.facts import Definition, Import, Problem, PythonFacts, ScannedFile, Tag
from docgen.model.languages import is_cfamily
from docgen.model.serialize import dumps, loads
from docgen.state.codec import FileCodec


@dataclass(frozen=True, slots=True)
class FileSummary:
    """The parts of a file's facts that every build reads, whichever pages it renders."""

    kind: str
    line_count: int
    tags: tuple[str, ...]  # the names of `page_tags`
    problems: tuple[Problem, ...]
    #: None when the file has no Python facts; aliases only where one binds a name other
    #: than the import's own (see `summary_import`); as read from a row, decoded when
    #: first read (see `LazyImports`)
    imports: Sequence[Import] | None
    suite: bool  # whether the analysis found a test suite in it
    links: tuple[str, ...]  # the targets of a Markdown file's links, in order
    #: the top-level classes and functions, (name, kind), the first of each name, in order
    top_level: tuple[tuple[str, str], ...] = ()
    exported: tuple[str, ...] | None = None  # the module's `__all__`
    #: each top-level class's and function's (name, first line, last line), by line
    spans: tuple[tuple[str, int, int], ...] = ()
    import_lines: tuple[int, ...] = ()  # the lines of its import statements, sorted


@dataclass(frozen=True, slots=True)
class StoredSummary:
    """A summary as its row keeps it, its imports apart (see `summary_text`)."""

    kind: str
    line_count: int
    tags: tuple[str, ...]
    problems: tuple[Problem, ...]
    suite: bool
    links: tuple[str, ...]
    top_level: tuple[tuple[str, str], ...] = ()
    exported: tuple[str, ...] | None = None
    spans: tuple[tuple[str, int, int], ...] = ()
    import_lines: tuple[int, ...] = ()


class LazyImports(Sequence[Import]):
    """A summary's imports, decoded when first read.  Decoding every unchanged file's
    imports was most of reading the summaries, and an edit reads those of the few files
    whose pages it renders or whose imports it resolves anew (see `docgen.index.import_rows`)."""

    __slots__ = ("_items", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._items: tuple[Import, ...] | None = None

    def decoded(self) -> tuple[Import, ...]:
        if self._items is None:
            try:
                self._items = loads(tuple[Import, ...], self._text)
            except (ValueError, TypeError, KeyError) as exc:
                # the state's own damage (`docgen.state.StateDamaged`): the build starts afresh
                raise sqlite3.DatabaseError("a file's stored imports cannot be read") from exc
        return self._items

    @overload
    def __getitem__(self, index: int) -> Import: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Import]: ...

    def __getitem__(self, index: int | slice) -> Import | Sequence[Import]:
        return self.decoded()[index]

    def __len__(self) -> int:
        return len(self.decoded())

    def __iter__(self) -> Iterator[Import]:
        return iter(self.decoded())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyImports):
            return self.decoded() == other.decoded()
        if isinstance(other, tuple):
            return self.decoded() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.decoded())

    def __repr__(self) -> str:
        return repr(self.decoded())


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
        spans=top_level_spans(python) if python is not None else (),
        import_lines=tuple(sorted({i.line for i in python.imports})) if python is not None else (),
    )


def top_level_spans(python: PythonFacts) -> tuple[tuple[str, int, int], ...]:
    """Each top-level class's and function's (name, first line, last line), by line:
    which of them a line of the file is inside (see `docgen.index.affected`)."""
    spans = {(d.name, d.line, d.end_line) for d in python.definitions if is_top_level(d)}
    return tuple(sorted(spans, key=lambda span: (span[1], span[0])))


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
    """What a file's row keeps of its summary: the JSON of its `StoredSummary` and, on the
    next line, of its imports (JSON writes no line break inside a value); "" for a
    C-family file (whose summary is kept with the C-family relations)."""
    if is_cfamily(scanned.facts.path):
        return ""
    s = summarize(scanned)
    head = StoredSummary(*(getattr(s, name) for name in _STORED))
    return f"{dumps(head)}\n{dumps(s.imports)}"


def read_summary(text: str) -> FileSummary:
    """A summary from its row's text (see `summary_text`), its imports decoded when first
    read; ValueError (or TypeError, KeyError) when the text is not one."""
    head, sep, tail = text.partition("\n")
    if not sep:
        raise ValueError("a summary without its imports")
    s = loads(StoredSummary, head)
    imports: Sequence[Import] | None = (
        None if tail == "null" else () if tail == "[]" else LazyImports(tail)
    )
    make = maker(FileSummary)
    parts = (imports if name == "imports" else getattr(s, name) for name in _SUMMARY)
    return make(*parts)  # type: ignore[no-any-return]


#: the fields of a summary and of its row's head, in order (the head has all but `imports`)
_SUMMARY = tuple(f.name for f in fields(FileSummary))
_STORED = tuple(f.name for f in fields(StoredSummary))

#: How the state keeps each file beside its facts: its summary, and its bytes' digest.
FILES = FileCodec(summary_text, read_summary, hash_source)
