"""View-models of the two folder pages: `index.md` (what is here) and `doc.md` (what it is)."""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Iterable

from markdown_it import MarkdownIt

from docgen.facts import ScannedFile
from docgen.index import FolderEntry
from docgen.links import docs_page, folder_doc, folder_index, kw_page

from .anchors import anchored_definitions
from .context import Linker, ReadSource, RenderContext
from .keyword_views import KEYWORDS_PAGE
from .lookup import RepoLookup, page_tags
from .python_views import first_paragraph, first_sentence
from .views import (
    ClassLink,
    Count,
    FolderDocView,
    FolderFile,
    FolderIndexView,
    FrontMatter,
    ImportedFile,
    LinkView,
    ReadmeView,
)

ROOT_SOURCE = "."  # front matter `source` of the root folder's pages
README_NAMES = ("readme.md", "readme.markdown", "readme.rst", "readme.txt", "readme")


def summary(scanned: ScannedFile) -> str:
    """One line saying what a file is, from its facts only."""
    facts = scanned.facts
    if facts.kind == "python" and facts.python is not None:
        sentence = first_sentence(first_paragraph(facts.python.module_docstring))
        if sentence:
            return sentence
        kinds = Counter(d.kind for d in facts.python.definitions if d.parent is None)
        parts = [
            f"{n} {word if n == 1 else word + plural}"
            for n, word, plural in (
                (kinds["class"], "class", "es"),
                (kinds["function"], "function", "s"),
            )
            if n
        ]
        return "Python module" + (" defining " + " and ".join(parts) if parts else "")
    if facts.kind == "markdown" and facts.markdown is not None and facts.markdown.headings:
        return facts.markdown.headings[0].text
    if facts.kind == "binary":
        return f"binary, {facts.size:,} bytes"
    lines = "line" if facts.line_count == 1 else "lines"
    return f"{facts.line_count:,} {lines} of {facts.language or facts.kind}"


def _folder_tags(lookup: RepoLookup, paths: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({t.name for p in paths for t in page_tags(lookup.index.files[p])}))


def _front(folder: str, tags: tuple[str, ...], context: RenderContext) -> FrontMatter:
    return FrontMatter(
        source=folder or ROOT_SOURCE,
        kind="folder",
        language="",
        tags=tags,
        sha256="",
        generator=context.generator,
    )


def _title(folder: str, context: RenderContext) -> str:
    return folder or context.project


def _parent(folder: str) -> str | None:
    return posixpath.dirname(folder) if folder else None


def folder_index_view(lookup: RepoLookup, folder: str, context: RenderContext) -> FolderIndexView:
    page = folder_index(folder)
    linker = Linker(page, context.source_root)
    entry = lookup.folder(folder)
    parent = _parent(folder)
    files = []
    for path in entry.files:
        scanned = lookup.index.files[path]
        facts = scanned.facts
        documented = facts.kind != "binary"
        files.append(
            FolderFile(
                name=posixpath.basename(path),
                path=path,
                kind=facts.kind,
                language=facts.language,
                size=facts.size,
                tags=tuple(t.name for t in page_tags(scanned)),
                summary=summary(scanned),
                docs_page=linker.to_page(docs_page(path)) if documented else "",
                kw_page=linker.to_page(kw_page(path)) if documented else "",
            )
        )
    return FolderIndexView(
        page=page,
        folder=folder,
        title=_title(folder, context),
        is_root=not folder,
        front=_front(folder, _folder_tags(lookup, entry.files), context),
        parent=None
        if parent is None
        else linker.page_link(_title(parent, context), folder_index(parent)),
        subfolders=tuple(
            linker.page_link(posixpath.basename(sub), folder_index(sub)) for sub in entry.subfolders
        ),
        files=tuple(files),
        folder_doc=linker.to_page(folder_doc(folder)),
    )


def _markdown_paragraph(text: str) -> str:
    """The first top-level paragraph with visible words (badge-only lines are skipped)."""
    tokens = MarkdownIt("commonmark").parse(text)
    for i, token in enumerate(tokens):
        if token.type != "inline" or token.level != 1 or tokens[i - 1].type != "paragraph_open":
            continue
        words: list[str] = []
        # An image's alt text lives in the image token's own children, so badges drop out.
        for child in token.children or ():
            if child.type in ("text", "code_inline"):
                words.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                words.append(" ")
        paragraph = " ".join("".join(words).split())
        if paragraph:
            return paragraph
    return ""


def _plain_paragraph(text: str) -> str:
    for block in text.split("\n\n"):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
        words = [ln for ln in lines if any(ch.isalnum() for ch in ln)]
        if words:
            return " ".join(" ".join(words).split())
    return ""


def _readme(
    lookup: RepoLookup, entry: FolderEntry, read: ReadSource, linker: Linker
) -> ReadmeView | None:
    index = lookup.index
    candidates = sorted(
        (README_NAMES.index(posixpath.basename(p).lower()), p)
        for p in entry.files
        if posixpath.basename(p).lower() in README_NAMES and index.files[p].facts.kind != "binary"
    )
    for _, path in candidates:
        text = read(path)
        if not text:
            continue
        kind = index.files[path].facts.kind
        paragraph = _markdown_paragraph(text) if kind == "markdown" else _plain_paragraph(text)
        if paragraph:
            return ReadmeView(paragraph, linker.page_link(path, docs_page(path)))
    return None


def _sorted_counts(counter: Counter[str]) -> tuple[Count, ...]:
    return tuple(Count(name, n) for name, n in sorted(counter.items()))


def _counts(values: Iterable[str]) -> tuple[Count, ...]:
    return _sorted_counts(Counter(values))


def _public_classes(
    lookup: RepoLookup, entry: FolderEntry, linker: Linker
) -> tuple[ClassLink, ...]:
    classes = []
    for path in entry.files:
        facts = lookup.index.files[path].facts
        if facts.kind != "python" or facts.python is None:
            continue
        for item in anchored_definitions(path, facts.python.definitions):
            d = item.definition
            if d.kind == "class" and d.parent is None and not d.name.startswith("_"):
                classes.append(
                    ClassLink(
                        qualname=d.qualname,
                        file=posixpath.basename(path),
                        href=linker.to_page(docs_page(path), item.anchor),
                        line=linker.line(path, d.line, facts.line_count),
                    )
                )
    return tuple(classes)


def folder_doc_view(
    lookup: RepoLookup, folder: str, context: RenderContext, read: ReadSource
) -> FolderDocView:
    page = folder_doc(folder)
    linker = Linker(page, context.source_root)
    entry = lookup.folder(folder)
    parent = _parent(folder)
    direct = [lookup.index.files[p] for p in entry.files]
    return FolderDocView(
        page=page,
        folder=folder,
        title=_title(folder, context),
        is_root=not folder,
        front=_front(folder, _folder_tags(lookup, entry.files), context),
        readme=_readme(lookup, entry, read, linker),
        kinds=_counts(f.facts.kind for f in direct),
        tags=_counts(t.name for f in direct for t in page_tags(f)),
        total_files=len(direct),
        tree_kinds=_sorted_counts(lookup.tree_kinds(folder)),
        tree_tags=_sorted_counts(lookup.tree_tags(folder)),
        tree_files=sum(lookup.tree_kinds(folder).values()),
        classes=_public_classes(lookup, entry, linker),
        most_imported=tuple(
            ImportedFile(path, linker.to_page(docs_page(path)), count)
            for path, count in lookup.most_imported(folder)
        ),
        parent=None
        if parent is None
        else LinkView(_title(parent, context), linker.to_page(folder_doc(parent))),
        children=tuple(
            LinkView(posixpath.basename(sub), linker.to_page(folder_doc(sub)))
            for sub in entry.subfolders
        ),
        folder_index=linker.to_page(folder_index(folder)),
        keywords=linker.page_link(KEYWORDS_PAGE, KEYWORDS_PAGE),
    )
