"""Writing and removing below docgen's own folders without ever following a link.

A repository may commit a symbolic link where docgen writes (`OUT/_x -> /etc`,
`SITE/_search -> ..`); following it would write or delete outside docgen's
folders.  Every path below a `Tree`'s root is reached one component at a time
through open folder descriptors (`openat` with `O_NOFOLLOW`), so a link in the
way is refused, never followed, and a folder swapped for a link while docgen
works changes nothing: the descriptor still names the real folder.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from docgen.model.errors import DocgenError
from docgen.system.atomic import publish

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
#: Open folder descriptors a tree keeps at once (pages come in path order, so few).
_KEPT_FOLDERS = 64


class LinkInTheWay(DocgenError):
    """A symbolic link (or a file) stands where docgen's folder or file should be."""


def link_refusal(path: Path | str) -> LinkInTheWay:
    return LinkInTheWay(
        f"{path} is a symbolic link or not a folder where docgen writes; "
        "docgen never writes through a link: remove it, or choose another folder"
    )


def first_link_inside(repo: Path, path: Path) -> Path | None:
    """The first symbolic link on the way to `path` that lies inside `repo` (one the
    repository itself holds, perhaps committed), or None.  Links outside it (the
    user's own, such as `/tmp -> /private/tmp`) are followed."""
    current = Path(path.anchor)
    for part in path.parts[1:]:
        current = current / part
        if current.is_symlink():
            real_parent = current.parent.resolve()
            if real_parent == repo or repo in real_parent.parents:
                return current
            current = current.resolve()
    return None


def parts_of(rel: str) -> list[str]:
    """The components of a relative path docgen writes; refused when it could leave
    its folder (absolute, `..`, NUL)."""
    parts = [p for p in rel.replace(os.sep, "/").split("/") if p not in ("", ".")]
    if os.path.isabs(rel) or ".." in parts or "\0" in rel or not parts:
        raise DocgenError(f"refusing to write outside the output folder or the site: {rel!r}")
    return parts


class Tree:
    """A folder docgen writes into, every path below it reached without a link.

    The root itself must not be a link.  Folder descriptors are kept (a bounded
    number) so that writing many pages of one folder opens it once."""

    def __init__(self, root: Path, create: bool = True) -> None:
        self.root = root
        if create:
            root.mkdir(parents=True, exist_ok=True)
        try:
            self._root_fd = os.open(root, _DIR_FLAGS)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise link_refusal(root) from exc
            raise
        self._folders: dict[str, int] = {}
        self._pinned: dict[str, int] = {}

    def close(self) -> None:
        for fd in (*self._folders.values(), *self._pinned.values()):
            os.close(fd)
        self._folders.clear()
        self._pinned.clear()
        os.close(self._root_fd)

    def __enter__(self) -> Tree:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def pinned_folder(self, rel: str) -> int:
        """The descriptor of folder `rel`, made when missing and kept open until the tree
        closes: opening other folders never closes it (a kept one may be closed when
        their number reaches the bound)."""
        held = self._pinned.get(rel)
        if held is None:
            fd = self.folder(rel)
            assert fd is not None
            held = self._pinned[rel] = os.dup(fd)
        return held

    def folder(self, rel: str, create: bool = True) -> int | None:
        """The descriptor of folder `rel` ("" for the root); None when it is missing and
        not to be made.  LinkInTheWay when a component is a link or a file."""
        if rel in ("", "."):
            return self._root_fd
        held = self._folders.get(rel)
        if held is not None:
            return held
        fd = self._root_fd
        opened: list[int] = []
        try:
            for part in parts_of(rel):
                below = self._open_below(fd, part, create, rel)
                if below is None:  # missing, and not to be made
                    for each in opened:
                        os.close(each)
                    return None
                fd = below
                opened.append(fd)
        except BaseException:
            for each in opened:
                os.close(each)
            raise
        for each in opened[:-1]:
            os.close(each)
        if len(self._folders) >= _KEPT_FOLDERS:
            for old in self._folders.values():
                os.close(old)
            self._folders.clear()
        self._folders[rel] = fd
        return fd

    def _open_below(self, parent: int, part: str, create: bool, rel: str) -> int | None:
        """Folder `part` of the folder `parent` opens (made first when missing and
        `create`), never through a link; None when it is missing and not to be made."""
        for attempt in range(2):
            try:
                return os.open(part, _DIR_FLAGS, dir_fd=parent)
            except FileNotFoundError:
                if not create or attempt:
                    return None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=parent)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise link_refusal(self.root / rel) from exc
                raise
        return None

    def _place(self, rel: str, create: bool) -> tuple[int | None, str]:
        parts = parts_of(rel)
        return self.folder("/".join(parts[:-1]), create), parts[-1]

    def lstat(self, rel: str) -> os.stat_result | None:
        """The status of `rel` itself (a link is not followed), None when missing."""
        fd, name = self._place(rel, create=False)
        if fd is None:
            return None
        try:
            return os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def read(self, rel: str, limit: int = -1) -> bytes | None:
        """The bytes of regular file `rel` (its first `limit`), None when it is missing,
        a link or not a file."""
        fd, name = self._place(rel, create=False)
        if fd is None:
            return None
        try:
            flags = (
                os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
            )  # a FIFO never blocks
            handle = os.open(name, flags, dir_fd=fd)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                return None
            with os.fdopen(handle, "rb", closefd=False) as stream:
                return stream.read(limit)
        finally:
            os.close(handle)

    def write(self, rel: str, data: bytes, mode: int = 0o644) -> os.stat_result:
        """Put `data` at `rel` through a temporary file beside it and a rename; refused
        when a link or a folder stands there."""
        fd, name = self._place(rel, create=True)
        assert fd is not None
        self._refuse_link(fd, name, rel)
        temp = f".{name[:40]}.{os.getpid()}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        return publish(os.open(temp, flags, mode, dir_fd=fd), temp, name, data, fd, fd)

    def move_in(self, source: Tree, source_rel: str, rel: str) -> None:
        """Rename file `source_rel` of tree `source` (on the same file system) to `rel`."""
        from_fd, from_name = source._place(source_rel, create=False)
        if from_fd is None:
            raise FileNotFoundError(source.root / source_rel)
        from_fd = os.dup(from_fd)  # opening the target's folder may close a kept one
        try:
            fd, name = self._place(rel, create=True)
            assert fd is not None
            self._refuse_link(fd, name, rel)
            os.replace(from_name, name, src_dir_fd=from_fd, dst_dir_fd=fd)
        finally:
            os.close(from_fd)

    def _refuse_link(self, fd: int, name: str, rel: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            if not stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                raise link_refusal(self.root / rel)

    def unlink(self, rel: str) -> bool:
        """Remove regular file `rel` (never a link's target, never a folder); whether it
        was there to remove.  The folders it leaves empty go too."""
        try:
            fd, name = self._place(rel, create=False)
        except LinkInTheWay:
            return False
        if fd is None:
            return False
        try:
            if not stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                return False
            os.unlink(name, dir_fd=fd)
        except FileNotFoundError:
            return False
        self.remove_empty_parents(rel)
        return True

    def remove_empty_parents(self, rel: str) -> None:
        """Remove the folders above `rel` that are empty, up to (not including) the root."""
        parts = parts_of(rel)[:-1]
        while parts:
            folder = "/".join(parts)
            held = self._folders.pop(folder, None)
            if held is not None:
                os.close(held)
            parent = self.folder("/".join(parts[:-1]), create=False)
            if parent is None:
                return
            try:
                os.rmdir(parts[-1], dir_fd=parent)
            except OSError:
                return
            parts.pop()

    def _existing_folder(self, rel: str) -> int | None:
        """Folder `rel`'s descriptor; None when it is missing or a link is on its way."""
        try:
            return self.folder(rel, create=False)
        except LinkInTheWay:
            return None

    def remove_folder(self, rel: str) -> None:
        """Remove folder `rel` of docgen's own with the files and folders below it; a link
        below it is removed as a name, never followed."""
        fd = self._existing_folder(rel)
        if fd is None:
            return
        for name in os.listdir(fd):
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISDIR(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                    self.remove_folder(f"{rel}/{name}")
                    fd = self.folder(rel, create=False)  # a deeper folder may close it
                    assert fd is not None
                else:
                    os.unlink(name, dir_fd=fd)
        parts = parts_of(rel)
        held = self._folders.pop(rel, None)
        if held is not None:
            os.close(held)
        parent = self.folder("/".join(parts[:-1]), create=False)
        if parent is not None:
            with contextlib.suppress(OSError):
                os.rmdir(parts[-1], dir_fd=parent)

    def files(self, rel: str = "") -> Iterator[str]:
        """Every regular file below folder `rel`, relative to the root, in path order;
        links are neither listed nor followed."""
        fd = self._existing_folder(rel)
        if fd is None:
            return
        prefix = f"{rel}/" if rel not in ("", ".") else ""
        entries = []
        for name in sorted(os.listdir(fd)):  # read whole before a deeper folder is opened
            try:
                entries.append((name, os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode))
            except FileNotFoundError:
                continue
        for name, mode in entries:
            if stat.S_ISREG(mode):
                yield prefix + name
            elif stat.S_ISDIR(mode):
                yield from self.files(prefix + name)

    def link(self, rel: str, link_rel: str) -> None:
        """A hard link at `link_rel` to regular file `rel` (OSError where the file system
        makes none)."""
        fd, name = self._place(rel, create=False)
        if fd is None:
            raise FileNotFoundError(self.root / rel)
        fd = os.dup(fd)
        try:
            to_fd, to_name = self._place(link_rel, create=True)
            os.link(name, to_name, src_dir_fd=fd, dst_dir_fd=to_fd, follow_symlinks=False)
        finally:
            os.close(fd)
