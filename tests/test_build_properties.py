"""Property tests of the whole pipeline: any small tree of awkward names and arbitrary
content builds, every file gets its pages, and every link on every page resolves.

Bounded by the suite's hypothesis profile; `DOCGEN_HYPOTHESIS=long` explores longer.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import hypothesmith
from conftest import pages_and_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cfamily_relations import kept_relations

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.model.links import docs_page, kw_page
from docgen.site.linkcheck import check_links, format_broken

#: Characters a file name may hold on POSIX that Markdown, URLs or shells treat specially.
AWKWARD = " #%&()[]{}<>`*_!?'\"+=,;@$~^|\\é中"
NAME_CHARS = st.sampled_from("abcxyz019" + AWKWARD)

segment = st.text(NAME_CHARS, min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..") and not s.startswith(".") and s.strip() == s
)


@st.composite
def markdown_text(draw: st.DrawFn, names: list[str]) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["heading", "link", "code", "prose", "html"]))
        words = draw(st.text(max_size=30))
        if kind == "heading":
            parts.append(f"{'#' * draw(st.integers(1, 6))} {words}")
        elif kind == "link":
            target = draw(st.sampled_from([*names, "missing.md", "#nowhere", "../../up.md"]))
            parts.append(f"[{words}]({target})")
        elif kind == "code":
            parts.append(f"```{draw(st.sampled_from(['python', '', 'bash']))}\n{words}\n```")
        elif kind == "html":
            parts.append(f"<a href='javascript:x'>{words}</a>")
        else:
            parts.append(words)
    return "\n\n".join(parts) + "\n"


@st.composite
def cfamily_text(draw: st.DrawFn, names: list[str]) -> str:
    """Includes of the tree's other files (found or not), and declarations and
    definitions that other files may match, among arbitrary lines."""
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["include", "declare", "define", "namespace", "other"]))
        name = draw(st.sampled_from(["f", "g", "Widget::run"]))
        if kind == "include":
            target = draw(st.sampled_from([*names, "missing.h", "../up.h"]))
            lines.append(f'#include "{target}"' if draw(st.booleans()) else f"#include <{target}>")
        elif kind == "declare":
            lines.append(f"int {name.split('::')[-1]}(int a);")
        elif kind == "define":
            lines.append(f"int {name}(int a) {{ return a; }}")
        elif kind == "namespace":
            lines.append("namespace ns { struct Widget { void run(); }; }")
        else:
            lines.append(draw(st.text(max_size=30)))
    return "\n".join(lines) + "\n"


@st.composite
def trees(draw: st.DrawFn) -> dict[str, str]:
    count = draw(st.integers(1, 4))
    paths: list[str] = []
    for _ in range(count):
        folders = draw(st.lists(segment, max_size=2))
        stem = draw(segment)
        suffix = draw(st.sampled_from([".py", ".md", ".txt", ".py", ".h", ".cpp"]))
        path = "/".join([*folders, stem + suffix])
        # one name may not be both a file and a folder
        if any(p.startswith(path + "/") or path.startswith(p + "/") for p in paths):
            continue
        if path not in paths:
            paths.append(path)
    files: dict[str, str] = {}
    for path in paths:
        if path.endswith(".py"):
            files[path] = draw(hypothesmith.from_grammar() | st.text(max_size=200))
        elif path.endswith(".md"):
            files[path] = draw(markdown_text([p for p in paths if p != path]))
        elif path.endswith((".h", ".cpp")):
            files[path] = draw(cfamily_text([p for p in paths if p != path]))
        else:
            files[path] = draw(st.text(max_size=200))
    return files


#: Whole builds are slow examples: a dozen in the suite, hundreds on the long run.
EXAMPLES = 300 if os.environ.get("DOCGEN_HYPOTHESIS") == "long" else 12


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(trees())
def test_any_tree_builds_with_every_page_and_every_link_resolving(files: dict[str, str]) -> None:
    root = Path(tempfile.mkdtemp(prefix="docgen-prop-"))
    try:
        repo = root / "repo"
        repo.mkdir()
        for rel, text in files.items():
            path = repo / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out = root / "out"
        report = build(resolve_options(repo, out, 1))
        assert report.files == len(files)
        for rel in files:
            assert (out / docs_page(rel)).is_file(), rel
            assert (out / kw_page(rel)).is_file(), rel
        broken = check_links(out, repo)
        assert broken == [], "\n".join(format_broken(b) for b in broken)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _write_tree(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")


def _clashes(path: str, files: dict[str, str]) -> bool:
    """Whether `path` is one of `files`, or a folder of one, or inside one."""
    return any(p == path or p.startswith(path + "/") or path.startswith(p + "/") for p in files)


@settings(
    max_examples=EXAMPLES // 2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(trees(), trees())
def test_a_build_over_any_earlier_tree_equals_a_clean_build(
    before: dict[str, str], after: dict[str, str]
) -> None:
    """Files kept, edited, added and removed at once: the incremental output (pages and
    keyword index) is the clean build's, byte for byte."""
    root = Path(tempfile.mkdtemp(prefix="docgen-prop-"))
    try:
        repo = root / "repo"
        repo.mkdir()
        _write_tree(repo, before)
        out = root / "out"
        build(resolve_options(repo, out, 1))
        shutil.rmtree(repo)
        repo.mkdir()
        kept = {k: v for k, v in before.items() if not _clashes(k, after)}
        _write_tree(repo, {**kept, **after})
        build(resolve_options(repo, out, 1))
        clean = root / "clean"
        build(resolve_options(repo, clean, 1))
        assert pages_and_rows(out) == pages_and_rows(clean)
    finally:
        shutil.rmtree(root, ignore_errors=True)


#: lines a C-family edit may add that leave the file's includes as they were
CODE_LINES = [
    "",
    "int f(int a);",
    "int g(int a);",
    "int f(int a) { return a; }",
    "int Widget::run(int a) { return a; }",
    "namespace ns { struct Widget { void run(); int run(int a); }; }",
    "void ns::Widget::run() {}",
    "DECLARE_DISPATCH(fn, add_stub);",
    "REGISTER_DISPATCH(add_stub, &kernel);",
    "template <> struct Box<int> { int get(); };",
    "int Box<int>::get() { return 1; }",
]


@st.composite
def cfamily_trees(draw: st.DrawFn) -> dict[str, str]:
    """A few headers and source files in two folders, including each other."""
    paths = draw(
        st.lists(
            st.sampled_from(["a.h", "a.cpp", "b.h", "src/b.cpp", "src/c.h", "src/c.cu"]),
            min_size=2,
            max_size=5,
            unique=True,
        )
    )
    files = {}
    for path in paths:
        includes = draw(st.lists(st.sampled_from(["a.h", "b.h", "src/c.h", "c.h"]), max_size=2))
        body = draw(st.lists(st.sampled_from(CODE_LINES), max_size=6))
        files[path] = "\n".join([*(f'#include "{i}"' for i in includes), *body]) + "\n"
    return files


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(cfamily_trees(), st.data())
def test_an_edit_of_cfamily_code_below_the_includes_equals_a_clean_build(
    files: dict[str, str], data: st.DataObject
) -> None:
    """Declarations, definitions, dispatch stubs and specializations added, removed or
    moved in files whose includes stay (the edits the kept relations are patched for):
    the pages, the keyword index and the relations kept are a clean build's."""
    root = Path(tempfile.mkdtemp(prefix="docgen-prop-"))
    try:
        repo, out, clean = root / "repo", root / "out", root / "clean"
        repo.mkdir()
        _write_tree(repo, files)
        build(resolve_options(repo, out, 1))
        for _ in range(2):
            edited = data.draw(st.lists(st.sampled_from(sorted(files)), min_size=1, unique=True))
            for path in edited:
                lines = files[path].splitlines()
                head = [line for line in lines if line.startswith("#include")]
                body = data.draw(st.lists(st.sampled_from(CODE_LINES), max_size=6))
                files[path] = "\n".join([*head, *body]) + "\n"
            _write_tree(repo, files)
            build(resolve_options(repo, out, 1))
            shutil.rmtree(clean, ignore_errors=True)
            build(resolve_options(repo, clean, 1))
            assert pages_and_rows(out) == pages_and_rows(clean)
            assert kept_relations(out) == kept_relations(clean)
    finally:
        shutil.rmtree(root, ignore_errors=True)
