"""Comments of C-family code as text: a doc comment's (`///`, `/** */`) without its
markers, and the comments written inside a declaration, taken out of it (a signature
shows code; its comments go to the definition's text)."""

from __future__ import annotations

import re

DOC_MARKERS = ("///", "//!", "/**", "/*!")

#: a string or character literal (kept as it is), or a comment
_LITERAL_OR_COMMENT = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?(?:\*/|\Z)', re.S
)


def without_comments(text: str) -> tuple[str, list[str]]:
    """A declaration as written without the comments inside it (`bool has_storage() const
    // NOTE: ...`), and those comments: a signature shows code, the comments go to the
    definition's text."""
    if "/" not in text:
        return text, []
    comments: list[str] = []

    def take(match: re.Match[str]) -> str:
        found = match.group()
        if found.startswith("/"):
            comments.append(found)
            return " "
        return found

    return _LITERAL_OR_COMMENT.sub(take, text), comments


def comment_text(comments: list[str]) -> str:
    """Comments as text, without their `//` and `/* */` markers."""
    lines: list[str] = []
    for comment in comments:
        if comment.startswith("//"):
            lines.append(comment.lstrip("/!").removeprefix(" ").rstrip())
        else:
            body = comment[2:].removesuffix("*/").lstrip("*!")
            for line in body.split("\n"):
                stripped = line.strip()
                lines.append(
                    stripped[1:].removeprefix(" ") if stripped.startswith("*") else stripped
                )
    return "\n".join(lines).strip()


def doc_text(comments: list[str]) -> str | None:
    lines: list[str] = []
    for comment in comments:
        if comment.startswith(("///", "//!")):
            lines.append(comment[3:].removeprefix(" "))
        elif comment.startswith(("/**", "/*!")):
            body = comment[3:].removesuffix("*/")
            for line in body.split("\n"):
                stripped = line.strip()
                stripped = stripped[1:].removeprefix(" ") if stripped.startswith("*") else stripped
                lines.append(stripped)
    text = "\n".join(lines).strip()
    return text or None  # whole: the page folds a long one
