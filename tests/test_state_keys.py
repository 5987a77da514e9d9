"""What cached facts are keyed by: the installed libcst among docgen's own code."""

from __future__ import annotations

import hashlib
import importlib.util
from importlib import metadata
from pathlib import Path

import pytest

from docgen.state import keys


def test_libcst_version_is_the_digest_of_its_version_file() -> None:
    spec = importlib.util.find_spec("libcst")
    assert spec is not None and spec.origin is not None
    version_file = Path(spec.origin).with_name("_version.py")
    assert version_file.is_file()  # the file libcst's releases ship
    assert keys.libcst_version() == hashlib.sha256(version_file.read_bytes()).hexdigest()


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
