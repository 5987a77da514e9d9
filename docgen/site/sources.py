"""A source file as an HTML page: highlighted by Pygments, one anchor per line.

Line anchors are `L12`, as the Markdown pages write them for GitHub, so a page's
source-line links land on the same line in the site.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

from docgen.discover.readfile import read_regular

#: Larger files are shown as plain text: highlighting them would take seconds each.
HIGHLIGHT_LIMIT = 1_000_000
#: A source view shows at most this many bytes of its file (whole lines): the page of a
#: 7 MB file would be over 100 MB of HTML that no browser opens; highlighted, a view
#: of this many bytes is about 2 MB.
VIEW_LIMIT = 256 * 1024


@dataclass(frozen=True)
class SourceView:
    """What a source view shows: the text (its lines ended by LF alone), and a note
    when that is only the file's first part, or when it could not be read."""

    text: str
    note: str = ""


def source_view(path: Path, limit: int = VIEW_LIMIT) -> SourceView:
    """The first `limit` bytes of a file, cut at a line end, as its source view shows
    them; never more of it is read."""
    try:
        size = os.stat(path).st_size
        data = read_regular(path, limit + 1)
    except OSError as exc:
        return SourceView("", f"The file could not be read: {exc.strerror or exc}.")
    note = ""
    if len(data) > limit:
        data = data[: data.rfind(b"\n", 0, limit) + 1] or data[:limit]
        lines = data.count(b"\n")
        note = (
            f"The file has {size:,} bytes: the view shows its first {len(data):,} bytes "
            f"({lines:,} lines); the whole file is in the repository."
        )
    text = data.decode("utf-8", errors="replace")
    return SourceView(text.replace("\r\n", "\n").replace("\x00", "\ufffd"), note)


def source_lines(path: str, text: str) -> list[str]:
    """One HTML fragment per line of `text`, highlighted where a lexer knows the file."""
    if len(text) > HIGHLIGHT_LIMIT:
        return [html.escape(line) for line in text.split("\n")]
    try:
        lexer = get_lexer_for_filename(path, stripnl=False, ensurenl=False)
    except ClassNotFound:
        lexer = TextLexer(stripnl=False, ensurenl=False)
    # Pygments closes and reopens its spans at every line end, so the lines of its
    # output are balanced fragments.
    out = highlight(text, lexer, HtmlFormatter(nowrap=True))
    lines = out.split("\n")
    wanted = text.count("\n") + 1
    return (lines + [""] * wanted)[:wanted]


def numbered(lines: list[str]) -> str:
    """The lines as a table of line numbers and code, each row anchored `L<n>`."""
    rows = [
        f'<tr id="L{n}"><td class="ln"><a href="#L{n}">{n}</a></td>'
        f'<td class="code"><pre>{line or " "}</pre></td></tr>'
        for n, line in enumerate(lines, start=1)
    ]
    return '<table class="source">\n' + "\n".join(rows) + "\n</table>"


def highlight_css() -> str:
    """The colours of the highlighted source, for the site's style sheet."""
    formatter = HtmlFormatter(style="default")
    return str(formatter.get_style_defs(".source"))  # type: ignore[no-untyped-call]
