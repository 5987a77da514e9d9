"""Objective-C declarations in C and C++ headers, set aside before the parse.

torch's Metal and Core ML headers (`ATen/mps/`, `jit/backends/coreml/objc/`) hold
Objective-C: `@interface Name : Base ... @end`, `@protocol`, `@class Name;`.  No grammar
docgen has reads it, and the C++ grammar read each such line as a syntax error, which
the page then blamed on a macro.  Each block is blanked (every offset and line kept),
so that the C++ around it parses, and is reported with its lines: the page says what
was not read, and why.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from docgen.scan.cfamily.preprocess.source import BLANKED

#: a block's first line: `@interface Name : Base`, `@protocol Name <Other>`, ... (a line
#: that ends in `;` declares ahead, `@protocol Name;`, and opens no block)
_OPENING = re.compile(rb"^[ \t]*@(?:interface|protocol|implementation)\b[^\n;]*$", re.M)
#: the line that ends it
_END = re.compile(rb"^[ \t]*@end\b[^\n]*", re.M)
#: a forward declaration: `@class Name;`, `@protocol Name;`
_FORWARD = re.compile(rb"^[ \t]*@(?:class|protocol)\b[^\n;{@]*;[^\n]*", re.M)


class ObjcBlock(NamedTuple):
    """Objective-C the grammar was not given: its first and last line and its head."""

    line: int
    end_line: int
    head: str  # the first line as written, e.g. `@interface PTMCoreMLExecutor : NSObject`


def objective_c_blanked(data: bytes) -> tuple[bytes, tuple[ObjcBlock, ...]]:
    """`data` with each Objective-C block (`@interface`/`@protocol`/`@implementation` to
    its `@end`) and forward declaration blanked, and those blocks; the same bytes when
    there is none (nearly every file)."""
    if b"@" not in data or (
        b"@end" not in data and b"@class" not in data and b"@protocol" not in data
    ):
        return data, ()
    spans: list[tuple[int, int]] = []
    at = 0
    while (opening := _OPENING.search(data, at)) is not None:
        end = _END.search(data, opening.end())
        if end is None:  # never closed: not an Objective-C block after all
            break
        spans.append((opening.start(), end.end()))
        at = end.end()
    inside = [*spans]
    for forward in _FORWARD.finditer(data):
        if not any(start <= forward.start() < stop for start, stop in inside):
            spans.append(forward.span())
    if not spans:
        return data, ()
    out = bytearray(data)
    blocks: list[ObjcBlock] = []
    for start, stop in sorted(spans):
        out[start:stop] = data[start:stop].translate(BLANKED)
        head = data[start:stop].split(b"\n", 1)[0].strip()
        line = data.count(b"\n", 0, start) + 1
        end_line = line + data.count(b"\n", start, stop)
        blocks.append(ObjcBlock(line, end_line, head.decode("utf-8", "replace")))
    return bytes(out), tuple(blocks)
