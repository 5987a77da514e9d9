"""Attributes on the pages: where the docs page tells them, the keyword page's group,
the repository index, and their text kept inert."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.model.facts import Attribute
from docgen.render.attribute_views import MAX_INLINE, attribute_code
from docgen.site.linkcheck import check_links, format_broken

SETTINGS = '''"""Settings."""

#: How deep to go.
DEPTH: int = 3

# Where to look; see [the docs](javascript:alert(1)) and <script>x</script>
# ```
PATH = "/tmp"

TABLE = {
    "alpha": "a long value that goes on and on",
    "beta": "another long value that goes on and on",
    "gamma": 3,
}


class Model:
    """A model."""

    size: int
    """How big, in **units**."""

    def __init__(self, name: str) -> None:
        self.name = name
'''


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("attributes")
    repo = root / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "settings.py").write_text(SETTINGS, encoding="utf-8")
    out = root / "out"
    build(resolve_options(repo, out, 1))
    broken = check_links(out, repo)
    assert broken == [], "\n".join(format_broken(b) for b in broken)
    return out


def page(out: Path, name: str) -> str:
    return (out / "pkg" / name).read_text(encoding="utf-8")


def test_module_attributes_have_their_own_heading_with_docstrings_and_comments(
    built: Path,
) -> None:
    docs = page(built, "settings.py_docs.md")
    module = docs.split("### Module attributes\n", 1)[1].split("\n### ", 1)[0]
    assert "- `DEPTH: int = 3` at [L4](" in module
    assert "\n  How deep to go.\n" in module
    assert '- `PATH = "/tmp"` at [L8](' in module
    # the comment is shown as written, inside a fence no backtick run in it can close
    assert "  The comment above it:\n\n  ````text\n" in module
    assert "[the docs](javascript:alert(1)) and <script>x</script>\n  ```\n  ````" in module
    # a value too long to read inline is told by its lines, never cut
    assert "- `TABLE` at [L10](" in module and "its value on L10\u2013L14" in module
    assert "…" not in module


def test_class_and_instance_attributes_sit_in_the_class_section(built: Path) -> None:
    docs = page(built, "settings.py_docs.md")
    model = docs.split("### class `Model`\n", 1)[1].split("\n#### ", 1)[0]
    attributes = model.split("- Attributes:\n", 1)[1].split("\n- Methods:", 1)[0]
    assert attributes.startswith("  - `size: int` at [L20](")
    assert "\n    How big, in **units**.\n" in attributes
    assert "  - `name = name` at [L24](" in attributes
    assert "set on the instance in `__init__`" in attributes


def test_keyword_page_and_index_link_each_attribute_to_where_it_is_told(built: Path) -> None:
    kw = page(built, "settings.py_kw.md")
    group = kw.split("### Attributes\n", 1)[1].split("\n### ", 1)[0]
    assert "- **`DEPTH`** — [`DEPTH`](settings.py_docs.md#module-attributes)" in group
    assert "- **`size`** — [`Model.size`](settings.py_docs.md#class-model)" in group
    assert "- **`name`** — [`Model.name`](settings.py_docs.md#class-model)" in group
    index = (built / "keywords.md").read_text(encoding="utf-8")
    assert "- **`DEPTH`** — attribute [`DEPTH`](pkg/settings.py_docs.md#module-attributes)" in index


def test_attribute_code_inline_or_by_lines() -> None:
    short = Attribute("x", "x", "module", 1, 1, annotation="int", value="1", has_value=True)
    assert attribute_code(short) == ("x: int = 1", False)
    bare = Attribute("x", "C.x", "class", 2, 2, annotation="int", parent="C")
    assert attribute_code(bare) == ("x: int", False)
    folded = Attribute("t", "t", "module", 1, 3, value="(\n    1,\n    2,\n)", has_value=True)
    assert attribute_code(folded) == ("t = (1, 2)", False)
    long = Attribute("y", "y", "module", 1, 1, value="z" * MAX_INLINE, has_value=True)
    assert attribute_code(long) == ("y", True)
    dropped = Attribute("w", "w", "module", 1, 9, has_value=True)  # longer than the scanner keeps
    assert attribute_code(dropped) == ("w", True)
