"""View-models of the two folder pages: `index.md` (what is here) and `doc.md` (what it is)."""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Iterable

from docgen.analyze.summary import page_tags
from docgen.analyze.tags import TAG_ORDER
from docgen.index.repo import FolderEntry
from docgen.model.anchors import anchored_definitions
from docgen.model.facts import ScannedFile
from docgen.model.links import docs_page, folder_doc, folder_index, kw_page, slug
from docgen.render.api_views import public_api
from docgen.render.context import Linker, ReadSource, RenderContext
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.render.kind_views import views_of
from docgen.render.listing_views import (
    ClassLink,
    Count,
    FolderDocView,
    FolderFile,
    FolderIndexView,
    ImportedFile,
    ReadmeView,
    SubfolderCount,
    SuiteFile,
    SuiteView,
    TaggedFiles,
)
from docgen.render.lookup import RepoLookup
from docgen.render.python_views import run_commands
from docgen.render.view_refs import LinkView
from docgen.render.views import FrontMatter

ROOT_SOURCE = "."  # front matter `source` of the root folder's pages
README_NAMES = ("readme.md", "readme.markdown", "readme.rst", "readme.txt", "readme")
TAGGED_SHOWN = 10  # files listed under each tag before "N more"
TESTS_SHOWN = 20  # test files listed before "N more"

#: `doc.md` sections: key -> heading text (level 2), in page order.
FOLDER_DOC_SECTIONS: dict[str, str] = {
    "contents": "Contents",
    "tags": "Files by Tag",
    "most_imported": "Most Imported Modules",
    "diagram": "Imports Between Its Parts",
    "api": "Public API",
    "classes": "Public Classes",
    "tests": "Test Files",
    "navigation": "Navigation",
}


def summary(scanned: ScannedFile) -> str:
    """One line saying what a file is, from its facts only."""
    facts = scanned.facts
    said = views_of(facts.kind).summary(facts)
    if said is not None:
        return said
    if facts.kind == "binary":
        return f"binary, {facts.size:,} bytes"
    return _lines_of(facts.line_count, facts.language or facts.kind)


def _lines_of(count: int, language: str) -> str:
    lines = "line" if count == 1 else "lines"
    return f"{count:,} {lines} of {language}"


def _listed(lookup: RepoLookup, path: str) -> tuple[str, str, int, tuple[str, ...], str]:
    """What a folder's index lists of a file (kind, language, size, tags, summary): of a
    C-family file whose facts stay encoded, from its kept summary (a folder of thousands
    of headers is listed again after an edit of one)."""
    kept = lookup.index.c_summaries.get(path)
    if kept is not None and kept.kind == "cfamily":
        line = _lines_of(kept.line_count, kept.language or kept.kind)
        return kept.kind, kept.language, kept.size, kept.tags, line
    scanned = lookup.index.files[path]
    facts = scanned.facts
    tags = tuple(t.name for t in page_tags(scanned))
    return facts.kind, facts.language, facts.size, tags, summary(scanned)


def _folder_tags(lookup: RepoLookup, paths: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({name for p in paths for name in lookup.tag_names(p)}))


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
        kind, language, size, tags, line = _listed(lookup, path)
        documented = kind != "binary"
        files.append(
            FolderFile(
                name=posixpath.basename(path),
                path=path,
                kind=kind,
                language=language,
                size=size,
                tags=tags,
                summary=line,
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
    from markdown_it import MarkdownIt  # loaded by the few builds whose folders have a README

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


#: Public classes a folder page lists before "and N more" (each file's keyword page
#: and the folder index list them all).
PUBLIC_CLASSES_SHOWN = 50


def _public_classes(
    lookup: RepoLookup, entry: FolderEntry, linker: Linker
) -> tuple[ClassLink, ...]:
    classes = []
    for path in entry.files:
        if lookup.index.files.kind(path) != "python":  # read without decoding the others
            continue
        facts = lookup.index.files[path].facts
        if facts.python is None:
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


def _subtree(lookup: RepoLookup, folder: str) -> list[str]:
    """Every file of the folder's subtree: those directly inside first, then the rest by path."""
    entry = lookup.folder(folder)
    below: list[str] = []
    pending = list(entry.subfolders)
    while pending:
        sub = lookup.folder(pending.pop())
        below.extend(sub.files)
        pending.extend(sub.subfolders)
    return [*entry.files, *sorted(below)]


def _tag_order(names: Iterable[str]) -> list[str]:
    """The analyzer's tags in its order, any other tag after them by name."""
    known = [t for t in TAG_ORDER if t in names]
    return known + sorted(set(names) - set(TAG_ORDER))


def _test_files(lookup: RepoLookup, subtree: Iterable[str]) -> list[str]:
    """The test-tagged Python files, which get a run command on their docs pages."""
    return [p for p in subtree if p in lookup.test_files]


def _inside(entry: FolderEntry, path: str) -> str:
    """A path of the folder's subtree as seen from the folder."""
    return path[len(entry.path) + 1 :] if entry.path else path


def _suite(lookup: RepoLookup, entry: FolderEntry, path: str, linker: Linker) -> SuiteFile:
    scanned = lookup.index.files[path]
    commands = run_commands(path, scanned.analysis) if scanned.facts.parsed else ()
    return SuiteFile(_inside(entry, path), linker.to_page(docs_page(path)), commands)


def _by_subfolder(
    entry: FolderEntry, paths: Iterable[str], linker: Linker
) -> tuple[SubfolderCount, ...]:
    """How many of `paths` each subfolder holds at any depth (subfolders with none left out)."""
    counts: Counter[str] = Counter()
    for path in paths:
        rest = _inside(entry, path)
        if "/" in rest:
            counts[rest.split("/", 1)[0]] += 1
    return tuple(
        SubfolderCount(name, linker.to_page(folder_doc(sub)), counts[name])
        for sub in entry.subfolders
        if counts[name := posixpath.basename(sub)]
    )


def _suite_view(
    lookup: RepoLookup, entry: FolderEntry, tests: list[str], linker: Linker
) -> SuiteView | None:
    if not tests:
        return None
    direct = len(set(tests).intersection(entry.files))
    shown = tests[:TESTS_SHOWN]
    more = len(tests) - len(shown)
    return SuiteView(
        files=tuple(_suite(lookup, entry, p, linker) for p in shown),
        total=len(tests),
        direct=direct,
        below=len(tests) - direct,
        more=more,
        subfolders=_by_subfolder(entry, tests, linker) if more else (),
    )


def _by_tag(
    lookup: RepoLookup,
    entry: FolderEntry,
    subtree: list[str],
    tests: list[str],
    linker: Linker,
) -> tuple[TaggedFiles, ...]:
    carrying: dict[str, list[str]] = {}
    for path in subtree:
        for name in lookup.tag_names(path):
            carrying.setdefault(name, []).append(path)
    views = []
    for tag in _tag_order(carrying):
        paths = carrying[tag]
        elsewhere = tag == "test" and paths == tests  # Test Files lists them with commands
        shown = [] if elsewhere else paths[:TAGGED_SHOWN]
        more = len(paths) - len(shown) if not elsewhere else 0
        direct = len(set(paths).intersection(entry.files))
        views.append(
            TaggedFiles(
                tag=tag,
                total=len(paths),
                direct=direct,
                below=len(paths) - direct,
                files=tuple(linker.page_link(_inside(entry, p), docs_page(p)) for p in shown),
                more=more,
                subfolders=_by_subfolder(entry, paths, linker) if more else (),
                listed_under=linker.here(slug(FOLDER_DOC_SECTIONS["tests"])) if elsewhere else "",
            )
        )
    return tuple(views)


def folder_doc_view(
    lookup: RepoLookup, folder: str, context: RenderContext, read: ReadSource
) -> FolderDocView:
    page = folder_doc(folder)
    linker = Linker(page, context.source_root)
    entry = lookup.folder(folder)
    parent = _parent(folder)
    kinds = [lookup.index.files.kind(p) for p in entry.files]  # without decoding the files
    subtree = _subtree(lookup, folder)
    tests = _test_files(lookup, subtree)
    classes = _public_classes(lookup, entry, linker)
    return FolderDocView(
        page=page,
        folder=folder,
        title=_title(folder, context),
        is_root=not folder,
        front=_front(folder, _folder_tags(lookup, entry.files), context),
        readme=_readme(lookup, entry, read, linker),
        kinds=_counts(kinds),
        total_files=len(kinds),
        tree_kinds=_sorted_counts(lookup.tree_kinds(folder)),
        tree_files=sum(lookup.tree_kinds(folder).values()),
        by_tag=_by_tag(lookup, entry, subtree, tests, linker),
        api=public_api(lookup, entry, linker),
        tests=_suite_view(lookup, entry, tests, linker),
        sections=dict(FOLDER_DOC_SECTIONS),
        classes=classes[:PUBLIC_CLASSES_SHOWN],
        more_classes=max(0, len(classes) - PUBLIC_CLASSES_SHOWN),
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
        diagram=lookup.diagram(folder),
    )
