"""docgen's own errors: one root, so the CLI can turn any of them into one line."""

from __future__ import annotations


class DocgenError(Exception):
    """Root of every error docgen raises on purpose; the CLI prints it as one line."""

    exit_code = 1


class UsageError(DocgenError):
    """The user asked for something that cannot be done (bad path, bad option)."""

    exit_code = 2
