"""The renderer's filters keep untrusted text inert, and links work from any directory."""

from __future__ import annotations

import json
import posixpath
import re
from urllib.parse import quote, unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docgen.model.links import encode_path, href, page_folder, relative, relative_from
from docgen.model.links import relative as relative_path
from docgen.render.context import Linker, make_href
from docgen.render.environment import make_environment
from docgen.render.filters import (
    blockquote,
    fenced,
    fold_lines,
    inline_code,
    inline_codes,
    md_text,
    plural,
    shell_quote,
    yaml_list,
    yaml_str,
)
from docgen.render.tidy import tidy

MD = MarkdownIt("commonmark")

#: text as read_source hands it over: newlines normalised, no NUL (NUL means binary)
source_text = st.text(st.characters(exclude_characters="\r\0"))
#: punctuation-heavy text that tries hard to form Markdown constructs
nasty_text = st.lists(
    st.sampled_from([*"`*_[]()!<>#&\\|~-+=.:@$ \t\nab1", "http://", "www.", "&amp;", "\r\n"]),
).map("".join)
any_text = st.one_of(st.text(), nasty_text)


def inline_children(markdown: str) -> list[Token]:
    """The children of the single paragraph the Markdown must parse into."""
    tokens = MD.parse(markdown)
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"], markdown
    return list(tokens[1].children or [])


# ------------------------------------------------------------------- md_text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("[click](http://evil)", r"\[click\](http\://evil)"),
        ("<script>", r"\<script\>"),
        ("a & b", r"a \& b"),
        ("# Heading", r"\# Heading"),
        ("line one\nline two", "line one line two"),
        ("  padded\r\n", "padded"),
        ("1. not a list", r"1\. not a list"),
        ("a, b; c? 50% 'q' \"d\" e/f", "a, b; c? 50% 'q' \"d\" e/f"),
    ],
)
def test_md_text_escapes(raw: str, expected: str) -> None:
    assert md_text(raw) == expected


@given(any_text)
def test_md_text_renders_as_exactly_its_text(raw: str) -> None:
    out = md_text(raw)
    expected = fold_lines(raw).strip()
    if not expected:
        assert out == ""
        return
    assert "\n" not in out
    children = inline_children(out)
    assert {c.type for c in children} == {"text"}
    assert "".join(c.content for c in children) == expected


def test_md_text_stays_inert_after_other_text() -> None:
    """Even after a line of template text, escaped text cannot underline it into a heading."""
    tokens = MD.parse("Title\n" + md_text("===") + "\n\n> " + md_text("# x"))
    assert "heading_open" not in [t.type for t in tokens]


# --------------------------------------------------------------- inline_code


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("plain", "`plain`"),
        ("a`b", "``a`b``"),
        ("`edge`", "`` `edge` ``"),
        (" both ", "`  both  `"),
        (" left", "` left`"),
        ("   ", "`   `"),
        ("", "` `"),
        ("f(int a, char* b)", "`f(int a, char* b)`"),
        ("tab\tinside", "`tab\tinside`"),  # not printable: the pattern decides
        ("x\u2028y", "`x y`"),
        ("nbsp\u00a0", "`nbsp\u00a0`"),
    ],
)
def test_inline_code_examples(raw: str, expected: str) -> None:
    assert inline_code(raw) == expected


@given(any_text.filter(lambda s: fold_lines(s) != ""))
def test_inline_code_round_trips(raw: str) -> None:
    children = inline_children(inline_code(raw))
    assert [c.type for c in children] == ["code_inline"]
    assert children[0].content == fold_lines(raw)


def test_inline_code_inside_link_label() -> None:
    children = inline_children(f"[{inline_code('a]b`c')}](x.md)")
    assert [c.type for c in children] == ["link_open", "code_inline", "link_close"]
    assert children[1].content == "a]b`c"


# ------------------------------------------------------------------- fenced


def fence_tokens(markdown: str) -> list[Token]:
    return [t for t in MD.parse(markdown) if t.type in ("fence", "code_block")]


@given(source_text, st.sampled_from(["python", "markdown", "toml", "", "c++", "x`y"]))
def test_fenced_round_trips(text: str, language: str) -> None:
    block = fenced(text, language)
    tokens = MD.parse(block)
    assert [t.type for t in tokens] == ["fence"]
    assert tokens[0].content == (text if text.endswith("\n") or not text else text + "\n")
    assert tokens[0].info == (language.replace("`", "") or "text")


@given(source_text)
def test_fenced_survives_tidy_inside_a_page(text: str) -> None:
    page = tidy(f"# Title  \n\n\n\nBefore\n\n{fenced(text, 'python')}\n\n\n\nAfter  \n\n")
    fences = fence_tokens(page)
    assert len(fences) == 1
    assert fences[0].content == (text if text.endswith("\n") or not text else text + "\n")
    assert page.endswith("After\n")


def test_fence_is_longer_than_any_backtick_run() -> None:
    block = fenced("x = '````'\n```\n", "python")
    assert block.startswith("`````python\n")
    assert block.endswith("\n`````")


# --------------------------------------------------------------------- yaml


@given(st.text())
def test_yaml_str_is_json_and_yaml(value: str) -> None:
    quoted = yaml_str(value)
    assert "\n" not in quoted
    assert json.loads(quoted) == value
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(f"key: {quoted}\n") == {"key": value}


def test_yaml_str_keeps_readable_non_ascii() -> None:
    assert yaml_str("pkg/ünï.py") == '"pkg/ünï.py"'
    assert yaml_str("a\u2028b") == '"a\\u2028b"'


def test_yaml_list() -> None:
    assert yaml_list([]) == "[]"
    assert yaml_list(["gpu", 'te"st']) == '["gpu", "te\\"st"]'
    assert json.loads(yaml_list(["a", "b"])) == ["a", "b"]


# -------------------------------------------------------------------- small


def test_plural() -> None:
    assert plural(1, "class", "classes") == "1 class"
    assert plural(2, "class", "classes") == "2 classes"
    assert plural(1234, "byte") == "1,234 bytes"


def test_blockquote_is_inert() -> None:
    tokens = MD.parse(blockquote("# not a heading\n[x](y)"))
    types = [t.type for t in tokens]
    assert types == [
        "blockquote_open",
        "paragraph_open",
        "inline",
        "paragraph_close",
        "blockquote_close",
    ]
    assert tokens[2].children is not None
    assert {c.type for c in tokens[2].children} == {"text"}


def test_shell_quote() -> None:
    assert shell_quote("tests/test_a.py") == "tests/test_a.py"
    assert shell_quote("a b/$x.py") == "'a b/$x.py'"
    assert shell_quote("-x.py") == "./-x.py"


# -------------------------------------------------------------------- tidy


def reference_tidy(page: str) -> str:
    """tidy's rules applied one line at a time: slow and plain."""
    out: list[str] = []
    blank_pending = False
    lines = page.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        if not line:
            blank_pending = bool(out)
            continue
        if blank_pending:
            out.append("")
            blank_pending = False
        out.append(line)
        opened = re.match(r" {0,3}(`{3,}|~{3,})(.*)$", line)
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            marker = opened.group(1)
            closer = re.compile(rf" {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*")
            while i < len(lines):
                out.append(lines[i])
                i += 1
                if closer.fullmatch(out[-1]):
                    break
    return "\n".join(out).rstrip("\n") + "\n" if out else ""


_PAGE_PIECES = st.sampled_from(
    [
        *[
            "\n",
            " ",
            "\t",
            "`",
            "```",
            "~~~",
            "````",
            "a",
            "x`",
            "\r",
            "\u00a0",
            "    ```",
            "``` `",
        ],
        *["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u3000"],  # more that `str.rstrip` takes
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PAGE_PIECES, max_size=40).map("".join))
def test_tidy_follows_its_rules_line_by_line(page: str) -> None:
    assert tidy(page) == reference_tidy(page)


def test_tidy_normalises_whitespace_outside_fences() -> None:
    page = "\n\n---\nsource: x  \n---\n\n\n\n# T \t\n\n\n~~~\nkeep  \n\n\n\n~~~\n\n\ntail"
    assert tidy(page) == "---\nsource: x\n---\n\n# T\n\n~~~\nkeep  \n\n\n\n~~~\n\ntail\n"


# -------------------------------------------------------------------- links

page_paths = st.lists(
    st.sampled_from(["a", "b c", "ü", "#", "%", "(x)", "[y]", "`z`"]), min_size=1, max_size=4
).map("/".join)


@given(st.text(max_size=20))
def test_encode_path_leaves_plain_paths_alone_and_quotes_the_rest(path: str) -> None:
    assert encode_path(path) == quote(path, safe="/-_.~")


@given(page_paths, page_paths | st.just("../../y") | st.just(""))
def test_relative_from_a_split_folder_is_relative(from_page: str, to_path: str) -> None:
    assert relative_from(page_folder(from_page), to_path) == relative(from_page, to_path)


@given(page_paths, page_paths)
def test_make_href_matches_links_href_inside_the_tree(from_page: str, to_path: str) -> None:
    assert make_href(from_page, to_path, "L3") == href(from_page, to_path, "L3")


@given(st.lists(st.tuples(page_paths, page_paths | st.just("../../y")), max_size=6))
def test_links_made_once_per_folder_match_links_made_afresh(
    pairs: list[tuple[str, str]],
) -> None:
    # Pages of one folder share each link made (see `encoded_relative`): whatever pages
    # came before, a page's link is the one made for it alone.
    for from_page, to_path in [*pairs, *reversed(pairs)]:
        assert Linker(from_page, "..").to_page(to_path) == href(from_page, to_path)


@pytest.mark.parametrize("cwd", ["/", "/tmp"])
def test_source_links_do_not_depend_on_the_working_directory(
    cwd: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(cwd)
    linker = Linker("pkg/sub/a.py_docs.md", "../../../..")
    target = linker.to_source("pkg/sub/a b.py", "L2")
    assert target == "../../../../../../pkg/sub/a%20b.py#L2"
    # OUT sits four levels below the repository; the link resolves from the page's folder.
    page_folder = "/repo/o1/o2/o3/o4/pkg/sub"
    path, _, anchor = target.partition("#")
    assert posixpath.normpath(posixpath.join(page_folder, unquote(path))) == "/repo/pkg/sub/a b.py"
    assert anchor == "L2"
    assert relative_path("x.md", "../../y") == "../../y"
    assert relative_path("a/b/x.md", "") == "../.."


@given(any_text)
def test_tidy_is_idempotent(text: str) -> None:
    once = tidy(text)
    assert tidy(once) == once


def test_tidy_copies_an_unclosed_fence_and_needs_a_long_enough_closer() -> None:
    page = "A  \n````py\nx  \n```\n\n\n\ny  \n"
    assert tidy(page) == "A\n````py\nx  \n```\n\n\n\ny  \n"
    assert tidy("~~~\n a \n  ~~~~ \t\n\n\nb  ") == "~~~\n a \n  ~~~~ \t\n\nb\n"


def test_inline_codes_lists_code_spans_or_says_none() -> None:
    assert inline_codes(["TORCH_API", "a`b", ""]) == "`TORCH_API`, ``a`b``, ` `"
    assert inline_codes([]) == "none"
    assert inline_codes((), "nothing") == "nothing"


def test_the_codes_macro_and_the_inline_codes_filter_agree() -> None:
    env = make_environment(())
    template = env.from_string(
        '{% import "macros.md.j2" as m %}{{ m.codes(v) }}|{{ v | inline_codes }}|'
        '{{ m.codes([], "no tags") }}'
    )
    assert template.render(v=["x", "y z"]) == "`x`, `y z`|`x`, `y z`|no tags"
