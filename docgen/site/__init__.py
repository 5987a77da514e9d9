"""`docgen site`: the build's Markdown pages as a static HTML site (see `publish`).

The names of the folders the site keeps for itself live here, where `docgen clean`
reads them without loading what renders the site.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docgen.state import State

#: The source views, one HTML page per source file.
SOURCE_FOLDER = "_source"
#: The site's own files: style sheet, scripts, the diagram renderer.
STATIC_FOLDER = "_static"
#: The symbol search's shards and their manifest.
SEARCH_FOLDER = "_search"
#: Pagefind's full-text index and its search interface.
FULLTEXT_FOLDER = "_pagefind"
#: Folders that only docgen writes into a site.
OWN_FOLDERS = (STATIC_FOLDER, SEARCH_FOLDER, FULLTEXT_FOLDER)
#: meta key: the build inputs of the pages the site in place was published from, set
#: once a publish has finished ("" while one runs)
SITE_INPUTS = "site_inputs"


def published_whole(state: State) -> bool:
    """Whether the site last published from this state was published whole from the
    pages in place now: then `docgen check` need not plan it to know it is current."""
    inputs = state.meta("inputs")
    return bool(inputs) and state.meta(SITE_INPUTS) == inputs


def remove_own_files(folder: Path) -> None:
    """Remove what docgen wrote in one of its own folders: every file but the pages
    (`.html`), which a repository folder of the same name publishes there, and the
    folders that leaves empty."""
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
        return
    for root, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            if not name.endswith(".html"):
                os.unlink(os.path.join(root, name))
        for name in dirs:
            with contextlib.suppress(OSError):  # not empty: it holds pages
                os.rmdir(os.path.join(root, name))
    with contextlib.suppress(OSError):
        folder.rmdir()
