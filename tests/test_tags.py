"""Tags on the built pages agree with the hand-made labels of the torchlike sample.

`fixtures/torchlike/LABELS.json` lists every `.py` and `.md` file with the tags a
careful reader would give it, decoys included (see fixtures/README.md).  Both
pages of each file carry the tags in their front matter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from markdown_it import MarkdownIt

from docgen.model.links import docs_page, kw_page

if TYPE_CHECKING:
    from conftest import Built

LABELS_FILE = Path(__file__).resolve().parent.parent / "fixtures" / "torchlike" / "LABELS.json"
LABELS: dict[str, list[str]] = json.loads(LABELS_FILE.read_text(encoding="utf-8"))
TESTING_SECTION = "Testing & Usage"


def front_matter(page: str) -> dict[str, object]:
    """The `key: <JSON value>` lines between the opening and closing `---`."""
    lines = page.split("\n")
    assert lines[0] == "---", "page does not open with front matter"
    values: dict[str, object] = {}
    for line in lines[1:]:
        if line == "---":
            return values
        key, sep, raw = line.partition(": ")
        assert sep, f"front matter line without a value: {line!r}"
        values[key] = json.loads(raw)
    raise AssertionError("front matter is not closed")


def headings(page: str, level: int) -> list[str]:
    """Heading texts of one level, as Markdown reads them (fenced sources hold none)."""
    tokens = MarkdownIt("commonmark").parse(page)
    return [
        tokens[i + 1].content
        for i, token in enumerate(tokens)
        if token.type == "heading_open" and token.tag == f"h{level}"
    ]


def read(out: Path, page: str) -> str:
    return (out / page).read_text(encoding="utf-8")


@pytest.mark.parametrize("path", sorted(LABELS))
def test_tags_match_the_labels(torchlike_built: Built, path: str) -> None:
    for page in (docs_page(path), kw_page(path)):
        meta = front_matter(read(torchlike_built.out, page))
        assert meta["source"] == path
        assert meta["tags"] == sorted(LABELS[path]), page


def test_labels_cover_every_python_and_markdown_file(torchlike_built: Built) -> None:
    """A new sample file without a label would escape the check above."""
    sources = {
        path.relative_to(torchlike_built.repo).as_posix()
        for path in torchlike_built.repo.rglob("*")
        if path.suffix in (".py", ".md") and path.is_file()
    }
    sources = {s for s in sources if not s.startswith("docs/generated/")}
    assert sources == set(LABELS)


@pytest.mark.parametrize("sample", ["torchlike", "badinputs"])
def test_markdown_is_never_tagged_and_has_no_run_command(
    request: pytest.FixtureRequest, sample: str
) -> None:
    built: Built = request.getfixturevalue(f"{sample}_built")
    markdown_pages = []
    for page in sorted(built.out.rglob("*.md_docs.md")) + sorted(built.out.rglob("*.md_kw.md")):
        text = page.read_text(encoding="utf-8")
        meta = front_matter(text)
        if meta["kind"] != "markdown":
            continue
        markdown_pages.append(page.name)
        assert meta["tags"] == [], page
        assert TESTING_SECTION not in headings(text, 2), page
    assert markdown_pages, "no Markdown page found"


def test_test_files_have_a_run_command(torchlike_built: Built) -> None:
    """The section the Markdown check looks for does exist on a test file's page."""
    text = read(torchlike_built.out, docs_page("tests/test_modules.py"))
    assert TESTING_SECTION in headings(text, 2)
    assert "pytest tests/test_modules.py" in text


def test_name_rules_are_tried_by_first_part_as_in_full() -> None:
    from docgen.analyze.tags import NAME_RULES, RULES_BY_ROOT

    names = {r.prefix for r in NAME_RULES}
    names |= {f"{r.prefix}.x" for r in NAME_RULES} | {f"{r.prefix}x" for r in NAME_RULES}
    names |= {"torch", "torch.nn", "numba", "tritonx.jit", "x.torch.cuda", ""}
    for name in sorted(names):
        every = [r for r in NAME_RULES if r.matches(name)]
        by_root = [r for r in RULES_BY_ROOT.get(name.partition(".")[0], ()) if r.matches(name)]
        assert by_root == every, name
    assert sum(len(rules) for rules in RULES_BY_ROOT.values()) == len(NAME_RULES)
