"""Golden (snapshot) tests: every page of both sample builds, byte for byte.

Each sample in `fixtures/` is copied to a temporary folder and built into
`<copy>/docs/generated` with two workers; every `*.md` page there (docgen's
`.docgen/` state left out) must equal `tests/golden/<sample>/<page>`, and no
page may be missing or extra.  The same builds must have no broken relative
link or anchor.

After an intended change to the output, regenerate the snapshots with

    pytest tests/test_golden.py --update-golden

and review the diff (`git diff tests/golden`) before committing it.  Git keeps
the snapshots byte-exact (`tests/golden/.gitattributes` says `* -text`).  They
carry docgen's front matter, so docgen never documents them when it runs on
this repository.
"""

from __future__ import annotations

import difflib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docgen.linkcheck import check_links, format_broken

if TYPE_CHECKING:
    from conftest import Built

GOLDEN = Path(__file__).resolve().parent / "golden"
SAMPLES = ("torchlike", "badinputs")
MAX_DIFFS_SHOWN = 3
MAX_DIFF_LINES = 40


def golden_files(folder: Path) -> dict[str, bytes]:
    """Every snapshot file under `folder` by POSIX path (all of them: an extra file is a fault)."""
    if not folder.is_dir():
        return {}
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
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


def test_every_relative_link_and_anchor_resolves(built: Built) -> None:
    broken = check_links(built.out, built.repo)
    assert broken == [], "broken links:\n" + "\n".join(format_broken(b) for b in broken)


def test_pages_link_to_the_sources(built: Built) -> None:
    """The link check above is not vacuous: without the repository, source links leave `out`."""
    broken = check_links(built.out, None)
    assert broken, "no page links to a source file"
    assert {b.why for b in broken} == {"leaves the output folder"}


def test_golden_attributes_keep_bytes_exact() -> None:
    attributes = (GOLDEN / ".gitattributes").read_text().splitlines()
    assert "* -text" in attributes
