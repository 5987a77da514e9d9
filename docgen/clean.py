"""`docgen clean`: remove what docgen wrote into an output folder, and nothing else."""

from __future__ import annotations

import contextlib
import hashlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from docgen.discover import PAGE_HEAD_BYTES, is_docgen_page
from docgen.errors import UsageError
from docgen.lock import output_lock
from docgen.site import OWN_FOLDERS, remove_own_files
from docgen.state import STATE_DIR, STATE_FILE, read_state
from docgen.write import remove_empty_parents


@dataclass
class CleanReport:
    """The pages `docgen clean` removed, and those it left because someone replaced them."""

    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # recorded pages someone has since replaced


def clean(out: Path) -> CleanReport:
    """Remove every page docgen's manifest lists, then docgen's state, then the folders
    that leaves empty.  A listed page whose bytes are no longer docgen's (someone
    replaced it with their own file) is kept and reported."""
    state = out / STATE_DIR / STATE_FILE
    if not out.is_dir() or not state.is_file():
        raise UsageError(f"no docgen output in {out} (nothing to clean)")
    with output_lock(out / STATE_DIR):
        return _clean(out, state)


def _clean(out: Path, state: Path) -> CleanReport:
    with read_state(out, any_version=True) as recorded:
        if recorded is None:
            raise UsageError(
                f"the docgen state in {state} cannot be read; remove the folder by hand"
            )
        pages = recorded.manifest()
        site_root = recorded.meta("site")
        site_pages = recorded.site_pages()
    report = CleanReport()
    if site_root:
        _clean_site(Path(site_root), site_pages, report)
    for rel, sha256 in sorted(pages.items()):
        target = out / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            continue  # never reached by a manifest docgen wrote; never followed out of OUT
        if target.is_symlink() or not target.is_file():
            continue
        if not _still_ours(target, sha256):
            report.kept.append(rel)
            continue
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
            report.removed.append(rel)
        remove_empty_parents(out, target.parent)
    shutil.rmtree(out / STATE_DIR, ignore_errors=True)
    with contextlib.suppress(OSError):
        out.rmdir()  # only when nothing else is left in it
    return report


#: What every page of docgen's site carries in its head.
SITE_GENERATOR = b'<meta name="generator" content="docgen '


def _clean_site(site: Path, pages: dict[str, str], report: CleanReport) -> None:
    """The HTML site published from this output folder: its recorded pages that still
    carry docgen's mark, and the folders only docgen writes there."""
    for rel in sorted(pages):
        target = site / rel
        if ".." in Path(rel).parts or target.is_symlink() or not target.is_file():
            continue
        if target.suffix == ".html" and SITE_GENERATOR not in target.read_bytes()[:2048]:
            report.kept.append(f"{site.name}/{rel}")
            continue
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
            report.removed.append(f"{site.name}/{rel}")
        remove_empty_parents(site, target.parent)
    for folder in OWN_FOLDERS:  # a repository folder of the same name: its pages stay
        if (site / folder).is_dir() and not (site / folder).is_symlink():
            remove_own_files(site / folder)
    with contextlib.suppress(OSError):
        site.rmdir()  # only when nothing else is left in it


def _still_ours(target: Path, sha256: str) -> bool:
    data = target.read_bytes()
    return hashlib.sha256(data).hexdigest() == sha256 or is_docgen_page(data[:PAGE_HEAD_BYTES])
