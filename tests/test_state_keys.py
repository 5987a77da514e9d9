"""What cached facts are keyed by: the installed libcst among docgen's own code."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest

from docgen.scan import keys


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


def _key_of(package: Path) -> str:
    """The facts key of a copy of docgen's package, computed by that copy (`-S`: no
    `.pth` file, so an editable install's finder cannot bring in the checkout)."""
    path = os.pathsep.join([str(package.parent), sysconfig.get_paths()["purelib"]])
    code = "from docgen.scan.keys import facts_key; print(facts_key())"
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        env={**os.environ, "PYTHONPATH": path},
        cwd=package.parent,  # `-c` puts the current folder first on the path
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_the_facts_key_covers_every_module_of_the_packages_that_make_facts(
    tmp_path: Path,
) -> None:
    """Not a list of modules: the suite finder (`analyze/suite.py`, `pytest_ids.py`), whose
    output is cached with the facts, was once left out of such a list, so an incremental
    build kept the old test lists that a clean build changed.  One module of each package
    that makes facts changes the key; a module of a later stage does not."""
    original = Path(keys.__file__).resolve().parents[1]
    copy = tmp_path / "pkg" / "docgen"
    shutil.copytree(original, copy, ignore=shutil.ignore_patterns("__pycache__"))
    base = _key_of(copy)
    assert base == keys.facts_key()
    touched = [
        "analyze/suite.py",
        "analyze/pytest_ids.py",
        "analyze/tags.py",
        "scan/python/scanner.py",
        "scan/cfamily/preprocess/macros.py",
        "scan/cfamily/preprocess/tables/pytorch.macros",
        "discover/tree.py",
        "model/facts.py",
        "__init__.py",
    ]
    assert {name.split("/")[0] for name in touched[:-1]} == set(keys.FACTS_PACKAGES)
    for package in keys.FACTS_PACKAGES:
        (copy / package / "a_new_module.py").write_text("X = 1\n")
        assert _key_of(copy) != base, package  # a module added counts at once
        (copy / package / "a_new_module.py").unlink()
    for name in touched:
        text = (copy / name).read_text()
        (copy / name).write_text(text + "\n# changed\n")
        assert _key_of(copy) != base, name
        (copy / name).write_text(text)
    for name in ("render/file_views.py", "site/publish.py", "index/repo.py", "cli/main.py"):
        text = (copy / name).read_text()
        (copy / name).write_text(text + "\n# changed\n")
        assert _key_of(copy) == base, name  # pages again, no scan
        (copy / name).write_text(text)


def test_a_build_after_the_suite_finder_changed_scans_again(tmp_path: Path) -> None:
    """The regression itself: with `suite.py` changed, the next build of the sample
    takes none of its facts from the cache."""
    from conftest import copy_sample

    original = Path(keys.__file__).resolve().parents[1]
    copy = tmp_path / "pkg" / "docgen"
    shutil.copytree(original, copy, ignore=shutil.ignore_patterns("__pycache__"))
    templates = original.parent / "templates"
    if not (copy / "templates").exists() and templates.is_dir():
        shutil.copytree(templates, copy.parent / "templates")
    repo = copy_sample("torchlike", tmp_path)
    path = os.pathsep.join([str(copy.parent), sysconfig.get_paths()["purelib"]])

    def build() -> str:
        done = subprocess.run(
            [sys.executable, "-S", "-m", "docgen", "build", str(repo), "-j", "1"],
            env={**os.environ, "PYTHONPATH": path},
            cwd=copy.parent,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stderr.strip().splitlines()[-1]

    first = build()
    assert "(0 scanned" not in first
    assert "(0 scanned" in build()  # nothing changed: everything from the cache
    suite = copy / "analyze" / "suite.py"
    suite.write_text(suite.read_text() + "\n# what it finds may differ now\n")
    assert build().split("(")[1].split(",")[0] == first.split("(")[1].split(",")[0]
