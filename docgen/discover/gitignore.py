"""`.gitignore` files as git reads them, for a tree that is not a git work tree: each
line compiled by `pathspec`, and git's rule for which of them decides."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

#: pathspec's regex group for "matched up to a folder's slash"; a match that
#: continues past it only says the path lies inside a matched folder.
_DIR_MARK = "ps_d"


@dataclass(frozen=True)
class _Rule:
    """One compiled .gitignore line."""

    ignore: bool  # False for a `!` negation
    regex: re.Pattern[str]


@dataclass(frozen=True)
class IgnoreFile:
    """One .gitignore's rules, which apply only below the folder holding it."""

    base: str  # repo-relative folder holding the .gitignore, "" for the root
    rules: tuple[_Rule, ...]


def read_gitignore(abs_dir: str, rel_dir: str) -> IgnoreFile | None:
    """The folder's .gitignore; like git, a symlinked .gitignore is not followed."""
    path = os.path.join(abs_dir, ".gitignore")
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", "surrogateescape")
    except OSError:
        return None
    # Loaded only for a tree that has a .gitignore: a git work tree lets git read them,
    # and a scan worker, which imports this module's callers for their types, never does.
    import pathspec

    rules = []
    for raw in text.removeprefix("\ufeff").split("\n"):  # as git: BOM dropped, CRLF allowed
        line = raw.removesuffix("\r")
        if line.rstrip(" ").endswith("/**/"):  # pathspec reads `a/**/` as `a/`; git
            line = line.rstrip(" ") + "*/"  # means folders below `a`, as `a/**/*/` does
        try:  # one line at a time: git drops a malformed pattern, not the whole file
            patterns = pathspec.GitIgnoreSpec.from_lines([line]).patterns
        except Exception:
            continue
        for pattern in patterns:
            regex = getattr(pattern, "regex", None)
            if pattern.include is not None and isinstance(regex, re.Pattern):
                rules.append(_Rule(ignore=pattern.include, regex=regex))
    return IgnoreFile(rel_dir, tuple(rules)) if rules else None


def is_ignored(rel: str, is_dir: bool, ignores: tuple[IgnoreFile, ...]) -> bool:
    """git's rule: the deepest .gitignore with a pattern matching `rel` decides, last one wins.

    Parents of `rel` need no check: an ignored folder is never entered.
    """
    for ignore in reversed(ignores):
        sub = rel[len(ignore.base) + 1 :] if ignore.base else rel
        for rule in reversed(ignore.rules):
            if _matches_itself(rule.regex, sub, is_dir):
                return rule.ignore
    return False


def _matches_itself(regex: re.Pattern[str], path: str, is_dir: bool) -> bool:
    """Whether a pathspec regex matches `path` itself, as git matches one level.

    pathspec's regexes also match everything below a matched folder (`a`
    matches `a/x.log`); that is right for whole paths but wrong here, where a
    deeper `!a` must not re-include `a/x.log`, which `*.log` ignores.
    """
    if _DIR_MARK not in regex.groupindex:  # `*`, `a/**`: everything below matches itself
        return regex.search(path) is not None
    if regex.pattern == f"(?P<{_DIR_MARK}>/)":  # `*/`, `**/`: every folder
        return is_dir
    return regex.fullmatch(path + "/" if is_dir else path) is not None
