"""What one build did: its counts, the pages it wrote, and what the user should know
about the files, for the command's summary line and `--report`."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class BuildWarning:
    """Something the user should know about one file; the build still completed."""

    path: str
    line: int
    message: str
    severity: str = "warning"  # "error" when the file could not be read or parsed

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line > 0 else self.path
        return f"{where}: {self.message}"


@dataclass
class BuildReport:
    """What one build did, for the command's summary line and `--report`."""

    files: int = 0
    documented: int = 0
    scanned: int = 0  # files parsed by this build
    reused: int = 0  # files whose facts came from the cache
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    warnings: list[BuildWarning] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)  # phase -> seconds
    notices: list[str] = field(default_factory=list)  # about docgen's own state, not the files
    #: the build's own objects (facts, index, page plan): a command that exits as soon as
    #: it has reported (see `launch`) keeps them rather than free them one by one
    held: tuple[object, ...] = field(default=(), repr=False, compare=False)
