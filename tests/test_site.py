"""`docgen site`: the Markdown pages as HTML, with the same anchors, links that stay in
the site, source views with line anchors, inert source text, incremental and
deterministic publishing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.model.report import BuildReport
from docgen.site.check import check_site
from docgen.site.html import SiteLinks, html_page, source_page, without_front_matter
from docgen.site.linkcheck import heading_anchors
from docgen.site.publish import publish_site

BuildFn = Callable[..., BuildReport]
SampleFn = Callable[..., Path]
_ID = re.compile(r'\sid="([^"]*)"')
#: the scripts a page may load: the site's own search and diagram renderer
_OWN_SCRIPT = re.compile(
    r'<script src="(?:\.\./)*_static/(?:search|mermaid\.min|diagrams|fulltext)\.js" defer></script>'
)


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*.html"))}


def built_site(repo: Path, docgen_build: BuildFn, jobs: int = 2) -> tuple[Path, Path]:
    out = repo / "docs" / "generated"
    docgen_build(repo, out, jobs)
    site = repo.parent / f"{repo.name}-site-{jobs}"
    publish_site(out, site, jobs=jobs)
    return out, site


def test_links_resolve_and_every_markdown_anchor_is_an_html_id(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    out, site = built_site(sample("torchlike"), docgen_build)
    assert check_site(site) == []
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md"))
    pages = [p for p in pages if not p.startswith(".docgen")]
    assert len(pages) > 50
    for page in pages:
        html = (site / html_page(page)).read_text(encoding="utf-8")
        markdown = without_front_matter((out / page).read_text(encoding="utf-8"))
        assert heading_anchors(markdown) <= set(_ID.findall(html)), page


def test_source_views_have_line_anchors_and_pages_link_to_them(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    _, site = built_site(sample("torchlike"), docgen_build)
    view = (site / source_page("minitorch/nn/modules.py")).read_text(encoding="utf-8")
    lines = (site.parent / "torchlike" / "minitorch/nn/modules.py").read_text().count("\n")
    assert f'id="L{lines}"' in view and 'id="L1"' in view
    docs = (site / html_page("minitorch/nn/modules.py_docs.md")).read_text(encoding="utf-8")
    assert "_source/minitorch/nn/modules.py.html#L" in docs
    assert "<script" not in _OWN_SCRIPT.sub("", docs)
    assert "http" not in "".join(re.findall(r'src="[^"]*"', docs))


def test_text_from_sources_never_becomes_markup(tmp_path: Path, docgen_build: BuildFn) -> None:
    repo = tmp_path / "evil"
    repo.mkdir()
    (repo / "x.py").write_text(
        '"""<script>alert(1)</script> <img src=x onerror=alert(2)>"""\n\n\n'
        'def f() -> None:\n    """<iframe src="https://example.com"></iframe>"""\n'
    )
    (repo / "README.md").write_text("# Hi <b>there</b>\n\n<script>alert(3)</script>\n")
    _, site = built_site(repo, docgen_build)
    for name, data in site_files(site).items():
        text = _OWN_SCRIPT.sub("", data.decode("utf-8")).lower()
        for tag in ("<script", "<img", "<iframe", "<b>"):
            assert tag not in text, (name, tag)
    assert check_site(site) == []


def test_publishing_is_incremental_and_deterministic(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    repo = sample("torchlike")
    out, site = built_site(repo, docgen_build, jobs=2)
    one_process = repo.parent / "one-process-site"
    publish_site(out, one_process, jobs=1)
    assert site_files(one_process) == site_files(site)
    everything = {
        p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()
    }
    alone = {
        p.relative_to(one_process).as_posix(): p.read_bytes()
        for p in one_process.rglob("*")
        if p.is_file()
    }
    assert alone == everything  # search shards, assets and the full-text index too
    search_made = (site / "_search" / "manifest.js").stat().st_mtime_ns
    again = publish_site(out, site, jobs=2)
    assert again.written == [] and again.unchanged == again.pages
    assert (site / "_search" / "manifest.js").stat().st_mtime_ns == search_made
    module = repo / "minitorch" / "nn" / "modules.py"
    module.write_text(module.read_text() + "\n\ndef added_here() -> int:\n    return 1\n")
    (repo / "minitorch" / "utils" / "notes.py").unlink()
    docgen_build(repo, out, 2)
    changed = publish_site(out, site, jobs=2)
    assert html_page("minitorch/nn/modules.py_docs.md") in changed.written
    assert source_page("minitorch/nn/modules.py") in changed.written
    assert source_page("minitorch/utils/notes.py") in changed.pruned
    assert not (site / html_page("minitorch/utils/notes.py_docs.md")).exists()
    assert not [p for p in changed.written if p.startswith("minitorch/compile/")]
    assert check_site(site) == []
    assert "added_here" in (site / "_search" / "ad.js").read_text(encoding="utf-8")
    fresh = repo.parent / "fresh-site"
    publish_site(out, fresh, jobs=2)
    assert _all_files(site) == _all_files(fresh)  # nothing left of the last full-text index


def _all_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_links_are_rewritten_into_the_site() -> None:
    links = SiteLinks("pkg/a.py_docs.md", "../..", frozenset({"pkg/a.py", "README.md"}))
    assert links.rewrite("a.py_kw.md#functions") == "a.py_kw.html#functions"
    assert links.rewrite("../../../pkg/a.py#L3") == "../_source/pkg/a.py.html#L3"
    assert links.rewrite("../../../README.md#usage") == "../_source/README.md.html"
    assert links.rewrite("../../../pkg/") == "index.html"
    assert links.rewrite("../index.md") == "../index.html"
    assert links.rewrite("https://example.com/x.md") == "https://example.com/x.md"
    assert links.rewrite("#here") == "#here"


def test_a_folded_block_folds_and_any_other_markup_stays_text() -> None:
    from docgen.site.html import convert

    links = SiteLinks("pkg/a.py_docs.md", "../..", frozenset({"pkg/a.py"}))
    page = convert(
        "## Original Source\n\n<details>\n<summary>The whole file (3 lines); "
        "the analysis above comes from it</summary>\n\n```python\nx = 1\n```\n\n"
        "</details>\n\n<details onclick=x>\n<summary><b>no</b></summary>\n\n"
        "<script>alert(1)</script>\n",
        links,
    )
    body = page.body
    assert "<details>\n<summary>The whole file (3 lines); the analysis above" in body
    assert "&lt;details&gt;" not in body and "&lt;summary&gt;" not in body
    assert "&lt;details onclick=x&gt;" in body and "&lt;b&gt;no&lt;/b&gt;" in body
    assert "<script>" not in body and "&lt;script&gt;" in body


def shard_for(query: str, manifest: dict[str, object]) -> str | None:
    """The page's lookup (search.js `shardFor`), in Python."""
    from docgen.site.search import key_of

    split, keys = manifest["split"], manifest["keys"]
    assert isinstance(split, list) and isinstance(keys, list)
    n = int(str(manifest["first"]))
    key = key_of(query, n)
    while key in split and len(query) > n:
        n += 1
        key = key_of(query, n)
    return key if key in keys else None


def loaded(files: dict[str, str], name: str) -> object:
    text = files[name]
    payload = text[text.index("(") + 1 : text.rindex(")")]
    if name.endswith("manifest.js"):
        return json.loads(payload)
    return json.loads(payload[payload.index(",") + 1 :])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,14}", fullmatch=True), min_size=1, max_size=60
    ),
    st.integers(min_value=300, max_value=3000),
)
def test_every_word_of_every_name_finds_it_in_one_shard(names: list[str], budget: int) -> None:
    from docgen.model.sites import DefinitionSite
    from docgen.site import search

    sites = [
        DefinitionSite(n, f"p/m{i % 3}.py", i + 1, "function", n, n.lower())
        for i, n in enumerate(names)
    ]
    old = search.SHARD_BUDGET
    search.SHARD_BUDGET = budget
    try:
        index = search.search_index(sites)
        assert search.search_index(list(reversed(sites))).files == index.files
    finally:
        search.SHARD_BUDGET = old
    manifest = loaded(index.files, "_search/manifest.js")
    assert isinstance(manifest, dict)
    for site in sites:
        for word in search.tokens(site.name, site.qualname):
            for end in range(2, len(word) + 1):
                key = shard_for(word[:end], manifest)
                assert key is not None, (site.name, word[:end])
                entries = loaded(index.files, f"_search/{key}.js")
                assert isinstance(entries, list)
                assert [site.name, site.kind, site.qualname, site.path, site.anchor] in entries
    for name, text in index.files.items():
        if len(text.encode()) > budget and not name.endswith("manifest.js"):
            key = name.removeprefix("_search/").removesuffix(".js")
            assert any(f"search shard {key!r}" in w for w in index.warnings), name


def test_a_used_definition_s_entry_counts_the_files_that_use_it() -> None:
    from docgen.model.sites import DefinitionSite
    from docgen.site import search

    sites = [
        DefinitionSite("used", "p/m.py", 1, "function", "used", "function-used"),
        DefinitionSite("alone", "p/m.py", 5, "function", "alone", "function-alone"),
    ]
    files = search.search_index(sites, {"p/m.py": {"used": (3, 7)}}).files
    entries = [e for name, text in files.items() if "manifest" not in name for e in shard(text)]
    assert ["used", "function", "used", "p/m.py", "function-used", "", 3] in entries
    assert ["alone", "function", "alone", "p/m.py", "function-alone"] in entries


def shard(text: str) -> list[object]:
    found = loaded({"s": text}, "s")
    assert isinstance(found, list)
    return found


def test_words_split_names_as_a_reader_does() -> None:
    from docgen.site.search import words

    assert words("DetectAnomalyGuard") == ["detectanomalyguard", "anomalyguard", "guard"]
    assert words("at::native::add_out") == [
        "at::native::add_out",
        "native::add_out",
        "add_out",
        "out",
    ]
    assert words("HTTPServer") == ["httpserver", "server"]


def test_a_folder_diagram_is_drawn_by_the_shipped_renderer_only_where_there_is_one(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    out, site = built_site(sample("torchlike"), docgen_build)
    markdown = (out / "minitorch" / "doc.md").read_text(encoding="utf-8")
    assert "```mermaid\ngraph LR\n" in markdown
    assert '  n0["__init__.py"]' in markdown and "n0 --> n2" in markdown  # nn/ is n2
    page = (site / "minitorch" / "doc.html").read_text(encoding="utf-8")
    assert '<pre class="mermaid">graph LR' in page
    assert '_static/mermaid.min.js" defer></script>' in page
    assert (site / "_static" / "mermaid.min.js").stat().st_size > 1_000_000
    plain = (site / "minitorch" / "nn" / "functional.py_docs.html").read_text(encoding="utf-8")
    assert "mermaid" not in plain


def test_a_large_diagram_is_capped_and_says_what_it_left_out(
    tmp_path: Path, docgen_build: BuildFn
) -> None:
    from docgen.render.diagram_views import DIAGRAM_NODES

    repo = tmp_path / "chain"
    package = repo / "pkg"
    package.mkdir(parents=True)
    count = DIAGRAM_NODES + 6
    (package / "__init__.py").write_text("")
    for i in range(count):
        body = f"from pkg import m{i + 1}\n" if i + 1 < count else ""
        (package / f"m{i}.py").write_text(body)
    docgen_build(repo, repo / "docs" / "generated", 2)
    doc = (repo / "docs" / "generated" / "pkg" / "doc.md").read_text(encoding="utf-8")
    shown = f"the {DIAGRAM_NODES} most connected of {count}, 6 left out to keep it readable"
    assert shown in doc
    diagram = doc.split("```mermaid\n", 1)[1].split("```", 1)[0]
    drawn = set(re.findall(r'\["m([0-9]+)\.py"\]', diagram))
    assert len(drawn) == DIAGRAM_NODES
    pairs = sum(1 for i in range(count - 1) if {str(i), str(i + 1)} <= drawn)
    assert diagram.count(" --> ") == pairs  # every import between drawn nodes, no other


def test_the_site_command_and_build_html_publish_the_same_site(sample: SampleFn) -> None:
    from click.testing import CliRunner

    from docgen.cli.main import cli

    first, second = sample("torchlike", "a"), sample("torchlike", "b")
    result = CliRunner().invoke(cli, ["site", str(first), "-q", "-j", "2"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["build", str(second), "-q", "-j", "2", "--html"])
    assert result.exit_code == 0, result.output
    made = first / "docs" / "generated-site"
    assert site_files(made) == site_files(second / "docs" / "generated-site")
    assert (made / "index.html").is_file() and check_site(made) == []
    rebuilt = CliRunner().invoke(cli, ["site", str(first), "-j", "2"])
    assert "0 written" in rebuilt.output  # nothing changed: nothing rendered again


def test_every_page_can_be_reached_from_the_root_by_its_links(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    import posixpath
    from urllib.parse import unquote

    _, site = built_site(sample("torchlike"), docgen_build)
    pages = set(site_files(site))
    seen, pending = {"index.html"}, ["index.html"]
    while pending:
        page = pending.pop()
        text = (site / page).read_text(encoding="utf-8")
        for href in re.findall(r'<a href="([^"#]+)[^"]*"', text):
            if "://" in href:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(href)))
            if target in pages and target not in seen:
                seen.add(target)
                pending.append(target)
    assert seen == pages


def test_clean_removes_the_site_it_published_and_keeps_a_users_file(sample: SampleFn) -> None:
    from click.testing import CliRunner

    from docgen.cli.main import cli

    repo = sample("torchlike")
    assert CliRunner().invoke(cli, ["site", str(repo), "-q", "-j", "2"]).exit_code == 0
    site = repo / "docs" / "generated-site"
    mine = site / "minitorch" / "notes.txt"
    mine.write_text("my own notes\n")
    result = CliRunner().invoke(cli, ["clean", str(repo)])
    assert result.exit_code == 0, result.output
    assert [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()] == [
        "minitorch/notes.txt"
    ]
    assert not (repo / "docs" / "generated").exists()


def test_links_to_names_that_need_encoding_land(tmp_path: Path, docgen_build: BuildFn) -> None:
    repo = tmp_path / "odd"
    (repo / "odd dir#x").mkdir(parents=True)
    (repo / "odd dir#x" / "m.py").write_text("def f() -> None:\n    pass\n")
    _, site = built_site(repo, docgen_build)
    assert (site / "_source" / "odd dir#x" / "m.py.html").is_file()
    assert check_site(site) == []


def test_a_repository_folder_named_like_the_full_text_index_keeps_its_pages(
    tmp_path: Path, docgen_build: BuildFn
) -> None:
    repo = tmp_path / "repo"
    (repo / "_pagefind").mkdir(parents=True)
    (repo / "_pagefind" / "mod.py").write_text("def f():\n    return 1\n")
    (repo / "a.py").write_text("def a():\n    return 1\n")
    out, site = built_site(repo, docgen_build)
    page = site / html_page("_pagefind/mod.py_docs.md")
    assert page.is_file()
    (repo / "a.py").write_text("def a():\n    return 2\n")
    docgen_build(repo, out, 2)
    publish_site(out, site, jobs=2)  # the full-text index is made again
    assert page.is_file()
    assert check_site(site) == []


@pytest.mark.parametrize("folder", ["_search", "_static", "_source"])
def test_a_repository_folder_named_like_a_site_folder_keeps_its_pages(
    tmp_path: Path, docgen_build: BuildFn, folder: str
) -> None:
    """The site's own folders are shared with a repository folder of the same name: a
    new search index, a new source view and `docgen clean` leave its pages alone."""
    from docgen.cli.clean import clean

    repo = tmp_path / "repo"
    (repo / folder / "sub").mkdir(parents=True)
    (repo / folder / "sub" / "mod.py").write_text("def in_sub():\n    return 1\n")
    (repo / folder / "top.py").write_text("def on_top():\n    return 1\n")
    (repo / "a.py").write_text("def a():\n    return 1\n")
    out, site = built_site(repo, docgen_build)
    pages = [site / html_page(f"{folder}/{p}") for p in ("sub/mod.py_docs.md", "top.py_kw.md")]
    assert all(page.is_file() for page in pages)
    (repo / "a.py").write_text("def a():\n    return 2\n\n\ndef added_here():\n    return 3\n")
    docgen_build(repo, out, 2)
    publish_site(out, site, jobs=2)  # the search index and a.py's source view made again
    assert all(page.is_file() for page in pages)
    assert "added_here" in (site / "_search" / "ad.js").read_text(encoding="utf-8")
    assert check_site(site) == []
    pages[0].write_text("a user's own page\n")  # no longer docgen's: clean keeps it
    report = clean(out)
    assert report.kept == [f"{site.name}/{folder}/sub/mod.py_docs.html"]
    left = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()]
    assert left == [f"{folder}/sub/mod.py_docs.html"]


def test_a_source_too_large_to_show_whole_shows_its_first_part_and_its_links_land(
    tmp_path: Path, docgen_build: BuildFn
) -> None:
    from docgen.site.sources import VIEW_LIMIT

    repo = tmp_path / "repo"
    repo.mkdir()
    body = "".join(f"def f{i}(x):\n    return x + {i}  # {'y' * 40}\n" for i in range(12_000))
    (repo / "big.py").write_text(body)
    assert VIEW_LIMIT < len(body) < 8 * 1024 * 1024  # parsed, but not shown whole
    out, site = tmp_path / "out", tmp_path / "site"
    docgen_build(repo, out, 1)
    publish_site(out, site)
    view = site / source_page("big.py")
    assert view.stat().st_size < 4 * 1024 * 1024
    text = view.read_text()
    assert f"The file has {len(body):,} bytes" in text and 'id="cut"' in text
    assert 'id="L1"' in text and 'id="L24000"' not in text
    docs = (site / html_page("big.py_docs.md")).read_text()
    assert '_source/big.py.html#L1"' in docs and '_source/big.py.html#cut"' in docs
    assert check_site(site) == []


@pytest.mark.parametrize("length", [246, 248, 250, 255])
def test_a_name_too_long_for_its_pages_suffixes_gets_pages_all_links_land(
    tmp_path: Path, docgen_build: BuildFn, length: int
) -> None:
    from docgen.model.links import NAME_MAX, docs_page, kw_page, page_stem
    from docgen.site.linkcheck import check_links

    name = "a" * (length - 3) + ".py"
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / name).write_text("def far_away():\n    pass\n")
    (repo / "pkg" / "uses.py").write_text(f"from pkg.{name[:-3]} import far_away\n")
    out, site = tmp_path / "out", tmp_path / "site"
    report = docgen_build(repo, out, 1)
    assert report.warnings == []
    stem = page_stem(f"pkg/{name}")
    assert stem != f"pkg/{name}" and page_stem(f"pkg/{name}") == stem  # the same every time
    for page in (docs_page(f"pkg/{name}"), kw_page(f"pkg/{name}")):
        assert (out / page).is_file()
    assert all(len(p.name.encode()) <= NAME_MAX for p in out.rglob("*"))
    assert check_links(out, repo) == []
    publish_site(out, site)
    assert check_site(site) == []
    shards = "".join(p.read_text() for p in (site / "_search").glob("*.js"))
    assert f'"{stem}"' in shards  # the search leads to the page's own name
