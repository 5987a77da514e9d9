"""Pagefind's index of a site's pages, made in a child process: `python -m
docgen.site.fulltext_index SITE OUTPUT < PAGES` (one site-relative page a line).

Pagefind's own command reads a folder in the order the file system lists it, and
that order (and with it the index) differs between file systems (ext4 hashes
names with a seed of its own; tmpfs lists in the order files were made).  Here
each page is handed to Pagefind's indexing service (`pagefind --service`, what
its Python and Node.js APIs drive) one at a time in path order, so the index is
the same on every file system and with any number of processes.  The requests
are sent and answered in turn: the Python API's reader waits 100 ms between
answers, ten pages a second.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any


class PagefindFailed(Exception):
    """Pagefind's service answered with an error, or not at all."""


class _Service:
    """One `pagefind --service` process and its requests, answered in turn."""

    def __init__(self, binary: str) -> None:
        self._process = subprocess.Popen(
            [binary, "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self._count = 0

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        stdin, stdout = self._pipes()
        self._count += 1
        request = {"message_id": self._count, "payload": payload}
        stdin.write(base64.b64encode(json.dumps(request).encode("utf-8")) + b",")
        stdin.flush()
        answer = bytearray()
        while not answer.endswith(b","):
            chunk = stdout.read1(1 << 16)
            if not chunk:
                raise PagefindFailed("pagefind's service ended without an answer")
            answer += chunk
        reply: dict[str, Any] = json.loads(base64.b64decode(bytes(answer[:-1])))
        body: dict[str, Any] = reply.get("payload") or {}
        if reply.get("message_id") != self._count or body.get("type") == "Error":
            raise PagefindFailed(str(body.get("message") or reply))
        return body

    def _pipes(self) -> tuple[IO[bytes], Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        return self._process.stdin, self._process.stdout

    def close(self) -> None:
        stdin, _ = self._pipes()
        stdin.close()
        self._process.wait(timeout=60)


def index_in_order(binary: str, output: Path, pages: Sequence[str]) -> None:
    """Index `pages` (relative to the current folder, the site's root) in the order
    given, each at the URL Pagefind's command gives it, and write the index's files
    into `output`."""
    service = _Service(binary)
    try:
        index = service.ask({"type": "NewIndex", "config": None})["index_id"]
        for page in pages:
            text = Path(page).read_text(encoding="utf-8", errors="replace")
            service.ask(
                {
                    "type": "AddFile",
                    "index_id": index,
                    "file_path": page,
                    "url": None,
                    "file_contents": text,
                }
            )
        # Asked for, not written by the service: its answer to WriteFiles can come before
        # all its files are (a few were found empty), and these are written whole.
        made = service.ask({"type": "GetFiles", "index_id": index})["files"]
    finally:
        service.close()
    for file in sorted(made, key=lambda f: str(f["path"])):
        path = Path(str(file["path"]))
        if path.is_absolute() or ".." in path.parts:
            raise PagefindFailed(f"pagefind named a file outside its index: {path}")
        (output / path).parent.mkdir(parents=True, exist_ok=True)
        (output / path).write_bytes(base64.b64decode(file["content"]))


def main(argv: Sequence[str]) -> int:
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        print("pagefind's binary is not installed", file=sys.stderr)
        return 2
    site, output = Path(argv[0]), Path(argv[1]).resolve()
    pages = sorted(line for line in sys.stdin.read().split("\n") if line)
    os.chdir(site)
    try:
        index_in_order(str(binary), output, pages)
    except (PagefindFailed, OSError, ValueError, KeyError) as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
