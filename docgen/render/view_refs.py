"""The smallest pieces every view holds: a line of a file and a link to a page."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LineRef:
    """A source line; `href` is "" when the line cannot be linked (0 or past the end)."""

    line: int
    href: str


@dataclass(frozen=True)
class LinkView:
    """A link to a path; `label` is raw text (shown as code), `href` is encoded."""

    label: str
    href: str


@dataclass(frozen=True)
class UsedInView:
    """One other file's uses of a definition: how many lines, the first ones linked."""

    page: LinkView  # the file, linked to its docs page
    count: int  # its lines that import or read the definition
    lines: tuple[LineRef, ...]  # the first of them (all of them on the keyword page)


@dataclass(frozen=True)
class UsesView:
    """Where a definition is used in the tree's other files."""

    files: int
    uses: int  # lines, over every file
    shown: tuple[UsedInView, ...]  # the files with the most uses first
    more_href: str  # the keyword page's list of them all ("" when all are shown)
    here: bool = False  # no other file uses it, and its own file does
    #: no file uses it, and nothing says code outside the tree may: private, or left
    #: out of its module's `__all__`, undecorated, not a hook by its name
    candidate: bool = False
    #: a method no other file names and its own class calls through `self`
    through_self: bool = False


@dataclass(frozen=True)
class DefinitionUses:
    """Every use of one definition, for the keyword page."""

    kind: str
    qualname: str
    anchor: str  # on the keyword page (its heading's)
    definition: LinkView  # its section on the docs page
    uses: UsesView
