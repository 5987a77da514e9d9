"""docgen: keyword index and documentation pages for every file of a repository."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
