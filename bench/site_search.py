"""Time the site's symbol search in a real browser, from a cold cache.

    python bench/site_search.py SITE NAME [NAME ...] [--runs N] [--http]

For each name, N times: a fresh browser context opens SITE/index.html, focuses the
search box with `/`, types the name, and waits for the first result.  Prints,
per name, the median milliseconds from the first key to the first result, what
that result is, and the largest search shard of the site.  The budget is 300 ms.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BUDGET_MS = 300.0

#: In the page: type the name, resolve with the milliseconds until the first result.
TIME_QUERY = """async (name) => {
  const box = document.getElementById("docgen-search");
  const list = document.getElementById("docgen-results");
  const start = performance.now();
  return await new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      const first = list.querySelector("li a");
      if (first) { seen.disconnect(); resolve([performance.now() - start, first.innerText]); }
    });
    seen.observe(list, { childList: true, subtree: true });
    box.focus();
    box.value = name;
    box.dispatchEvent(new Event("input"));
  });
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("names", nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--http", action="store_true", help="serve the site on 127.0.0.1")
    args = parser.parse_args()
    site = args.site.resolve()
    base = site.as_uri()
    server = None
    if args.http:
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
        handler.log_message = lambda *a: None  # type: ignore[method-assign,assignment]
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
    shards = sorted((site / "_search").glob("*.js"), key=lambda p: p.stat().st_size)
    largest = shards[-1]
    print(f"{len(shards)} search files; largest {largest.name}, {largest.stat().st_size} bytes")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name in args.names:
            times, first = [], ""
            for _ in range(args.runs):
                context = browser.new_context()  # a cold cache each time
                page = context.new_page()
                page.goto(f"{base}/index.html")
                elapsed, first = page.evaluate(TIME_QUERY, name)
                times.append(elapsed)
                context.close()
            median = statistics.median(times)
            verdict = "within" if median <= BUDGET_MS else "OVER"
            shown = " ".join(first.split())
            print(
                f"{name}: median {median:.0f} ms (min {min(times):.0f}, max {max(times):.0f}), "
                f"{verdict} the {BUDGET_MS:.0f} ms budget; first result: {shown}"
            )
        browser.close()
    if server is not None:
        server.shutdown()


if __name__ == "__main__":
    main()
