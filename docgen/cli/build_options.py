"""What one build is asked to do, checked before anything is written.

Command-line flags win over the repository's `[tool.docgen]` configuration,
which wins over the defaults.
"""

from __future__ import annotations

import os
from pathlib import Path

from docgen.discover.config import Config, load_config
from docgen.model.errors import UsageError
from docgen.model.options import (
    DEFAULT_MAX_EMBED_BYTES,
    DEFAULT_OUT,
    DEFAULT_SOURCE_ROOTS,
    BuildOptions,
    site_folder,
)
from docgen.scan.cluster import EXECUTOR_VARIABLE
from docgen.scan.cluster.address import scheduler_address
from docgen.system.nofollow import first_link_inside


def resolve_options(
    repo: str | os.PathLike[str],
    out: str | os.PathLike[str] | None,
    jobs: int | None,
    templates: tuple[str | os.PathLike[str], ...] = (),
    config_file: str | os.PathLike[str] | None = None,
    executor: str | None = None,
) -> BuildOptions:
    """Check the paths a user gave and merge in the configuration; a mistake is one
    clear UsageError.  The executor is the flag's, else `DOCGEN_EXECUTOR`'s, else the
    configuration's, else the local process pool."""
    repo_path = check_repo(repo)
    config = load_config(repo_path, None if config_file is None else Path(config_file))
    out_path = resolve_out(repo_path, out, config)
    if jobs is None:
        jobs = config.jobs if config.jobs is not None else default_jobs()
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    given = [Path(folder).expanduser().resolve() for folder in templates]
    template_paths = tuple(given) if given else config.templates
    for path in template_paths:
        if not path.exists():
            raise UsageError(f"template folder does not exist: {path}")
        if not path.is_dir():
            raise UsageError(f"template path is not a folder: {path}")
    return BuildOptions(
        repo=repo_path,
        out=out_path,
        jobs=jobs,
        templates=template_paths,
        max_embed_bytes=config.max_file_size or DEFAULT_MAX_EMBED_BYTES,
        include=config.include,
        exclude=config.exclude,
        project=config.project,
        source_roots=config.source_roots if config.source_roots else DEFAULT_SOURCE_ROOTS,
        include_roots=config.include_roots or (),
        cpp_macros=config.cpp_macros,
        cluster=resolve_cluster(executor, config),
    )


def resolve_cluster(executor: str | None, config: Config) -> str | None:
    """The Dask scheduler to scan on, or None for the local process pool."""
    if executor is not None:
        return scheduler_address(executor, "--executor")
    from_environment = os.environ.get(EXECUTOR_VARIABLE, "").strip()
    if from_environment:
        return scheduler_address(from_environment, EXECUTOR_VARIABLE)
    if config.executor is not None:
        return scheduler_address(config.executor, f"{config.source}: 'executor'")
    return None


def check_repo(repo: str | os.PathLike[str]) -> Path:
    repo_path = Path(repo).expanduser()
    if not repo_path.exists():
        raise UsageError(f"repository folder does not exist: {repo_path}")
    if not repo_path.is_dir():
        raise UsageError(f"repository path is not a folder: {repo_path}")
    return repo_path.resolve()


def resolve_out(repo: Path, out: str | os.PathLike[str] | None, config: Config) -> Path:
    """The output folder: the flag, else the configuration's, else REPO/docs/generated.

    Refused when it is a file, or the repository itself or a folder above it
    (its pages would mix with the sources).
    """
    if out is not None:
        out_path = _unlinked(repo, Path(out).expanduser(), "output folder")
    elif config.out is not None:
        out_path = _unlinked(repo, config.out, "output folder")
    else:
        out_path = _unlinked(repo, repo / DEFAULT_OUT, "output folder")
    for existing in (out_path, *out_path.parents):
        if existing.exists():
            if not existing.is_dir():
                raise UsageError(f"output path is not a folder: {existing} exists as a file")
            break
    if out_path == repo or out_path in repo.parents:
        raise UsageError(
            f"output folder {out_path} is the repository or contains it; "
            "choose a folder inside or beside the repository"
        )
    return out_path


def resolve_site(repo: Path, out: Path, site: str | os.PathLike[str] | None) -> Path:
    """The site's folder: the flag, else `OUT-site`.  Refused when it is the repository
    or a folder above it, or the output folder, or holds it or is held by it (a site's
    pages and the build's would be taken for each other's, or for the user's)."""
    site_path = _unlinked(
        repo, Path(site).expanduser() if site else site_folder(out), "site folder"
    )
    if site_path == repo or site_path in repo.parents:
        raise UsageError(
            f"site folder {site_path} is the repository or contains it; "
            "choose a folder inside or beside the repository"
        )
    if site_path == out or site_path in out.parents or out in site_path.parents:
        raise UsageError(
            f"site folder {site_path} and output folder {out} must not hold one another"
        )
    return site_path


def _unlinked(repo: Path, path: Path, what: str) -> Path:
    """`path` made absolute with the links outside the repository followed; refused in
    one line when a link inside it (one the repository holds) stands on the way."""
    lexical = Path(os.path.abspath(path))
    link = first_link_inside(repo, lexical)
    if link is not None:
        raise UsageError(
            f"{what} {lexical}: {link} is a symbolic link inside the repository; "
            "docgen never writes through a link"
        )
    return lexical.resolve()


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)
