"""Cross-references: Dependencies, Related Files, Cross-References, the repo-wide keyword index.

A small repository is written to disk and indexed from hand-made facts (the
import graph is built from them by `build_index`), then rendered; the tests
read the pages as text and check every link with `docgen.site.linkcheck`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import keyword_pages

from docgen.index.keywords import definition_sites
from docgen.index.repo import RepoIndex, build_index
from docgen.model.facts import (
    Analysis,
    Definition,
    Evidence,
    FileFacts,
    Heading,
    Import,
    MarkdownFacts,
    PythonFacts,
    ScannedFile,
    Tag,
)
from docgen.model.links import docs_page, folder_doc, folder_index, kw_page
from docgen.model.sites import DefinitionSite
from docgen.render.context import RenderContext
from docgen.render.environment import make_environment
from docgen.render.keyword_views import letter_of, letter_page
from docgen.render.lookup import RepoLookup, module_stem, stem_tested_by
from docgen.render.pages import Renderer
from docgen.render.related import Related, rank_related
from docgen.site.linkcheck import check_links, format_broken

OUT = "docs/generated"  # inside the fake repository
SOURCE_ROOT = "../.."
USERS = 30  # files that import pkg/hub.py

CORE = """import os
import numpy as np
import numpy.linalg
from collections.abc import Iterator
from . import util
from .missing import x
from ... import y
import pkg.ghost
from .hub import Hub, helper


class Engine:
    def run(self):
        pass


def helper():
    pass


def été():
    pass
"""

CORE_IMPORTS = (
    Import(1, "os"),
    Import(2, "numpy", aliases=(("np", "numpy"),)),
    Import(3, "numpy.linalg"),
    Import(4, "collections.abc", ("Iterator",), is_from=True),
    Import(5, None, ("util",), level=1, is_from=True),
    Import(6, ".missing", ("x",), level=1, is_from=True),
    Import(7, None, ("y",), level=3, is_from=True),
    Import(8, "pkg.ghost"),
    Import(9, ".hub", ("Hub", "helper"), level=1, is_from=True),
)

CORE_DEFINITIONS = (
    Definition("class", "Engine", "Engine", 12, 14),
    Definition("method", "run", "Engine.run", 13, 14, signature="(self)", parent="Engine"),
    Definition("function", "helper", "helper", 17, 18, signature="()"),
    Definition("function", "été", "été", 21, 22, signature="()"),
)


def n_lines(text: str) -> int:
    return len(text.splitlines())


def python(
    path: str,
    text: str,
    imports: tuple[Import, ...] = (),
    definitions: tuple[Definition, ...] = (),
    test: bool = False,
) -> ScannedFile:
    data = text.encode()
    facts = FileFacts(
        path=path,
        kind="python",
        language="python",
        size=len(data),
        sha256=f"{len(data):064x}",
        line_count=n_lines(text),
        python=PythonFacts(definitions=definitions, imports=imports),
    )
    tags = (Tag("test", (Evidence(0, "", "file name matches test_*.py"),)),) if test else ()
    return ScannedFile(facts, Analysis(tags))


def other(path: str, text: str, kind: str, language: str, **extra: object) -> ScannedFile:
    data = text.encode()
    facts = FileFacts(
        path,
        kind,  # type: ignore[arg-type]
        language,
        len(data),
        f"{len(data):064x}",
        n_lines(text),
        **extra,  # type: ignore[arg-type]
    )
    return ScannedFile(facts)


def repository() -> tuple[RepoIndex, dict[str, str]]:
    """The sample repository: sources by path, and its index."""
    sources: dict[str, str] = {}
    scanned: list[ScannedFile] = []

    def add(item: ScannedFile, text: str) -> None:
        sources[item.facts.path] = text
        scanned.append(item)

    add(
        python(
            "pkg/__init__.py",
            '"""The package."""\nfrom .core import Engine\n',
            (Import(2, ".core", ("Engine",), level=1, is_from=True),),
        ),
        '"""The package."""\nfrom .core import Engine\n',
    )
    add(python("pkg/core.py", CORE, CORE_IMPORTS, CORE_DEFINITIONS), CORE)
    hub = "class Hub:\n    pass\n\n\ndef _private():\n    pass\n"
    add(
        python(
            "pkg/hub.py",
            hub,
            definitions=(
                Definition("class", "Hub", "Hub", 1, 2),
                Definition("function", "_private", "_private", 5, 6, signature="()"),
            ),
        ),
        hub,
    )
    util = "def helper():\n    return 1\n\n\nclass _Cache:\n    def __init__(self):\n        pass\n"
    add(
        python(
            "pkg/util.py",
            util,
            definitions=(
                Definition("function", "helper", "helper", 1, 2, signature="()"),
                Definition("class", "_Cache", "_Cache", 5, 7),
                Definition(
                    "method",
                    "__init__",
                    "_Cache.__init__",
                    6,
                    7,
                    signature="(self)",
                    parent="_Cache",
                ),
            ),
        ),
        util,
    )
    add(
        python("pkg/selfish.py", "import pkg.selfish\n", (Import(1, "pkg.selfish"),)),
        "import pkg.selfish\n",
    )
    notes = "# Notes\n\nSee the code.\n"
    add(
        other(
            "pkg/notes.md",
            notes,
            "markdown",
            "markdown",
            markdown=MarkdownFacts(headings=(Heading(1, "Notes", 1),)),
        ),
        notes,
    )
    add(other("pkg/data.toml", "[a]\nb = 1\n", "text", "toml"), "[a]\nb = 1\n")
    for i in range(USERS):
        add(
            python(f"users/u{i:02}.py", "import pkg.hub\n", (Import(1, "pkg.hub"),)),
            "import pkg.hub\n",
        )
    run = "from . import x\n"
    add(
        python("scripts/my-tool/run.py", run, (Import(1, None, ("x",), level=1, is_from=True),)),
        run,
    )
    test_core = "from pkg.core import Engine\n\n\ndef test_run():\n    assert Engine\n"
    add(
        python(
            "tests/test_core.py",
            test_core,
            (Import(1, "pkg.core", ("Engine",), is_from=True),),
            (Definition("function", "test_run", "test_run", 4, 5, signature="()"),),
            test=True,
        ),
        test_core,
    )
    test_util = "def test_helper():\n    pass\n"
    add(
        python(
            "tests/unit/test_util.py",
            test_util,
            definitions=(
                Definition("function", "test_helper", "test_helper", 1, 2, signature="()"),
            ),
            test=True,
        ),
        test_util,
    )
    add(
        python("other/util_test.py", "import pkg.util\n", (Import(1, "pkg.util"),), test=True),
        "import pkg.util\n",
    )
    return build_index("demo", scanned), sources


def renderer(index: RepoIndex, sources: dict[str, str]) -> Renderer:
    context = RenderContext("demo", "docgen 0.1.0", SOURCE_ROOT)
    return Renderer(make_environment(), index, context, sources.get)


def render_site(index: RepoIndex, sources: dict[str, str], **limits: int) -> dict[str, str]:
    r = renderer(index, sources)
    pages: dict[str, str] = {}
    for scanned in index.documented():
        pages[docs_page(scanned.facts.path)] = r.docs_page(scanned.facts.path)
        pages[kw_page(scanned.facts.path)] = r.kw_page(scanned.facts.path)
    for folder in index.folders:
        pages[folder_index(folder)] = r.folder_index(folder)
        pages[folder_doc(folder)] = r.folder_doc(folder)
    pages.update(keyword_pages(r, definition_sites(index), **limits))
    return pages


@dataclass(frozen=True)
class Site:
    index: RepoIndex
    pages: dict[str, str]


@pytest.fixture(scope="module")
def site() -> Site:
    index, sources = repository()
    return Site(index, render_site(index, sources))


def section(page: str, title: str) -> str:
    """The body of one `## title` section (up to the next level-2 heading)."""
    start = page.index(f"\n## {title}\n") + len(f"\n## {title}\n")
    end = page.find("\n## ", start)
    return page[start : end if end >= 0 else len(page)].strip("\n")


def subsection(text: str, title: str) -> str:
    start = text.index(f"### {title}\n") + len(f"### {title}\n")
    end = text.find("\n### ", start)
    return text[start : end if end >= 0 else len(text)].strip("\n")


def src(path: str, line: int) -> str:
    """The link from a page in `pkg/` to a source line."""
    return f"../../../{path}#L{line}"


# ------------------------------------------------------------------ Dependencies


def test_internal_imports_link_targets_and_explain_unresolved(site: Site) -> None:
    deps = section(site.pages["pkg/core.py_docs.md"], "Dependencies")
    core = "pkg/core.py"
    assert subsection(deps, "Internal imports").split("\n") == [
        f"- `.`: [L5]({src(core, 5)}) `from . import util` → [`pkg/util.py`](util.py_docs.md)",
        f"- `.missing`: [L6]({src(core, 6)}) `from .missing import x` → unresolved: no file in"
        " the repository is `pkg.missing.x` or `pkg.missing`",
        f"- `...`: [L7]({src(core, 7)}) `from ... import y` → unresolved: it climbs above the"
        " top-level package",
        f"- `pkg.ghost`: [L8]({src(core, 8)}) `import pkg.ghost` → unresolved: no file in the"
        " repository is `pkg.ghost`",
        f"- `.hub`: [L9]({src(core, 9)}) `from .hub import Hub, helper` → [`pkg/hub.py`]"
        "(hub.py_docs.md)",
    ]


def test_external_imports_by_package_with_stdlib_marked(site: Site) -> None:
    deps = section(site.pages["pkg/core.py_docs.md"], "Dependencies")
    core = "pkg/core.py"
    external = subsection(deps, "External imports").split("\n")
    assert external[0].startswith("Imports that name no file of this repository")
    assert external[2:] == [
        f"- `collections` (standard library): [L4]({src(core, 4)})"
        " `from collections.abc import Iterator`",
        "- `numpy`:",
        f"  - [L2]({src(core, 2)}) `import numpy as np`",
        f"  - [L3]({src(core, 3)}) `import numpy.linalg`",
        f"- `os` (standard library): [L1]({src(core, 1)}) `import os`",
    ]


def test_imported_by_lists_every_importer(site: Site) -> None:
    deps = section(site.pages["pkg/core.py_docs.md"], "Dependencies")
    assert subsection(deps, "Imported by").split("\n") == [
        "Imported by 2 files:",
        "",
        f"- [`pkg/__init__.py`](__init__.py_docs.md) ([L2]({src('pkg/__init__.py', 2)}))",
        "- [`tests/test_core.py`](../tests/test_core.py_docs.md)"
        f" ([L1]({src('tests/test_core.py', 1)}))",
    ]


def test_imported_by_is_never_cut(site: Site) -> None:
    deps = section(site.pages["pkg/hub.py_docs.md"], "Dependencies")
    assert deps.startswith("This file has no import statements.")
    assert "### Internal imports" not in deps and "### External imports" not in deps
    bullets = [ln for ln in subsection(deps, "Imported by").split("\n") if ln.startswith("- ")]
    importers = sorted(["pkg/core.py", *(f"users/u{i:02}.py" for i in range(USERS))])
    assert len(bullets) == USERS + 1
    assert [re.match(r"- \[`([^`]+)`\]", b).group(1) for b in bullets] == importers  # type: ignore[union-attr]
    assert f"Imported by {USERS + 1} files:" in deps
    assert "- [`users/u29.py`](../users/u29.py_docs.md) ([L1](../../../users/u29.py#L1))" in deps
    assert site.index.graph.imported_by["pkg/hub.py"] == tuple(importers)


def test_dependencies_only_when_true(site: Site) -> None:
    # No imports and no importers: no section at all.
    assert "## Dependencies" not in site.pages["tests/unit/test_util.py_docs.md"]
    # Imports but no importers: says so.
    deps = section(site.pages["tests/test_core.py_docs.md"], "Dependencies")
    assert subsection(deps, "Imported by") == (
        "No import statement in the repository resolves to this file."
    )
    # A self-import and a relative import outside any package.
    selfish = section(site.pages["pkg/selfish.py_docs.md"], "Dependencies")
    assert "`import pkg.selfish` → this file itself" in selfish
    run = section(site.pages["scripts/my-tool/run.py_docs.md"], "Dependencies")
    assert "`from . import x` → unresolved: this file has no importable module name" in run
    assert "## Dependencies" not in site.pages["pkg/data.toml_docs.md"]


def test_dependency_headings_keep_reserved_anchors(site: Site) -> None:
    page = site.pages["pkg/core.py_docs.md"]
    for title in ("Internal imports", "External imports", "Imported by"):
        assert f"\n### {title}\n" in page
    # The keyword page's Imports group still lands on the section.
    assert "(core.py_docs.md#dependencies)" in site.pages["pkg/core.py_kw.md"]


# ----------------------------------------------------------------- Related Files


def test_rank_related_scores_reasons_and_order() -> None:
    ranking = rank_related(
        "pkg/a.py",
        tests=["tests/test_a.py"],
        importers=["tests/test_a.py", "pkg/b.py", "x/c.py"],
        imports=["pkg/b.py", "y/d.py"],
        same_folder=["pkg/a.py", "pkg/b.py", "pkg/e.py", "pkg/z.py"],
    )
    assert ranking.files == (
        Related("pkg/b.py", 7, ("imports this file", "imported by this file", "same folder")),
        Related("tests/test_a.py", 7, ("tests this file", "imports this file")),
        Related("x/c.py", 3, ("imports this file",)),
        Related("y/d.py", 3, ("imported by this file",)),
        Related("pkg/e.py", 1, ("same folder",)),
        Related("pkg/z.py", 1, ("same folder",)),
    )
    assert ranking.more == 0


def test_rank_related_caps_and_counts_the_rest() -> None:
    folder = [f"f/{i:03}.py" for i in range(200)]
    ranking = rank_related(
        "f/000.py", importers=["g/x.py", "f/150.py"], same_folder=folder, limit=5
    )
    assert [r.path for r in ranking.files] == [
        "f/150.py",
        "g/x.py",
        "f/001.py",
        "f/002.py",
        "f/003.py",
    ]
    assert ranking.files[0].reasons == ("imports this file", "same folder")
    assert ranking.more == 200 - 1 + 1 - 5  # the folder without itself, plus g/x.py, minus shown
    assert rank_related("a.py", same_folder=["a.py"]).files == ()


def test_rank_related_keeps_the_best_of_many_strong_relations() -> None:
    includers = [f"src/{i:02}.cpp" for i in range(30)]
    ranking = rank_related(
        "inc/h.h",
        includers=includers,
        pair=["src/17.cpp"],
        tests=["test/t.cpp"],
        same_folder=["inc/a.h", "inc/h.h"],
        limit=4,
    )
    assert ranking.files == (
        Related("src/17.cpp", 7, ("header or source of the same name", "includes this file")),
        Related("test/t.cpp", 4, ("tests this file",)),
        Related("src/00.cpp", 3, ("includes this file",)),
        Related("src/01.cpp", 3, ("includes this file",)),
    )
    assert ranking.more == 30 + 1 + 1 - 4  # the includers, the test and inc/a.h, minus shown


def test_rank_related_is_deterministic_whatever_the_input_order() -> None:
    args = {"tests": ["t/b.py", "t/a.py"], "importers": ["i/2.py", "i/1.py"]}
    forward = rank_related("m.py", **args)  # type: ignore[arg-type]
    backward = rank_related("m.py", **{k: v[::-1] for k, v in args.items()})  # type: ignore[arg-type]
    assert forward == backward
    assert [r.path for r in forward.files] == ["t/a.py", "t/b.py", "i/1.py", "i/2.py"]


def test_test_file_names() -> None:
    assert stem_tested_by("tests/test_core.py") == "core"
    assert stem_tested_by("x/core_test.py") == "core"
    assert stem_tested_by("tests/test_.py") == "" and stem_tested_by("tests/conftest.py") == ""
    assert module_stem("pkg/core.py") == "core" and module_stem("pkg/nn/__init__.py") == "nn"
    assert module_stem("pkg/data.toml") == ""


def test_tests_of_finds_named_and_importing_tests(site: Site) -> None:
    lookup = RepoLookup(site.index)
    assert lookup.tests_of("pkg/core.py") == ("tests/test_core.py",)
    assert lookup.tests_of("pkg/util.py") == ("other/util_test.py", "tests/unit/test_util.py")
    assert lookup.tests_of("pkg/hub.py") == ()


def related_rows(page: str) -> list[tuple[str, str]]:
    rows = []
    for line in section(page, "Related Files").split("\n"):
        match = re.match(r"- \[`([^`]+)`\]\([^)]+\) — (.*)$", line)
        if match:
            rows.append((match.group(1), match.group(2)))
    return rows


def test_related_files_section(site: Site) -> None:
    assert related_rows(site.pages["pkg/core.py_docs.md"]) == [
        ("tests/test_core.py", "tests this file; imports this file"),
        ("pkg/__init__.py", "imports this file; same folder"),
        ("pkg/hub.py", "imported by this file; same folder"),
        ("pkg/util.py", "imported by this file; same folder"),
        ("pkg/data.toml", "same folder"),
        ("pkg/notes.md", "same folder"),
        ("pkg/selfish.py", "same folder"),
    ]
    assert related_rows(site.pages["pkg/util.py_docs.md"])[:3] == [
        ("other/util_test.py", "tests this file; imports this file"),
        ("pkg/core.py", "imports this file; same folder"),
        ("tests/unit/test_util.py", "tests this file"),
    ]


def test_related_files_are_capped(site: Site) -> None:
    page = site.pages["pkg/hub.py_docs.md"]
    rows = related_rows(page)
    assert rows[0] == ("pkg/core.py", "imports this file; same folder")
    assert rows[1:] == [(f"users/u{i:02}.py", "imports this file") for i in range(11)]
    # 30 users and pkg/core.py import it; five other files share its folder.
    assert "- and 24 more related files, left out here;" in section(page, "Related Files")


# -------------------------------------------------------------- Cross-References


def test_cross_references(site: Site) -> None:
    refs = section(site.pages["pkg/core.py_docs.md"], "Cross-References").split("\n")
    assert refs == [
        "- Keyword index: [`pkg/core.py_kw.md`](core.py_kw.md)",
        "- Folder index: [`pkg/index.md`](index.md)",
        "- Folder overview: [`pkg/doc.md`](doc.md)",
        "- Repository keyword index: [`keywords.md`](../keywords.md)",
    ]
    assert (
        "- Repository keyword index: [`keywords.md`](../../keywords.md)"
        in (site.pages["tests/unit/test_util.py_kw.md"])
    )
    assert "- Repository keyword index: [`keywords.md`](keywords.md)" in site.pages["doc.md"]


# ------------------------------------------------------------ folder doc.md


def test_folder_doc_most_imported(site: Site) -> None:
    rows = section(site.pages["doc.md"], "Most Imported Modules").split("\n")[2:]
    assert rows == [
        "- [`pkg/hub.py`](pkg/hub.py_docs.md): imported by 31 files",
        "- [`pkg/core.py`](pkg/core.py_docs.md): imported by 2 files",
        "- [`pkg/util.py`](pkg/util.py_docs.md): imported by 2 files",
    ]
    assert "## Most Imported Modules" not in site.pages["users/doc.md"]


def test_folder_doc_most_imported_is_capped_at_ten() -> None:
    # lib/mJJ is imported by every app/aK with K > J: m00 by 12 files, ..., m11 by 1.
    scanned = [python(f"lib/m{j:02}.py", "x = 1\n") for j in range(12)]
    for k in range(13):
        imports = tuple(Import(j + 1, f"lib.m{j:02}") for j in range(k))
        text = "".join(f"import lib.m{j:02}\n" for j in range(k)) or "x = 1\n"
        scanned.append(python(f"app/a{k:02}.py", text, imports))
    index = build_index("demo", scanned)
    page = renderer(index, {}).folder_doc("lib")
    rows = [ln for ln in section(page, "Most Imported Modules").split("\n") if ln.startswith("- ")]
    assert rows == [
        f"- [`lib/m{j:02}.py`](m{j:02}.py_docs.md): imported by {12 - j} files" for j in range(10)
    ]


# ----------------------------------------------------------- keyword index pages


def bullets(page: str) -> dict[str, list[str]]:
    """Name -> the `path:line` texts of its definitions, from a keyword page."""
    found: dict[str, list[str]] = {}
    name = ""
    for line in page.split("\n"):
        head = re.match(r"- \*\*`([^`]+)`\*\*", line)
        if head:
            name = head.group(1)
            found[name] = []
        if name and line.startswith(("- **", "  - ")):
            found[name].extend(re.findall(r"at \[`([^`]+)`\]", line))
    return found


def expected_bullets(sites: list[DefinitionSite]) -> dict[str, list[str]]:
    expected: dict[str, list[str]] = {}
    for s in sites:
        expected.setdefault(s.name, []).append(f"{s.path}:{s.line}")
    return expected


def test_single_keyword_page_lists_every_definition(site: Site) -> None:
    sites = definition_sites(site.index)
    keyword_pages = [p for p in site.pages if p.startswith("keywords")]
    assert keyword_pages == ["keywords.md"]
    page = site.pages["keywords.md"]
    assert page.startswith('---\nsource: "."\nkind: "keywords"\nlanguage: ""\ntags: []\n')
    assert bullets(page) == expected_bullets(sites)
    names = list(bullets(page))
    # a-z (case ignored), then `_`, then any other first character
    assert names == [
        "Engine",
        "helper",
        "Hub",
        "np",
        "run",
        "test_helper",
        "test_run",
        "__init__",
        "_Cache",
        "_private",
        "été",
    ]
    for s in sites:
        assert f"[`{s.qualname}`]({docs_page(s.path)}#{quote(s.anchor)})" in page
        assert f"[`{s.path}:{s.line}`](../../{s.path}#L{s.line})" in page
    assert (
        "- **`helper`** — 2 places:\n"
        "  - function [`helper`](pkg/core.py_docs.md#function-helper) at"
        " [`pkg/core.py:17`](../../pkg/core.py#L17)\n"
        "  - function [`helper`](pkg/util.py_docs.md#function-helper) at"
        " [`pkg/util.py:1`](../../pkg/util.py#L1)\n"
    ) in page


def test_letter_of() -> None:
    assert [
        letter_of(n) for n in ("Engine", "engine", "_x", "__init__", "été", "Ärger", "\u212a")
    ] == [
        "e",
        "e",
        "_",
        "_",
        "other",
        "other",
        "other",
    ]
    assert letter_page("a") == "keywords-a.md" and letter_page("s", 2) == "keywords-s-2.md"


def test_split_keyword_pages(site: Site) -> None:
    index, sources = site.index, {}
    r = renderer(index, sources)
    sites = definition_sites(index)
    pages = keyword_pages(r, sites, single_page_limit=3, letter_page_limit=2)
    assert list(pages) == [
        "keywords.md",
        "keywords-e.md",
        "keywords-h.md",
        "keywords-n.md",
        "keywords-r.md",
        "keywords-t.md",
        "keywords-_.md",
        "keywords-_-2.md",
        "keywords-other.md",
    ]
    entry = pages["keywords.md"]
    assert "## Names" not in entry
    assert "11 names in 12 places, listed on 8 pages" in entry
    assert (
        "- [`_`, part 2 of 2](keywords-_-2.md): 1 name, 1 place, `_private` to `_private`" in entry
    )
    assert "- [other first characters](keywords-other.md): 1 name" in entry
    merged: dict[str, list[str]] = {}
    for name, page in pages.items():
        if name != "keywords.md":
            assert "- All letters: [`keywords.md`](keywords.md)" in page
            found = bullets(page)
            assert all(letter_page(letter_of(n)) in (name, name.replace("-2", "")) for n in found)
            merged.update(found)
    assert merged == expected_bullets(sites)
    assert (
        "# Keyword Index: demo, names starting with any other character"
        in pages["keywords-other.md"]
    )
    # Mirrored pages end in _docs.md, _kw.md, index.md or doc.md: none of these can.
    assert not set(pages) & set(site.pages) - {"keywords.md"}


def test_empty_repository_keyword_page() -> None:
    index = build_index("demo", [])
    pages = keyword_pages(renderer(index, {}), [])
    assert list(pages) == ["keywords.md"]
    assert "No class, function or method definitions were found" in pages["keywords.md"]


# ------------------------------------------------------------- links resolve


@pytest.mark.parametrize("limits", [{}, {"single_page_limit": 3, "letter_page_limit": 2}])
def test_every_link_resolves(tmp_path: Path, limits: dict[str, int]) -> None:
    index, sources = repository()
    repo = tmp_path / "repo"
    for path, text in sources.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    out = repo / OUT
    pages = render_site(index, sources, **limits)
    for page, text in pages.items():
        target = out / page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    assert [format_broken(b) for b in check_links(out, repo)] == []
    assert sum(text.count("](") for text in pages.values()) > 500
