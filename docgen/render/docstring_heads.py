"""The head of one docstring field, as written: `x (int): text`, `ValueError: text`,
`name : type`, in the forms Google, NumPy and torch's docstrings use.

Each parser takes one stripped line and returns (name, type, the description's first
line), or None when the line does not read as such a head.  Only small linear
regexes and linear scans of the line: hostile text never costs more.
"""

from __future__ import annotations

import re

Head = tuple[str, str, str]  # name, type, the description's first line

#: `x`, `*args`, `\*\*kwargs`, ``` ``x`` ```, and lists of them: `x, y`
_NAME = r"`{0,2}(?:\\?\*){0,2}[A-Za-z_][\w.]*`{0,2}"
_NAMES_PATTERN = rf"{_NAME}(?:[ \t]*,[ \t]*{_NAME})*"
_NAMES = re.compile(_NAMES_PATTERN)
#: `x (int): text`, `x [int] - text`; the first `)` before the separator closes the
#: type, so a type with unbalanced brackets (a common typo) still parses
_TYPED_HEAD = re.compile(
    rf"({_NAMES_PATTERN})[ \t]*(?:\((.*?)\)|\[(.*?)\])[ \t]*(?::|--?)(?:[ \t]+(.*))?"
)
#: `name (type): text` in a Returns section, where `List[int]: text` is a type, not a name
_NAMED_RETURN = re.compile(rf"({_NAMES_PATTERN})[ \t]*\((.*?)\)[ \t]*:(?:[ \t]+(.*))?")
_LOOSE_TYPED_HEAD = re.compile(rf"({_NAMES_PATTERN})[ \t]*\((.*?)\)(?:[ \t]+(.*))?")
_DASHED_HEAD = re.compile(rf"({_NAMES_PATTERN})[ \t]+--?[ \t]+(.*)")
_EXCEPTION_ONE = r"(?:!?~?[A-Za-z_][\w.]*|:\w+:`!?~?[\w.]+`|``[\w.]+``|`[\w.]+`)"
_EXCEPTION_PATTERN = rf"{_EXCEPTION_ONE}(?:[ \t]*(?:,|\bor\b|\|)[ \t]*{_EXCEPTION_ONE})*"
_EXCEPTION = re.compile(_EXCEPTION_PATTERN)
_DASHED_RAISE = re.compile(rf"({_EXCEPTION_PATTERN})[ \t]+--?[ \t]+(.*)")
_ROLE = re.compile(r":[\w.+-]{1,40}(?::[\w.+-]{1,40}){0,3}:(?=`)")
#: first words of prose that ends in a colon ("A tuple containing:") rather than a type
_PROSE_STARTS = frozenset(
    {"a", "an", "the", "if", "when", "this", "these", "it", "returns", "return", "where"}
)
_MAX_TYPE_WORDS = 6
#: lower-case words a written-out type is made of ("tuple of ints", "int or None")
_TYPE_WORDS = (
    frozenset({"a", "an", "of", "or", "and", "to", "any", "none", "optional", "object", "type"})
    | frozenset({"int", "ints", "float", "floats", "str", "string", "strings", "bytes", "complex"})
    | frozenset({"bool", "bools", "boolean", "number", "list", "lists", "dict", "dicts", "set"})
    | frozenset({"tuple", "tuples", "sets", "frozenset", "callable", "iterable", "iterator"})
    | frozenset({"generator", "sequence", "mapping", "function", "tensor", "tensors", "array"})
    | frozenset({"arrays", "ndarray", "module", "dtype", "device"})
)
_CODE_SPAN = re.compile(r"`[^`]*`")


def split_on_colon(text: str) -> tuple[str, str] | None:
    """Text before and after the first colon that ends a field's head.

    Colons inside brackets, inline code and roles such as :class:`x` do not count,
    nor does one glued to the next word (`http://`, `a:b`).
    """
    depth, i = 0, 0
    while i < len(text):
        char = text[i]
        if char == "`":
            fence = "``" if text.startswith("``", i) else "`"
            close = text.find(fence, i + len(fence))
            i = close + len(fence) if close >= 0 else i + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == ":":
            role = _ROLE.match(text, i)
            if role is not None:
                i = role.end()
                continue
            if depth == 0 and (i + 1 == len(text) or text[i + 1] in " \t"):
                return text[:i].strip(), text[i + 1 :].strip()
        i += 1
    return None


def looks_like_type(text: str) -> bool:
    """Whether text before a colon reads as a type ("List[int]", "int or None") and not prose.

    Napoleon takes whatever precedes the first colon of a Returns section as its
    type; in real docstrings that is as often the start of a sentence.
    """
    if not text or len(text) > 120 or text[0] in "-*+" or text.startswith(".. "):
        return False
    if text.endswith(".") and not text.endswith("..."):
        return False
    outside: list[str] = []
    depth = 0
    for char in _CODE_SPAN.sub("T", text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            outside.append(char)
    bare = "".join(outside)
    words = bare.replace(",", " ").split()
    if not 0 < len(words) <= _MAX_TYPE_WORDS or ". " in bare:
        return False
    if words[0].lower() in _PROSE_STARTS:
        return False
    return len(words) == 1 or all(_is_type_word(word) for word in words)


def _is_type_word(word: str) -> bool:
    return word.lower() in _TYPE_WORDS or any(c.isupper() or c in "_.|0123456789" for c in word)


def clean_name(name: str) -> str:
    return name.replace("`", "").replace("\\*", "*")


def google_param(line: str) -> Head | None:
    """`x (int): text`, `x: text`; also `x - text` and `x (int) text`, both common in torch."""
    typed = _TYPED_HEAD.fullmatch(line)
    if typed is not None:
        type_ = typed.group(2) if typed.group(2) is not None else typed.group(3)
        return clean_name(typed.group(1)), type_.strip(), typed.group(4) or ""
    split = split_on_colon(line)
    if split is not None and _NAMES.fullmatch(split[0]):
        return clean_name(split[0]), "", split[1]
    dashed = _DASHED_HEAD.fullmatch(line)
    if dashed is not None:
        return clean_name(dashed.group(1)), "", dashed.group(2)
    loose = _LOOSE_TYPED_HEAD.fullmatch(line)
    if loose is not None:
        return clean_name(loose.group(1)), loose.group(2).strip(), loose.group(3) or ""
    return None


def google_return(line: str) -> Head | None:
    """`type: text` (what Napoleon reads), or `name (type): text`; None for prose."""
    named = _NAMED_RETURN.fullmatch(line)
    if named is not None:
        return clean_name(named.group(1)), named.group(2).strip(), named.group(3) or ""
    split = split_on_colon(line)
    if split is None or not looks_like_type(split[0]):
        return None
    return "", split[0], split[1]


def raise_head(line: str) -> Head | None:
    """`ValueError: text`, `ValueError - text`, or a capitalised `ValueError` alone."""
    split = split_on_colon(line)
    if split is not None and _EXCEPTION.fullmatch(split[0]):
        return split[0], "", split[1]
    dashed = _DASHED_RAISE.fullmatch(line)
    if dashed is not None:
        return dashed.group(1), "", dashed.group(2)
    if _EXCEPTION.fullmatch(line) and (line[:1].isupper() or line[:1] in ":`~!"):
        return line, "", ""
    return None


def numpy_param(line: str) -> Head | None:
    """`x : int`, `x`; else the Google forms, which NumPy-headed docstrings often hold."""
    split = split_on_colon(line)
    if split is not None and _NAMES.fullmatch(split[0]):
        return clean_name(split[0]), split[1], ""
    if split is None and _NAMES.fullmatch(line):
        return clean_name(line), "", ""
    return google_param(line)


def numpy_return(line: str) -> Head | None:
    """`name : type`, or a type alone; None for prose."""
    split = split_on_colon(line)
    if split is not None and _NAMES.fullmatch(split[0]) and split[1]:
        return clean_name(split[0]), split[1], ""
    return ("", line, "") if split is None and looks_like_type(line) else None
