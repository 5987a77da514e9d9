"""The HTML site in a real browser: Debian's chromium driven by Playwright.

`.ci/run` installs both and sets DOCGEN_REQUIRE_BROWSER, under which a missing
browser is an error; elsewhere these tests are skipped, saying why.
Screenshots go to `DOCGEN_TEST_ARTIFACTS` (default: the test's temporary folder).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from docgen.model.report import BuildReport
from docgen.site.publish import publish_site

CHROMIUM = "/usr/bin/chromium"
#: As root in a container, chromium needs no sandbox; no background traffic.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

_MISSING = None
try:
    from playwright import sync_api
except ImportError:
    _MISSING = "Playwright is not installed (pip install -e '.[test]')"
if _MISSING is None and not shutil.which(CHROMIUM):
    _MISSING = f"no browser: {CHROMIUM} is not installed (apt-get install chromium)"
if _MISSING is not None:
    if os.environ.get("DOCGEN_REQUIRE_BROWSER"):  # CI: the browser tests must run
        raise RuntimeError(_MISSING)
    pytest.skip(_MISSING, allow_module_level=True)

BuildFn = Callable[..., BuildReport]
SampleFn = Callable[..., Path]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def site(sample: SampleFn, docgen_build: BuildFn) -> Path:
    repo = sample("torchlike")
    out = repo / "docs" / "generated"
    docgen_build(repo, out, 2)
    folder = repo.parent / "site"
    publish_site(out, folder, jobs=2)
    return folder


@pytest.fixture
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("DOCGEN_TEST_ARTIFACTS", tmp_path / "artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Watched:
    """A page whose console errors and requests are kept, to check at the end."""

    def __init__(self, browser: Any, allowed: str) -> None:
        self.page = browser.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("request", self._request)
        self._allowed = allowed

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def _request(self, request: Any) -> None:
        if not request.url.startswith(self._allowed):
            self.outside.append(request.url)

    def close(self) -> None:
        self.page.close()
        assert self.errors == []
        assert self.outside == []


def search_and_enter(watched: Watched, start: str, query: str) -> str:
    page = watched.page
    page.goto(start)
    page.keyboard.press("/")
    page.keyboard.type(query)
    first = page.locator("#docgen-results li a").first
    first.wait_for(timeout=5000)
    shown = first.inner_text()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return shown


@pytest.mark.parametrize("how", ["file", "http"])
def test_a_function_is_found_first_and_enter_lands_on_its_definition(
    browser: Any, site: Path, served: str, how: str, tmp_path: Path
) -> None:
    base = site.resolve().as_uri() if how == "file" else served
    watched = Watched(browser, base)
    shown = search_and_enter(watched, f"{base}/minitorch/index.html", "relu")
    # kind, name, file, and how many other files use it (`minitorch/nn/__init__.py`)
    used = ["used", "in", "1", "file"]
    assert shown.split() == ["function", "relu", "minitorch/nn/functional.py", *used]
    page = watched.page
    assert page.url.endswith("/minitorch/nn/functional.py_docs.html#function-relu")
    assert page.locator("[id='function-relu']").count() == 1
    page.screenshot(path=str(artifacts(tmp_path) / f"definition-{how}.png"))
    watched.close()


def test_search_shows_kind_name_and_file_and_keys_choose(
    browser: Any, site: Path, tmp_path: Path
) -> None:
    base = site.resolve().as_uri()
    watched = Watched(browser, base)
    page = watched.page
    page.goto(f"{base}/index.html")
    assert page.evaluate("typeof window.docgenSearch") == "object"
    assert not [
        u for u in page.evaluate("performance.getEntries().map(e => e.name)") if "_search/" in u
    ]
    page.keyboard.press("/")
    page.keyboard.type("lin")
    items = page.locator("#docgen-results li a")
    items.first.wait_for(timeout=5000)
    assert items.count() >= 2
    page.screenshot(path=str(artifacts(tmp_path) / "search.png"))
    second = items.nth(1).get_attribute("href")
    page.keyboard.press("ArrowDown")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(str(second).rsplit("/", 1)[-1])
    watched.close()


def test_breadcrumbs_and_folder_pages_lead_to_every_page(browser: Any, site: Path) -> None:
    base = site.resolve().as_uri()
    watched = Watched(browser, base)
    page = watched.page
    page.goto(f"{base}/minitorch/nn/functional.py_docs.html")
    crumbs = page.locator("nav.crumbs a")
    assert [crumbs.nth(i).inner_text() for i in range(crumbs.count())] == [
        "(root)",
        "minitorch",
        "nn",
    ]
    with page.expect_navigation():
        crumbs.nth(1).click()
    assert page.url.endswith("/minitorch/index.html")
    reached = set()
    for href in page.locator("main a").evaluate_all("links => links.map(a => a.href)"):
        if href.startswith(base) and href.endswith("_docs.html"):
            reached.add(href.removeprefix(base + "/"))
    expected = {p.relative_to(site).as_posix() for p in (site / "minitorch").glob("*_docs.html")}
    assert expected <= reached
    watched.close()


def test_a_folder_diagram_is_drawn_offline(browser: Any, site: Path, tmp_path: Path) -> None:
    base = site.resolve().as_uri()
    watched = Watched(browser, base)
    page = watched.page
    page.goto(f"{base}/minitorch/doc.html")
    page.locator("pre.mermaid svg").first.wait_for(timeout=10000)
    assert page.locator("pre.mermaid svg .node").count() >= 3
    page.screenshot(path=str(artifacts(tmp_path) / "diagram.png"), full_page=True)
    watched.close()


def test_full_text_search_works_over_http_and_says_why_not_from_disk(
    browser: Any, site: Path, served: str, tmp_path: Path
) -> None:
    if not (site / "_pagefind" / "pagefind.js").is_file():
        pytest.skip("Pagefind is not installed (pip install 'pagefind[bin]')")
    watched = Watched(browser, served)
    page = watched.page
    page.goto(f"{served}/_fulltext.html")
    page.locator(".pagefind-ui__search-input").fill("softmax")
    result = page.locator(".pagefind-ui__result-link").first
    result.wait_for(timeout=10000)
    assert result.get_attribute("href")
    page.screenshot(path=str(artifacts(tmp_path) / "fulltext.png"))
    watched.close()
    base = site.resolve().as_uri()
    offline = Watched(browser, base)
    offline.page.goto(f"{base}/_fulltext.html")
    assert offline.page.locator("#docgen-fulltext-offline").is_visible()
    offline.close()


def test_slash_leaves_other_fields_alone_and_escape_closes_then_clears(
    browser: Any, site: Path
) -> None:
    base = site.resolve().as_uri()
    watched = Watched(browser, base)
    page = watched.page
    page.goto(f"{base}/index.html")
    page.evaluate(
        "() => { const f = document.createElement('input'); f.id = 'other';"
        " document.body.appendChild(f); }"
    )
    page.locator("#other").focus()
    page.keyboard.type("a/b")
    assert page.locator("#other").input_value() == "a/b"
    assert page.locator("#docgen-search").input_value() == ""
    page.locator("body").click(position={"x": 1, "y": 1})
    page.keyboard.press("/")
    page.keyboard.type("lin")
    items = page.locator("#docgen-results li")
    items.first.wait_for(timeout=5000)
    page.keyboard.press("Escape")  # closes the list, keeps the query
    assert items.count() == 0
    assert page.locator("#docgen-search").input_value() == "lin"
    page.keyboard.press("Escape")  # clears it
    assert page.locator("#docgen-search").input_value() == ""
    page.locator("#docgen-search").focus()
    page.keyboard.type("lin")
    items.first.wait_for(timeout=5000)
    page.locator("body").click(position={"x": 1, "y": 1})  # a click outside closes it
    assert items.count() == 0
    assert page.locator("#docgen-search").input_value() == "lin"
    watched.close()
