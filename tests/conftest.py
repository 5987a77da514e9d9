"""Shared fixtures for the integration tests: fixture copies, builds, page trees.

The sample repositories in `fixtures/` are copied (symlinks kept as links)
before every build, so no test writes into the checkout.  The builds of the two
samples that golden, link and tag tests only read are made once per session.

`--update-golden` rewrites `tests/golden/` from the current output instead of
comparing against it (see tests/test_golden.py).
"""

from __future__ import annotations

import os
import shutil
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.model.facts import ScannedFile
from docgen.model.report import BuildReport
from docgen.model.sites import DefinitionSite
from docgen.render.pages import Renderer

#: Property tests run a fixed, bounded set of examples here (the same on every
#: machine); `DOCGEN_HYPOTHESIS=long` explores freshly and for longer.
settings.register_profile("bounded", derandomize=True, database=None)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("DOCGEN_HYPOTHESIS", "bounded"))

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
STATE_FOLDER = ".docgen"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/ from the current build output instead of comparing",
    )


@dataclass(frozen=True)
class Built:
    """A finished build of a copied sample: where it is and what the build reported."""

    repo: Path
    out: Path
    report: BuildReport


#: Never copied from a sample: caches, and the pages of a `docgen build fixtures/<name>`
#: someone ran in the checkout (they would be stale pages in every copy).
LEFT_BEHIND = frozenset({"__pycache__", STATE_FOLDER})


def copy_sample(name: str, parent: Path) -> Path:
    """Copy `fixtures/<name>` to `parent/<name>`, keeping symlinks as links."""
    source = FIXTURES / name

    def ignore(folder: str, names: list[str]) -> set[str]:
        left = LEFT_BEHIND.intersection(names)
        if Path(folder) == source / "docs" and "generated" in names:
            left.add("generated")
        return left

    target = parent / name
    shutil.copytree(source, target, symlinks=True, ignore=ignore)
    return target


def child_env() -> dict[str, str]:
    """The environment for a child Python process that imports docgen from this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def write_tree(repo: Path, files: dict[str, str]) -> None:
    """Each file of a tree written under `repo`, its folders made."""
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def built_tree(tmp_path: Path, files: dict[str, str]) -> Path:
    """The output folder of one build of a tree written from `files` (under `tmp_path`)."""
    repo, out = tmp_path / "repo", tmp_path / "out"
    write_tree(repo, files)
    run_build(repo, out, jobs=1)
    return out


def page_section(page: str, heading: str) -> str:
    """A page's section from `heading` to the next heading of any level."""
    start = page.index(heading)
    end = page.find("\n#", start + len(heading))
    return page[start : end if end >= 0 else None]


def expected_lines(case: Path) -> list[str]:
    """The lines of a data-driven case's `expected`, sorted; `#` starts a comment."""
    text = (case / "expected").read_text(encoding="utf-8")
    return sorted(line for raw in text.splitlines() if (line := raw.split("#", 1)[0].strip()))


def run_build(repo: Path, out: Path | None = None, jobs: int = 2) -> BuildReport:
    """One build through the Python API, as `docgen build REPO [--out OUT] -j JOBS` does."""
    return build(resolve_options(repo, out, jobs))


def page_files(out: Path) -> dict[str, bytes]:
    """Every `*.md` page under `out` (docgen's state folder left out), by NFC POSIX path."""
    pages: dict[str, bytes] = {}
    for path in sorted(out.rglob("*.md")):
        rel = path.relative_to(out)
        if rel.parts[0] == STATE_FOLDER or not path.is_file():
            continue
        pages[unicodedata.normalize("NFC", rel.as_posix())] = path.read_bytes()
    return pages


def built_copy(name: str, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of a sample (`tmp_path / "work"`) and its first build (`tmp_path / "out"`),
    for a test to edit and build again."""
    repo = copy_sample(name, tmp_path / "work")
    out = tmp_path / "out"
    run_build(repo, out, jobs=1)
    return repo, out


def clean_pages(repo: Path, tmp_path: Path) -> dict[str, bytes]:
    """The pages a clean build of `repo` makes (into `tmp_path / "clean-out"`), which an
    incremental build must equal byte for byte."""
    out = tmp_path / "clean-out"
    if out.exists():
        shutil.rmtree(out)
    run_build(repo, out, jobs=1)
    return page_files(out)


def count_decoding(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose encoded facts are decoded from now on, in order."""
    import docgen.index.file_table

    decoded: list[str] = []
    real = docgen.index.file_table._decoded

    def counting(path: str, text: str) -> ScannedFile:
        decoded.append(path)
        return real(path, text)

    monkeypatch.setattr(docgen.index.file_table, "_decoded", counting)
    return decoded


def count_digests(monkeypatch: pytest.MonkeyPatch, kind: str = "docs") -> list[str]:
    """The files (or folders, for `kind` "folder_doc") whose pages are digested from now on."""
    import docgen.render.incremental

    digested: list[str] = []
    real = getattr(docgen.render.incremental.PageInputs, kind)

    def counting(self: docgen.render.incremental.PageInputs, path: str) -> str:
        digested.append(path)
        return str(real(self, path))

    monkeypatch.setattr(docgen.render.incremental.PageInputs, kind, counting)
    return digested


def pages_and_rows(out: Path) -> tuple[dict[str, bytes], list[str]]:
    """Every page's bytes and every keyword row `docgen find` reads: what an incremental
    build must make as a clean build does."""
    from docgen.state import read_state

    with read_state(out) as state:
        assert state is not None
        rows = [f"{s}|{s.name}|{s.anchor}" for s in state.find_sites("*", "glob")]
    return page_files(out), rows


def output_bytes(out: Path) -> dict[str, bytes]:
    """Every file under `out` (pages, site, anything else; docgen's state left out), by path."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and STATE_FOLDER not in p.relative_to(out).parts
    }


def invoke(*args: str) -> tuple[int, str]:
    """`docgen ARGS...` in this process: its exit status and everything it printed."""
    from click.testing import CliRunner

    from docgen.cli.main import cli

    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def docgen_build() -> Callable[..., BuildReport]:
    """`docgen_build(repo, out=None, jobs=2)`: a build through the Python API."""
    return run_build


@pytest.fixture(scope="session")
def read_pages() -> Callable[[Path], dict[str, bytes]]:
    """`read_pages(out)`: every page's bytes by output-relative POSIX path."""
    return page_files


@pytest.fixture(scope="session")
def copy_fixture() -> Callable[[str, Path], Path]:
    """`copy_fixture(name, parent)`: copy `fixtures/<name>` to `parent/<name>`."""
    return copy_sample


@pytest.fixture
def sample(tmp_path: Path) -> Callable[..., Path]:
    """`sample(name, under="")`: copy that fixture to `<this test's tmp>/<under>/<name>`."""

    def make(name: str, under: str = "") -> Path:
        parent = tmp_path / under
        parent.mkdir(parents=True, exist_ok=True)
        return copy_sample(name, parent)

    return make


def _build_sample(factory: pytest.TempPathFactory, name: str) -> Built:
    repo = copy_sample(name, factory.mktemp("golden"))
    out = repo / "docs" / "generated"
    return Built(repo, out, run_build(repo, out, jobs=2))


@pytest.fixture(scope="session")
def torchlike_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """torchlike built into `<copy>/docs/generated` with 2 workers; read it, never change it."""
    return _build_sample(tmp_path_factory, "torchlike")


@pytest.fixture(scope="session")
def badinputs_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """badinputs built into `<copy>/docs/generated` with 2 workers; read it, never change it."""
    return _build_sample(tmp_path_factory, "badinputs")


@pytest.fixture(scope="session")
def cpplike_built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """cpplike built into `<copy>/docs/generated` with 2 workers; read it, never change it."""
    return _build_sample(tmp_path_factory, "cpplike")


def keyword_pages(
    renderer: Renderer, sites: Sequence[DefinitionSite], **limits: int
) -> dict[str, str]:
    """Every page of the repository-wide keyword index: page path -> text, rendered here."""
    plan = renderer.keyword_plan(sites, **limits)
    return {job.page: renderer.render_keywords(job.make) for job in plan.jobs}
