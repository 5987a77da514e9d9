"""Where the builtin templates are, without loading Jinja (a no-op build needs only this)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def builtin_templates_dir() -> Path:
    """The builtin templates root: packaged in a wheel, or next to the source checkout.

    A wheel force-includes the top-level `templates/` as `docgen/templates`; a
    source checkout or editable install keeps it beside the `docgen` package.
    """
    packaged = resources.files("docgen") / "templates"
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "templates"
