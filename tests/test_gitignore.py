"""gitignore: one .gitignore's lines compiled, and git's rule for which one decides."""

from __future__ import annotations

from pathlib import Path

from docgen.discover.gitignore import is_ignored, read_gitignore


def test_the_deepest_matching_rule_decides_and_a_negation_reincludes(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / ".gitignore").write_text("*.log\nbuild/\n")
    (tmp_path / "sub" / ".gitignore").write_text("!keep.log\r\n")  # CRLF, as git allows
    root = read_gitignore(str(tmp_path), "")
    sub = read_gitignore(str(tmp_path / "sub"), "sub")
    assert root is not None and sub is not None
    ignores = (root, sub)
    assert is_ignored("a.log", False, ignores)
    assert is_ignored("sub/x.log", False, ignores)
    assert not is_ignored("sub/keep.log", False, ignores)
    assert is_ignored("build", True, ignores)
    assert not is_ignored("build", False, ignores)  # `build/` names folders only
    assert not is_ignored("a.py", False, ignores)


def test_a_missing_empty_or_linked_gitignore_gives_no_rules(tmp_path: Path) -> None:
    assert read_gitignore(str(tmp_path), "") is None
    (tmp_path / "real").write_text("*.log\n")
    (tmp_path / ".gitignore").symlink_to(tmp_path / "real")
    assert read_gitignore(str(tmp_path), "") is None  # git does not follow it either
    (tmp_path / ".gitignore").unlink()
    (tmp_path / ".gitignore").write_text("# only a comment\n\n")
    assert read_gitignore(str(tmp_path), "") is None
