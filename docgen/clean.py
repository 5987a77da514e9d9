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
from docgen.state import STATE_DIR, STATE_FILE, read_state
from docgen.write import remove_empty_parents


@dataclass
class CleanReport:
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
    with read_state(out) as recorded:
        if recorded is None:
            raise UsageError(
                f"the docgen state in {state} cannot be read; remove the folder by hand"
            )
        pages = recorded.manifest()
    report = CleanReport()
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


def _still_ours(target: Path, sha256: str) -> bool:
    data = target.read_bytes()
    return hashlib.sha256(data).hexdigest() == sha256 or is_docgen_page(data[:PAGE_HEAD_BYTES])
