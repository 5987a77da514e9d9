"""`docgen clean`: remove what docgen wrote into an output folder, and nothing else."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docgen.model.errors import DocgenError, UsageError
from docgen.model.pages import PAGE_HEAD_BYTES, is_docgen_page
from docgen.site.files import SiteFiles
from docgen.state import STATE_DIR, STATE_FILE, SiteRecord, read_state
from docgen.system.nofollow import Tree
from docgen.write.lock import LOCK_FILE, output_lock


@dataclass
class CleanReport:
    """The pages `docgen clean` removed, and those it left because someone replaced them."""

    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # recorded pages someone has since replaced
    strangers: list[str] = field(default_factory=list)  # others' files in docgen's folders


def clean(out: Path, on_wait: Callable[[str], None] | None = None) -> CleanReport:
    """Remove every page docgen's manifest lists, then docgen's state, then the folders
    that leaves empty.  A listed page whose bytes are no longer docgen's (someone
    replaced it with their own file) is kept and reported."""
    state = out / STATE_DIR / STATE_FILE
    if not out.is_dir() or not state.is_file():
        raise UsageError(f"no docgen output in {out} (nothing to clean)")
    with output_lock(out / STATE_DIR, on_wait):
        return _clean(out, state)


def _clean(out: Path, state: Path) -> CleanReport:
    if not state.is_file():  # another `clean` removed it while this one waited
        _remove_state(out)  # the lock file this one made
        raise UsageError(f"no docgen output in {out} (nothing to clean)")
    with read_state(out, any_version=True) as recorded:
        if recorded is None:
            raise UsageError(
                f"the docgen state in {state} cannot be read; remove the folder by hand"
            )
        pages = recorded.manifest()
        site_root = recorded.meta("site")
        site_files = recorded.site_files() if site_root else {}
    report = CleanReport()
    if site_root and Path(site_root).is_dir():
        _clean_site(Path(site_root), site_files, report)
    with Tree(out) as tree:
        for rel, sha256 in sorted(pages.items()):
            data = _read_recorded(tree, rel)
            if data is None:
                continue  # gone, a link, or a path no build of docgen's writes
            if not _still_ours(data, sha256):
                report.kept.append(rel)
            elif tree.unlink(rel):
                report.removed.append(rel)
    _remove_state(out)
    return report


def _remove_state(out: Path) -> None:
    """docgen's state folder with its lock file last, then OUT when that leaves it empty.
    A run that waited on the lock then locks a new file (see `output_lock`), so no run
    writes a state while this one removes it."""
    lock = f"{STATE_DIR}/{LOCK_FILE}"
    with Tree(out) as tree:
        for rel in list(tree.files(STATE_DIR)):
            if rel != lock:
                tree.unlink(rel)
        tree.remove_folder(STATE_DIR)
    with contextlib.suppress(OSError):
        out.rmdir()  # only when nothing else is left in it


def _read_recorded(tree: Tree, rel: str) -> bytes | None:
    try:
        return tree.read(rel)
    except DocgenError:  # a link on the way, or a path that leaves the folder
        return None


def _clean_site(site: Path, records: dict[str, SiteRecord], report: CleanReport) -> None:
    """The files docgen recorded in the HTML site published from this output folder,
    where their bytes are still docgen's; anything else there is the user's and stays."""
    files = SiteFiles(site, records)
    try:
        files.sweep()
        removed = files.remove(records)
        strangers = files.strangers()  # unrecorded: a recorded file left is in `kept`
    finally:
        files.close()
    report.removed.extend(f"{site.name}/{rel}" for rel in removed)
    report.kept.extend(f"{site.name}/{rel}" for rel in files.kept)
    report.strangers.extend(f"{site.name}/{rel}" for rel in strangers)
    with contextlib.suppress(OSError):
        site.rmdir()  # only when nothing else is left in it


def _still_ours(data: bytes, sha256: str) -> bool:
    return hashlib.sha256(data).hexdigest() == sha256 or is_docgen_page(data[:PAGE_HEAD_BYTES])
