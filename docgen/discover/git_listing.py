"""The files git lists for a repository inside a git work tree: tracked, and untracked
but not ignored, so that docgen agrees with `git status`."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

#: Seconds git may take to list a repository.
GIT_TIMEOUT_SECONDS = 600


@dataclass(frozen=True)
class Candidate:
    """A path git or the walk listed, before the include and exclude rules are applied."""

    path: str  # repo-relative, POSIX
    nested_repo: bool = False  # git listed it as an untracked folder ("dir/")


def _git(repo: str, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    """Run git on `repo` alone: GIT_* variables from our caller must not redirect it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    try:
        return subprocess.run(
            ["git", "-C", repo, *args],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None


def git_candidates(repo: str, committed_only: bool = False) -> list[Candidate] | None:
    """git's file list for `repo`, or None when git cannot or should not decide.

    A folder that the enclosing work tree ignores is walked instead: git would
    list nothing there, yet the user asked for exactly that folder.  With
    `committed_only`, the files of git's index alone: what the next commit holds
    (a pre-commit hook documents that, not the untracked files beside it).
    """
    where = _git(repo, "rev-parse", "--is-inside-work-tree", "--show-prefix")
    if where is None or where.returncode != 0 or not where.stdout.startswith(b"true\n"):
        return None
    if where.stdout != b"true\n\n" and _ignored_by_git(repo):
        return None
    others = () if committed_only else ("--others", "--exclude-standard")
    listed = _git(repo, "ls-files", "-z", "--cached", *others, "--", ".")
    if listed is None or listed.returncode != 0:
        return None
    seen: set[str] = set()
    candidates: list[Candidate] = []
    for raw in listed.stdout.split(b"\0"):
        if not raw:
            continue
        name = os.fsdecode(raw)
        if name in seen:  # --cached repeats conflicted paths, once per stage
            continue
        seen.add(name)
        nested = name.endswith("/")
        candidates.append(Candidate(name.rstrip("/") if nested else name, nested_repo=nested))
    return candidates


def in_work_tree(repo: str) -> bool:
    """Whether `repo` is inside a git work tree."""
    where = _git(repo, "rev-parse", "--is-inside-work-tree")
    return where is not None and where.returncode == 0 and where.stdout == b"true\n"


def _ignored_by_git(repo: str) -> bool:
    """Whether the enclosing work tree ignores `repo` (a proper subfolder of it).

    Asked from the parent about the bare name: `check-ignore .` and `name/`
    misreport folders re-included by a negated `dir/` pattern.
    """
    real = os.path.realpath(repo)
    parent, name = os.path.split(real)
    answer = _git(parent, "check-ignore", "-q", "--", name)
    return answer is None or answer.returncode != 1
