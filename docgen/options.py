"""What one build is asked to do, checked before anything is written."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from docgen.errors import UsageError

DEFAULT_OUT = Path("docs") / "generated"
DEFAULT_MAX_EMBED_BYTES = 1_000_000


@dataclass(frozen=True)
class BuildOptions:
    repo: Path  # absolute, resolved
    out: Path  # absolute, resolved
    jobs: int
    templates: tuple[Path, ...] = ()
    max_embed_bytes: int = DEFAULT_MAX_EMBED_BYTES


def resolve_options(
    repo: str | os.PathLike[str],
    out: str | os.PathLike[str] | None,
    jobs: int,
    templates: tuple[str | os.PathLike[str], ...] = (),
) -> BuildOptions:
    """Check the paths a user gave; a mistake is one clear UsageError."""
    repo_path = Path(repo).expanduser()
    if not repo_path.exists():
        raise UsageError(f"repository folder does not exist: {repo_path}")
    if not repo_path.is_dir():
        raise UsageError(f"repository path is not a folder: {repo_path}")
    repo_path = repo_path.resolve()
    out_path = (repo_path / DEFAULT_OUT) if out is None else Path(out).expanduser().resolve()
    for existing in (out_path, *out_path.parents):
        if existing.exists():
            if not existing.is_dir():
                raise UsageError(f"output path is not a folder: {existing} exists as a file")
            break
    if out_path == repo_path or out_path in repo_path.parents:
        raise UsageError(
            f"output folder {out_path} is the repository or contains it; "
            "choose a folder inside or beside the repository"
        )
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    template_paths = []
    for folder in templates:
        path = Path(folder).expanduser().resolve()
        if not path.exists():
            raise UsageError(f"template folder does not exist: {path}")
        if not path.is_dir():
            raise UsageError(f"template path is not a folder: {path}")
        template_paths.append(path)
    return BuildOptions(repo_path, out_path, jobs, tuple(template_paths))


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)
