"""The full-text index: Pagefind reads the pages in path order on any file system."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from docgen.build import BuildReport
from docgen.site import FULLTEXT_FOLDER, fulltext
from docgen.site.publish import publish_site

pytestmark = pytest.mark.skipif(
    not fulltext.available(), reason="Pagefind is not installed (pip install 'pagefind[bin]')"
)


def fragments(site: Path) -> set[str]:
    """The index's one file per page, named by the page's indexed content."""
    return {p.name for p in (site / FULLTEXT_FOLDER / "fragment").iterdir()}


def published(sample: Callable[..., Path], docgen_build: Callable[..., BuildReport]) -> Path:
    """The site of the `torchlike` sample, built and published in one process."""
    repo = sample("torchlike")
    out, site = repo.parent / "out", repo.parent / "site"
    docgen_build(repo, out, 1)
    publish_site(out, site, jobs=1)
    return site


def test_pages_are_linked_in_path_order_and_nothing_is_left(
    sample: Callable[..., Path],
    docgen_build: Callable[..., BuildReport],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    site = published(sample, docgen_build)
    linked: list[str] = []
    real_link = os.link

    def link(source: os.PathLike[str], target: os.PathLike[str]) -> None:
        linked.append(Path(source).relative_to(site).as_posix())
        real_link(source, target)

    monkeypatch.setattr(os, "link", link)
    assert fulltext.index_site(site) is None
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert linked == pages  # each folder's pages made in order: listed alike everywhere
    assert not (site / fulltext.STAGING_FOLDER).exists()
    by_links = fragments(site)
    # Pagefind's own walk of the site indexes the same pages with the same URLs and
    # text: a page's fragment file is named by its content, whatever the order
    shutil.rmtree(site / FULLTEXT_FOLDER)
    command = [sys.executable, "-m", "pagefind", "--site", str(site)]
    subprocess.run([*command, "--output-subdir", FULLTEXT_FOLDER, "--silent"], check=True)
    assert fragments(site) == by_links and len(by_links) > 10


def test_without_links_the_site_itself_is_read(
    sample: Callable[..., Path],
    docgen_build: Callable[..., BuildReport],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    site = published(sample, docgen_build)

    def refuse(source: object, target: object) -> None:
        raise PermissionError(1, "links not allowed here")

    monkeypatch.setattr(os, "link", refuse)
    assert fulltext.index_site(site) is None
    assert (site / FULLTEXT_FOLDER / "pagefind.js").is_file()
    assert not (site / fulltext.STAGING_FOLDER).exists()
