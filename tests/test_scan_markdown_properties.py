"""Properties of the Markdown scanner on arbitrary input: it never raises and its facts are sane."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import docgen.scan.markdown.scanner as markdown
from docgen.model.facts import FileFacts

SETTINGS = settings(max_examples=100, deadline=None)

# Pieces of Markdown that reach headings, links, code spans and blocks far more
# often than uniformly random text does.
FRAGMENTS = st.sampled_from(
    [
        "# ",
        "## ",
        "###### ",
        "===",
        "---",
        "+++",
        "```",
        "```python",
        "```{eval-rst}",
        ".. autosummary::",
        ".. currentmodule:: torch.x",
        "    ",
        "> ",
        "- ",
        "1. ",
        "`",
        "``",
        "torch.compile",
        "fully_shard(",
        "def ",
        "import ",
        "from ",
        "[a](b.md)",
        "[ref]",
        "[ref]: x.md",
        "![i](p.png)",
        "<https://x.y>",
        "| a | b |",
        "|---|---|",
        "\n",
        "\r\n",
        "\r",
        "\t",
        " ",
        "\ufeff",
        "\x00",
        "The",
        "e.g.",
    ]
)
MARKDOWNISH = st.lists(st.one_of(FRAGMENTS, st.text(max_size=8)), max_size=60).map("".join)


def check(facts: FileFacts) -> None:
    assert facts.kind == "markdown"
    assert facts.markdown is not None
    found = facts.markdown
    for heading in found.headings:
        assert 1 <= heading.line <= facts.line_count
        assert 1 <= heading.level <= 6
    for link in found.links:
        assert 1 <= link.line <= facts.line_count
    assert [(link.line, link.target) for link in found.links] == sorted(
        (link.line, link.target) for link in found.links
    )
    for block in found.code_blocks:
        assert 1 <= block.line <= facts.line_count
    identifier_lists = [found.code_identifiers, *(b.identifiers for b in found.code_blocks)]
    for identifiers in identifier_lists:
        assert list(identifiers) == sorted(set(identifiers))
        for name in identifiers:
            assert len(name) >= 2
            assert not any(char.isspace() for char in name)
            assert not name.isdigit()
    for block in found.code_blocks:
        assert set(block.identifiers) <= set(found.code_identifiers)


@SETTINGS
@given(st.text())
def test_any_text(source: str) -> None:
    check(markdown.scan("a.md", source.encode("utf-8", "surrogatepass")))


@SETTINGS
@given(MARKDOWNISH)
def test_markdown_like_text(source: str) -> None:
    data = source.encode()
    facts = markdown.scan("a.md", data)
    check(facts)
    assert facts == markdown.scan("a.md", data)  # deterministic


@SETTINGS
@given(st.binary())
def test_any_bytes(data: bytes) -> None:
    facts = markdown.scan("a.md", data)
    check(facts)
    assert facts.size == len(data)
    assert facts.parsed  # decoding problems never stop Markdown from being parsed
    assert all("U+FFFD" in p.message for p in facts.problems)
