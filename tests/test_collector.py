"""The cycle collector is held back during a build and left as the caller had it."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURES, run_build

import docgen.build
from docgen.system.collector import collector_paused


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.enable()
    yield
    if not enabled:
        gc.disable()


@pytest.mark.usefixtures("collector_enabled")
def test_paused_inside_and_enabled_again_after() -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_enabled")
def test_enabled_again_when_the_body_raises() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_enabled")
def test_a_collector_disabled_before_stays_disabled() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector_enabled")
def test_a_build_runs_without_cycle_collection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "torchlike", repo)
    seen: list[bool] = []
    build_pages = docgen.build.build_pages

    def watched(*args: object, **kwargs: object) -> docgen.build.BuildReport:
        seen.append(gc.isenabled())
        return build_pages(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(docgen.build, "build_pages", watched)
    report = run_build(repo, tmp_path / "out", jobs=1)
    assert report.files > 0
    assert seen == [False]
    assert gc.isenabled()
