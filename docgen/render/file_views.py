"""View-models of the two pages every documented file gets: docs and keywords."""

from __future__ import annotations

from docgen.analyze.summary import page_tags
from docgen.model.anchors import DOCS_SECTIONS, DOCS_SUBSECTIONS, definition_anchors
from docgen.model.facts import Evidence, FileFacts, ScannedFile, Tag
from docgen.model.links import docs_page, folder_doc, folder_index, folder_of, kw_page
from docgen.render.context import Linker, ReadSource, RenderContext
from docgen.render.finding_views import performance_view, security_view
from docgen.render.keyword_views import KEYWORDS_PAGE
from docgen.render.kind_views import FilePage, anchored_of, views_of
from docgen.render.lookup import RepoLookup
from docgen.render.problem_views import problem_views
from docgen.render.python_views import usage_view
from docgen.render.related import pair_of, rank_related
from docgen.render.suite_views import suite_view
from docgen.render.views import (
    CrossRefsView,
    DocsView,
    EvidenceView,
    FrontMatter,
    MetadataView,
    PurposeView,
    RelatedFile,
    RelatedView,
    SourceView,
    TagView,
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
        under_test = code_under_test(lookup.reached_by(path))
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
    path = facts.path
    page = docs_page(path)
    linker = Linker(page, context.source_root)
    tags = page_tags(scanned)
    folder = folder_of(path)
    python = facts.python if facts.kind == "python" else None
    anchored = anchored_of(facts)
    found = scanned.analysis.suite
    classes = lookup.index.test_classes.get(path, ())
    suite = suite_view(facts, found, anchored, classes, linker) if found else None
    source_text = read(path) if facts.size <= context.max_embed_bytes else None
    source_lines = source_text.splitlines() if source_text is not None else None
    names = tuple(t.name for t in tags)
    kind = views_of(facts.kind).sections(
        FilePage(lookup, facts, linker, names, anchored, context, folder, source_lines)
    )
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
        overview=kind.overview,
        detailed=kind.detailed,
        architecture=kind.architecture,
        dependencies=kind.dependencies,
        patterns=kind.patterns,
        performance=performance_view(
            facts, linker, source_lines, anchors, any(t.name == "test" for t in tags)
        ),
        security=security_view(facts, linker, source_lines, anchors),
        testing=usage_view(
            path, facts, scanned.analysis, anchored, linker, lookup.tests_of(path), suite
        ),
        related=_related(lookup, facts, linker),
        includes=kind.includes,
        crossrefs=CrossRefsView(
            kw_page=linker.page_link(kw_page(path), kw_page(path)),
            folder_index=linker.page_link(folder_index(folder), folder_index(folder)),
            folder_doc=linker.page_link(folder_doc(folder), folder_doc(folder)),
            keywords=linker.page_link(KEYWORDS_PAGE, KEYWORDS_PAGE),
        ),
    )
