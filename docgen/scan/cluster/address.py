"""Which executor a build scans with: the local process pool or a Dask scheduler."""

from __future__ import annotations

import re

from docgen.model.errors import UsageError
from docgen.scan.cluster import EXECUTOR_FORMS

_DASK = re.compile(r"dask(\+tls)?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})")


def scheduler_address(executor: str, what: str) -> str | None:
    """The Dask scheduler's address (`tcp://HOST:PORT` or `tls://HOST:PORT`) an executor
    names, or None for the local process pool; anything else is one UsageError."""
    if executor == "local":
        return None
    match = _DASK.fullmatch(executor)
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise UsageError(f"{what} must be {EXECUTOR_FORMS}, got {executor!r}")
    scheme = "tls" if match.group(1) else "tcp"
    return f"{scheme}://{match.group(2)}:{int(match.group(3))}"
