"""The full-text index: Pagefind reads the pages in path order on any file system."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from docgen.build import BuildReport
from docgen.nofollow import Tree
from docgen.site import FULLTEXT_FOLDER, fulltext
from docgen.site.files import STAGING, SiteFiles
from docgen.site.publish import publish_site

pytestmark = pytest.mark.skipif(
    not fulltext.available(), reason="Pagefind is not installed (pip install 'pagefind[bin]')"
)


def fragments(index: Path) -> set[str]:
    """The index's one file per page, named by the page's indexed content."""
    return {p.name for p in (index / "fragment").iterdir()}


def published(sample: Callable[..., Path], docgen_build: Callable[..., BuildReport]) -> Path:
    """The site of the `torchlike` sample, built and published in one process."""
    repo = sample("torchlike")
    out, site = repo.parent / "out", repo.parent / "site"
    docgen_build(repo, out, 1)
    publish_site(out, site, jobs=1)
    return site


def index_again(site: Path) -> tuple[SiteFiles, str | None]:
    """Index the published pages once more, into the staging folder."""
    files = SiteFiles(site, {})
    pages = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*_docs.html")
        if p.relative_to(site).parts[0] != STAGING
    )
    return files, fulltext.index_pages(files, pages)


def test_pages_are_linked_in_path_order_and_nothing_is_left(
    sample: Callable[..., Path],
    docgen_build: Callable[..., BuildReport],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    site = published(sample, docgen_build)
    linked: list[str] = []
    real_link = Tree.link

    def link(tree: Tree, rel: str, link_rel: str) -> None:
        linked.append(rel)
        real_link(tree, rel, link_rel)

    monkeypatch.setattr(Tree, "link", link)
    files, failed = index_again(site)
    assert failed is None
    assert linked == sorted(linked) and len(linked) > 10  # listed alike on every system
    assert not (site / STAGING / fulltext.STAGED_PAGES).exists()
    staged = site / STAGING / fulltext.STAGED_INDEX
    by_links = fragments(staged)
    files.close()
    # Pagefind's own walk of the site indexes the same pages with the same URLs and
    # text: a page's fragment file is named by its content, whatever the order
    shutil.rmtree(site / STAGING)
    shutil.rmtree(site / FULLTEXT_FOLDER)
    command = [sys.executable, "-m", "pagefind", "--site", str(site), "--glob", "**/*_docs.html"]
    subprocess.run([*command, "--output-subdir", FULLTEXT_FOLDER, "--silent"], check=True)
    assert fragments(site / FULLTEXT_FOLDER) == by_links and len(by_links) > 10


def test_without_links_the_pages_are_copied(
    sample: Callable[..., Path],
    docgen_build: Callable[..., BuildReport],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    site = published(sample, docgen_build)

    def refuse(tree: Tree, rel: str, link_rel: str) -> None:
        raise PermissionError(1, "links not allowed here")

    monkeypatch.setattr(Tree, "link", refuse)
    files, failed = index_again(site)
    files.close()
    assert failed is None
    assert (site / STAGING / fulltext.STAGED_INDEX / "pagefind.js").is_file()
    assert not (site / STAGING / fulltext.STAGED_PAGES).exists()
