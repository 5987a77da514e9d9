"""The full-text index: Pagefind reads the pages in path order on any file system."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import copy_sample

from docgen.model.report import BuildReport
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
    """Index the published docs pages once more, into the staging folder."""
    files = SiteFiles(site, {})
    pages = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*_docs.html")
        if p.relative_to(site).parts[0] != STAGING
    )
    return files, fulltext.index_pages(files, pages)


def test_the_index_holds_what_pagefinds_own_walk_finds(
    sample: Callable[..., Path], docgen_build: Callable[..., BuildReport]
) -> None:
    site = published(sample, docgen_build)
    files, failed = index_again(site)
    files.close()
    assert failed is None
    by_path_order = fragments(site / STAGING / fulltext.STAGED_INDEX)
    # Pagefind's own walk of the site indexes the same pages with the same URLs and
    # text: a page's fragment file is named by its content
    shutil.rmtree(site / STAGING)
    shutil.rmtree(site / FULLTEXT_FOLDER)
    command = [sys.executable, "-m", "pagefind", "--site", str(site), "--glob", "**/*_docs.html"]
    subprocess.run([*command, "--output-subdir", FULLTEXT_FOLDER, "--silent"], check=True)
    assert fragments(site / FULLTEXT_FOLDER) == by_path_order and len(by_path_order) > 10


def _tmpfs() -> Path | None:
    shm = Path("/dev/shm")
    try:
        mounts = Path("/proc/mounts").read_text().split("\n")
    except OSError:
        return None
    return (
        shm if any(line.split()[1:3] == ["/dev/shm", "tmpfs"] for line in mounts if line) else None
    )


@pytest.mark.skipif(_tmpfs() is None, reason="no tmpfs at /dev/shm to compare with")
def test_the_index_is_the_same_on_every_file_system(
    sample: Callable[..., Path], docgen_build: Callable[..., BuildReport], tmp_path: Path
) -> None:
    """tmpfs lists a folder in the order its files were made, ext4 and others by a
    hash of their names: the index must not follow either."""
    sites = []
    for parent, jobs in ((tmp_path, 2), (_tmpfs(), 1)):
        assert parent is not None
        work = Path(tempfile.mkdtemp(dir=parent))
        try:
            repo = copy_sample("torchlike", work)
            docgen_build(repo, work / "out", jobs)
            publish_site(work / "out", work / "site", jobs=jobs)
            sites.append(
                {
                    p.relative_to(work / "site").as_posix(): p.read_bytes()
                    for p in sorted((work / "site" / FULLTEXT_FOLDER).rglob("*"))
                    if p.is_file()
                }
            )
        finally:
            shutil.rmtree(work)
    assert sites[0] == sites[1] and len(sites[0]) > 10
