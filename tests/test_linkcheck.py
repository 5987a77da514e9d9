"""The link checker: every relative link, image and anchor on the pages must land."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.model.links import encode_path, href
from docgen.site.linkcheck import BrokenLink, check_links, format_broken, heading_anchors


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """An output folder next to a small repository, as docgen lays them out."""
    out, repo = tmp_path / "out", tmp_path / "repo"
    write(repo, {"a/b.py": "one\ntwo\nthree\n", "README.md": "# Read me\n\n## Install\n"})
    write(out, {"index.md": "# Home\n", "a/index.md": "# Folder a\n"})
    return out, repo


def test_valid_links_between_pages_and_sources(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {
            "a/b.py_docs.md": (
                "# `b.py`\n\n## Functions\n\n"
                "See [keywords](b.py_kw.md#keywords), [folder](index.md),\n"
                "[home](../index.md#home),\n"
                "[source](../../repo/a/b.py), [line 2](../../repo/a/b.py#L2),\n"
                "[readme](../../repo/README.md#install), [up](..), [self](#functions).\n"
            ),
            "a/b.py_kw.md": "# Keywords\n\n[back](b.py_docs.md#functions)\n",
        },
    )
    assert check_links(out, repo) == []


def test_encoded_file_names_resolve(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    odd = "we ird #1 100% (x) [y] `z` ünï.md"
    write(out, {odd: "# Odd\n\n## Section (two)\n"})
    link = href("index.md", odd, "section-two")
    assert link == encode_path(odd) + "#section-two"
    assert "%20" in link and "%23" in link and "%25" in link and "%C3%BC" in link
    write(out, {"index.md": f"# Home\n\n[odd]({link}) and ![pic]({encode_path(odd)})\n"})
    assert check_links(out, repo) == []


def test_missing_file(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(out, {"index.md": "# Home\n\n[gone](a/gone.py_docs.md)\n[src](../repo/a/c.py)\n"})
    assert check_links(out, repo) == [
        BrokenLink("index.md", 3, "a/gone.py_docs.md", "no such file"),
        BrokenLink("index.md", 4, "../repo/a/c.py", "no such file"),
    ]


def test_missing_anchor(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {"index.md": "# Home\n\n- [a](a/index.md#folder-b)\n- [r](../repo/README.md#usage)\n"},
    )
    assert check_links(out, repo) == [
        BrokenLink("index.md", 3, "a/index.md#folder-b", "no heading #folder-b in a/index.md"),
        BrokenLink("index.md", 4, "../repo/README.md#usage", "no heading #usage in README.md"),
    ]


def test_repeated_heading_numbered(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {
            "a/index.md": "# Folder a\n\n## Notes\n\n## Notes\n",
            "index.md": (
                "# Home\n\n[one](a/index.md#notes) [two](a/index.md#notes-1)\n"
                "[three](a/index.md#notes-2)\n"
            ),
        },
    )
    assert heading_anchors("## Notes\n\n## Notes\n\n## Notes-1\n") == {
        "notes",
        "notes-1",
        "notes-1-1",
    }
    assert check_links(out, repo) == [
        BrokenLink("index.md", 4, "a/index.md#notes-2", "no heading #notes-2 in a/index.md"),
    ]


def test_heading_with_inline_code(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    assert heading_anchors("### `Foo.bar`\n") == {"foobar"}
    assert heading_anchors("## The `x` & *y* [z](q.md)\n") == {"the-x--y-z"}
    write(out, {"index.md": "# Home\n\n### `Foo.bar`\n\n[f](#foobar) [g](#foo.bar)\n"})
    assert check_links(out, repo) == [
        BrokenLink("index.md", 5, "#foo.bar", "no heading #foo.bar in index.md"),
    ]


def test_line_anchors_on_source(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {
            "a/b.py_docs.md": (
                "# b\n\n[ok](../../repo/a/b.py#L3) [end](../../repo/a/b.py#L4)\n"
                "[far](../../repo/a/b.py#L99)\n"
                "[zero](../../repo/a/b.py#L0) [range](../../repo/a/b.py#L1-L3)\n"
                "[name](../../repo/a/b.py#main) [folder](../../repo/a#L1)\n"
            )
        },
    )
    page = "a/b.py_docs.md"
    assert check_links(out, repo) == [
        BrokenLink(page, 3, "../../repo/a/b.py#L4", "line 4 past end (3 lines)"),
        BrokenLink(page, 4, "../../repo/a/b.py#L99", "line 99 past end (3 lines)"),
        BrokenLink(page, 5, "../../repo/a/b.py#L0", "no line 0; lines start at 1"),
        BrokenLink(page, 6, "../../repo/a#L1", "anchor on a folder"),
        BrokenLink(page, 6, "../../repo/a/b.py#main", "anchor on a non-Markdown file"),
    ]


def test_source_lines_are_numbered_as_the_scanners_number_them(tmp_path: Path) -> None:
    """A lone carriage return ends a line for Python and for docgen's decoder: the
    line after it exists; "\r\n" ends one line, not two."""
    out, repo = tmp_path / "out", tmp_path / "repo"
    (repo / "a").mkdir(parents=True)
    (repo / "a/cr.py").write_bytes(b"\x0c\r@x")
    (repo / "a/crlf.py").write_bytes(b"one\r\ntwo\r\n")
    write(
        out,
        {
            "a/index.md": (
                "[cr](../../repo/a/cr.py#L2) [past](../../repo/a/cr.py#L3)\n"
                "[crlf](../../repo/a/crlf.py#L2) [past](../../repo/a/crlf.py#L3)\n"
            )
        },
    )
    assert check_links(out, repo) == [
        BrokenLink("a/index.md", 1, "../../repo/a/cr.py#L3", "line 3 past end (2 lines)"),
        BrokenLink("a/index.md", 2, "../../repo/a/crlf.py#L3", "line 3 past end (2 lines)"),
    ]


def test_link_climbing_above_out_and_repo(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    (out.parent / "elsewhere.md").write_text("# There\n", encoding="utf-8")
    write(out, {"index.md": "# Home\n\n[x](../elsewhere.md) [y](../repo/README.md)\n"})
    assert check_links(out, repo) == [
        BrokenLink("index.md", 3, "../elsewhere.md", "leaves the output and repository folders"),
    ]
    assert check_links(out) == [
        BrokenLink("index.md", 3, "../elsewhere.md", "leaves the output folder"),
        BrokenLink("index.md", 3, "../repo/README.md", "leaves the output folder"),
    ]


def test_external_urls_ignored(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {
            "index.md": (
                "# Home\n\n[a](https://example.com/x.md#nope) [b](mailto:me@example.com)\n"
                "[c](//cdn.example.com/y.png) <https://example.org> ![d](http://e.com/f.png)\n"
                "[e](/absolute/path.md)\n"
            )
        },
    )
    assert check_links(out, repo) == [
        BrokenLink("index.md", 5, "/absolute/path.md", "absolute path; links must be relative"),
    ]


def test_explicit_html_anchor_accepted(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {
            "a/index.md": (
                '# Folder a\n\nText <a id="inline-spot"></a> here.\n\n'
                "<a name='para-spot'></a>\n\n"
                '<div>\n<a id="block-spot"></a>\n</div>\n\n<div data-id="not-this"></div>\n'
            ),
            "index.md": (
                "# Home\n\n[i](a/index.md#inline-spot) [b](a/index.md#block-spot)\n"
                "[p](a/index.md#para-spot)\n"
                "[n](a/index.md#not-this)\n"
            ),
        },
    )
    assert check_links(out, repo) == [
        BrokenLink("index.md", 5, "a/index.md#not-this", "no heading #not-this in a/index.md"),
    ]


def test_image_src_checked(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(out, {"img/ok.png": "png"})
    write(out, {"index.md": "# Home\n\n![ok](img/ok.png)\n\n| a |\n|---|\n| ![no](img/no.png) |\n"})
    assert check_links(out, repo) == [BrokenLink("index.md", 7, "img/no.png", "no such file")]


def test_lines_follow_breaks_and_state_folder_skipped(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(
        out,
        {
            "index.md": "# Home\n\nsome text\nmore [x](x.md) text\\\nand [y](y.md)\n",
            ".docgen/cache.md": "[z](nowhere.md)\n",
        },
    )
    assert check_links(out, repo) == [
        BrokenLink("index.md", 4, "x.md", "no such file"),
        BrokenLink("index.md", 5, "y.md", "no such file"),
    ]


def test_pages_limit_what_is_read(tree: tuple[Path, Path]) -> None:
    out, repo = tree
    write(out, {"index.md": "# Home\n\n[x](x.md)\n", "a/index.md": "# A\n\n[y](#nope)\n"})
    assert check_links(out, repo, pages=[Path("a/index.md")]) == [
        BrokenLink("a/index.md", 3, "#nope", "no heading #nope in a/index.md"),
    ]
    assert check_links(out, repo, pages=[out / "index.md"]) == [
        BrokenLink("index.md", 3, "x.md", "no such file"),
    ]
    with pytest.raises(ValueError, match="not inside the output folder"):
        check_links(out, repo, pages=[repo / "README.md"])


def test_format_broken() -> None:
    broken = BrokenLink("a/b.md", 7, "c.md#d", "no heading #d in a/c.md")
    assert format_broken(broken) == "a/b.md:7: c.md#d (no heading #d in a/c.md)"
