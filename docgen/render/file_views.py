"""View-models of the two pages every documented file gets: docs and keywords."""

from __future__ import annotations

from docgen.analyze.summary import page_tags
from docgen.model.anchors import DOCS_SECTIONS, DOCS_SUBSECTIONS, anchored_definitions
from docgen.model.facts import Evidence, FileFacts, MarkdownFacts, ScannedFile, Tag
from docgen.model.links import docs_page, folder_doc, folder_index, folder_of, kw_page
from docgen.render.context import Linker, ReadSource, RenderContext, heading_anchors
from docgen.render.dependency_views import dependencies_view
from docgen.render.finding_views import performance_view, security_view
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.render.lookup import RepoLookup
from docgen.render.markdown_links import resolve_link
from docgen.render.python_views import (
    architecture_view,
    definition_anchors,
    definition_views,
    patterns_view,
    python_overview,
    usage_view,
)
from docgen.render.related import pair_of, rank_related
from docgen.render.suite_views import suite_view
from docgen.render.view_refs import LineRef, LinkView
from docgen.render.views import (
    CodeBlockView,
    CrossRefsView,
    DetailedView,
    DocsView,
    EvidenceView,
    FrontMatter,
    MarkdownLinkView,
    MarkdownOverview,
    MetadataView,
    OutlineItem,
    OverviewView,
    ProblemView,
    PurposeView,
    RelatedFile,
    RelatedView,
    SourceView,
    TagView,
    TextOverview,
)

#: every tag the analyzer can give, named when none applies
KNOWN_TAGS: tuple[str, ...] = ("test", "gpu", "jit", "distributed")
TOP_HEADINGS_SHOWN = 12


def front_matter(facts: FileFacts, tags: tuple[Tag, ...], context: RenderContext) -> FrontMatter:
    return FrontMatter(
        source=facts.path,
        kind=facts.kind,
        language=facts.language,
        tags=tuple(t.name for t in tags),
        sha256=facts.sha256,
        generator=context.generator,
    )


#: Kinds of evidence per tag shown with a line of text under File Purpose; the rest by number.
PURPOSE_EVIDENCE = 6


def tag_views(
    facts: FileFacts, tags: tuple[Tag, ...], linker: Linker, limit: int
) -> tuple[TagView, ...]:
    """Each tag with one line per kind of evidence (the analyzer's order: strongest first,
    at most `limit`), and the line numbers of the rest in the same order."""
    views = []
    for t in tags:
        picked: dict[str, Evidence] = {}
        for e in t.evidence:
            if len(picked) < limit:
                picked.setdefault(_kind(e.reason), e)
        chosen = {id(e) for e in picked.values()}
        shown = tuple(
            EvidenceView(linker.line(facts.path, e.line, facts.line_count), e.text, e.reason)
            for e in t.evidence
            if id(e) in chosen
        )
        rest = tuple(dict.fromkeys(e.line for e in t.evidence if id(e) not in chosen))
        views.append(TagView(t.name, shown, rest))
    return tuple(views)


def _kind(reason: str) -> str:
    """A reason without its particulars: `uses torch.distributed (imports x)` and
    `uses torch.distributed (imports y)` are one kind of evidence."""
    return reason.split(" (", 1)[0]


def problem_views(facts: FileFacts, linker: Linker) -> tuple[ProblemView, ...]:
    return tuple(
        ProblemView(linker.line(facts.path, p.line, facts.line_count), p.message, p.severity)
        for p in sorted(facts.problems, key=lambda p: (p.line, p.message))
    )


def _source_view(
    facts: FileFacts, context: RenderContext, text: str | None, linker: Linker
) -> SourceView:
    embedded = facts.size <= context.max_embed_bytes
    return SourceView(
        language={"python": "python", "markdown": "markdown"}.get(facts.kind, facts.language),
        text=text or "",
        embedded=embedded and text is not None,
        available=not embedded or text is not None,
        size=facts.size,
        line_count=facts.line_count,
        limit=context.max_embed_bytes,
        href=linker.to_source(facts.path),
    )


def _markdown_overview(md: MarkdownFacts) -> MarkdownOverview | None:
    if not (md.headings or md.code_blocks or md.links):
        return None
    title = next((h.text for h in md.headings if h.level == 1), "")
    if not title and md.headings:
        title = md.headings[0].text
    top: tuple[str, ...] = ()
    if md.headings:
        levels = sorted({h.level for h in md.headings})
        at_top = [h for h in md.headings if h.level == levels[0]]
        if len(at_top) == 1:  # a lone top heading is the title: show the level below
            at_top = [h for h in md.headings if len(levels) > 1 and h.level == levels[1]]
        top = tuple(h.text for h in at_top[:TOP_HEADINGS_SHOWN])
    return MarkdownOverview(
        title=title,
        headings=len(md.headings),
        top_headings=top,
        code_blocks=len(md.code_blocks),
        links=len(md.links),
    )


def _outline(facts: FileFacts, md: MarkdownFacts, linker: Linker) -> tuple[OutlineItem, ...]:
    items = []
    open_levels: list[int] = []
    anchors = heading_anchors(md.headings)
    for h in sorted(md.headings, key=lambda h: h.line):
        while open_levels and open_levels[-1] >= h.level:
            open_levels.pop()
        items.append(
            OutlineItem(
                len(open_levels),
                h.level,
                h.text,
                linker.heading(facts.path, h.line, anchors[h.line]),
            )
        )
        open_levels.append(h.level)
    return tuple(items)


def _link_view(
    source: str, target: str, text: str, line: LineRef, lookup: RepoLookup, linker: Linker
) -> MarkdownLinkView:
    resolved = resolve_link(source, target, lookup)
    page: LinkView | None = None
    if resolved.state in ("file", "no-heading") and resolved.path != source:
        scanned = lookup.index.files.get(resolved.path)
        if scanned is not None and scanned.facts.kind == "binary":
            page = linker.source_link(resolved.path, resolved.path)
        elif scanned is not None:
            page = linker.page_link(resolved.path, docs_page(resolved.path))
    elif resolved.state == "folder":
        page = linker.page_link(resolved.path or ".", folder_index(resolved.path))
    return MarkdownLinkView(target, text, line, resolved.state, page, resolved.resolves)


def _markdown_detailed(facts: FileFacts, linker: Linker, lookup: RepoLookup) -> DetailedView | None:
    md = facts.markdown
    failed = not facts.parsed
    if md is None:
        return (
            DetailedView(parse_failed=True, problems=problem_views(facts, linker))
            if failed
            else None
        )

    def line(n: int) -> LineRef:
        return linker.line(facts.path, n, facts.line_count)

    view = DetailedView(
        outline=_outline(facts, md, linker),
        code_blocks=tuple(
            CodeBlockView(b.language, line(b.line))
            for b in sorted(md.code_blocks, key=lambda b: b.line)
        ),
        links=tuple(
            _link_view(facts.path, k.target, k.text, line(k.line), lookup, linker)
            for k in sorted(md.links, key=lambda k: (k.line, k.target))
        ),
        parse_failed=failed,
        problems=problem_views(facts, linker) if failed else (),
    )
    if not (view.outline or view.code_blocks or view.links or failed):
        return None
    return view


#: folders and file names of test utilities, which a test imports but does not test
TEST_UTILITY_PARTS = frozenset({"test", "tests", "testing", "_internal"})


def is_test_utility(path: str) -> bool:
    """A file a test imports for its own machinery: in a test folder or a testing
    package, or named like a test, a conftest or a `common_*` helper."""
    parts = path.split("/")
    name = parts[-1]
    return (
        any(part in TEST_UTILITY_PARTS for part in parts[:-1])
        or name.startswith(("test_", "common_", "conftest"))
        or name.endswith("_test.py")
    )


def code_under_test(imports: tuple[str, ...]) -> tuple[str, ...]:
    """What a test imports other than test utilities; a top-level package's
    `__init__.py` only when nothing deeper in that package is imported (`import torch`
    beside `from torch.distributed import x` is how the test reaches `x`)."""
    found = tuple(p for p in imports if not is_test_utility(p))
    deeper = {p.split("/", 1)[0] for p in found if p.count("/") > 1}
    return tuple(
        p
        for p in found
        if not (p.count("/") == 1 and p.endswith("/__init__.py") and p.split("/")[0] in deeper)
    )


def _related(lookup: RepoLookup, facts: FileFacts, linker: Linker) -> RelatedView | None:
    """Files related by tests, imports or folder, best first (see `related.rank_related`)."""
    path = facts.path
    graph = lookup.index.graph
    folder = folder_of(path)
    same_folder = lookup.documented_in(folder)
    cfamily = facts.kind == "cfamily"
    pair: tuple[str, ...] = ()
    includers: tuple[str, ...] = ()
    included: tuple[str, ...] = ()
    if lookup.index.in_include_graph(path):
        includes = lookup.index.includes
        if cfamily:
            pair = pair_of(path, includes, lookup.index.files)
        includers = includes.included_by.get(path, ())
        included = includes.includes_of(path)
    imports = graph.imports_of(path)
    under_test: tuple[str, ...] = ()
    test_bases: tuple[str, ...] = ()
    if lookup.index.files[path].analysis.suite is not None:
        under_test = code_under_test(imports)
        classes = lookup.index.test_classes.get(path, ())
        test_bases = tuple(sorted({b.path for c in classes for b in c.chain if b.path}))
    ranking = rank_related(
        path,
        under_test=under_test,
        test_bases=test_bases,
        tests=lookup.tests_of(path),
        importers=graph.imported_by.get(path, ()),
        imports=tuple(p for p in imports if p not in under_test),
        pair=pair,
        includers=includers,
        included=included,
        same_folder=same_folder,
    )
    if not ranking.files:
        return None
    return RelatedView(
        files=tuple(
            RelatedFile(r.path, linker.to_page(docs_page(r.path)), r.reasons, r.score)
            for r in ranking.files
        ),
        more=ranking.more,
        folder_index=linker.to_page(folder_index(folder)),
    )


def docs_view(
    lookup: RepoLookup, scanned: ScannedFile, context: RenderContext, read: ReadSource
) -> DocsView:
    facts = scanned.facts
    if facts.kind == "cfamily":  # loaded for C-family pages only: a Python edit needs none
        from docgen.render import cfamily_views
    path = facts.path
    page = docs_page(path)
    linker = Linker(page, context.source_root)
    tags = page_tags(scanned)
    folder = folder_of(path)
    python = facts.python if facts.kind == "python" else None
    anchored = anchored_definitions(path, python.definitions) if python else ()
    found = scanned.analysis.suite
    classes = lookup.index.test_classes.get(path, ())
    suite = suite_view(facts, found, anchored, classes, linker) if found else None

    overview = None
    detailed = None
    if facts.kind == "python":
        if python is not None and facts.parsed:
            importers = len(lookup.index.graph.imported_by.get(path, ()))
            overview = OverviewView(
                python=python_overview(python, tuple(t.name for t in tags), importers)
            )
        definitions = definition_views(path, facts, anchored, linker)
        if definitions or not facts.parsed:
            detailed = DetailedView(
                definitions=definitions,
                parse_failed=not facts.parsed,
                problems=problem_views(facts, linker) if not facts.parsed else (),
            )
    elif facts.kind == "cfamily" and facts.cfamily is not None:
        overview = OverviewView(
            cfamily=cfamily_views.overview(
                facts, lookup.index.includes, tuple(t.name for t in tags), linker
            )
        )
        c_items = lookup.c_items(path)
        detailed = DetailedView(
            c_definitions=cfamily_views.definition_views(facts, c_items, linker, lookup),
            registrations=cfamily_views.registration_views(facts, linker, lookup.stubs),
            launches=cfamily_views.launch_views(facts, c_items, linker),
        )
        if not (detailed.c_definitions or detailed.registrations or detailed.launches):
            detailed = None  # nothing to detail: the section is left out, as for Python
    elif facts.kind == "markdown":
        md_overview = _markdown_overview(facts.markdown) if facts.markdown else None
        overview = OverviewView(markdown=md_overview) if md_overview else None
        detailed = _markdown_detailed(facts, linker, lookup)
    else:
        overview = OverviewView(
            text=TextOverview(
                size=facts.size,
                line_count=facts.line_count,
                language=facts.language,
                folder=linker.page_link(folder or context.project, folder_index(folder)),
            )
        )

    source_text = read(path) if facts.size <= context.max_embed_bytes else None
    source_lines = source_text.splitlines() if source_text is not None else None
    anchors = definition_anchors(anchored)
    return DocsView(
        page=page,
        path=path,
        front=front_matter(facts, tags, context),
        sections=DOCS_SECTIONS,
        subsections=DOCS_SUBSECTIONS,
        metadata=MetadataView(
            path=path,
            kind=facts.kind,
            language=facts.language,
            size=facts.size,
            line_count=facts.line_count,
            encoding=facts.encoding,
            sha256=facts.sha256,
            parsed=facts.parsed,
            problems=problem_views(facts, linker),
            parser=python.parser if python is not None and python.parser != "libcst" else "",
        ),
        purpose=PurposeView(
            facts.kind, tag_views(facts, tags, linker, PURPOSE_EVIDENCE), KNOWN_TAGS
        ),
        source=_source_view(facts, context, source_text, linker),
        overview=overview,
        detailed=detailed,
        architecture=architecture_view(anchored, linker) if python else None,
        dependencies=dependencies_view(
            path, facts, lookup.index.graph, lookup.packages, lookup.line_counts, linker
        )
        if facts.kind == "python"
        else None,
        patterns=patterns_view(path, facts, anchored, linker, source_lines) if python else None,
        performance=performance_view(
            facts, linker, source_lines, anchors, any(t.name == "test" for t in tags)
        ),
        security=security_view(facts, linker, source_lines, anchors),
        testing=usage_view(
            path, facts, scanned.analysis, anchored, linker, lookup.tests_of(path), suite
        ),
        related=_related(lookup, facts, linker),
        includes=cfamily_views.includes_view(facts, lookup.index.includes, linker)
        if facts.kind == "cfamily"
        else None,
        crossrefs=CrossRefsView(
            kw_page=linker.page_link(kw_page(path), kw_page(path)),
            folder_index=linker.page_link(folder_index(folder), folder_index(folder)),
            folder_doc=linker.page_link(folder_doc(folder), folder_doc(folder)),
            keywords=linker.page_link(KEYWORDS_PAGE, KEYWORDS_PAGE),
        ),
    )
