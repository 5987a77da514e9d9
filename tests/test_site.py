"""`docgen site`: the Markdown pages as HTML, with the same anchors, links that stay in
the site, source views with line anchors, inert source text, incremental and
deterministic publishing."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from docgen.build import BuildReport
from docgen.linkcheck import heading_anchors
from docgen.site.check import check_site
from docgen.site.html import SiteLinks, html_page, source_page, without_front_matter
from docgen.site.publish import publish_site

BuildFn = Callable[..., BuildReport]
SampleFn = Callable[..., Path]
_ID = re.compile(r'\sid="([^"]*)"')


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
    assert "<script" not in docs and "http" not in "".join(re.findall(r'src="[^"]*"', docs))


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
        text = data.decode("utf-8").lower()
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
    again = publish_site(out, site, jobs=2)
    assert again.written == [] and again.unchanged == again.pages
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


def test_links_are_rewritten_into_the_site() -> None:
    links = SiteLinks("pkg/a.py_docs.md", "../..", frozenset({"pkg/a.py", "README.md"}))
    assert links.rewrite("a.py_kw.md#functions") == "a.py_kw.html#functions"
    assert links.rewrite("../../../pkg/a.py#L3") == "../_source/pkg/a.py.html#L3"
    assert links.rewrite("../../../README.md#usage") == "../_source/README.md.html"
    assert links.rewrite("../../../pkg/") == "index.html"
    assert links.rewrite("../index.md") == "../index.html"
    assert links.rewrite("https://example.com/x.md") == "https://example.com/x.md"
    assert links.rewrite("#here") == "#here"
