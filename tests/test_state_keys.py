"""What cached facts are keyed by: the installed libcst among docgen's own code."""

from __future__ import annotations

import importlib.util
from importlib import metadata
from pathlib import Path

import pytest

from docgen.state import keys


def test_libcst_version_is_read_from_its_version_file() -> None:
    # the same version whatever installed it, as the metadata says, without the import
    assert keys.libcst_version() == metadata.version("libcst")


def test_a_version_file_is_read_for_its_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "libcst"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_version.py").write_text(
        "__version__: str\n__version__ = version = '9.8.7'\n__version_tuple__ = (9, 8, 7)\n"
    )
    spec = importlib.util.spec_from_file_location("libcst", package / "__init__.py")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    assert keys.libcst_version() == "9.8.7"
    (package / "_version.py").write_text("VERSION = (9, 8, 7)\n")  # not said: the metadata
    assert keys.libcst_version() == metadata.version("libcst")


def test_libcst_version_without_a_version_file_is_the_distribution_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert keys.libcst_version() == metadata.version("libcst")


def test_facts_key_follows_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    keys.facts_key.cache_clear()
    before = keys.facts_key()
    monkeypatch.setattr(keys, "libcst_version", lambda: "another libcst")
    keys.facts_key.cache_clear()
    try:
        assert keys.facts_key() != before
    finally:
        keys.facts_key.cache_clear()
