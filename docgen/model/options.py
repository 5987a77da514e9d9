"""What one build is asked to do: the paths, the configuration and the flags merged
(by `docgen.cli.build_options`), handed to every stage."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: Folders put on `sys.path`, in order; "" is the repository root.
DEFAULT_SOURCE_ROOTS = ("", "src")
DEFAULT_OUT = Path("docs") / "generated"
DEFAULT_MAX_EMBED_BYTES = 1_000_000


@dataclass(frozen=True)
class BuildOptions:
    """Everything a build depends on besides the files, after configuration and flags are merged."""

    repo: Path  # absolute, resolved
    out: Path  # absolute, resolved
    jobs: int
    templates: tuple[Path, ...] = ()
    max_embed_bytes: int = DEFAULT_MAX_EMBED_BYTES
    include: tuple[str, ...] = ()  # gitignore-style; empty means every file
    exclude: tuple[str, ...] = ()  # gitignore-style
    project: str | None = None  # None: from the repository's own metadata
    source_roots: tuple[str, ...] = DEFAULT_SOURCE_ROOTS
    include_roots: tuple[str, ...] = ()  # C-family include roots; () means the root and guessing
    cpp_macros: tuple[str, ...] = ()  # more attribute macros to blank, `NAME` or `NAME()`
    shard: tuple[int, int] | None = None  # (I, N): scan only share I of N, render nothing
    cluster: str | None = None  # the Dask scheduler that scans (tcp:// or tls://); None: here
    committed_only: bool = False  # only the files git's index holds (the pre-commit hook)


def site_folder(out: Path) -> Path:
    """Where `docgen site` publishes the pages of OUT unless told: `OUT-site`, beside OUT
    (a build never documents it)."""
    return out.with_name(out.name + "-site")
