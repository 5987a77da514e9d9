"""View-models of the pages that list: a file's keyword page, the two folder pages
and the repository's keyword index (see `views` for the docs page and the pieces
every page shares, and for how view-models keep source text raw)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docgen.render.view_refs import DefinitionUses, LineRef, LinkView
from docgen.render.views import FrontMatter, ProblemView

if TYPE_CHECKING:
    from docgen.render.diagram_views import DiagramView

# ---------------------------------------------------------------- keyword page


@dataclass(frozen=True)
class KeywordTarget:
    """One place a keyword points to: a docs page anchor and/or a source line."""

    label: str  # shown as code: a qualname, a module, a heading's text
    href: str  # docs page anchor, "" when none
    line: LineRef | None


@dataclass(frozen=True)
class KeywordEntry:
    """One name of a keyword page and the places it is defined, the first ones linked."""

    name: str
    targets: tuple[KeywordTarget, ...]  # the first places, linked
    more: int = 0  # places beyond `targets` and `more_lines`
    count: int = 0  # every place of the name
    more_lines: tuple[int, ...] = ()  # further places by line number
    use_files: int = 0  # other files that use its definitions (see `use_links`)
    uses: int = 0  # their lines that do


@dataclass(frozen=True)
class KeywordGroup:
    """The names of one kind on a keyword page."""

    key: str
    title: str
    entries: tuple[KeywordEntry, ...]


@dataclass(frozen=True)
class KwView:
    """Everything a `_kw.md` page shows."""

    page: str
    path: str
    front: FrontMatter
    sections: dict[str, str]  # see anchors.KW_SECTIONS
    source: LinkView
    docs_page: LinkView
    folder_index: LinkView
    keywords: LinkView  # the repository-wide keyword index
    groups: tuple[KeywordGroup, ...]
    no_keywords: str  # why there are none ("" when there are groups)
    problems: tuple[ProblemView, ...]
    uses: tuple[DefinitionUses, ...] = ()  # every use of each definition other files use


# ---------------------------------------------------------------- folder pages


@dataclass(frozen=True)
class FolderFile:
    """One file's row in its folder's index."""

    name: str
    path: str
    kind: str
    language: str
    size: int
    tags: tuple[str, ...]
    summary: str  # one line, raw text
    docs_page: str  # href, "" for binary files (no pages)
    kw_page: str


@dataclass(frozen=True)
class FolderIndexView:
    """Everything a folder's index page shows."""

    page: str
    folder: str
    title: str  # the folder path, or the project name for the root
    is_root: bool
    front: FrontMatter
    parent: LinkView | None
    subfolders: tuple[LinkView, ...]
    files: tuple[FolderFile, ...]
    folder_doc: str


@dataclass(frozen=True)
class Count:
    """A name and its count, for a folder page's tables."""

    name: str
    count: int


@dataclass(frozen=True)
class ClassLink:
    """A class defined in a folder, linked to its heading on its file's page."""

    qualname: str
    file: str  # the file's name inside the folder
    href: str  # its heading on the file's docs page
    line: LineRef


@dataclass(frozen=True)
class ImportedFile:
    """A file and how many files import it."""

    path: str
    href: str  # its docs page
    importers: int


@dataclass(frozen=True)
class ReadmeView:
    """A folder README's opening, quoted on the folder's page as the folder's own words."""

    paragraph: str  # the opening paragraph as plain text
    source: LinkView  # the README's docs page


@dataclass(frozen=True)
class SubfolderCount:
    """A subfolder and how many of its files (at any depth) something applies to."""

    label: str  # the subfolder's name
    href: str  # its doc.md
    count: int


@dataclass(frozen=True)
class TaggedFiles:
    """The files of a folder's subtree that carry one tag."""

    tag: str
    total: int  # in the whole subtree
    direct: int  # directly in the folder
    below: int  # in its subfolders
    files: tuple[LinkView, ...]  # docs pages, labelled by path in the folder; direct first; capped
    more: int  # files left out of `files`
    subfolders: tuple[SubfolderCount, ...]  # where the tagged files below are (when `more`)
    listed_under: str  # href of the section that lists these files instead ("" when none)


@dataclass(frozen=True)
class ApiName:
    """One name of `__all__` and where it is defined, when that is known."""

    name: str
    kind: str  # class / function / module; "" when not resolved
    href: str  # its heading on the defining file's docs page (a module's docs page); "" if none
    source: LinkView | None  # the defining file (docs page); None when not resolved
    line: LineRef | None  # the definition's source line
    origin: LinkView | None  # unresolved: the module it is imported from (linked when a file)


@dataclass(frozen=True)
class PublicApiView:
    """`__all__` of the folder's `__init__.py`."""

    init: LinkView  # the `__init__.py` docs page
    parsed: bool  # False when `__init__.py` could not be parsed
    listed: bool  # False when it has no `__all__` spelled out as a list of strings
    total: int  # names in `__all__`
    resolved: int  # how many of them (all, not only those shown) were traced to a definition
    names: tuple[ApiName, ...]  # in `__all__` order, capped
    more: int  # names left out of `names`


@dataclass(frozen=True)
class SuiteFile:
    """A test file and the commands that run it (the name avoids pytest's `Test*`)."""

    path: str  # inside the folder
    href: str  # its docs page
    commands: tuple[str, ...]  # shell lines, already quoted; () when the file could not be parsed


@dataclass(frozen=True)
class SuiteView:
    """The test files of a folder's subtree."""

    files: tuple[SuiteFile, ...]  # direct files first, then by path; capped
    total: int
    direct: int
    below: int
    more: int  # test files left out of `files`
    subfolders: tuple[SubfolderCount, ...]  # where the test files below are (when `more`)


@dataclass(frozen=True)
class FolderDocView:
    """Everything a folder's documentation page shows."""

    page: str
    folder: str
    title: str
    is_root: bool
    front: FrontMatter
    readme: ReadmeView | None
    kinds: tuple[Count, ...]  # files directly in the folder
    total_files: int  # directly in the folder
    tree_kinds: tuple[Count, ...]  # the whole subtree
    tree_files: int
    by_tag: tuple[TaggedFiles, ...]  # tags present in the subtree, in the analyzer's order
    api: PublicApiView | None  # None when the folder has no `__init__.py`
    tests: SuiteView | None  # None when the subtree has no test file
    sections: dict[str, str]  # section key -> heading text (folder_views.FOLDER_DOC_SECTIONS)
    classes: tuple[ClassLink, ...]  # the first PUBLIC_CLASSES_SHOWN, by file and line
    most_imported: tuple[ImportedFile, ...]  # files of the subtree, most imported first
    parent: LinkView | None
    children: tuple[LinkView, ...]
    folder_index: str
    keywords: LinkView  # the repository-wide keyword index
    more_classes: int = 0  # public classes left out of `classes`
    diagram: DiagramView | None = None  # how its files and subfolders import each other


# ------------------------------------------------------- repo-wide keyword index


@dataclass(frozen=True)
class SiteView:
    """One definition of a name: its heading on the docs page and its source line."""

    kind: str  # class / function / method
    qualname: str
    href: str  # the definition's anchor on the file's docs page
    location: str  # "path:line", the source link's text
    line_href: str  # the source line, "" when it cannot be linked
    use_files: int = 0  # other files that use it (a Python definition, see `use_counts`)
    uses: int = 0  # their lines that do


@dataclass(frozen=True)
class NameEntry:
    """One name of the repository keyword index and every place that defines it."""

    name: str
    sites: tuple[SiteView, ...]  # by path, then line


@dataclass(frozen=True)
class KeywordPart:
    """One page of a split keyword index, as the entry page lists it."""

    label: str  # "a" … "z", "_", or "other"
    part: int  # 1, or the part number when one letter fills several pages
    parts: int  # how many pages that letter has
    href: str
    first: str  # first and last name on the page
    last: str
    names: int
    definitions: int


@dataclass(frozen=True)
class KeywordsView:
    """Data for `keywords.md.j2`: the entry page `keywords.md` or one letter page."""

    page: str
    project: str
    front: FrontMatter
    is_entry: bool
    letter: str  # "" on the entry page; "a" … "z", "_" or "other"
    part: int
    parts: int
    names: int  # on this page
    definitions: int
    total_names: int  # in the repository
    total_definitions: int
    entries: tuple[NameEntry, ...]  # empty on the entry page of a split index
    pages: tuple[KeywordPart, ...]  # the letter pages, on the entry page of a split index
    entry_page: LinkView | None  # `keywords.md`, from a letter page
    folder_index: LinkView  # the root `index.md`
