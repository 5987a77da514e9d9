"""View-models: what each template receives.

Everything a template shows is decided here, in Python, from the facts: which
sections exist, every link destination, every anchor.  Strings that come from
scanned files stay raw in these objects; templates make them inert with the
`md_text` / `inline_code` / `fenced` filters.  Link destinations (`href`
fields) are already encoded and safe to print as they are; an empty `href`
means "nothing to link to".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docgen.render.counts import DefinitionCounts
from docgen.render.view_refs import LineRef, LinkView, UsesView

if TYPE_CHECKING:
    from docgen.render.attached_views import AttachedDocView, AttachedTargetView
    from docgen.render.cfamily_views import (
        BindingView,
        CDefinitionView,
        CFamilyOverview,
        LaunchView,
    )
    from docgen.render.dependency_views import DependenciesView
    from docgen.render.docstring_views import DocstringView, ExampleSource
    from docgen.render.finding_views import FindingGroup, PerformanceView, SecurityView
    from docgen.render.include_views import IncludesView
    from docgen.render.native_views import ExtensionView, NativeCallView
    from docgen.render.registration_views import RegistrationView
    from docgen.render.stub_views import OperatorUseView
    from docgen.render.suite_views import FileSuiteView
    from docgen.render.yaml_views import YamlDetailed, YamlOverview

# ---------------------------------------------------------------- shared pieces


@dataclass(frozen=True)
class FrontMatter:
    """The YAML front matter of a page, which tools read instead of the text."""

    source: str  # repo-relative path; "." for the root folder
    kind: str  # python / markdown / text / folder
    language: str
    tags: tuple[str, ...]
    sha256: str  # "" for folders (then the key is left out)
    generator: str


@dataclass(frozen=True)
class EvidenceView:
    """One line of evidence for a tag, with its text."""

    line: LineRef
    text: str
    reason: str


@dataclass(frozen=True)
class TagView:
    """A tag and the lines that justify it."""

    name: str
    evidence: tuple[EvidenceView, ...]  # the lines shown with their text
    more: tuple[int, ...] = ()  # the other evidence lines, by number


@dataclass(frozen=True)
class ProblemView:
    """A problem met while reading or parsing a file, which its page shows."""

    line: LineRef
    message: str
    severity: str


# ------------------------------------------------------------------- docs page


@dataclass(frozen=True)
class MetadataView:
    """A file's metadata table: all of it measured from the file."""

    path: str
    kind: str
    language: str
    size: int
    line_count: int
    encoding: str
    sha256: str
    parsed: bool
    problems: tuple[ProblemView, ...]
    parser: str = ""  # the Python parser that read it when it was not libcst ("ast")


@dataclass(frozen=True)
class PurposeView:
    """A file's kind and tags, and every tag that could have applied."""

    kind: str
    tags: tuple[TagView, ...]
    known_tags: tuple[str, ...]  # every tag the analyzer can give, for "none applies"


@dataclass(frozen=True)
class SourceView:
    """The embedded source, or why it is not embedded."""

    language: str  # fence info string
    text: str  # the whole source when `embedded`
    embedded: bool
    available: bool  # False when the text could not be read
    size: int
    line_count: int
    limit: int  # max_embed_bytes
    href: str  # the original file


@dataclass(frozen=True)
class PythonOverview:
    """The opening sentences of a Python page: counts and text from the file, and how
    many files of the repository import it."""

    docstring: str  # first paragraph of the module docstring, "" when none
    counts: DefinitionCounts
    imports: int  # distinct modules imported
    tags: tuple[str, ...]
    imported_by: int = 0  # files of the repository that import it
    docstring_view: DocstringView | None = None  # the module docstring whole

    @property
    def defines(self) -> str:
        return self.counts.phrase()


@dataclass(frozen=True)
class MarkdownOverview:
    """The opening sentences of a Markdown page, taken from its headings and links."""

    title: str  # first heading's text, "" when none
    headings: int
    top_headings: tuple[str, ...]  # headings of the two highest levels used, in order
    code_blocks: int
    links: int


@dataclass(frozen=True)
class TextOverview:
    """The opening sentence of a page for a file docgen does not parse."""

    size: int
    line_count: int
    language: str
    folder: LinkView  # the folder's index page


@dataclass(frozen=True)
class OverviewView:
    """The overview of one page: the one of its file's kind is set."""

    python: PythonOverview | None = None
    markdown: MarkdownOverview | None = None
    text: TextOverview | None = None
    cfamily: CFamilyOverview | None = None
    yaml: YamlOverview | None = None


@dataclass(frozen=True)
class MemberView:
    """A method listed under its class, linking to its own heading."""

    name: str
    declaration: str  # `def name(args) -> T` on one line
    href: str  # "#anchor" on the same page


@dataclass(frozen=True)
class AttributeView:
    """A module, class or instance attribute, listed where it belongs."""

    name: str
    qualname: str
    scope: str  # module / class / instance (set on `self` in `__init__`)
    code: str  # `name: annotation = value` as written, on one line
    line: LineRef
    end_line: int
    value_elsewhere: bool  # a value too long for `code`, told by its lines
    docstring: DocstringView | None = None
    comment: str = ""  # the `#` lines above it (no docstring), shown as written


@dataclass(frozen=True)
class DefinitionView:
    """One Python definition's heading and declaration as written."""

    kind: str  # class / function / method
    name: str
    qualname: str
    anchor: str
    heading_level: int
    line: LineRef
    end_line: int
    declaration: str  # `class Foo(Base)` / `async def bar(x) -> int`, on one line
    signature: str  # as written
    is_async: bool
    decorators: tuple[str, ...]
    bases: tuple[str, ...]
    parent: LinkView | None  # the enclosing definition (href "#anchor")
    methods: tuple[MemberView, ...]
    docstring: DocstringView | None = None  # the docstring whole
    attributes: tuple[AttributeView, ...] = ()  # a class's, in source order
    operators: tuple[OperatorUseView, ...] = ()  # the C++ operators a stub's name runs
    native_calls: tuple[NativeCallView, ...] = ()  # the names it reads made in C++
    attached_docs: tuple[AttachedDocView, ...] = ()  # docstrings other files attach to it
    used: UsesView | None = None  # where other files use it (None: not looked for)


@dataclass(frozen=True)
class OutlineItem:
    """One heading of a Markdown file's outline, nested as the headings are."""

    depth: int  # nesting depth in the rendered list (never jumps by more than one)
    level: int  # the heading's own level (1-6)
    text: str
    line: LineRef


@dataclass(frozen=True)
class CodeBlockView:
    """One fenced code block of a Markdown file."""

    language: str
    line: LineRef


@dataclass(frozen=True)
class MarkdownLinkView:
    """One link of a Markdown file and where it leads, its target shown inert."""

    target: str  # shown as code, never as a link
    text: str
    line: LineRef
    state: str = ""  # see markdown_links.LinkState
    resolved: LinkView | None = None  # the page of what it resolves to
    resolves: bool = True


@dataclass(frozen=True)
class DetailedView:
    """The Detailed Analysis section: what each kind of file defines or holds."""

    definitions: tuple[DefinitionView, ...] = ()
    module_attributes: tuple[AttributeView, ...] = ()
    outline: tuple[OutlineItem, ...] = ()
    code_blocks: tuple[CodeBlockView, ...] = ()
    links: tuple[MarkdownLinkView, ...] = ()
    parse_failed: bool = False
    problems: tuple[ProblemView, ...] = ()  # shown when parse_failed
    c_definitions: tuple[CDefinitionView, ...] = ()
    registrations: tuple[RegistrationView, ...] = ()
    launches: tuple[LaunchView, ...] = ()
    bindings: tuple[BindingView, ...] = ()
    yaml: YamlDetailed | None = None
    native_calls: tuple[NativeCallView, ...] = ()  # the module's top-level code's
    extensions: tuple[ExtensionView, ...] = ()  # a build script's compiled modules
    attached: tuple[AttachedTargetView, ...] = ()  # the docstrings it attaches at import


@dataclass(frozen=True)
class HierarchyItem:
    """A class and its bases, those of the same file linked."""

    qualname: str
    href: str  # "#anchor" of the class heading
    bases: tuple[str, ...]
    local_bases: tuple[LinkView, ...]  # bases defined in this same file


@dataclass(frozen=True)
class ArchitectureView:
    """The class hierarchy of a file."""

    hierarchy: tuple[HierarchyItem, ...]


@dataclass(frozen=True)
class PatternsView:
    """The idioms found in a file, grouped, and its `__all__`."""

    groups: tuple[FindingGroup, ...]  # by kind, in PATTERN_TITLES order
    dunder_all: tuple[str, ...] | None  # names listed, None when no `__all__`
    dunder_all_total: int  # how many names `__all__` has (the list may be cut)
    dunder_all_line: LineRef | None = None


@dataclass(frozen=True)
class UsageView:
    """Testing & Usage: how to run a test file, or what tests and shows a module."""

    commands: tuple[str, ...]  # shell command lines, already quoted; () for a module
    suite: FileSuiteView | None
    is_test: bool = True
    tested_by: tuple[LinkView, ...] = ()  # test files named after or importing this file
    #: the docstrings with `>>>` examples, which their definitions' sections show whole
    examples: tuple[ExampleSource, ...] = ()


@dataclass(frozen=True)
class RelatedFile:
    """One related file as linked, with its reasons."""

    path: str
    href: str  # its docs page
    reasons: tuple[str, ...]  # see render.related: "tests this file", "imports this file", ...
    score: int


@dataclass(frozen=True)
class RelatedView:
    """The Related Files section, best first, and how many were left out."""

    files: tuple[RelatedFile, ...]  # best first
    more: int  # related files left out by the cap
    folder_index: str  # href of the folder index, which lists every file of the folder


@dataclass(frozen=True)
class CrossRefsView:
    """The links from a docs page to the pages about the same file and folder."""

    kw_page: LinkView
    folder_index: LinkView
    folder_doc: LinkView
    keywords: LinkView  # the repository-wide keyword index


@dataclass(frozen=True)
class DocsView:
    """Data for `docs.md.j2`; a section that is None is left out of the page."""

    page: str  # this page's output path
    path: str
    front: FrontMatter
    sections: dict[str, str]  # section key -> heading text (see anchors.DOCS_SECTIONS)
    subsections: dict[str, str]
    metadata: MetadataView
    purpose: PurposeView
    source: SourceView
    overview: OverviewView | None
    detailed: DetailedView | None
    architecture: ArchitectureView | None
    dependencies: DependenciesView | None
    patterns: PatternsView | None
    performance: PerformanceView | None
    security: SecurityView | None
    testing: UsageView | None
    related: RelatedView | None
    crossrefs: CrossRefsView
    includes: IncludesView | None = None  # C-family files: includes and included by
