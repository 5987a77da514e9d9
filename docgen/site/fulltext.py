"""Optional full-text search over the pages' text, by Pagefind when it is installed.

Pagefind (`pip install 'pagefind[bin]'`) indexes the site after it is published;
its search runs only over HTTP (it loads ES modules), so the search page says so
when opened from `file://` instead of failing.  Source views are not indexed:
their text is the repository's, not the pages'.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

from docgen.site import FULLTEXT_FOLDER, remove_own_files

#: The site's full-text search page.
FULLTEXT_PAGE = "_fulltext.html"


def available() -> bool:
    return importlib.util.find_spec("pagefind") is not None


def index_site(site: Path) -> str | None:
    """Index the site's pages (those marked `data-pagefind-body`); a warning if it failed.

    The last index goes first: Pagefind names its files by their content and never
    removes those of an earlier index, which would pile up beside the new one.
    Pagefind reads the pages in the order the file system lists them, which on some
    (tmpfs) is the order they were written, so that the index would differ with the
    number of processes that wrote them: it reads links to them made in path order
    (see `_in_path_order`), where the file system allows links."""
    clear_index(site)
    staging = site / STAGING_FOLDER
    shutil.rmtree(staging, ignore_errors=True)
    try:
        source = staging if _in_path_order(site, staging) else site
        command = [
            sys.executable,
            "-m",
            "pagefind",
            "--site",
            str(source),
            "--output-path",
            str(site / FULLTEXT_FOLDER),
            "--silent",
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"full-text search not built: {exc}"
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
        return f"full-text search not built: pagefind exited {done.returncode}: {last[0]}"
    return None


#: where the pages are linked in path order for Pagefind, inside the site (links stay
#: on one file system), removed once it has read them
STAGING_FOLDER = "._pagefind-pages"


def _in_path_order(site: Path, staging: Path) -> bool:
    """Hard links to the site's pages under `staging`, each folder made and each link
    made in path order: a file system that lists entries in the order they were made
    lists these the same way in every build.  False (and nothing left) where links
    cannot be made."""
    pages = sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if path.is_file() and path.relative_to(site).parts[0] != STAGING_FOLDER
    )
    try:
        for page in pages:
            link = staging / page
            link.parent.mkdir(parents=True, exist_ok=True)
            os.link(site / page, link)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        return False
    return True


def clear_index(site: Path) -> None:
    """Remove the full-text index: Pagefind's files only, never a page (`.html`), which
    a repository folder of the same name publishes there."""
    remove_own_files(site / FULLTEXT_FOLDER)


def search_body(static: str) -> str:
    """The full-text search page's body (HTML docgen writes, nothing from sources);
    `static` is the site's `_static` folder relative to the page."""
    return (
        "<h1>Full-text search</h1>\n"
        '<div id="docgen-fulltext"></div>\n'
        '<p id="docgen-fulltext-offline" hidden>Full-text search runs only when the site '
        "is served over HTTP (for example <code>python -m http.server</code> in the site "
        "folder); opened from disk, use the symbol search above.</p>\n"
        f'<script src="{static}/fulltext.js" defer></script>\n'
    )
