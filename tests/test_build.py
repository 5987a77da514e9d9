"""Whole builds of the sample repositories: determinism, rebuilds, output placement,
users' files, awkward inputs, ignored files and git work trees."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from docgen.model.links import docs_page, kw_page
from docgen.model.report import BuildReport
from docgen.site.linkcheck import check_links, format_broken

if TYPE_CHECKING:
    from conftest import Built

BuildFn = Callable[..., BuildReport]
PagesFn = Callable[[Path], dict[str, bytes]]
SampleFn = Callable[..., Path]

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
STATE_FOLDER = ".docgen"
#: the one binary file of torchlike: listed on its folder's pages, no pages of its own
BINARY = "minitorch/data/weights.bin"
PATHOLOGICAL_MAKER = FIXTURES / "make_pathological.py"
SECRET = "docgen-test-secret: this line lives outside the repository"
#: Markdown's backslash escapes, which docgen puts before ASCII punctuation in prose
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under `folder`, docgen's state folder left out."""
    found: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if rel.parts[0] == STATE_FOLDER:
            continue
        found[rel.as_posix()] = None if path.is_dir() else path.read_bytes()
    return found


def sources_in(repo: Path) -> set[str]:
    """The regular files of a repository copy (no links, nothing of git's), as POSIX paths."""
    return {
        p.relative_to(repo).as_posix()
        for p in repo.rglob("*")
        if p.is_file() and not p.is_symlink() and ".git" not in p.relative_to(repo).parts
    }


def documented(pages: dict[str, bytes]) -> set[str]:
    """Source paths that got a documentation page."""
    return {rel.removesuffix("_docs.md") for rel in pages if rel.endswith("_docs.md")}


def unescaped(page: str) -> str:
    return _ESCAPE.sub(r"\1", page)


def assert_links_resolve(out: Path, repo: Path) -> None:
    broken = check_links(out, repo)
    assert broken == [], "broken links:\n" + "\n".join(format_broken(b) for b in broken)


# --- determinism ---------------------------------------------------------------


def test_clean_builds_are_byte_identical_whatever_the_job_count(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    outs = {}
    for place, jobs in (("first", 2), ("second", 2), ("one_worker", 1)):
        repo = sample("torchlike", place)
        docgen_build(repo, None, jobs)
        outs[place] = tree(repo / "docs" / "generated")
    assert outs["first"], "the build wrote nothing"
    assert outs["second"] == outs["first"]
    assert outs["one_worker"] == outs["first"]


def test_pages_written_by_the_render_workers_equal_a_one_process_build(
    tmp_path: Path, docgen_build: BuildFn
) -> None:
    """Enough pages for the render pool, which writes each page where it renders it: the
    same bytes and the same counts as one process, and a user's file is still refused.
    What only the next build reads (the keyword index, the C-family relations), stored
    while the workers render, is what one process stores."""
    from docgen.render.parallel import MIN_PAGES_FOR_POOL
    from docgen.state import open_state

    repo = tmp_path / "many"
    for i in range(MIN_PAGES_FOR_POOL // 2 + 10):
        module = repo / f"pkg{i % 7}" / f"mod{i}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(f'"""Module {i}."""\n\n\ndef f{i}(x: int) -> int:\n    return x + {i}\n')
    (repo / "pkg1" / "api.h").write_text("#pragma once\nint api_call(int x);\n")
    (repo / "pkg1" / "api.cpp").write_text('#include "api.h"\nint api_call(int x) { return x; }\n')
    reports, trees, kept = {}, {}, {}
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        mine = out / docs_page("pkg0/mod0.py")
        mine.parent.mkdir(parents=True)
        mine.write_text("a user's own notes\n")
        reports[jobs] = docgen_build(repo, out, jobs)
        trees[jobs] = tree(out)
        assert mine.read_text() == "a user's own notes\n"
        with open_state(out) as state:
            sites = state.all_sites()
            relations = [state.meta(k) for k in ("cfamily_relations", "cfamily_relations_key")]
            kept[jobs] = (sites, relations)
        assert {s.name for s in sites} >= {"api_call", "f0", f"f{MIN_PAGES_FOR_POOL // 2}"}
        assert relations[1] and '"api.h"' in (relations[0] or "")
    assert kept[2] == kept[1]
    assert trees[2] == trees[1]
    one, pool = reports[1], reports[2]
    assert len(pool.written) > MIN_PAGES_FOR_POOL
    assert (pool.written, pool.unchanged) == (one.written, one.unchanged)
    assert [str(w) for w in pool.warnings] == [str(w) for w in one.warnings]
    assert any("not overwritten" in str(w) for w in pool.warnings)
    (repo / "pkg3" / "mod3.py").write_text('"""Module 3, edited."""\n')
    again = docgen_build(repo, tmp_path / "out2", 2)
    assert docs_page("pkg3/mod3.py") in again.written
    assert not [page for page in again.written if "/mod" in page and "/mod3." not in page]
    assert again.unchanged == len(pool.written) - len(again.written)


def test_sample_builds_report_what_fixtures_readme_and_expected_md_say(
    torchlike_built: Built, badinputs_built: Built
) -> None:
    torchlike = torchlike_built.report
    assert (torchlike.files, torchlike.documented) == (35, 34)  # weights.bin is only listed
    assert [str(w) for w in torchlike.warnings] == []
    badinputs = badinputs_built.report
    assert (badinputs.files, badinputs.documented) == (22, 21)  # binary.dat is only listed
    warned = sorted({str(w).split(":")[0] for w in badinputs.warnings})
    assert warned == [
        "invalid_utf8.md",
        "invalid_utf8.py",
        "link_abs",
        "link_outside",
        "loop/back",
        "python2.py",
        "syntax_error.py",
    ]


# --- rebuilds into the repository ------------------------------------------------


def test_rebuild_into_the_repository_documents_none_of_its_own_pages(
    sample: SampleFn, docgen_build: BuildFn, read_pages: PagesFn, tmp_path: Path
) -> None:
    repo = sample("torchlike")
    sources = sources_in(repo)
    out = repo / "docs" / "generated"
    first = docgen_build(repo)
    pages = read_pages(out)
    second = docgen_build(repo)

    assert second.written == []
    assert second.pruned == []
    assert second.unchanged == len(pages) == len(first.written)
    assert second.files == first.files
    assert [str(w) for w in second.warnings] == []
    assert read_pages(out) == pages
    own = [
        rel
        for rel in pages
        if "_docs.md_" in rel or "_kw.md_" in rel or rel.startswith("docs/generated/")
    ]
    assert own == []
    # Every `X.md_docs.md` is the page of a source X.md, never of a generated page.
    assert documented(pages) == sources - {BINARY}

    # A build elsewhere still recognises the pages in docs/generated as docgen's.
    elsewhere = tmp_path / "elsewhere"
    docgen_build(repo, elsewhere)
    assert not [rel for rel in read_pages(elsewhere) if rel.startswith("docs/generated/")]


def test_build_into_a_folder_outside_the_repository(
    tmp_path: Path,
    sample: SampleFn,
    docgen_build: BuildFn,
    read_pages: PagesFn,
    torchlike_built: Built,
) -> None:
    repo = sample("torchlike")
    site = tmp_path / "site"
    report = docgen_build(repo, site)

    assert not (repo / "docs" / "generated").exists()
    assert set(read_pages(site)) == set(read_pages(torchlike_built.out))
    assert len(report.written) == len(read_pages(site))
    assert_links_resolve(site, repo)
    # ... and those links do reach into the repository:
    assert {b.why for b in check_links(site, None)} == {"leaves the output folder"}


# --- the user's files in the output folder ---------------------------------------


def test_users_files_in_the_output_survive_builds_and_pruning(
    sample: SampleFn, docgen_build: BuildFn, read_pages: PagesFn
) -> None:
    repo = sample("torchlike")
    out = repo / "docs" / "generated"
    docgen_build(repo)
    mine = {
        out / "notes.md": b"# My notes\n",
        out / "minitorch" / "mine.txt": b"mine\n",
        out / "minitorch" / "contrib" / "mine.txt": b"also mine\n",
    }
    for path, data in mine.items():
        path.write_bytes(data)

    docgen_build(repo)
    assert {path: path.read_bytes() for path in mine} == mine

    (repo / "minitorch" / "contrib" / "extra.py").unlink()
    (repo / "scripts" / "run.sh").unlink()
    report = docgen_build(repo)

    assert {path: path.read_bytes() for path in mine} == mine
    gone = {
        docs_page("minitorch/contrib/extra.py"),
        kw_page("minitorch/contrib/extra.py"),
        "minitorch/contrib/index.md",
        "minitorch/contrib/doc.md",
        docs_page("scripts/run.sh"),
        kw_page("scripts/run.sh"),
        "scripts/index.md",
        "scripts/doc.md",
    }
    assert set(report.pruned) == gone
    assert gone.isdisjoint(read_pages(out))
    assert not (out / "scripts").exists(), "an emptied page folder is left behind"
    assert sorted(p.name for p in (out / "minitorch" / "contrib").iterdir()) == ["mine.txt"]
    assert_links_resolve(out, repo)


def test_users_file_at_a_page_path_is_never_overwritten(
    sample: SampleFn, docgen_build: BuildFn
) -> None:
    repo = sample("torchlike")
    out = repo / "docs" / "generated"
    out.mkdir(parents=True)
    plain = out / docs_page("README.md")
    plain.write_bytes(b"my own README notes\n")
    other_tool = out / kw_page("README.md")
    other_tool.write_bytes(b'---\ngenerator: "docgenius 2.0"\n---\n# Not docgen\n')

    report = docgen_build(repo)
    report_again = docgen_build(repo)

    assert plain.read_bytes() == b"my own README notes\n"
    assert other_tool.read_bytes() == b'---\ngenerator: "docgenius 2.0"\n---\n# Not docgen\n'
    for warnings in (report.warnings, report_again.warnings):
        named = {page for page in (plain.name, other_tool.name) for w in warnings if page in str(w)}
        assert named == {plain.name, other_tool.name}


def test_rebuild_when_a_source_folder_takes_a_stale_pages_name(
    tmp_path: Path, docgen_build: BuildFn, read_pages: PagesFn
) -> None:
    """A new source folder `index.md/` needs `out/index.md/`, where the old root index was."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "z.py").write_text("z = 1\n")
    docgen_build(repo)
    (repo / "index.md").mkdir()
    (repo / "index.md" / "y.py").write_text("y = 2\n")
    docgen_build(repo)
    assert docs_page("index.md/y.py") in read_pages(repo / "docs" / "generated")


def test_rebuild_when_a_source_folder_giving_a_pages_name_is_removed(
    tmp_path: Path, docgen_build: BuildFn
) -> None:
    repo = tmp_path / "repo"
    (repo / "index.md").mkdir(parents=True)
    (repo / "index.md" / "y.py").write_text("y = 2\n")
    (repo / "z.py").write_text("z = 1\n")
    docgen_build(repo)
    shutil.rmtree(repo / "index.md")
    report = docgen_build(repo)
    assert [str(w) for w in report.warnings] == []
    assert (repo / "docs" / "generated" / "index.md").is_file()


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640)])
def test_pages_get_the_mode_the_umask_gives_new_files(
    sample: SampleFn, docgen_build: BuildFn, umask: int, mode: int
) -> None:
    """Not mkstemp's private 0600: a web server or a CI artifact must be able to read pages."""
    repo = sample("torchlike")
    before = os.umask(umask)
    try:
        docgen_build(repo)
    finally:
        os.umask(before)
    out = repo / "docs" / "generated"
    modes = {oct(page.stat().st_mode & 0o777) for page in out.rglob("*.md")}
    assert modes == {oct(mode)}


def test_a_file_whose_page_name_would_be_too_long_gets_shortened_pages(
    tmp_path: Path, docgen_build: BuildFn, read_pages: PagesFn
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    long_name = "a" * 250 + ".py"
    try:
        (repo / long_name).write_text("x = 1\n")
    except OSError:
        pytest.skip("this file system does not take 254-byte names")
    (repo / "ok.py").write_text("y = 2\n")
    report = docgen_build(repo)
    pages = read_pages(repo / "docs" / "generated")
    assert docs_page("ok.py") in pages
    assert docs_page(long_name) in pages and docs_page(long_name) != long_name + "_docs.md"
    assert f'source: "{long_name}"' in pages[docs_page(long_name)].decode()
    assert report.warnings == []


# --- awkward inputs ---------------------------------------------------------------


def hostname_lines() -> list[str]:
    try:
        text = Path("/etc/hostname").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class Hostile:
    repo: Path
    out: Path
    report: BuildReport
    seconds: float
    outside: tuple[Path, ...]  # files outside the repository that its links point at


def load_write_pathological() -> Callable[[Path], Path]:
    """`write_pathological` from fixtures/make_pathological.py (fixtures/ is no package)."""
    spec = importlib.util.spec_from_file_location("make_pathological", PATHOLOGICAL_MAKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    write: Callable[[Path], Path] = module.write_pathological
    return write


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory,
    copy_fixture: Callable[[str, Path], Path],
    docgen_build: BuildFn,
) -> Hostile:
    """badinputs plus the 100,000-term file, laid out so that every symlink lands somewhere.

    `link_outside -> ../../pyproject.toml` reaches `outer/pyproject.toml`, a copy of
    this project's own, and `link_secret` points at a file outside with a known line.
    """
    outer = tmp_path_factory.mktemp("outer")
    shutil.copy(ROOT / "pyproject.toml", outer / "pyproject.toml")
    (outer / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (outer / "fixtures").mkdir()
    repo = copy_fixture("badinputs", outer / "fixtures")
    (repo / "link_secret").symlink_to(outer / "secret.txt")
    assert (repo / "link_outside").resolve() == (outer / "pyproject.toml").resolve()
    load_write_pathological()(repo)
    out = repo / "docs" / "generated"
    started = time.perf_counter()
    report = docgen_build(repo, out, 2)
    seconds = time.perf_counter() - started
    return Hostile(repo, out, report, seconds, (outer / "pyproject.toml", outer / "secret.txt"))


def test_pathological_file_builds_and_is_shown_unparsed(
    hostile: Hostile, read_pages: PagesFn
) -> None:
    assert hostile.seconds < 60, f"the build took {hostile.seconds:.1f} s"
    pages = read_pages(hostile.out)
    problems = [w for w in hostile.report.warnings if str(w).startswith("pathological.py")]
    assert len(problems) == 1
    message = str(problems[0]).split(": ", 1)[1]
    docs = unescaped(pages[docs_page("pathological.py")].decode("utf-8"))
    kw = unescaped(pages[kw_page("pathological.py")].decode("utf-8"))
    assert "- Parsed: no" in docs
    assert "could not be parsed" in docs
    assert message in docs
    assert message in kw


def test_pathological_problem_is_on_its_line(hostile: Hostile) -> None:
    problems = [str(w) for w in hostile.report.warnings if str(w).startswith("pathological.py")]
    assert problems and all(p.startswith("pathological.py:1: ") for p in problems)


def test_awkward_files_are_warnings_with_their_lines(hostile: Hostile) -> None:
    warnings = [str(w) for w in hostile.report.warnings]
    assert any(w.startswith("syntax_error.py:4: ") for w in warnings), warnings
    assert any(w.startswith("python2.py:7: ") for w in warnings), warnings
    assert any(w.startswith("invalid_utf8.py:4: ") for w in warnings), warnings
    assert any(w.startswith("invalid_utf8.md:5: ") for w in warnings), warnings


def test_symlinks_out_of_the_repository_or_to_folders_get_no_pages(
    hostile: Hostile, read_pages: PagesFn
) -> None:
    pages = documented(read_pages(hostile.out))
    links = {"link_abs", "link_outside", "link_secret", "loop/back"}
    assert links.isdisjoint(pages)
    assert not (hostile.out / "loop").exists()
    skipped = {str(w).split(":")[0] for w in hostile.report.warnings if "skipped" in str(w)}
    assert links <= skipped


def test_nothing_from_outside_the_repository_appears_in_a_page(
    hostile: Hostile, read_pages: PagesFn
) -> None:
    texts = {rel: data.decode("utf-8") for rel, data in read_pages(hostile.out).items()}
    assert texts
    # Whole lines of the project's own pyproject.toml, long enough not to occur by chance.
    outer_lines = [
        line.strip()
        for path in hostile.outside
        for line in path.read_text(encoding="utf-8").splitlines()
        if len(line.strip()) >= 20
    ]
    assert SECRET in outer_lines
    found = [
        f"{rel}: {line}" for rel, text in texts.items() for line in outer_lines if line in text
    ]
    assert found == []
    # /etc/hostname may be as short as "vm": look for it as a line of its own.
    host = set(hostname_lines())
    found = [
        f"{rel}: {line}"
        for rel, text in texts.items()
        for line in text.splitlines()
        if line.strip() in host
    ]
    assert found == []


def test_unparsed_file_pages_do_not_claim_it_defines_nothing(badinputs_built: Built) -> None:
    for page in (docs_page("syntax_error.py"), kw_page("syntax_error.py")):
        text = unescaped((badinputs_built.out / page).read_text(encoding="utf-8")).lower()
        assert "defines no classes or functions" not in text, page
        assert "could not be parsed" in text, page


# --- which files are documented -----------------------------------------------------


def test_ignored_files_get_no_pages(
    sample: SampleFn, docgen_build: BuildFn, read_pages: PagesFn
) -> None:
    repo = sample("torchlike")
    sources = sources_in(repo)
    (repo / "build").mkdir()
    (repo / "build" / "ignored.py").write_text("import torch\n", encoding="utf-8")
    (repo / "debug.log").write_text("step 1: loss 0.5\n", encoding="utf-8")
    (repo / "minitorch" / "trace.log").write_text("kernel launched\n", encoding="utf-8")
    report = docgen_build(repo)
    pages = read_pages(repo / "docs" / "generated")

    assert documented(pages) == sources - {BINARY}
    assert report.files == len(sources)
    assert not (repo / "docs" / "generated" / "build").exists()
    mentions = [
        rel
        for rel, data in pages.items()
        for name in (b"ignored.py", b"debug.log", b"trace.log")
        if name in data
    ]
    assert mentions == []


def git(repo: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        HOME=str(repo.parent),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.org",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.org",
    )
    subprocess.run(
        ["git", "-C", str(repo), "-c", "commit.gpgsign=false", *args],
        env=env,
        check=True,
        capture_output=True,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_work_tree_documents_tracked_and_untracked_unignored_files(
    sample: SampleFn, docgen_build: BuildFn, read_pages: PagesFn
) -> None:
    repo = sample("torchlike")
    sources = sources_in(repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "sample")
    (repo / "build").mkdir()
    (repo / "build" / "ignored.py").write_text("import torch\n", encoding="utf-8")
    (repo / "build" / "forced.py").write_text("FORCED = True\n", encoding="utf-8")
    git(repo, "add", "-f", "build/forced.py")  # tracked although .gitignore covers it
    (repo / "debug.log").write_text("step 1\n", encoding="utf-8")
    (repo / "untracked.py").write_text("UNTRACKED = 1\n", encoding="utf-8")
    out = repo / "docs" / "generated"

    report = docgen_build(repo)
    pages = read_pages(out)
    expected = (sources - {BINARY}) | {"build/forced.py", "untracked.py"}
    assert documented(pages) == expected
    assert report.files == len(expected) + 1  # the binary file is listed, not documented
    assert_links_resolve(out, repo)

    again = docgen_build(repo)
    assert again.written == []
    assert again.files == report.files
