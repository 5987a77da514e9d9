"""Repository-wide lookups the pages need again and again, computed once per build.

A docs page lists its folder's files and a folder page counts its subtree;
asking the index afresh for each page would cost time quadratic in the size of
the largest folder.
"""

from __future__ import annotations

from collections import Counter

from docgen.facts import ScannedFile, Tag
from docgen.index import FolderEntry, RepoIndex
from docgen.links import folder_of, parent_folders


def page_tags(scanned: ScannedFile) -> tuple[Tag, ...]:
    """The file's tags, sorted by name; a Markdown file is documentation, never a test."""
    tags = {t.name: t for t in scanned.analysis.tags}
    if scanned.facts.kind == "markdown":
        tags.pop("test", None)
    return tuple(tags[name] for name in sorted(tags))


class RepoLookup:
    """The index plus per-folder lists and counts; read-only after construction."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        documented: dict[str, list[str]] = {}
        self._tree_kinds: dict[str, Counter[str]] = {}
        self._tree_tags: dict[str, Counter[str]] = {}
        for path, scanned in index.files.items():
            if scanned.facts.kind != "binary":
                documented.setdefault(folder_of(path), []).append(path)
            tags = [t.name for t in page_tags(scanned)]
            for folder in parent_folders(path):
                self._tree_kinds.setdefault(folder, Counter())[scanned.facts.kind] += 1
                self._tree_tags.setdefault(folder, Counter()).update(tags)
        self._documented = {folder: tuple(sorted(paths)) for folder, paths in documented.items()}

    def folder(self, folder: str) -> FolderEntry:
        return self.index.folders.get(folder) or FolderEntry(folder, (), ())

    def documented_in(self, folder: str) -> tuple[str, ...]:
        """Files directly in `folder` that have pages, sorted."""
        return self._documented.get(folder, ())

    def tree_kinds(self, folder: str) -> Counter[str]:
        """Files by kind in the folder and everything below it."""
        return self._tree_kinds.get(folder, Counter())

    def tree_tags(self, folder: str) -> Counter[str]:
        return self._tree_tags.get(folder, Counter())
