"""The Markdown scanner: headings, links and the code identifiers a page mentions.

Code identifiers become the keywords of a Markdown page, so they are taken only
from code (inline code spans and code blocks), never from prose, and only when
they clearly look like code.  The old system listed "A", "The" and "Args" as
keywords; every rule here and in `markdown_words` exists to keep such filler out.

Decisions worth knowing:

* Identifiers are ASCII names (`[A-Za-z_][A-Za-z0-9_]*`) joined by `.` or `::`,
  so that output does not depend on Unicode tables.
* Python keywords, a few English filler words (`The`, `Args`, `Returns`, even
  inside backticks), a few shell words (`cd`, `echo`, `pip`, `python`, ...) and
  names of one character or with no letter are never identifiers.  `pip` and
  `python` are dropped because almost every install snippet has them, so they
  would say nothing about a page; specific tools (`conda`, `cmake`, `torchrun`)
  are kept.
* Python builtins (`print`, `len`, `range`, ...) are dropped when they are only
  *found* in code, but kept when an inline code span is exactly that name: the
  author chose to mention it.
* URLs, e-mail addresses and comments are removed from code before looking, as
  they are prose or addresses rather than code.
* Link targets are markdown-it's normalised `href`/`src`: percent-encoded
  (`a b` -> `a%20b`) and with entities decoded, not byte-for-byte the source.
* Link lines count line breaks inside the paragraph; a code span or link
  destination that itself spans a line break earlier in the same paragraph makes
  later links in that paragraph report a line too early.
* MyST code directives (```` ```{code-block} python ````) and Pandoc classes
  (```` ```{.python} ````) report the language they name.  reST blocks and other
  MyST directives (`{eval-rst}`, `{autoclass}`, `{note}`) give the API names of
  Sphinx directives (`autofunction`, `autosummary` entries, ...) qualified by the
  page's `currentmodule`, plus their backticked spans; quoted Markdown gives only
  its backticked spans; math gives nothing (`x_i` is not code).
* YAML (`---`) and TOML (`+++`) front matter is blanked before parsing so that
  it is not read as a rule plus a setext heading; line numbers are unchanged.
* `parsed` is False only when markdown-it failed; bytes replaced while decoding
  are problems of their own (as for Python, where the replaced text is parsed).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from markdown_it import MarkdownIt
from markdown_it.token import Token

from docgen.model.facts import CodeBlock, FileFacts, Heading, Link, MarkdownFacts, Problem
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings
from docgen.scan.decode import decode_text
from docgen.scan.markdown.words import (
    API_NAME,
    BACKTICKED,
    BLOCK_COMMENT,
    CAMEL,
    CANDIDATE,
    CODE_DIRECTIVES,
    DEF_OR_CLASS,
    EMAIL,
    ENGLISH_FILLER,
    FROM_IMPORT,
    FRONT_MATTER_FENCES,
    HASH_COMMENT,
    HASH_COMMENT_LANGUAGES,
    IMPORT,
    MATH_LANGUAGES,
    MODULE_DIRECTIVES,
    MYST_DIRECTIVE,
    MYST_ROLE,
    NEVER,
    PANDOC_CLASS,
    PROSE_LANGUAGES,
    PROSE_ROLES,
    PYTHON_BUILTINS,
    RST_DIRECTIVE,
    RST_LANGUAGES,
    SLASH_COMMENT,
    SLASH_COMMENT_LANGUAGES,
    URL,
    WHOLE_SPAN,
)
from docgen.scan.text import text_facts


@functools.lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    """One CommonMark parser with tables; cached because building it is not free."""
    return MarkdownIt("commonmark").enable("table")


def is_identifier(name: str, *, found: bool) -> bool:
    """Whether a code-looking name may be a keyword; `found` means not a whole code span."""
    if len(name) < 2 or name in NEVER or name.lower() in ENGLISH_FILLER:
        return False
    if not re.search("[A-Za-z]", name):
        return False
    parts = re.split(r"\.|::", name)
    if len(parts) > 1 and all(len(part) == 1 for part in parts):
        return False  # "e.g", "i.e", "a.b"
    return not (found and name in PYTHON_BUILTINS)


def _without_addresses(code: str) -> str:
    return EMAIL.sub(" ", URL.sub(" ", code))


def _candidates(code: str) -> Iterator[tuple[str, bool]]:
    """Code-shaped names with whether they are called, skipping parts of hyphenated words."""
    for match in CANDIDATE.finditer(code):
        after = code[match.end() : match.end() + 2]
        if len(after) == 2 and after[0] == "-" and after[1].isalnum():
            continue
        yield match.group(1), match.group(2) is not None


def _looks_like_code(name: str, called: bool) -> bool:
    return called or "." in name or "::" in name or "_" in name


def inline_code_identifiers(content: str) -> list[str]:
    """Identifiers in one inline code span: all of it if it is one name, else code-like parts."""
    whole = WHOLE_SPAN.fullmatch(content.strip())
    if whole:
        name = whole.group(1)
        return [name] if is_identifier(name, found=False) else []
    found = []
    for name, called in _candidates(_without_addresses(content)):
        if (_looks_like_code(name, called) or CAMEL.search(name)) and is_identifier(
            name, found=True
        ):
            found.append(name)
    return found


def _strip_comments(code: str, language: str) -> str:
    key = language.lower()
    if key in HASH_COMMENT_LANGUAGES or not key:
        code = HASH_COMMENT.sub(" ", code)
    if key in SLASH_COMMENT_LANGUAGES:
        code = BLOCK_COMMENT.sub(" ", code)
    if key in SLASH_COMMENT_LANGUAGES or not key:
        code = SLASH_COMMENT.sub(" ", code)
    return code


def _names_in_list(alias_list: str) -> Iterator[str]:
    for item in alias_list.split(","):
        words = item.split()
        if words:
            yield words[0]


def block_language(info: str) -> str:
    """A code block's language: the info string's first word, seen through MyST and Pandoc."""
    words = info.split()
    if not words:
        return ""
    first = words[0]
    if first.lower() in CODE_DIRECTIVES:  # ```{code-block} python
        return words[1] if len(words) > 1 else ""
    pandoc = PANDOC_CLASS.match(first)  # ```{.python .numberLines}
    return pandoc.group(1) if pandoc else first


def backticked_identifiers(text: str) -> set[str]:
    """Identifiers of the backticked spans in prose that markdown-it did not parse."""
    spans = (m.group(3) for m in BACKTICKED.finditer(text) if m.group(1) not in PROSE_ROLES)
    return {name for span in spans for name in inline_code_identifiers(span)}


def as_rst(info: str, content: str) -> str | None:
    """A block's body as reST when it is reST or a MyST directive (```{autoclass} X), else None."""
    words = info.split()
    first = words[0].lower() if words else ""
    if first in RST_LANGUAGES:
        return content
    directive = MYST_DIRECTIVE.fullmatch(first)
    if directive is None or first in CODE_DIRECTIVES:
        return None
    body = "".join(f"    {line}\n" for line in content.split("\n"))
    return f".. {directive.group(1)}:: {' '.join(words[1:])}\n{body}"


def _qualify(name: str, module: str) -> str:
    """`name` under the current module, unless it already starts from the same package."""
    if not module or name.split(".")[0] == module.split(".")[0]:
        return name
    return f"{module}.{name}"


def rst_identifiers(rst: str, module: str) -> tuple[tuple[str, ...], str]:
    """API names documented by Sphinx directives, qualified by the current module.

    `module` is the `currentmodule` so far in the file (reST blocks of one MyST
    page share it); the module in force after this block is returned with the names.
    """
    names = backticked_identifiers(rst)
    in_autosummary = False
    for line in rst.split("\n"):
        directive = RST_DIRECTIVE.fullmatch(line)
        if directive:
            kind = directive.group(1).lower()
            target = API_NAME.match(directive.group(2).strip())
            in_autosummary = kind == "autosummary"
            if target and kind in MODULE_DIRECTIVES:
                module = target.group(1)
                names.add(module)
            elif target and (kind.startswith("auto") or kind.startswith("py:")):
                names.add(_qualify(target.group(1), module))
        elif in_autosummary and line.strip():
            entry = API_NAME.fullmatch(line.strip())
            if not line[0].isspace():
                in_autosummary = False
            elif entry:
                names.add(_qualify(entry.group(1), module))
    kept = sorted(name for name in names if is_identifier(name, found=False))
    return tuple(kept), module


def code_block_identifiers(code: str, language: str) -> tuple[str, ...]:
    """Sorted unique identifiers that are clearly code in a fenced or indented block."""
    key = language.lower()
    if key in MATH_LANGUAGES:
        return ()
    if key in PROSE_LANGUAGES:
        return tuple(sorted(backticked_identifiers(code)))
    code = _strip_comments(_without_addresses(code), language)
    names: set[str] = set()
    for name, called in _candidates(code):
        if _looks_like_code(name, called):
            names.add(name)
    for match in DEF_OR_CLASS.finditer(code):
        names.add(match.group(1) or match.group(2))
    for match in FROM_IMPORT.finditer(code):
        if match.group(1):
            names.add(match.group(1))
        names.update(_names_in_list(match.group(2)))
    for match in IMPORT.finditer(code):
        names.update(_names_in_list(match.group(1)))
    return tuple(sorted(name for name in names if is_identifier(name, found=True)))


def blank_front_matter(text: str) -> str:
    """Replace leading front matter by empty lines, keeping every other line where it was."""
    lines = text.split("\n")
    closers = FRONT_MATTER_FENCES.get(lines[0].rstrip())
    if closers is None:
        return text
    for end in range(1, len(lines)):
        if lines[end].rstrip() in closers:
            return "\n".join([""] * (end + 1) + lines[end + 1 :])
    return text


def _flatten(children: Sequence[Token] | None) -> str:
    """The plain text of inline tokens: text and code, no markup."""
    parts: list[str] = []
    for child in children or ():
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(_flatten(child.children))
    return "".join(parts)


def _with_lines(children: Sequence[Token], first: int) -> Iterator[tuple[Token, int]]:
    """Each inline token with its 1-based line, counting the line breaks before it."""
    line = first
    for child in children:
        yield child, line
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        elif child.type == "image":
            line += sum(c.type in ("softbreak", "hardbreak") for c in child.children or ())


def _links(inline: Token, first: int, last: int) -> Iterator[Link]:
    children = inline.children or []
    for index, (child, line) in enumerate(_with_lines(children, first)):
        line = min(line, last)
        if child.type == "image":
            yield Link(str(child.attrGet("src") or ""), line, _flatten(child.children))
        elif child.type == "link_open":
            depth, end = 1, index + 1
            while end < len(children) and depth:
                depth += {"link_open": 1, "link_close": -1}.get(children[end].type, 0)
                end += 1
            text = _flatten(children[index + 1 : end - 1])
            yield Link(str(child.attrGet("href") or ""), line, text)


def _inline_identifiers(children: Sequence[Token]) -> Iterator[str]:
    """Identifiers of the code spans of one inline run, skipping MyST roles like {doc}`x`."""
    before = ""
    for child in children:
        if child.type == "code_inline":
            role = MYST_ROLE.search(before)
            if not (role and role.group(1) in PROSE_ROLES):
                yield from inline_code_identifiers(child.content)
        before = child.content if child.type == "text" else ""


def markdown_facts(tokens: Iterable[Token]) -> MarkdownFacts:
    headings: list[Heading] = []
    links: list[Link] = []
    blocks: list[CodeBlock] = []
    identifiers: set[str] = set()
    line, last = 1, 1
    pending_heading: int | None = None
    module = ""  # Sphinx's current module, set by reST blocks
    for token in tokens:
        if token.map:
            line, last = token.map[0] + 1, max(token.map[0] + 1, token.map[1])
        if token.type == "heading_open":
            pending_heading = int(token.tag[1:]) if token.tag[1:].isdigit() else 1
        elif token.type == "inline":
            if pending_heading is not None:
                text = _flatten(token.children).strip()
                headings.append(Heading(pending_heading, text, line))
                pending_heading = None
            links.extend(_links(token, line, last))
            identifiers.update(_inline_identifiers(token.children or ()))
        elif token.type in ("fence", "code_block"):
            language = block_language(token.info)
            rst = as_rst(token.info, token.content)
            if rst is None:
                found = code_block_identifiers(token.content, language)
            else:
                found, module = rst_identifiers(rst, module)
            identifiers.update(found)
            blocks.append(CodeBlock(language, line, found))
    return MarkdownFacts(
        headings=tuple(headings),
        code_identifiers=tuple(sorted(identifiers)),
        code_blocks=tuple(blocks),
        links=tuple(sorted(links, key=lambda link: (link.line, link.target, link.text))),
    )


def scan(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    decoded = decode_text(data)
    problems: list[Problem] = list(decoded.problems)
    parsed = True
    try:
        facts = markdown_facts(parser().parse(blank_front_matter(decoded.text)))
    except Exception as exc:  # markdown-it almost never fails; one file must not stop a build
        facts = MarkdownFacts()
        parsed = False
        problems.append(Problem(0, f"markdown parser failed: {type(exc).__name__}: {exc}"))
    return replace(
        text_facts(path, data, decoded),
        kind="markdown",
        parsed=parsed,
        problems=tuple(problems),
        markdown=facts,
    )
