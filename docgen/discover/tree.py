"""Which files of a repository get documented, and why the others do not.

Inside a git work tree git decides (tracked plus untracked-but-not-ignored
files), so docgen agrees with `git status`.  Elsewhere a plain walk applies
every `.gitignore` with git's rules through `pathspec`.  Either way each
candidate is checked with `lstat` before anything is opened: links leaving the
repository, FIFOs, devices and sockets are reported in `skipped` and never
opened, directory links are never followed (so no cycles), and docgen's own
pages are recognised by their front matter and left alone.

File names that are not valid UTF-8 are skipped with a reason rather than
carried as surrogate-escaped strings: every page is UTF-8 text, so such a
name could be neither written into a page nor linked.  The skipped entry shows
the name with U+FFFD in place of the undecodable bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from docgen.discover.git_listing import Candidate, git_candidates
from docgen.discover.gitignore import IgnoreFile, is_ignored, read_gitignore
from docgen.model.pages import PAGE_HEAD_BYTES, is_docgen_page
from docgen.model.sources import Discovery, Skipped, SourceFile

REASON_OUTSIDE = "symlink to a place outside the repository"
REASON_LEFT_OUT_TARGET = "symlink into a left-out folder (.git or the output folder)"
REASON_LINK_TO_FOLDER = "symlink to a folder"
REASON_BROKEN_LINK = "broken symlink"
REASON_LINK_LOOP = "symlink loop"
REASON_DOCGEN_PAGE = "docgen output page"
REASON_BAD_NAME = "file name is not valid UTF-8"
REASON_SUBMODULE = "git submodule"
REASON_NESTED_REPO = "nested git repository"


@dataclass(frozen=True)
class _Root:
    """The repository as given (for abs_path) and as resolved (for containment checks)."""

    given: str
    real: str
    left_out: tuple[str, ...]  # repo-relative folder prefixes never scanned; "." means all
    #: the real user id, whose read access `os.access` checks (-1 where there is none)
    reader: int = -1

    @cached_property
    def _prefix(self) -> str:
        return os.path.join(self.given, "")

    def path_of(self, rel: str) -> str:
        """The path of a repo-relative "/" path as given: one concatenation, for each of
        the tens of thousands of files every build lists, where `os.path.join` is four
        times as slow."""
        return self._prefix + rel.replace("/", os.sep)


def discover(
    repo: Path,
    exclude_dirs: Sequence[Path] = (),
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    committed_only: bool = False,
) -> Discovery:
    """List the files to document under `repo` and the ones skipped, both sorted by path.

    `include` and `exclude` are the configuration's gitignore-style patterns: a file
    is documented when it matches an include pattern (or there are none) and no
    exclude pattern.  Left-out files are never opened.  `committed_only`: in a git
    work tree, only the files of git's index (see `git_candidates`).
    """
    selected = _selection(include, exclude)
    root = _Root(
        given=os.path.abspath(repo),
        real=os.path.realpath(repo),
        left_out=_left_out_prefixes(repo, exclude_dirs),
        reader=os.getuid() if hasattr(os, "getuid") else -1,
    )
    skipped: list[Skipped] = []
    listed = git_candidates(root.given, committed_only)
    used_git = listed is not None
    if listed is None:
        candidates, walk_skipped = _walk_candidates(root)
        skipped.extend(walk_skipped)
    else:
        candidates = [c for c in listed if not _is_left_out(c.path, root.left_out)]

    files: list[SourceFile] = []
    for candidate in candidates:
        if selected is not None and not selected(candidate.path):
            continue
        result = _examine(root, candidate)
        if isinstance(result, SourceFile):
            files.append(result)
        elif isinstance(result, Skipped):
            skipped.append(result)
    files.sort(key=lambda f: f.path)
    skipped.sort(key=lambda s: (s.path, s.reason))
    return Discovery(files=tuple(files), skipped=tuple(skipped), used_git=used_git)


# --- what is left out -------------------------------------------------------


def _selection(include: Sequence[str], exclude: Sequence[str]) -> Callable[[str], bool] | None:
    """Whether a repo-relative path is chosen by the configuration; None: every path."""
    if not include and not exclude:
        return None
    import pathspec  # loaded only for patterns (see `docgen.discover.gitignore`)

    wanted = pathspec.GitIgnoreSpec.from_lines(include) if include else None
    unwanted = pathspec.GitIgnoreSpec.from_lines(exclude) if exclude else None

    def chosen(path: str) -> bool:
        if wanted is not None and not wanted.match_file(path):
            return False
        return unwanted is None or not unwanted.match_file(path)

    return chosen


def _left_out_prefixes(repo: Path, exclude_dirs: Sequence[Path]) -> tuple[str, ...]:
    """Each excluded folder as a repo-relative prefix, matched both as written and resolved.

    Both forms are needed because the repository or the output folder may be
    reached through a symlink.
    """
    bases = ((os.path.abspath(repo), os.path.abspath), (os.path.realpath(repo), os.path.realpath))
    prefixes: set[str] = set()
    for folder in exclude_dirs:
        for base, resolve in bases:
            try:
                rel = os.path.relpath(resolve(folder), base)
            except ValueError:  # another drive on Windows: cannot be inside
                continue
            if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                prefixes.add(Path(rel).as_posix())
    return tuple(sorted(prefixes))


#: Folders never documented: git's own, and docgen's state folder of any output
#: folder (an earlier build into another place may have left one in the tree).
ALWAYS_LEFT_OUT = frozenset({".git", ".docgen"})


def _is_left_out(path: str, left_out: Iterable[str]) -> bool:
    if not ALWAYS_LEFT_OUT.isdisjoint(path.split("/")):
        return True
    return any(p == "." or path == p or path.startswith(p + "/") for p in left_out)


# --- git ---------------------------------------------------------------------


# --- plain walk --------------------------------------------------------------


def _walk_candidates(root: _Root) -> tuple[list[Candidate], list[Skipped]]:
    """Walk without following folder links, pruning .git, left-out and ignored folders."""
    candidates: list[Candidate] = []
    skipped: list[Skipped] = []
    stack: list[tuple[str, tuple[IgnoreFile, ...]]] = [("", ())]
    while stack:
        rel_dir, ignores = stack.pop()
        abs_dir = os.path.join(root.given, rel_dir) if rel_dir else root.given
        try:
            with os.scandir(abs_dir) as it:
                entries = sorted(it, key=lambda e: e.name)
        except FileNotFoundError:
            continue
        except OSError as exc:
            skipped.append(Skipped(_display(rel_dir) or ".", f"unreadable: {exc.strerror}"))
            continue
        own = read_gitignore(abs_dir, rel_dir)
        if own is not None:
            ignores = (*ignores, own)
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if _is_left_out(rel, root.left_out):
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False  # let _examine report it
            if is_ignored(rel, is_dir, ignores):
                continue
            if is_dir and _valid_name(rel):
                stack.append((rel, ignores))
            else:
                candidates.append(Candidate(rel))
    return candidates, skipped


# --- one candidate -----------------------------------------------------------


def _examine(root: _Root, candidate: Candidate) -> SourceFile | Skipped | None:
    """Classify one listed path; None means it vanished and is dropped silently."""
    rel = candidate.path
    if not _valid_name(rel):
        return Skipped(_display(rel), REASON_BAD_NAME)
    abs_path = root.path_of(rel)
    try:
        st = os.lstat(abs_path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Skipped(rel, f"unreadable: {exc.strerror}")

    open_path = abs_path
    if stat.S_ISLNK(st.st_mode):
        target = os.path.realpath(abs_path)
        target_rel = _inside(root.real, target)
        if target_rel is None:
            return Skipped(rel, REASON_OUTSIDE)
        if _is_left_out(target_rel, root.left_out):
            return Skipped(rel, REASON_LEFT_OUT_TARGET)
        try:
            st = os.stat(abs_path)
        except FileNotFoundError:
            return Skipped(rel, REASON_BROKEN_LINK)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return Skipped(rel, REASON_LINK_LOOP)
            return Skipped(rel, f"unreadable: {exc.strerror}")
        if stat.S_ISDIR(st.st_mode):
            return Skipped(rel, REASON_LINK_TO_FOLDER)
        open_path = target  # read what was checked, not whatever the link points at later
    elif stat.S_ISDIR(st.st_mode):
        return Skipped(rel, REASON_NESTED_REPO if candidate.nested_repo else REASON_SUBMODULE)

    if not stat.S_ISREG(st.st_mode):
        return Skipped(rel, f"not a regular file ({_kind(st.st_mode)})")
    if rel.lower().endswith(".md"):
        return _open_and_check(rel, abs_path, open_path)
    # Any other file is only proven readable: by its mode where that decides it, else by
    # one call instead of open, fstat and close, for each of the tens of thousands of
    # files every build lists.
    if not _readable_by_mode(st, root.reader) and not os.access(open_path, os.R_OK):
        return Skipped(rel, f"unreadable: {os.strerror(errno.EACCES)}")
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    return SourceFile(path=rel, abs_path=abs_path, size=st.st_size, stamp=stamp)


def _readable_by_mode(st: os.stat_result, reader: int) -> bool:
    """Whether `st`'s file is readable by the real user `reader`, decided without a call
    where the answer is certain: the superuser reads any file, and an owner's access is
    the mode's owner bits alone (an access list never narrows the owner's entry).  False
    means "ask the system"."""
    if reader == 0:
        return True
    return st.st_uid == reader and bool(st.st_mode & stat.S_IRUSR)


def _open_and_check(rel: str, abs_path: str, open_path: str) -> SourceFile | Skipped | None:
    """Prove a Markdown file readable and not a docgen page.

    O_NONBLOCK keeps a FIFO swapped in after the lstat from blocking us, and
    the fstat check refuses it.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(open_path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Skipped(rel, f"unreadable: {exc.strerror}")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return Skipped(rel, f"not a regular file ({_kind(st.st_mode)})")
        if rel.lower().endswith(".md") and is_docgen_page(os.read(fd, PAGE_HEAD_BYTES)):
            return Skipped(rel, REASON_DOCGEN_PAGE)
    except OSError as exc:
        return Skipped(rel, f"unreadable: {exc.strerror}")
    finally:
        os.close(fd)
    stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    return SourceFile(path=rel, abs_path=abs_path, size=st.st_size, stamp=stamp)


def _inside(real_root: str, real_target: str) -> str | None:
    """`real_target` relative to `real_root` as a POSIX path, or None when outside."""
    if real_target == real_root:
        return "."
    prefix = real_root if real_root.endswith(os.sep) else real_root + os.sep
    if not real_target.startswith(prefix):
        return None
    return Path(real_target[len(prefix) :]).as_posix()


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISDIR(mode):
        return "folder"
    return "unknown kind"


def _valid_name(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _display(path: str) -> str:
    """A printable form of a path whose bytes may not be UTF-8."""
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that os.fsdecode would never produce
        return path.encode("utf-8", "replace").decode("utf-8")
