"""Whole pages from a hand-built index: links resolve, anchors exist, text stays inert."""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
from conftest import keyword_pages
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docgen.analyze.suite import collect
from docgen.index.keywords import definition_sites
from docgen.index.repo import RepoIndex, build_index
from docgen.model.facts import (
    Analysis,
    CodeBlock,
    Definition,
    Evidence,
    FileFacts,
    Finding,
    Heading,
    Import,
    Link,
    MarkdownFacts,
    Problem,
    PythonFacts,
    ScannedFile,
    Tag,
)
from docgen.model.links import Slugger, docs_page, folder_doc, folder_index, kw_page
from docgen.render.context import Linker, RenderContext
from docgen.render.environment import make_environment
from docgen.render.import_text import import_statement
from docgen.render.pages import Renderer
from docgen.render.template_files import builtin_templates_dir
from docgen.site.linkcheck import heading_anchors

MD = MarkdownIt("commonmark")
OUT_IN_REPO = "docs/generated"  # the output folder, inside the fake repository
SOURCE_ROOT = "../.."
INJECTION = "[click](http://evil) <script>alert(1)</script> # Heading ![img](x) ``` `` `tick`"

CORE = f'''"""Core tools. {INJECTION}

# Heading
More text.
"""
from __future__ import annotations

import os
import enum
from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass
from . import sibling
from .util import helper as util_helper, other
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

try:
    import numpy as np
except ImportError:
    np = None

__all__ = ["Config", "Foo"]


@dataclass(frozen=True)
class Config:
    """Settings. {INJECTION}"""

    name: str


class Color(enum.Enum):
    RED = 1


class Base(ABC):
    @abstractmethod
    def run(self) -> None: ...


class Foo(Base):
    def __init__(self, x: int) -> None:
        self.x = x

    def run(self) -> None:
        def inner():
            import json
            return json
        return None

    @property
    def size(self) -> int:
        return self.x

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Outer:
    class Inner:
        def run(self):
            pass


def helper():
    pass


def helper():
    pass


def Helper():
    pass


async def fetch():
    x = tensor.cuda()
    return x


@contextmanager
def scope():
    yield
'''

TEST_CORE = """import pytest

from pkg.core import Foo


def test_foo():
    assert Foo(1).x == 1


class TestFoo:
    def test_size(self):
        assert Foo(2).size == 2

    def helper(self):
        pass


if __name__ == "__main__":
    pytest.main([__file__])
"""

README = """# Demo project

Welcome to <b>demo</b> [click](http://evil) ![img](x) `code` text.

## Install \\[now\\](http://evil)

```python
import pkg.core
```

See [the guide](javascript:alert(1)).

### Usage
"""

TOML = '[tool.demo]\nname = "demo"\n'
WEIRD = 'class Weird:\n    """Odd name."""\n'
UNI = "def grüß():\n    return 'ü'\n"
BROKEN = "def ok():\n    pass\ndef broken(:\n"
ODD_MD = "# Odd `name` file\n\ntext\n"
BLOB = b"\x00\x01binary\x00"


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the nth line containing `needle` (facts are built by hand)."""
    hits = [i for i, line in enumerate(text.split("\n"), 1) if needle in line]
    return hits[nth - 1]


def n_lines(text: str) -> int:
    return len(text.splitlines())


def facts_for(path: str, text: str, kind: str, language: str, **extra: object) -> FileFacts:
    data = text.encode()
    return FileFacts(
        path=path,
        kind=kind,  # type: ignore[arg-type]
        language=language,
        size=len(data),
        sha256=f"{len(data):064x}",
        line_count=n_lines(text),
        **extra,  # type: ignore[arg-type]
    )


def d(
    kind: str, name: str, qualname: str, text: str, needle: str, nth: int = 1, **kw: object
) -> Definition:
    line = line_of(text, needle, nth)
    return Definition(kind, name, qualname, line, line + 1, **kw)  # type: ignore[arg-type]


def core_facts() -> FileFacts:
    t = CORE
    definitions = (
        d(
            "class",
            "Config",
            "Config",
            t,
            "class Config",
            decorators=("dataclass(frozen=True)",),
            docstring=f"Settings. {INJECTION}",
        ),
        d("class", "Color", "Color", t, "class Color", bases=("enum.Enum",)),
        d("class", "Base", "Base", t, "class Base", bases=("ABC",)),
        d(
            "method",
            "run",
            "Base.run",
            t,
            "def run(self) -> None: ...",
            signature="(self) -> None",
            decorators=("abstractmethod",),
            parent="Base",
        ),
        d("class", "Foo", "Foo", t, "class Foo", bases=("Base",)),
        d(
            "method",
            "__init__",
            "Foo.__init__",
            t,
            "def __init__",
            signature="(self, x: int) -> None",
            parent="Foo",
        ),
        d(
            "method",
            "run",
            "Foo.run",
            t,
            "def run(self) -> None:",
            2,
            signature="(self) -> None",
            parent="Foo",
        ),
        d("function", "inner", "Foo.run.inner", t, "def inner", signature="()", parent="Foo.run"),
        d(
            "method",
            "size",
            "Foo.size",
            t,
            "def size",
            signature="(self) -> int",
            decorators=("property",),
            parent="Foo",
        ),
        d(
            "method",
            "__enter__",
            "Foo.__enter__",
            t,
            "def __enter__",
            signature="(self)",
            parent="Foo",
        ),
        d(
            "method",
            "__exit__",
            "Foo.__exit__",
            t,
            "def __exit__",
            signature="(self, *exc)",
            parent="Foo",
        ),
        d("class", "Outer", "Outer", t, "class Outer"),
        d("class", "Inner", "Outer.Inner", t, "class Inner", parent="Outer"),
        d(
            "method",
            "run",
            "Outer.Inner.run",
            t,
            "def run(self):",
            signature="(self)",
            parent="Outer.Inner",
        ),
        d("function", "helper", "helper", t, "def helper():", 1, signature="()"),
        d("function", "helper", "helper", t, "def helper():", 2, signature="()"),
        d("function", "Helper", "Helper", t, "def Helper", signature="()"),
        d("function", "fetch", "fetch", t, "async def fetch", signature="()", is_async=True),
        d(
            "function",
            "scope",
            "scope",
            t,
            "def scope",
            signature="()",
            decorators=("contextmanager",),
        ),
    )
    imports = (
        Import(line_of(t, "from __future__"), "__future__", ("annotations",), is_from=True),
        Import(line_of(t, "import os"), "os", aliases=(("os", "os"),)),
        Import(line_of(t, "import enum"), "enum"),
        Import(line_of(t, "from abc"), "abc", ("ABC", "abstractmethod"), is_from=True),
        Import(line_of(t, "from contextlib"), "contextlib", ("contextmanager",), is_from=True),
        Import(line_of(t, "from dataclasses"), "dataclasses", ("dataclass",), is_from=True),
        Import(line_of(t, "from . import sibling"), None, ("sibling",), level=1, is_from=True),
        Import(
            line_of(t, "from .util"),
            ".util",
            ("helper", "other"),
            (("util_helper", ".util.helper"), ("other", ".util.other")),
            level=1,
            is_from=True,
        ),
        Import(line_of(t, "from typing"), "typing", ("TYPE_CHECKING",), is_from=True),
        Import(
            line_of(t, "from collections.abc"),
            "collections.abc",
            ("Iterator",),
            is_from=True,
            context=("if", "TYPE_CHECKING"),
        ),
        Import(line_of(t, "import numpy"), "numpy", aliases=(("np", "numpy"),), context=("try",)),
        Import(line_of(t, "import json"), "json", context=("function",)),
    )
    python = PythonFacts(
        module_docstring=CORE.split('"""')[1],
        definitions=definitions,
        imports=imports,
        dunder_all=("Config", "Foo"),
        findings=tuple(
            Finding("pattern", kind, line_of(t, text), f"`{subject}` is a {kind}.", subject)
            for kind, text, subject in (
                ("dunder-all", "__all__ =", "__all__"),
                ("dataclass", "class Config", "Config"),
                ("enum", "class Color", "Color"),
                ("abc", "class Base", "Base"),
                ("context-manager", "class Foo", "Foo"),
                ("async", "async def fetch", "fetch"),
                ("context-manager", "def scope", "scope"),
            )
        ),
    )
    return facts_for("pkg/core.py", t, "python", "python", python=python)


def build_repo() -> tuple[RepoIndex, dict[str, str | bytes]]:
    """The fake repository's files (path -> content) and its index built by hand."""
    core = core_facts()
    gpu = Tag(
        "gpu", (Evidence(line_of(CORE, "tensor.cuda()"), "x = tensor.cuda()", "calls .cuda()"),)
    )
    tl = TEST_CORE
    test_facts = facts_for(
        "tests/test_core.py",
        tl,
        "python",
        "python",
        python=PythonFacts(
            definitions=(
                d("function", "test_foo", "test_foo", tl, "def test_foo", signature="()"),
                d("class", "TestFoo", "TestFoo", tl, "class TestFoo"),
                d(
                    "method",
                    "test_size",
                    "TestFoo.test_size",
                    tl,
                    "def test_size",
                    signature="(self)",
                    parent="TestFoo",
                ),
                d(
                    "method",
                    "helper",
                    "TestFoo.helper",
                    tl,
                    "def helper",
                    signature="(self)",
                    parent="TestFoo",
                ),
            ),
            imports=(
                Import(1, "pytest"),
                Import(3, "pkg.core", ("Foo",), is_from=True),
            ),
        ),
    )
    test_tag = Tag(
        "test",
        (
            Evidence(0, "", "file name matches test_*.py"),
            Evidence(1, "import pytest", "imports pytest"),
            Evidence(
                line_of(tl, "pytest.main"), "pytest.main([__file__])", "runs tests under __main__"
            ),
        ),
    )
    readme = facts_for(
        "README.md",
        README,
        "markdown",
        "markdown",
        markdown=MarkdownFacts(
            headings=(
                Heading(1, "Demo project", 1),
                Heading(2, "Install [now](http://evil)", line_of(README, "## Install")),
                Heading(3, "Usage", line_of(README, "### Usage")),
            ),
            code_identifiers=("pkg.core",),
            code_blocks=(CodeBlock("python", line_of(README, "```python"), ("pkg.core",)),),
            links=(
                Link("http://evil", line_of(README, "Welcome"), "click"),
                Link("javascript:alert(1)", line_of(README, "See ["), "the guide"),
            ),
        ),
    )
    files: dict[str, str | bytes] = {
        "pkg/core.py": CORE,
        "tests/test_core.py": TEST_CORE,
        "README.md": README,
        "pkg/data.toml": TOML,
        "pkg/a b#c%(d).py": WEIRD,
        "pkg/ünï.py": UNI,
        "pkg/broken.py": BROKEN,
        "odd/`tick` [x].md": ODD_MD,
        "pkg/blob.bin": BLOB,
    }
    scanned = [
        ScannedFile(core, Analysis((gpu,))),
        ScannedFile(test_facts, Analysis((test_tag,), collect(TEST_CORE, runs_itself=True))),
        # A Markdown file is never a test, even if an analyzer said so.
        ScannedFile(readme, Analysis((Tag("test", (Evidence(1, "# Demo", "x"),)),))),
        ScannedFile(facts_for("pkg/data.toml", TOML, "text", "toml")),
        ScannedFile(
            facts_for(
                "pkg/a b#c%(d).py",
                WEIRD,
                "python",
                "python",
                python=PythonFacts(
                    definitions=(
                        d("class", "Weird", "Weird", WEIRD, "class Weird", docstring="Odd name."),
                    )
                ),
            )
        ),
        ScannedFile(
            facts_for(
                "pkg/ünï.py",
                UNI,
                "python",
                "python",
                python=PythonFacts(
                    definitions=(d("function", "grüß", "grüß", UNI, "def grüß", signature="()"),)
                ),
            )
        ),
        ScannedFile(
            facts_for(
                "pkg/broken.py",
                BROKEN,
                "python",
                "python",
                parsed=False,
                problems=(Problem(3, "invalid syntax: [x](http://evil)", "error"),),
            )
        ),
        ScannedFile(
            facts_for(
                "odd/`tick` [x].md",
                ODD_MD,
                "markdown",
                "markdown",
                markdown=MarkdownFacts(headings=(Heading(1, "Odd `name` file", 1),)),
            )
        ),
        ScannedFile(FileFacts("pkg/blob.bin", "binary", "", len(BLOB), "00" * 32, parsed=False)),
    ]
    return build_index("demo", scanned), files


# ------------------------------------------------------------------ rendering


@dataclass
class Site:
    repo: Path
    out: Path
    pages: dict[str, str]  # output path -> text


def reader(files: dict[str, str | bytes]):  # type: ignore[no-untyped-def]
    def read(path: str) -> str | None:
        content = files.get(path)
        return content if isinstance(content, str) else None

    return read


def render_all(
    index: RepoIndex, files: dict[str, str | bytes], **context: object
) -> dict[str, str]:
    ctx = RenderContext("demo", "docgen 0.1.0", SOURCE_ROOT, **context)  # type: ignore[arg-type]
    renderer = Renderer(make_environment(), index, ctx, reader(files))
    pages: dict[str, str] = {}
    for scanned in index.documented():
        path = scanned.facts.path
        pages[docs_page(path)] = renderer.docs_page(path)
        pages[kw_page(path)] = renderer.kw_page(path)
    for folder in index.folders:
        pages[folder_index(folder)] = renderer.folder_index(folder)
        pages[folder_doc(folder)] = renderer.folder_doc(folder)
    pages.update(keyword_pages(renderer, definition_sites(index)))
    return pages


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    repo = tmp_path_factory.mktemp("repo")
    index, files = build_repo()
    for path, content in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    out = repo / OUT_IN_REPO
    pages = render_all(index, files)
    for page, text in pages.items():
        target = out / page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return Site(repo, out, pages)


# --------------------------------------------------------------- inspection


def body(page: str) -> str:
    """The page without its front matter (GitHub shows that as a table, not Markdown)."""
    assert page.startswith("---\n")
    end = page.index("\n---\n", 4)
    return page[end + 5 :]


def front(page: str) -> dict[str, object]:
    """Front matter values, each parsed as the JSON it is written as."""
    lines = page[4 : page.index("\n---\n", 4)].split("\n")
    return {key: json.loads(value) for key, _, value in (ln.partition(": ") for ln in lines)}


def walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from walk(token.children)


def heading_texts(page: str) -> list[tuple[int, str]]:
    tokens = MD.parse(body(page))
    result = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            text = "".join(
                c.content for c in tokens[i + 1].children or () if c.type in ("text", "code_inline")
            )
            result.append((int(token.tag[1]), text))
    return result


def anchors(page: str) -> set[str]:
    slugger = Slugger()
    return {slugger.claim(text) for _, text in heading_texts(page)}


def links(page: str) -> list[str]:
    return [t.attrs["href"] for t in walk(MD.parse(body(page))) if t.type == "link_open"]  # type: ignore[misc]


def outside_fences(page: str) -> list[str]:
    lines, fence = [], ""
    for line in page.split("\n"):
        if fence:
            if line.startswith(fence) and not line.strip("`"):
                fence = ""
            continue
        match = re.match(r"^(`{3,})", line)
        if match:
            fence = match.group(1)
        lines.append(line)
    return lines


# --------------------------------------------------------------------- tests


def test_every_link_resolves(site: Site) -> None:
    checked = 0
    for page, text in site.pages.items():
        folder = (site.out / page).parent
        for target in links(text):
            assert "://" not in target and not target.startswith(("/", "mailto:")), (page, target)
            path, _, anchor = target.partition("#")
            resolved = Path(os.path.normpath(folder / unquote(path))) if path else site.out / page
            assert resolved.exists(), (page, target)
            assert resolved == site.repo or site.repo in resolved.parents, (page, target)
            if not anchor:
                continue
            anchor = unquote(anchor)
            if site.out in resolved.parents:
                assert anchor in anchors(site.pages[resolved.relative_to(site.out).as_posix()]), (
                    page,
                    target,
                )
            elif resolved.suffix == ".md":
                source_anchors = heading_anchors(resolved.read_text(encoding="utf-8"))
                assert anchor in source_anchors, (page, target)
            else:
                match = re.fullmatch(r"L(\d+)", anchor)
                assert match, (page, target)
                assert 1 <= int(match.group(1)) <= n_lines(resolved.read_text(encoding="utf-8"))
            checked += 1
    assert checked > 100


def test_pages_for_every_documented_file_and_folder(site: Site) -> None:
    assert "pkg/blob.bin_docs.md" not in site.pages
    assert "pkg/blob.bin_kw.md" not in site.pages
    for path in ("pkg/core.py", "pkg/a b#c%(d).py", "pkg/ünï.py", "odd/`tick` [x].md", "README.md"):
        assert docs_page(path) in site.pages and kw_page(path) in site.pages
    for folder in ("", "pkg", "tests", "odd"):
        assert folder_index(folder) in site.pages and folder_doc(folder) in site.pages


def test_page_shape(site: Site) -> None:
    for page, text in site.pages.items():
        assert text.endswith("\n") and not text.endswith("\n\n"), page
        plain = outside_fences(text)
        assert all(line == line.rstrip() for line in plain), page
        assert "\n\n\n" not in "\n".join(plain), page
        meta = front(text)
        assert meta["generator"] == "docgen 0.1.0"
        assert isinstance(meta["tags"], list)
        if page.endswith(("index.md", "doc.md")) and not page.endswith(("_docs.md", "_kw.md")):
            assert meta["kind"] == "folder" and "sha256" not in meta
        elif page.startswith("keywords"):
            assert meta["kind"] == "keywords" and "sha256" not in meta
        else:
            assert isinstance(meta["sha256"], str) and len(meta["sha256"]) == 64
        for banned in ("no obvious security", "requires profiling", "TODO"):
            assert banned not in text


def test_front_matter_values(site: Site) -> None:
    assert front(site.pages["pkg/core.py_docs.md"]) == {
        "source": "pkg/core.py",
        "kind": "python",
        "language": "python",
        "tags": ["gpu"],
        "sha256": f"{len(CORE.encode()):064x}",
        "generator": "docgen 0.1.0",
    }
    assert front(site.pages["index.md"])["source"] == "."
    assert front(site.pages["README.md_docs.md"])["tags"] == []
    yaml = pytest.importorskip("yaml")
    text = site.pages["pkg/a b#c%(d).py_kw.md"]
    assert yaml.safe_load(text[4 : text.index("\n---\n", 4)])["source"] == "pkg/a b#c%(d).py"


def test_rendering_is_deterministic(site: Site) -> None:
    index, files = build_repo()
    assert render_all(index, files) == site.pages


#: the lines docgen writes around an embedded source, and nothing else, are HTML
DETAILS_OPEN_RE = re.compile(
    r"<details>\n<summary>The whole file \([\d,]+ lines?\); the analysis above comes from it"
    r"</summary>\n"
)


def test_injection_stays_inert(site: Site) -> None:
    for page in (
        "pkg/core.py_docs.md",
        "README.md_docs.md",
        "README.md_kw.md",
        "doc.md",
        "index.md",
        "pkg/broken.py_docs.md",
    ):
        tokens = list(walk(MD.parse(body(site.pages[page]))))
        types = {t.type for t in tokens}
        assert not types & {"html_inline", "image"}, page
        # the only HTML is docgen's own fold around the embedded source
        html = [t.content for t in tokens if t.type == "html_block"]
        assert all(DETAILS_OPEN_RE.fullmatch(h) or h == "</details>\n" for h in html), page
        assert not any(
            "evil" in target.split("#")[0] or target == "x" or "javascript" in target
            for target in links(site.pages[page])
        )
        assert all(text != "Heading" for _, text in heading_texts(site.pages[page]))
    # The attempts are shown as plain text where the page quotes them.
    for page, attempt in (
        (
            "pkg/core.py_docs.md",
            "[click](http://evil) <script>alert(1)</script> # Heading ![img](x)",
        ),
        ("README.md_docs.md", "Install [now](http://evil)"),
        ("README.md_kw.md", "Install [now](http://evil)"),
        ("pkg/broken.py_docs.md", "invalid syntax: [x](http://evil)"),
    ):
        tokens = list(walk(MD.parse(body(site.pages[page]))))
        shown = [t.content for t in tokens if t.type in ("text", "code_inline")]
        assert any(attempt in text for text in shown), page


def test_docs_page_headings(site: Site) -> None:
    headings = heading_texts(site.pages["pkg/core.py_docs.md"])
    assert headings[0] == (1, "Documentation: pkg/core.py")
    assert [t for level, t in headings if level == 2] == [
        "File Metadata",
        "File Purpose",
        "High-Level Overview",
        "Detailed Analysis",
        "Architecture & Design",
        "Dependencies",
        "Code Patterns & Idioms",  # no Security & Safety: nothing was found
        "Testing & Usage",
        "Related Files",
        "Original Source",
        "Cross-References",
    ]
    assert (3, "class Foo") in headings
    assert (4, "method Foo.run") in headings
    assert (5, "function Foo.run.inner") in headings
    assert (5, "method Outer.Inner.run") in headings
    # Duplicate and case-colliding names still get distinct anchors.
    slugs = anchors(site.pages["pkg/core.py_docs.md"])
    assert {"function-helper", "function-helper-1", "function-helper-2"} <= slugs


def test_original_source_is_embedded_verbatim(site: Site) -> None:
    fences = [t for t in MD.parse(body(site.pages["pkg/core.py_docs.md"])) if t.type == "fence"]
    assert fences[0].info == "python"
    assert fences[0].content == CORE
    md_fences = [t for t in MD.parse(body(site.pages["README.md_docs.md"])) if t.type == "fence"]
    assert md_fences[0].info == "markdown" and md_fences[0].content == README


def test_large_sources_are_not_embedded() -> None:
    index, files = build_repo()
    pages = render_all(index, files, max_embed_bytes=100)
    text = pages["pkg/core.py_docs.md"]
    assert not [t for t in MD.parse(body(text)) if t.type == "fence"]
    assert f"The file is {len(CORE.encode()):,} bytes" in text
    assert "over the 100 bytes limit" in text
    assert [t for t in MD.parse(body(pages["pkg/data.toml_docs.md"])) if t.type == "fence"]


def test_sections_only_where_true(site: Site) -> None:
    text_page = site.pages["pkg/data.toml_docs.md"]
    for absent in (
        "## Detailed Analysis",
        "## Testing & Usage",
        "## Dependencies",
        "## Code Patterns",
    ):
        assert absent not in text_page
    assert "No tag applies" in text_page
    readme = site.pages["README.md_docs.md"]
    assert "This Markdown file is documentation." in readme
    assert "## Testing & Usage" not in readme and "pytest" not in readme
    assert "### Outline" in readme and "### Code Blocks" in readme and "### Links" in readme
    core = site.pages["pkg/core.py_docs.md"]
    usage = core.split("## Testing & Usage")[1].split("\n## ")[0]
    assert "pytest" not in usage  # a module gets no run command, only what tests it
    assert "## Security & Safety" not in text_page and "## Security & Safety" not in readme
    broken = site.pages["pkg/broken.py_docs.md"]
    assert "The file could not be parsed." in broken
    assert "[L3](../../../pkg/broken.py#L3): invalid syntax" in broken


def test_testing_section(site: Site) -> None:
    page = site.pages["tests/test_core.py_docs.md"]
    fences = [t for t in MD.parse(body(page)) if t.type == "fence" and t.info == "sh"]
    assert fences[0].content == "pytest tests/test_core.py\npython tests/test_core.py\n"
    assert "  - whole file: file name matches test\\_\\*.py\n" in page
    testing = page.split("## Testing & Usage")[1].split("\n## ")[0]
    assert "A runner collects 2 tests from this file" in testing
    assert "Collected by pytest only, by its name (`Test*`, no bases)" in testing
    assert "| [`test_foo`](#function-test_foo) |" in testing
    assert "`pytest tests/test_core.py::test_foo` |" in testing  # pytest.main ignores -k
    assert "| [`test_size`](#method-testfootest_size) |" in testing
    assert "`pytest tests/test_core.py::TestFoo::test_size` |" in testing  # not unittest's
    assert "helper" not in testing


def test_patterns_and_dependencies(site: Site) -> None:
    page = site.pages["pkg/core.py_docs.md"]
    patterns = page.split("## Code Patterns & Idioms")[1].split("\n## ")[0]
    expected = {
        "Dataclasses": ["Config"],
        "Enums": ["Color"],
        "Abstract base classes": ["Base"],
        "Properties": ["Foo.size"],
        "Context managers": ["Foo", "scope"],
        "Async functions": ["fetch"],
    }
    groups = {
        title.strip(): block
        for title, block in re.findall(r"^- (.+):\n((?:  - .*\n)+)", patterns, re.M)
    }
    for title, names in expected.items():
        assert re.findall(r"^  - \[`([^`]+)`\]", groups[title], re.M) == names, title
    declared = r"- `__all__` \(\[L\d+\]\([^)]*\)\) declares 2 names: `Config`, `Foo`"
    assert re.search(declared, patterns)
    deps = page.split("## Dependencies")[1].split("\n## ")[0]
    assert "`from collections.abc import Iterator` (in if, TYPE\\_CHECKING)" in deps
    assert "`import json` (in function)" in deps
    assert "`import numpy as np` (in try)" in deps
    assert "`from .util import helper as util_helper, other`" in deps


def kw_bullets(page: str) -> dict[str, list[str]]:
    """Keyword group title -> the names of its bullets, in page order."""
    groups: dict[str, list[str]] = {}
    current = ""
    for line in body(page).split("\n"):
        if line.startswith("### "):
            current = line[4:]
            groups[current] = []
        elif line.startswith("## "):
            current = ""
        elif current and line.startswith("- **"):
            match = re.match(r"- \*\*(`+) ?(.*?) ?\1\*\*", line)
            assert match, line
            groups[current].append(match.group(2))
    return groups


def test_kw_page_bullets_match_facts(site: Site) -> None:
    python = core_facts().python
    assert python is not None
    classes = sorted({x.name for x in python.definitions if x.kind == "class"})
    functions = sorted({x.name for x in python.definitions if x.kind != "class"})
    imported = (
        {i.module for i in python.imports if i.module}
        | {n for i in python.imports for n in i.names}
        | {bound for i in python.imports for bound, _ in i.aliases}  # `np` of `as np`
    )
    groups = kw_bullets(site.pages["pkg/core.py_kw.md"])
    assert groups == {"Classes": classes, "Functions": functions, "Imports": sorted(imported)}
    assert ".util" in groups["Imports"] and "*" not in groups["Imports"]
    run = next(
        ln for ln in site.pages["pkg/core.py_kw.md"].split("\n") if ln.startswith("- **`run`**")
    )
    assert run.count("core.py_docs.md#method-") == 3 and run.count("#L") == 3
    readme = kw_bullets(site.pages["README.md_kw.md"])
    assert readme == {
        "Headings": sorted(["Demo project", "Install [now](http://evil)", "Usage"]),
        "Code Identifiers": ["pkg.core"],
    }
    text_kw = site.pages["pkg/data.toml_kw.md"]
    assert "not from toml text files" in text_kw and "###" not in text_kw


def test_a_keyword_page_has_no_section_map(site: Site) -> None:
    """Each name links to its own place on the docs page already: a table of which
    group a section covers said nothing more (filler)."""
    page = site.pages["pkg/core.py_kw.md"]
    assert "Section Map" not in page
    assert "[`Config`](core.py_docs.md#class-config)" in page  # each name links itself


def test_folder_pages(site: Site) -> None:
    index = site.pages["pkg/index.md"]
    assert heading_texts(index)[0] == (1, "Index: pkg")
    assert "- `blob.bin` — binary, 9 bytes" in index
    assert "blob.bin_docs" not in index
    assert "Core tools." in index
    assert "2 lines of toml" in index
    root = site.pages["index.md"]
    assert heading_texts(root)[0] == (1, "Index: demo")
    assert "Up:" not in root
    doc = site.pages["doc.md"]
    assert heading_texts(doc)[0] == (1, "Folder: demo")
    tokens = MD.parse(body(doc))
    quote = tokens[[t.type for t in tokens].index("blockquote_open") + 2]
    assert quote.children is not None
    assert [c.type for c in quote.children] == ["text"]
    assert quote.children[0].content == "Welcome to demo click code text."
    pkg_doc = site.pages["pkg/doc.md"]
    classes = pkg_doc.split("## Public Classes")[1].split("\n## ")[0]
    assert re.findall(r"\[`([^`]+)`\]", classes) == [
        "Weird",
        "Config",
        "Color",
        "Base",
        "Foo",
        "Outer",
    ]
    assert "`Inner`" not in classes


def test_user_template_can_replace_one_block(site: Site, tmp_path: Path) -> None:
    (tmp_path / "docs.md.j2").write_text(
        '{% extends "default/docs.md.j2" %}\n'
        "{% block crossrefs %}\n## Custom\n\nhello\n{% endblock %}\n",
        encoding="utf-8",
    )
    index, files = build_repo()
    ctx = RenderContext("demo", "docgen 0.1.0", SOURCE_ROOT)
    renderer = Renderer(make_environment([tmp_path]), index, ctx, reader(files))
    text = renderer.docs_page("pkg/core.py")
    assert text.endswith("## Custom\n\nhello\n")
    assert "## Cross-References" not in text
    assert (
        text.split("## Related Files")[0]
        == site.pages["pkg/core.py_docs.md"].split("## Related Files")[0]
    )


def test_builtin_templates_dir() -> None:
    root = builtin_templates_dir()
    for name in (
        "frame.md.j2",
        "macros.md.j2",
        "docs.md.j2",
        "kw.md.j2",
        "folder_index.md.j2",
        "folder_doc.md.j2",
        "keywords.md.j2",
    ):
        assert (root / "default" / name).is_file()


def test_source_root_far_away(tmp_path: Path) -> None:
    """Output outside the repository: links climb out of OUT and back down into it."""
    index, files = build_repo()
    ctx = RenderContext("demo", "docgen 0.1.0", "../../../repo")
    text = Renderer(make_environment(), index, ctx, reader(files)).docs_page("pkg/core.py")
    # OUT is /x/o1/o2/o3, so "../../../repo" from it is /x/repo.
    for target in links(text):
        path = target.partition("#")[0]
        if path.endswith("pkg/core.py"):
            assert (
                posixpath.normpath(posixpath.join("/x/o1/o2/o3/pkg", unquote(path)))
                == "/x/repo/pkg/core.py"
            )


@pytest.mark.parametrize(
    ("imp", "statement"),
    [
        # Bindings as the Python scanner records them: (bound name, qualified target).
        (Import(1, "re", aliases=(("re", "re"),)), "import re"),
        (Import(1, "a.b", aliases=(("a", "a"),)), "import a.b"),
        (Import(1, "a.b", aliases=(("c", "a.b"),)), "import a.b as c"),
        (
            Import(1, "x", ("y", "w"), (("z", "x.y"), ("w", "x.w")), is_from=True),
            "from x import y as z, w",
        ),
        (Import(1, None, ("q",), (("q", ".q"),), level=1, is_from=True), "from . import q"),
        (Import(1, "..m", level=2, is_from=True, star=True), "from ..m import *"),
    ],
)
def test_import_statements_are_rebuilt(imp: Import, statement: str) -> None:
    assert import_statement(imp) == statement


def test_lines_outside_the_file_are_not_linked() -> None:
    linker = Linker("pkg/a.py_docs.md", "../..")
    assert linker.line("pkg/a.py", 0, 5).href == ""
    assert linker.line("pkg/a.py", 6, 5).href == ""
    assert linker.line("pkg/a.py", 5, 5).href == "../../../pkg/a.py#L5"
