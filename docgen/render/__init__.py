"""Pages from facts: Jinja templates fed with view-models built in Python.

The build calls `make_environment` once, wraps it in a `Renderer` with the
repository index and a `RenderContext`, and asks for each page's text.
"""

from __future__ import annotations

from docgen.template_files import builtin_templates_dir

from .context import RenderContext
from .environment import make_environment
from .pages import Renderer

__all__ = ["RenderContext", "Renderer", "builtin_templates_dir", "make_environment"]
