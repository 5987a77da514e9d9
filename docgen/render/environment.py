"""The Jinja environment, built once per build from the template search path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import jinja2

from docgen.model.links import slug
from docgen.render.context import make_href
from docgen.render.filters import FILTERS
from docgen.render.template_files import builtin_templates_dir

#: Folder of the builtin templates inside the templates root.
DEFAULT_THEME = "default"


def _href(to_path: str, from_page: str, anchor: str = "") -> str:
    """Filter form of a link destination: `{{ target | href(page.page) }}`."""
    return make_href(from_page, to_path, anchor)


def make_environment(template_dirs: Sequence[Path] = ()) -> jinja2.Environment:
    """A fresh environment: user template folders first, then the builtin ones.

    The builtin root is searched last, so a user template can
    `{% extends "default/docs.md.j2" %}` and replace a single block.  Output
    is Markdown, so autoescaping is off and escaping is explicit via filters.
    """
    root = builtin_templates_dir()
    search = [str(Path(d)) for d in template_dirs] + [str(root / DEFAULT_THEME), str(root)]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search, encoding="utf-8"),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
        # A plain dict, not Jinja's locked LRU: a page looks its frame and macros up
        # again at every render, and a theme holds a few dozen templates at most.
        cache_size=-1,
        bytecode_cache=_user_bytecode_cache(),
    )
    env.filters.update(FILTERS)
    env.filters["href"] = _href
    env.filters["slug"] = slug
    return env


def _user_bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between builds, in Jinja's per-user folder.

    Jinja checks that folder belongs to this user and nobody else can write to
    it, as Python trusts its own `__pycache__`; it is never the output folder,
    which may come from a shared CI cache.  Each entry is keyed by its
    template's source, so an edited template is compiled afresh.
    """
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):  # no usable private folder: compile every time
        return None
