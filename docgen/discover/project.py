"""The project's name as its own files give it, never a hard-coded one."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


def project_name(repo: Path) -> str:
    """`[project].name` (or Poetry's) from pyproject.toml, else the folder's name."""
    pyproject = repo / "pyproject.toml"
    if repo.resolve() not in pyproject.resolve().parents:
        return repo.name  # a link out of the repository is never read
    try:
        with open(pyproject, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return repo.name
    for table in (data.get("project"), data.get("tool", {}).get("poetry")):
        if isinstance(table, dict) and isinstance(table.get("name"), str) and table["name"].strip():
            return str(table["name"]).strip()
    return repo.name
