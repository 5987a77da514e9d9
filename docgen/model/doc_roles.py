"""reST inline markup in docstrings, and the Sphinx roles that name a Python object.

One grammar for the two readers of a docstring's roles: the page, which shows each
role as a link or as code (`docgen.render.docstring_markdown`), and the index, which
keeps what each file's roles name so that an edit elsewhere re-renders the pages
whose links it moves (`docgen.index.role_rows`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: reST inline markup, in the order its forms are tried at one place.
INLINE = re.compile(
    r"(?P<literal>``(?P<lit>.+?)``(?!`))"
    r"|(?P<role>:(?P<rname>[A-Za-z][\w.+-]*(?::[A-Za-z][\w.+-]*)?):`(?P<rtext>[^`]+)`)"
    r"|(?P<link>`(?P<ltext>[^`<]+?)\s*<(?P<url>[^`>]+)>`__?)"
    r"|(?P<ref>`(?P<reftext>[^`]+)`__?(?!\w))"
    r"|(?P<interp>`(?P<itext>[^`]+)`)"
    r"|(?P<strong>(?<![\w*\\])\*\*(?=\S)(?P<stext>[^*]+?)(?<=\S)\*\*(?![\w*]))"
    r"|(?P<emph>(?<![\w*\\])\*(?=[^\s*])(?P<etext>[^*]+?)(?<=[^\s*])\*(?![\w*]))"
)

#: roles whose target is a Python name a page may define
NAME_ROLES = frozenset(
    {"class", "func", "meth", "attr", "mod", "obj", "data", "exc", "const", "type", "any"}
)

_TITLED = re.compile(r"(.+?)\s*<([^<>]+)>", re.S)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True, slots=True)
class RoleText:
    """What one role's text says (`:class:\\`~a.B\\``, `:func:\\`title <a.b>\\``)."""

    role: str  # the role's own name, without a domain (`py:class` -> `class`)
    label: str  # what the reader sees: the title, or the target as written
    target: str  # the name it points at, without `~`, `!` or leading dots
    shown: str  # the name as written, without `~` and `!`
    titled: bool  # whether the text gave a title of its own
    short: bool  # `~`: the last part of the name shown
    linked: bool  # `!`: shown but never linked

    @property
    def names_object(self) -> bool:
        """Whether the role names a Python object a link may lead to."""
        return self.role in NAME_ROLES and self.linked and bool(self.target)


def role_text(name: str, text: str) -> RoleText:
    """A role's name and text, read as Sphinx reads them."""
    role = name.rpartition(":")[2]
    label, target = text, text
    titled = _TITLED.fullmatch(text)
    if titled:
        label, target = titled.group(1), titled.group(2)
    linked = not target.startswith("!")
    target = target.removeprefix("!")
    short = target.startswith("~")
    shown = target.removeprefix("~")
    return RoleText(role, label, shown.lstrip("."), shown, titled is not None, short, linked)


def role_targets(docstring: str) -> set[str]:
    """The targets of every role in a docstring that names a Python object, read from
    each paragraph and each line on its own (a page reads a paragraph, a table cell or a
    line at a time: a target found by neither is shown as code, never linked)."""
    found: set[str] = set()
    pieces = [*_PARAGRAPH_BREAK.split(docstring), *docstring.splitlines()]
    for piece in pieces:
        if ":`" not in piece:
            continue
        for match in INLINE.finditer(" ".join(piece.split())):
            if match.lastgroup == "role":
                text = role_text(match.group("rname"), match.group("rtext"))
                if text.names_object:
                    found.add(text.target)
    return found
