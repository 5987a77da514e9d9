"""Golden (snapshot) tests: every page of both sample builds, byte for byte.

Each sample in `fixtures/` is copied to a temporary folder and built into
`<copy>/docs/generated` with two workers; every `*.md` page there (docgen's
`.docgen/` state left out) must equal `tests/golden/<sample>/<page>`, and no
page may be missing or extra.  The same builds must have no broken relative
link or anchor.

After an intended change to the output, regenerate the snapshots with

    pytest tests/test_golden.py --update-golden

and review the diff (`git diff tests/golden`) before committing it.  Git keeps
the snapshots byte-exact (`tests/golden/.gitattributes` says `* -text`), and
`tests/golden/ruff.toml` keeps `ruff format` from reformatting the Python
embedded in them (ruff formats code blocks in `*.md` files).  They carry
docgen's front matter, so docgen never documents them when it runs on this
repository.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docgen.model.pages import PAGE_HEAD_BYTES, is_docgen_page
from docgen.site.linkcheck import check_links, format_broken

if TYPE_CHECKING:
    from conftest import Built

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
SAMPLES = ("torchlike", "badinputs", "cpplike")
MAX_DIFFS_SHOWN = 3
MAX_DIFF_LINES = 40


def golden_files(folder: Path) -> dict[str, bytes]:
    """Every snapshot file under `folder` by POSIX path (all of them: an extra file is a fault)."""
    if not folder.is_dir():
        return {}
    return {
        unicodedata.normalize("NFC", path.relative_to(folder).as_posix()): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def write_golden(folder: Path, pages: dict[str, bytes]) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    for rel, data in pages.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def page_diff(rel: str, expected: bytes, actual: bytes) -> str:
    lines = list(
        difflib.unified_diff(
            expected.decode("utf-8", "replace").splitlines(keepends=True),
            actual.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile=f"golden/{rel}",
            tofile=f"built/{rel}",
        )
    )
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"... {len(lines) - MAX_DIFF_LINES} more diff lines\n"]
    return "".join(lines)


def mismatch_report(sample: str, expected: dict[str, bytes], actual: dict[str, bytes]) -> str:
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(rel for rel in set(expected) & set(actual) if expected[rel] != actual[rel])
    parts = [
        f"{sample}: {len(missing)} missing, {len(extra)} extra, {len(changed)} changed pages "
        f"(regenerate with: pytest tests/test_golden.py --update-golden)"
    ]
    parts += [f"missing: {rel}" for rel in missing]
    parts += [f"extra: {rel}" for rel in extra]
    parts += [f"changed: {rel}" for rel in changed]
    parts += [page_diff(rel, expected[rel], actual[rel]) for rel in changed[:MAX_DIFFS_SHOWN]]
    return "\n".join(parts)


@pytest.fixture(params=SAMPLES)
def built(request: pytest.FixtureRequest) -> Built:
    result: Built = request.getfixturevalue(f"{request.param}_built")
    return result


def test_every_page_matches_its_golden_file(
    built: Built, read_pages: Callable[[Path], dict[str, bytes]], update_golden: bool
) -> None:
    sample = built.repo.name
    actual = read_pages(built.out)
    assert actual, f"the {sample} build wrote no pages"
    if update_golden:
        write_golden(GOLDEN / sample, actual)
        pytest.skip(f"wrote {len(actual)} golden pages to tests/golden/{sample}")
    expected = golden_files(GOLDEN / sample)
    assert expected, f"no golden files in tests/golden/{sample}; run with --update-golden"
    if actual != expected:
        pytest.fail(mismatch_report(sample, expected, actual), pytrace=False)


def test_pages_do_not_contain_the_build_location(
    built: Built, read_pages: Callable[[Path], dict[str, bytes]]
) -> None:
    """Pages link relatively; the temporary folder the sample was built in must not show."""
    where = {str(built.repo.parent), str(built.repo.parent.resolve())}
    leaks = [
        f"{rel}: {place}"
        for rel, data in read_pages(built.out).items()
        for place in where
        if place.encode() in data
    ]
    assert leaks == []


def test_every_page_is_recognised_as_docgens_own(
    built: Built, read_pages: Callable[[Path], dict[str, bytes]]
) -> None:
    """Discovery skips pages by their front matter; that is what keeps rebuilds and this
    repository's own golden files from being documented."""
    strangers = [
        rel
        for rel, data in read_pages(built.out).items()
        if not is_docgen_page(data[:PAGE_HEAD_BYTES])
    ]
    assert strangers == []


def test_every_relative_link_and_anchor_resolves(built: Built) -> None:
    broken = check_links(built.out, built.repo)
    assert broken == [], "broken links:\n" + "\n".join(format_broken(b) for b in broken)


def test_pages_link_to_the_sources(built: Built) -> None:
    """The link check above is not vacuous: without the repository, source links leave `out`."""
    broken = check_links(built.out, None)
    assert broken, "no page links to a source file"
    assert {b.why for b in broken} == {"leaves the output folder"}


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def test_git_keeps_the_golden_bytes() -> None:
    """No line-ending conversion, whatever core.autocrlf says (tests/golden/.gitattributes)."""
    inside = subprocess.run(
        [tool("git"), "-C", str(ROOT), "rev-parse", "--is-inside-work-tree"],
        capture_output=True,
        text=True,
        check=False,
    )
    if inside.stdout.strip() != "true":
        pytest.skip("not a git checkout")
    pages = [GOLDEN / sample / "index.md" for sample in SAMPLES]
    result = subprocess.run(
        [tool("git"), "-C", str(ROOT), "check-attr", "text", "--", *map(str, pages)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines() == [f"{page}: text: unset" for page in pages]


def test_ruff_format_leaves_the_golden_pages_alone() -> None:
    """ruff formats Python code blocks in *.md files; tests/golden/ruff.toml excludes the pages."""
    result = subprocess.run(
        [tool("ruff"), "format", "--check", "--no-cache", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "golden" not in result.stdout + result.stderr


def headings_without_blank_line(text: str) -> list[int]:
    """Lines (1-based) of headings outside fenced blocks that follow a non-blank line."""
    found = []
    fence = ""
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        marker = line[: len(line) - len(line.lstrip("`~"))]
        if fence:
            if marker.startswith(fence) and not line[len(marker) :].strip():
                fence = ""
        elif len(marker) >= 3:
            fence = marker
        elif line.startswith("#") and number > 1 and lines[number - 2].strip():
            found.append(number)
    return found


def test_headings_helper_sees_a_heading_glued_to_a_list() -> None:
    assert headings_without_blank_line("# T\n\n- a\n### B\n\n```\n- x\n# not a heading\n```\n") == [
        4
    ]


def test_every_golden_heading_has_a_blank_line_before_it() -> None:
    """A heading right under a list item renders, but reads as part of the list in the
    Markdown source; every page section is set apart by a blank line."""
    pages = {
        f"{sample}/{rel}": data.decode("utf-8")
        for sample in SAMPLES
        for rel, data in golden_files(GOLDEN / sample).items()
        if rel.endswith(".md")
    }
    assert len(pages) > 50
    glued = {
        rel: lines for rel, text in pages.items() if (lines := headings_without_blank_line(text))
    }
    assert glued == {}
