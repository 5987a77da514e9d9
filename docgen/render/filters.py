"""Jinja filters that turn untrusted text into inert Markdown and YAML.

Autoescaping is off because the output is Markdown, not HTML, so every string
that comes from a scanned file (names, docstrings, headings, paths, evidence)
must pass through one of these filters: it can then never open a link, an
image, HTML, emphasis or a heading, whatever it contains.
"""

from __future__ import annotations

import json
import re
import shlex
import string
from collections.abc import Iterable
from typing import Any

#: ASCII punctuation that CommonMark or GitHub's extensions give a meaning
#: somewhere: CommonMark lets a backslash make any of it literal, and escaping
#: it everywhere needs no knowledge of where the text lands (line start, link
#: label, after `www`, `http:` or `$`).  Only characters that start nothing in
#: any position are left bare, to keep the raw Markdown readable.
_NEVER_SPECIAL = frozenset(",;?%\"'/")
_ASCII_PUNCTUATION = frozenset(string.punctuation) - _NEVER_SPECIAL

#: Line breaks as CommonMark sees them (\r\n first so it folds to one space),
#: plus the Unicode ones some renderers honour.
_LINE_BREAKS = re.compile(r"\r\n|[\r\n\v\f\x85\u2028\u2029]")

#: Characters YAML does not allow raw inside a double-quoted scalar (or would
#: fold as line breaks); JSON leaves them alone when ensure_ascii is off.
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")

#: An info string must not carry characters that could end or confuse it.
_LANGUAGE_TAG = re.compile(r"[^A-Za-z0-9_+.#-]")


def fold_lines(text: str) -> str:
    """Turn every line break into one space, as a code span would, and NUL into U+FFFD."""
    return _LINE_BREAKS.sub(" ", text).replace("\0", "\ufffd")


#: Characters that can open markup anywhere on a line: CommonMark's inline syntax,
#: GitHub's tables, strikethrough, math and e-mail autolinks (`@`).  A `:` opens a
#: URL autolink only before `/` (`https://`), so only that `:` is escaped (below).
_MARKUP_CHARACTERS = frozenset("\\`*_[]<>&!#|~$@")
_URL_COLON = re.compile(r":(?=/)")
_ESCAPES = str.maketrans({ch: "\\" + ch for ch in _MARKUP_CHARACTERS})
#: Characters that open a block when they start a line (lists, quotes, setext).
_LINE_START_MARKERS = frozenset("-+=>")
_LIST_NUMBER = re.compile(r"^(\d{1,9})[.)]")
_WWW_DOT = re.compile(r"(?i)(\bwww)\.")


def md_text(value: object) -> str:
    """Markdown that renders as exactly this text, on one line, with no markup.

    Leading and trailing whitespace is dropped (a paragraph drops it anyway, and
    leading spaces could start an indented code block).
    """
    return safe_line_start(_escaped(fold_lines(str(value)).strip()))


def inert_inline(text: str) -> str:
    """Markdown that renders as exactly this text inside a line (its spaces kept, line
    breaks folded), with no markup: what `md_text` escapes but the start of a line."""
    return _escaped(fold_lines(text))


def _escaped(folded: str) -> str:
    escaped = folded.translate(_ESCAPES)
    if ":/" in escaped:
        escaped = _URL_COLON.sub(r"\\:", escaped)
    if "." in escaped:
        escaped = _WWW_DOT.sub(r"\1\\.", escaped)  # GitHub links a bare www.host
    return escaped


def safe_line_start(escaped: str) -> str:
    """Escaped text that opens no block where it starts a line (a list, a quote, a rule)."""
    leading = _LIST_NUMBER.match(escaped)
    if leading:  # "1. x" or "1) x" at the start would open an ordered list
        return f"{leading.group(1)}\\{escaped[len(leading.group(1)) :]}"
    if escaped[:1] in _LINE_START_MARKERS:
        return "\\" + escaped
    return escaped


def _longest_backtick_run(text: str) -> int:
    """One substring search per length (most texts hold none, or runs of one to three)
    instead of a list of every run: a docs page embeds its whole source file."""
    run = 0
    while "`" * (run + 1) in text:
        run += 1
    return run


#: Text that needs no fence longer than one backtick, no padding and no folding.
_PLAIN_CODE = re.compile(
    r"[^`\s\0\x85\u2028\u2029]"  # no space or backtick at either end ...
    r"(?:[^`\r\n\v\f\0\x85\u2028\u2029]*"  # ... no backtick or line break inside
    r"[^`\s\0\x85\u2028\u2029])?"
)


def inline_code(value: object) -> str:
    """A code span whose content is exactly the text (line breaks folded to spaces).

    The fence is one backtick longer than the longest run inside, and one space
    of padding is added where CommonMark would otherwise eat a space or merge a
    backtick into the fence.  The empty string becomes a one-space span, the
    closest a code span can get.
    """
    text = str(value)
    # The common case, a name, a path or a declaration on one line, told by string
    # methods first: a printable text has no line break, NUL or space but " ".
    if text and "`" not in text and text[0] != " " and text[-1] != " " and text.isprintable():
        return f"`{text}`"
    if _PLAIN_CODE.fullmatch(text):
        return f"`{text}`"
    text = fold_lines(text)
    if not text:
        return "` `"
    fence = "`" * (_longest_backtick_run(text) + 1)
    touches_fence = text.startswith("`") or text.endswith("`")
    would_be_stripped = text.startswith(" ") and text.endswith(" ") and text.strip(" ") != ""
    if touches_fence or would_be_stripped:
        text = f" {text} "
    return f"{fence}{text}{fence}"


def inline_codes(values: Iterable[object], empty: str = "none") -> str:
    """Code spans separated by commas (`empty` when there are none): a filter, not a
    macro, because every definition of a page shows such lists."""
    return ", ".join(inline_code(v) for v in values) or empty


def fence_language(language: str) -> str:
    """A safe info string for a fenced block ("text" when unknown)."""
    cleaned = _LANGUAGE_TAG.sub("", language)
    return cleaned or "text"


def fenced(value: object, language: str = "text") -> str:
    """A fenced code block that shows the text verbatim and that no content can close.

    The fence is backticks, one longer than the longest backtick run in the text
    (at least three).  The block ends with the closing fence and no newline, so
    it sits in a template like any other expression.
    """
    text = str(value)
    fence = "`" * max(3, _longest_backtick_run(text) + 1)
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"{fence}{fence_language(language)}\n{body}{fence}"


#: A block longer than this is folded under <details>, never cut.
FOLD_LINES = 25


def folded(value: object, language: str = "text") -> str:
    """`fenced`, folded under <details> (its line count the summary) when long."""
    text = str(value).rstrip("\n")
    block = fenced(text, language)
    count = text.count("\n") + 1
    if count <= FOLD_LINES:
        return block
    return f"<details>\n<summary>{count} lines</summary>\n\n{block}\n\n</details>"


def yaml_str(value: object) -> str:
    """A JSON string literal, which is also a valid YAML double-quoted scalar."""
    quoted = json.dumps(str(value), ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def yaml_list(values: Iterable[object]) -> str:
    """A YAML flow sequence of JSON strings: `["gpu", "test"]`, or `[]`."""
    return "[" + ", ".join(yaml_str(v) for v in values) + "]"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`1 class`, `2 classes`: numbers in generated prose read naturally."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count:,} {word}"


def blockquote(value: object) -> str:
    """Inert text as a one-line blockquote (for docstrings and README paragraphs)."""
    return "> " + md_text(value)


def shell_quote(value: object) -> str:
    """A POSIX shell word for a repo-relative path (`./` in front of a leading `-`)."""
    text = str(value)
    if text.startswith("-"):
        text = "./" + text
    return shlex.quote(text)


def md_code(value: object) -> str:
    """docgen's own sentence with `names` in backticks: the names become code spans,
    the rest inert text, so a name taken from a source can add no markup."""
    parts = str(value).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: no code spans at all
        return md_text(value)
    pieces: list[str] = []
    for i, part in enumerate(parts):
        if i % 2:
            pieces.append(inline_code(part))
        elif part:
            text = md_text(part)
            # md_text strips the ends; keep the spaces that separate words from code
            lead = " " if part[:1].isspace() and i else ""
            trail = " " if part[-1:].isspace() and i < len(parts) - 1 else ""
            pieces.append(lead + text + trail)
    return "".join(pieces)


def cell(value: object) -> str:
    """Inert text for a table cell: `md_text`, which also escapes `|`."""
    return md_text(value) or " "


def cell_code(value: object) -> str:
    """A code span for a table cell; GitHub reads `\\|` inside a cell's code span as `|`."""
    return inline_code(value).replace("|", "\\|") if str(value) else " "


def line_ref(ref: Any) -> str:
    """`[L12](href)` for a LineRef, or plain `L12` when the line cannot be linked."""
    return f"[L{ref.line}]({ref.href})" if ref.href else f"L{ref.line}"


def code_link(label: object, href: str) -> str:
    """A name shown as code, linked when there is somewhere to link it."""
    code = inline_code(label)
    return f"[{code}]({href})" if href else code


def link(view: Any) -> str:
    """A LinkView (label and href) as `code_link`."""
    return code_link(view.label, view.href)


FILTERS = {
    "line_ref": line_ref,
    "code_link": code_link,
    "link": link,
    "md_code": md_code,
    "cell": cell,
    "cell_code": cell_code,
    "md_text": md_text,
    "inline_code": inline_code,
    "inline_codes": inline_codes,
    "fenced": fenced,
    "folded": folded,
    "yaml_str": yaml_str,
    "yaml_list": yaml_list,
    "plural": plural,
    "blockquote": blockquote,
    "shell_quote": shell_quote,
}
