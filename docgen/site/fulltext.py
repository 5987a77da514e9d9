"""Optional full-text search over the pages' text, by Pagefind when it is installed.

Pagefind (`pip install 'pagefind[bin]'`) indexes the site after it is published;
its search runs only over HTTP (it loads ES modules), so the search page says so
when opened from `file://` instead of failing.  Source views are not indexed:
their text is the repository's, not the pages'.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import signal
import subprocess
import sys
from collections.abc import Sequence

from docgen.site.files import STAGING, SiteFiles

#: The site's full-text search page.
FULLTEXT_PAGE = "_fulltext.html"


def available() -> bool:
    return importlib.util.find_spec("pagefind") is not None


def index_pages(files: SiteFiles, pages: Sequence[str]) -> str | None:
    """Index these pages of the site (their `data-pagefind-body`) into the staging
    folder's `STAGED_INDEX`; a warning if it failed.  The pages go to Pagefind one by
    one in path order (see `fulltext_index`), so the index is the same on every file
    system; it runs as a child that the kernel ends when docgen ends, however docgen
    ends."""
    command = [
        sys.executable,
        "-m",
        "docgen.site.fulltext_index",
        str(files.site),
        str(files.site / STAGING / STAGED_INDEX),
    ]
    try:
        done = subprocess.run(
            command,
            input="".join(page + "\n" for page in sorted(pages)),
            capture_output=True,
            text=True,
            timeout=3600,
            check=False,
            preexec_fn=_end_with_parent,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"full-text search not built: {exc}"
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
        return f"full-text search not built: pagefind exited {done.returncode}: {last[0]}"
    return None


#: the staging folder's folder for the new index
STAGED_INDEX = "fulltext"


def _end_with_parent() -> None:
    """In the child, before Pagefind starts: be killed when docgen dies (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # docgen died before the request was made
        os._exit(1)


_PR_SET_PDEATHSIG = 1


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
