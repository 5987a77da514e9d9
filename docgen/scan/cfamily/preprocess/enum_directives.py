"""`#define` and `#undef` among an enum's enumerators: the X-macros that list them.

The grammars admit a conditional among an enum's enumerators but no other directive,
so `enum class Tag { #define DEFINE_TAG(x) x, TORCH_FORALL_TAGS(DEFINE_TAG) #undef
DEFINE_TAG };` (ten headers of torch's `ATen/core`, `c10` and `jit`) reads as syntax
errors around the enumerators after them.  Those directive lines are blanked for the
parse, offsets kept, and the macros they define are read from a second parse of
those lines alone, where they stand as at file scope (see `cfamily.scan`).
"""

from __future__ import annotations

import re

from docgen.scan.cfamily.preprocess.grammar_gaps import closing_brace
from docgen.scan.cfamily.preprocess.source import (
    BLANKED,
    Directives,
    directive_end,
    directives_matching,
    whole_word_matches,
)

#: an enum's head up to its body's brace (`enum class Tag : uint32_t {`)
_ENUM_HEAD = re.compile(rb"enum\b[^;{}()=]*\{")
_DIRECTIVE = re.compile(rb"#[ \t]*(?:define|undef)\b")


def enum_directives_blanked(parsed: bytes) -> tuple[bytes, tuple[tuple[int, bytes], ...]]:
    """`parsed` with the `#define` and `#undef` lines inside enum bodies blanked, and
    each such directive as it was (its offset, its bytes): the same bytes and none when
    there is none (most files)."""
    if b"enum" not in parsed or b"#" not in parsed:
        return parsed, ()
    directives = Directives(parsed)
    taken: list[tuple[int, bytes]] = []
    done = 0  # where the last enum body read ends
    for head in whole_word_matches(_ENUM_HEAD, parsed):
        opened = head.end() - 1
        if opened < done:
            continue  # inside the last body
        closed = closing_brace(parsed, opened)
        if closed is None or parsed.find(b"#", opened, closed) < 0:
            continue  # most bodies hold no directive
        if directives.holds(head.start()):
            continue  # a macro's own text
        for found in directives_matching(_DIRECTIVE, parsed, opened + 1):
            if found.start() > closed:
                break
            start = found.start()
            taken.append((start, parsed[start : directive_end(parsed, start)]))
        done = closed
    if not taken:
        return parsed, ()
    out = bytearray(parsed)
    for start, text in taken:
        out[start : start + len(text)] = text.translate(BLANKED)
    return bytes(out), tuple(taken)


def directives_alone(parsed: bytes, taken: tuple[tuple[int, bytes], ...]) -> bytes:
    """`parsed` blanked but for the directives taken out of enum bodies, each back in
    its place: what the second parse reads."""
    out = bytearray(parsed.translate(BLANKED))
    for start, text in taken:
        out[start : start + len(text)] = text
    return bytes(out)
