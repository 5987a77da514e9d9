"""Where pages live and how one page links to another.

Pages mirror the repository: `P` gets `P_docs.md` and `P_kw.md`, a folder `D`
gets `D/index.md` and `D/doc.md`.  Links are relative, percent-encoded so that
spaces, `#`, `%`, brackets, parentheses, backticks and non-ASCII letters work,
and anchors are GitHub-style heading slugs.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable
from urllib.parse import quote

DOCS_SUFFIX = "_docs.md"
KW_SUFFIX = "_kw.md"
FOLDER_INDEX = "index.md"
FOLDER_DOC = "doc.md"


#: The longest name a file system allows for one folder entry, in bytes.
NAME_MAX = 255
#: The most docgen adds to a file's name: its site page, `P_docs.html`.
LONGEST_SUFFIX = len("_docs.html")


def page_stem(source: str) -> str:
    """What a file's pages are named after: its path, or where its name is too long to
    take docgen's suffixes within NAME_MAX, the name's first bytes and a digest of the
    whole name (`averylong…name~1a2b3c4d5e6f`), the same in every build."""
    folder, _, name = source.rpartition("/")
    raw = name.encode("utf-8", "surrogateescape")
    if len(raw) + LONGEST_SUFFIX <= NAME_MAX:
        return source
    digest = hashlib.sha256(raw).hexdigest()[:12]
    kept = raw[: NAME_MAX - LONGEST_SUFFIX - len(digest) - 1].decode("utf-8", "ignore")
    return f"{folder}/{kept}~{digest}" if folder else f"{kept}~{digest}"


def docs_page(source: str) -> str:
    return page_stem(source) + DOCS_SUFFIX


def kw_page(source: str) -> str:
    return page_stem(source) + KW_SUFFIX


def folder_of(path: str) -> str:
    """The repo-relative folder of a path ("" for the root); paths are normalised, so
    this is `posixpath.dirname` without its checks (it is asked for every file often)."""
    return path.rpartition("/")[0]


def folder_page(folder: str, name: str) -> str:
    return posixpath.join(folder, name) if folder else name


def folder_index(folder: str) -> str:
    return folder_page(folder, FOLDER_INDEX)


def folder_doc(folder: str) -> str:
    return folder_page(folder, FOLDER_DOC)


def parent_folders(path: str) -> list[str]:
    """Every folder above a repo-relative path, the root ("") first."""
    parts = path.split("/")[:-1]
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def folder_chain(folder: str) -> list[str]:
    """A folder and every folder above it, the root ("") first."""
    return parent_folders(f"{folder}/") if folder else [""]


#: Paths made only of characters that `encode_path` leaves as they are.
_PLAIN_PATH = re.compile(r"[A-Za-z0-9/_.~-]*")


def encode_path(path: str) -> str:
    """Percent-encode a relative path for a Markdown link destination."""
    if _PLAIN_PATH.fullmatch(path):  # most paths: nothing to encode
        return path
    return quote(path, safe="/-_.~")


def page_folder(from_page: str) -> tuple[str, ...]:
    """The parts of the folder of an output page, as `relative_from` takes them."""
    start = posixpath.normpath(posixpath.dirname(from_page) or ".")
    return () if start == "." else tuple(start.split("/"))


def relative(from_page: str, to_path: str) -> str:
    """The relative path from the folder of `from_page` to `to_path`, purely lexical.

    Both are relative to the output root; `to_path` may climb above it (links
    to sources do).  `posixpath.relpath` would resolve such paths against the
    current directory, so both are rooted under a prefix deeper than any `..`.
    """
    return relative_from(page_folder(from_page), to_path)


def relative_from(start_parts: tuple[str, ...], to_path: str) -> str:
    """`relative` from a page folder already split (a page links to many places)."""
    target = posixpath.normpath(to_path or ".")
    target_parts = [] if target == "." else target.split("/")
    if ".." in start_parts:  # a page above the output root: let relpath sort it out
        depth = max(start_parts.count(".."), target_parts.count("..")) + 1
        root = "/" + "/".join(["r"] * depth)
        start = "/".join(start_parts)
        return posixpath.relpath(posixpath.join(root, target), posixpath.join(root, start))
    common = 0
    for a, b in zip(start_parts, target_parts, strict=False):
        if a != b:
            break
        common += 1
    return "/".join([".."] * (len(start_parts) - common) + target_parts[common:]) or "."


def href(from_page: str, to_path: str, anchor: str = "") -> str:
    """A link destination from one output page to another output path."""
    target = encode_path(relative(from_page, to_path))
    if anchor:
        target += "#" + quote(anchor, safe="-_")
    return target


_NOT_SLUG = re.compile(r"[^\w\- ]", re.UNICODE)


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


class Slugger:
    """Hands out unique slugs in page order, as GitHub numbers repeated headings."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._seen: dict[str, int] = {}
        for existing in taken:
            self.claim(existing)

    def claim(self, text: str) -> str:
        return self.claim_slug(slug(text))

    def claim_slug(self, base: str) -> str:
        """`claim` for a text whose slug is already made."""
        count = self._seen.get(base)
        if count is None:
            self._seen[base] = 0
            return base
        while True:
            count += 1
            candidate = f"{base}-{count}"
            if candidate not in self._seen:
                self._seen[base] = count
                self._seen[candidate] = 0
                return candidate
