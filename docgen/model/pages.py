"""docgen's own pages as files: how one is recognised by its head, and the stamp that
tells whether it is still as docgen left it."""

from __future__ import annotations

import os

#: The program name docgen writes in its pages' front matter
#: (`generator: "docgen X.Y.Z"`); a page carrying it is never documented.
GENERATOR_NAME = "docgen"
#: How much of a `.md` file is read to recognise a docgen page.  The front
#: matter puts `source:` (a path, up to 4096 bytes) before `generator:`, so
#: 512 bytes would miss pages of deeply nested files.
PAGE_HEAD_BYTES = 8192


def is_docgen_page(head: bytes) -> bool:
    """True when `head` opens with front matter whose `generator:` names docgen.

    The name must end at a space, quote or line end, so `generator: docgenius`
    (someone else's tool) does not hide a user's file.
    """
    lines = head.split(b"\n")
    if lines[0].rstrip(b"\r") != b"---":
        return False
    name = GENERATOR_NAME.encode()
    for raw in lines[1:]:
        line = raw.rstrip(b"\r")
        if line == b"---":
            return False
        if not line.startswith(b"generator:"):
            continue
        value = line[len(b"generator:") :].lstrip(b" ")
        value = value.removeprefix(b'"').removeprefix(b"'")
        if value.startswith(name) and value[len(name) : len(name) + 1] in (b"", b" ", b'"', b"'"):
            return True
    return False


def stamp_of(st: os.stat_result) -> str:
    """Size and modification time of a written file, to notice later edits cheaply."""
    return f"{st.st_size}:{st.st_mtime_ns}"


def as_left(root: str, rel: str, stamp: str) -> bool:
    """Whether the page `rel` under `root` (ending in a separator) is on disk with the
    stamp docgen recorded when it wrote it."""
    try:
        return stamp_of(os.stat(root + rel)) == stamp
    except OSError:
        return False
