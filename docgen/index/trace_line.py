"""One hop of a `docgen find NAME --trace` chain."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TraceLine:
    """One hop of the chain, as `path:line: what`."""

    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"
