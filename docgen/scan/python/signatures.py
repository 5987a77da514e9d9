"""Signatures of Python functions as written: the parameter list is cut from the
source text where the cut can be proven to be what libcst would generate (that
generation was most of the cost of a definition), else generated from the tree."""

from __future__ import annotations

import re
from types import MappingProxyType

import libcst as cst

#: what matters when looking for a closing parenthesis: brackets, comments, quotes
_SPECIAL = re.compile(r"[()\[\]{}#'\"]")
#: the rest of a string literal after its opening quote (a backslash escapes anything)
_STRING_END = MappingProxyType(
    {
        "'": re.compile(r"[^'\\\n]*(?:\\.[^'\\\n]*)*'", re.S),
        '"': re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*"', re.S),
        "'''": re.compile(r"[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''", re.S),
        '"""': re.compile(r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""', re.S),
    }
)


def signature(
    module: cst.Module, source: Source, node: cst.FunctionDef, line: int, column: int | None
) -> str:
    """`(params) -> returns` as written."""
    returns = ""
    if node.returns is not None:
        returns = module.code_for_node(node.returns.annotation)
    params = None
    if column is not None:  # `ast`'s column of the `def`: the text can be cut
        params = _params_slice(module, source, node, line, column, returns)
    if params is None:
        params = module.code_for_node(node.params)
    type_params = ""
    if node.type_parameters is not None:  # PEP 695: def f[T](x: T) -> T
        type_params = module.code_for_node(node.type_parameters)
    signature = f"{type_params}({params})"
    return f"{signature} -> {returns}" if node.returns is not None else signature


def _params_slice(
    module: cst.Module,
    source: Source,
    node: cst.FunctionDef,
    line: int,
    column: int,
    returns: str,
) -> str | None:
    """The parameter text cut from the source, or None when it cannot be proven right.

    Generating the parameters' code from the tree is most of the cost of a
    definition; the text between the parentheses is the same string.  The cut
    is trusted only when the header before it and after it, rebuilt from the
    tree's small whitespace nodes, matches the source exactly.  libcst writes a
    node's continuation lines without the indentation of its block, so a header
    that spans lines inside an indented block is left to libcst.
    """
    start = source.offset(line, column)
    if start is None:
        return None
    text = source.text
    indented = start > 0 and text[start - 1] != "\n"
    if indented:
        dedented = _header_in_block(text, start, node.name.value)
        if dedented is not None:  # as libcst writes it: read like a header at the margin
            text, start, indented = dedented, 0, False
    head = [
        "def",
        _ws(module, node.whitespace_after_def),
        node.name.value,
        _ws(module, node.whitespace_after_name),
    ]
    if node.asynchronous is not None:
        head[:0] = ["async", _ws(module, node.asynchronous.whitespace_after)]
    if node.type_parameters is not None:
        head.append(module.code_for_node(node.type_parameters))
    head += [
        _ws(module, node.whitespace_after_type_parameters),
        "(",
        _ws(module, node.whitespace_before_params),
    ]
    prefix = "".join(head)
    if (indented and "\n" in prefix) or not text.startswith(prefix, start):
        return None
    params_start = start + len(prefix)
    end = _closing_paren(text, params_start)
    if end is None or (indented and "\n" in text[params_start:end]):
        return None
    tail = [")"]
    annotation = node.returns
    if annotation is not None:
        before, after = (
            annotation.whitespace_before_indicator,
            annotation.whitespace_after_indicator,
        )
        if not isinstance(before, cst.BaseParenthesizableWhitespace):
            return None
        tail += [_ws(module, before), "->", _ws(module, after), returns]
    tail += [_ws(module, node.whitespace_before_colon), ":"]
    body = node.body
    if isinstance(body, cst.IndentedBlock):
        header = body.header
        newline = header.newline.value
        tail += [
            header.whitespace.value,
            header.comment.value if header.comment is not None else "",
            newline if newline is not None else module.default_newline,
        ]
    elif isinstance(body, cst.SimpleStatementSuite):
        tail.append(_ws(module, body.leading_whitespace))
    else:
        return None
    closing = "".join(tail)
    if (indented and "\n" in closing.rstrip("\n")) or not text.startswith(closing, end):
        return None
    return text[params_start:end]


#: what can make a continuation line of a header more than whitespace between tokens:
#: a string spanning lines, a backslash, a comment, a blank line
_NOT_PLAIN = re.compile(r"\"\"\"|\'\'\'|\\|#|\n[ \t]*(?:\n|$)")


def _header_in_block(text: str, start: int, name: str) -> str | None:
    """A header in an indented block that spans lines, as libcst writes it on its own:
    every continuation line without the block's indentation where it starts with it
    (libcst keeps that indentation with the block, not with the line).  None when the
    header is on one line, or holds anything but whitespace between tokens at its line
    breaks (see `_NOT_PLAIN`): then the header is read as it was."""
    line_start = text.rfind("\n", 0, start) + 1
    block = text[line_start:start]
    if block.strip(" \t"):
        return None  # not an indentation: something else stands before the header
    opened = text.find("(", start)
    if opened < 0 or name not in text[start:opened]:
        return None
    closed = _closing_paren(text, opened + 1)
    if closed is None:
        return None
    end = text.find("\n", closed)
    end = len(text) if end < 0 else end + 1
    header = text[start:end]
    lines_only = header.rstrip("\n")
    if "\n" not in lines_only or _NOT_PLAIN.search(lines_only):
        return None
    lines = header.split("\n")
    return "\n".join(
        [lines[0], *(x[len(block) :] if x.startswith(block) else x for x in lines[1:])]
    )


def _ws(module: cst.Module, node: cst.BaseParenthesizableWhitespace) -> str:
    if isinstance(node, cst.SimpleWhitespace):
        return node.value
    return module.code_for_node(node)


def _closing_paren(text: str, pos: int) -> int | None:
    """Offset of the `)` closing a parenthesis opened just before `pos`, or None.

    Skips strings and comments the way the tokenizer does; any surprise (a
    mismatched bracket, an unterminated string) gives None, never a guess.
    """
    depth = 1
    while True:
        found = _SPECIAL.search(text, pos)
        if found is None:
            return None
        char, at = found.group(), found.start()
        if char in "([{":
            depth += 1
            pos = at + 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return at if char == ")" else None
            pos = at + 1
        elif char == "#":
            pos = text.find("\n", at)
            if pos < 0:
                return None
        else:
            quote = char * 3 if text.startswith(char * 3, at) else char
            closed = _STRING_END[quote].match(text, at + len(quote))
            if closed is None:
                return None
            pos = closed.end()


class Source:
    """The decoded text with line offsets, computed on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    def offset(self, line: int, byte_column: int) -> int | None:
        """Text offset of an ast position (1-based line, UTF-8 byte column)."""
        starts = self._starts
        if starts is None:
            starts = self._starts = _line_starts(self.text)
        if not 1 <= line <= len(starts):
            return None
        begin = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        row = self.text[begin:end]
        if row.isascii():
            return begin + byte_column if byte_column <= len(row) else None
        try:
            return begin + len(row.encode("utf-8")[:byte_column].decode("utf-8"))
        except UnicodeError:  # a column inside a character: not a position ast gives
            return None


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    at = find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = find("\n", at + 1)
    return starts
