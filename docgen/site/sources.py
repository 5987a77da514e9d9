"""A source file as an HTML page: highlighted by Pygments, one anchor per line.

Line anchors are `L12`, as the Markdown pages write them for GitHub, so a page's
source-line links land on the same line in the site.
"""

from __future__ import annotations

import html

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

#: Larger files are shown as plain text: highlighting them would take seconds each.
HIGHLIGHT_LIMIT = 1_000_000


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
