"""Optional full-text search over the pages' text, by Pagefind when it is installed.

Pagefind (`pip install 'pagefind[bin]'`) indexes the site after it is published;
its search runs only over HTTP (it loads ES modules), so the search page says so
when opened from `file://` instead of failing.  Source views are not indexed:
their text is the repository's, not the pages'.
"""

from __future__ import annotations

import importlib.util
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
    removes those of an earlier index, which would pile up beside the new one."""
    clear_index(site)
    command = [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(site),
        "--output-subdir",
        FULLTEXT_FOLDER,
        "--silent",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=3600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"full-text search not built: {exc}"
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
        return f"full-text search not built: pagefind exited {done.returncode}: {last[0]}"
    return None


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
