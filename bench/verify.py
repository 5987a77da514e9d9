"""Acceptance checks for a docgen build of a real tree.

    python bench/verify.py REPO OUT [--labels FILE.json] [--twice] [--outside PATH ...]

OUT must already hold `docgen build REPO --out OUT`.  Each check compares the
pages with something docgen did not compute itself where it can (Python's own
`ast`, the file system, a labels file, a second build), prints the first few
differences and a summary table, and the exit status is 1 when any check fails.
Not part of the test suite: it is slow on big trees on purpose.
"""

from __future__ import annotations

import argparse
import ast
import filecmp
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from docgen.discover.tree import discover
from docgen.model.languages import is_binary
from docgen.model.links import DOCS_SUFFIX, FOLDER_DOC, FOLDER_INDEX, KW_SUFFIX, parent_folders
from docgen.site import linkcheck

STATE_FOLDER = linkcheck.STATE_FOLDER
GROUP_HEADINGS = {
    "Classes": "classes",
    "Functions": "functions",
    "Attributes": "attributes",
    "Imports": "imports",
}
GROUPS = ("classes", "functions", "attributes", "imports")
FILE_AND_FOLDER_KINDS = frozenset({"python", "markdown", "text", "binary", "folder"})
MIN_LEAK_LINE = 9  # "longer than 8 characters"
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_LINK = re.compile(r"\]\(([^()\s]*)\)")
_FRONT_FIELD = re.compile(r"^([A-Za-z_]+):[ \t]*(.*)$")
_PARSED_LINE = re.compile(r"^- Parsed: (.*)$", re.MULTILINE)


# ------------------------------------------------------------------ results


@dataclass
class Result:
    """One check's verdict: ok True/False, or None when it was not run."""

    name: str
    ok: bool | None
    summary: str
    details: list[str] = field(default_factory=list)
    seconds: float = 0.0
    warn: bool = False  # a finding worth reading that does not fail the run


@dataclass(frozen=True)
class Tree:
    """What a check needs to know about REPO and OUT, computed once."""

    repo: Path
    out: Path
    sources: tuple[str, ...]  # repo-relative files docgen discovers (documented or listed)
    documented: tuple[str, ...]  # the non-binary ones: each gets a docs and a keyword page
    pages: tuple[str, ...]  # OUT-relative paths of every file in OUT outside .docgen/


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def load_tree(repo: Path, out: Path) -> Tree:
    """Discovery is docgen's own (gitignore rules, links, skipped files): the checks
    below test the pages, not the choice of files."""
    discovery = discover(repo, exclude_dirs=[out])
    sources = tuple(f.path for f in discovery.files)
    documented = []
    for f in discovery.files:
        try:
            with open(f.abs_path, "rb") as handle:
                binary = is_binary(handle.read())
        except OSError:
            binary = False  # docgen documents an unreadable file with a problem
        if not binary:
            documented.append(f.path)
    return Tree(repo, out, sources, tuple(documented), tuple(output_files(out)))


def output_files(out: Path) -> list[str]:
    found: list[str] = []
    for folder, subfolders, files in os.walk(out):
        if Path(folder) == out:
            subfolders[:] = [s for s in subfolders if s != STATE_FOLDER]
        rel = Path(folder).relative_to(out).as_posix()
        found.extend(name if rel == "." else f"{rel}/{name}" for name in files)
    return sorted(found)


# ------------------------------------------------------------------ page parsing


def code_span(text: str) -> tuple[str, str] | None:
    """(content, rest) of the code span that opens `text`, CommonMark's way:
    the fence is the run of backticks, closed by a run of the same length."""
    fence_len = len(text) - len(text.lstrip("`"))
    if fence_len == 0:
        return None
    fence = "`" * fence_len
    at = fence_len
    while True:
        close = text.find(fence, at)
        if close < 0:
            return None
        after = close + fence_len
        if (after >= len(text) or text[after] != "`") and text[close - 1] != "`":
            content = text[fence_len:close]
            if len(content) > 2 and content[0] == " " and content[-1] == " " and content.strip():
                content = content[1:-1]
            return content, text[after:]
        at = close + 1


def page_lines(text: str) -> Iterator[tuple[int, str, str]]:
    """(number, line, where) with `where` one of "text", "fence" (a delimiter), "code"."""
    fence: str | None = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence is not None:
            closes = stripped.startswith(fence) and not stripped.rstrip().strip(fence[0])
            if closes:
                fence = None
            yield number, line, "fence" if closes else "code"
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
            yield number, line, "fence"
        else:
            yield number, line, "text"


@dataclass(frozen=True)
class Bullet:
    name: str
    rest: str  # the line after the name's code span
    line: int


def kw_bullets(text: str) -> dict[str, list[Bullet]]:
    """Bullets under the `### Classes/Functions/Imports` headings of a keyword page."""
    groups: dict[str, list[Bullet]] = {g: [] for g in GROUPS}
    current: str | None = None
    for number, line, where in page_lines(text):
        if where != "text":
            continue
        heading = _HEADING.match(line)
        if heading:
            level, title = len(heading.group(1)), heading.group(2)
            current = GROUP_HEADINGS.get(title) if level == 3 else None
            continue
        if current is not None and line.startswith("- **"):
            span = code_span(line[4:])
            if span is not None:
                groups[current].append(Bullet(span[0], span[1], number))
    return groups


def front_matter(text: str) -> dict[str, str]:
    """The raw `key: value` lines of a page's front matter."""
    lines = text.split("\n")
    if not lines or lines[0] != "---":
        return {}
    fields: dict[str, str] = {}
    for line in lines[1:]:
        if line == "---":
            break
        match = _FRONT_FIELD.match(line)
        if match:
            fields[match.group(1)] = match.group(2)
    return fields


def front_tags(text: str) -> list[str] | None:
    raw = front_matter(text).get("tags")
    if raw is None:
        return None
    try:
        value = json.loads(raw)  # docgen writes a flow sequence of JSON strings
    except json.JSONDecodeError:
        return None
    return [str(v) for v in value] if isinstance(value, list) else None


# ------------------------------------------------------------------ 1: ast


@dataclass(frozen=True)
class Expected:
    classes: frozenset[str]
    functions: frozenset[str]
    imports: frozenset[str]
    attributes: frozenset[str]

    def group(self, name: str) -> frozenset[str]:
        return {
            "classes": self.classes,
            "functions": self.functions,
            "attributes": self.attributes,
            "imports": self.imports,
        }[name]


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _scope_nodes(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run in a scope: through blocks, never into a def or class."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, _DEFS):
            continue
        for part in ("body", "orelse", "finalbody"):
            out += _scope_nodes(getattr(node, part, []))
        for handler in getattr(node, "handlers", []):
            out += _scope_nodes(handler.body)
        for case in getattr(node, "cases", []):
            out += _scope_nodes(case.body)
    return out


def _bound_names(target: ast.expr, receiver: str | None) -> list[str]:
    if isinstance(target, ast.Tuple | ast.List):
        return [n for e in target.elts for n in _bound_names(e, receiver)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value, receiver)
    if receiver is None:
        return [target.id] if isinstance(target, ast.Name) else []
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == receiver
    ):
        return [target.attr]
    return []


def _assigned(nodes: list[ast.stmt], receiver: str | None = None) -> dict[str, int]:
    """Each name the statements bind, with the first line that binds it."""
    names: dict[str, int] = {}
    for node in nodes:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for name in _bound_names(target, receiver):
                names[name] = min(names.get(name, node.lineno), node.lineno)
    return names


def ast_attributes(tree: ast.Module) -> list[tuple[str, int]]:
    """Attributes as docgen documents them, with their lines: what a module or class
    body assigns (and a class's own `__init__` sets on its first parameter), less what
    the same scope binds by def, class or import, and `__all__`; one per scope and
    name, at its first binding."""
    found: list[tuple[str, int]] = []
    scopes: list[tuple[list[ast.stmt], bool]] = [(tree.body, False)]
    seen: set[int] = set()
    while scopes:
        body, is_class = scopes.pop()
        nodes = _scope_nodes(body)
        other = {n.name for n in nodes if isinstance(n, _DEFS)}
        for n in nodes:
            if isinstance(n, ast.Import | ast.ImportFrom):
                other.update(a.asname or a.name.split(".")[0] for a in n.names)
        assigned = _assigned(nodes)
        own = {k: v for k, v in assigned.items() if k not in other and k != "__all__"}
        found += own.items()
        init: dict[str, int] = {}
        for n in nodes:
            if is_class and isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
                params = [*n.args.posonlyargs, *n.args.args]
                if n.name == "__init__" and params:
                    for k, v in _assigned(_scope_nodes(n.body), params[0].arg).items():
                        init[k] = min(init.get(k, v), v)
        found += [(k, v) for k, v in init.items() if k not in assigned and k not in other]
        for node in ast.walk(ast.Module([n for n in nodes if isinstance(n, _DEFS)], [])):
            if isinstance(node, ast.ClassDef) and id(node) not in seen:
                seen.add(id(node))
                scopes.append((node.body, True))
    return found


def ast_expectation(data: bytes) -> Expected | str:
    """What the keyword page should list, from Python's own parser; a string says why not."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"
    classes: set[str] = set()
    functions: set[str] = set()
    imports: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            classes.add(node.name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.add(node.name)
        elif isinstance(node, ast.Import):
            # the module, and the name the statement binds (`import a.b` binds `a`)
            imports.update(alias.name for alias in node.names)
            imports.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module:
                imports.add("." * node.level + node.module)
            imports.update(alias.name for alias in node.names if alias.name != "*")
            imports.update(alias.asname for alias in node.names if alias.asname)
    attributes = frozenset(name for name, _ in ast_attributes(tree))
    return Expected(frozenset(classes), frozenset(functions), frozenset(imports), attributes)


def _fmt(names: set[str] | frozenset[str], limit: int = 8) -> str:
    shown = sorted(names)
    text = ", ".join(shown[:limit])
    return text + (f", … (+{len(shown) - limit})" if len(shown) > limit else "")


def check_ast(tree: Tree, show: int) -> Result:
    python = [p for p in tree.documented if p.endswith(".py")]
    compared = differing = 0
    not_parsed_by_ast: list[str] = []
    not_parsed_by_docgen: list[str] = []
    missing_pages: list[str] = []
    details: list[str] = []
    for path in python:
        try:
            data = (tree.repo / path).read_bytes()
        except OSError as exc:
            not_parsed_by_ast.append(f"{path}: unreadable: {exc.strerror}")
            continue
        expected = ast_expectation(data)
        if isinstance(expected, str):
            not_parsed_by_ast.append(f"{path}: {expected}")
            continue
        kw = read_text(tree.out / (path + KW_SUFFIX))
        if kw is None:
            missing_pages.append(path)
            continue
        compared += 1
        docs = read_text(tree.out / (path + DOCS_SUFFIX)) or ""
        parsed = _PARSED_LINE.search(docs)
        # "yes", or "yes, by Python's own parser (`ast`)" where libcst could not read it
        if parsed and parsed.group(1).split(",")[0].strip() != "yes":
            not_parsed_by_docgen.append(path)
        bullets = kw_bullets(kw)
        diffs = []
        for group in GROUPS:
            found = {b.name for b in bullets[group]}
            want = expected.group(group)
            if found != want:
                parts = []
                if want - found:
                    parts.append(f"missing {_fmt(want - found)}")
                if found - want:
                    parts.append(f"extra {_fmt(found - want)}")
                diffs.append(f"{group}: " + "; ".join(parts))
        if diffs:
            differing += 1
            if len(details) < show:
                details.append(f"{path}: " + " | ".join(diffs))
    details += [f"ast cannot parse {line}" for line in not_parsed_by_ast[:show]]
    details += [f"docgen says Parsed: no, ast parses it: {p}" for p in not_parsed_by_docgen[:show]]
    details += [f"no keyword page: {p}" for p in missing_pages[:show]]
    ok = differing == 0 and not missing_pages and not not_parsed_by_docgen
    summary = (
        f"{compared} .py files compared, {differing} differ; "
        f"{len(not_parsed_by_ast)} not parseable by ast {sys.version_info.major}."
        f"{sys.version_info.minor}; {len(not_parsed_by_docgen)} unparsed by docgen only; "
        f"{len(missing_pages)} without a keyword page"
    )
    return Result("1 keywords = ast", ok, summary, details)


# ------------------------------------------------------------------ 2: links


def check_anchors(tree: Tree, show: int) -> Result:
    """Each class/function bullet links to headings of its own docs page that exist,
    whose slug holds the name, and no two definitions share a heading; each attribute
    bullet to its class's heading or the Module attributes heading."""
    checked = attributes = 0
    bad: list[str] = []
    anchors: dict[str, frozenset[str] | None] = {}
    for path in tree.documented:
        kw_rel = path + KW_SUFFIX
        docs_rel = path + DOCS_SUFFIX
        kw = read_text(tree.out / kw_rel)
        if kw is None:
            continue
        if docs_rel not in anchors:
            docs = read_text(tree.out / docs_rel)
            anchors[docs_rel] = None if docs is None else linkcheck.heading_anchors(docs)
        found = anchors[docs_rel]
        groups = kw_bullets(kw)
        used: dict[str, str] = {}
        for bullet in groups["classes"] + groups["functions"]:
            checked += 1
            where = f"{kw_rel}:{bullet.line}: `{bullet.name}`"
            targets = []
            for match in _LINK.finditer(bullet.rest):
                written, _, fragment = match.group(1).partition("#")
                target = posixpath.normpath(
                    posixpath.join(posixpath.dirname(kw_rel), unquote(written))
                )
                if target.endswith(DOCS_SUFFIX):  # the others are source line links
                    targets.append((target, unquote(fragment)))
            if not targets:
                bad.append(f"{where}: no link to a docs page")
            for target, fragment in targets:
                if target != docs_rel:
                    bad.append(f"{where}: links to {target}, not its docs page")
                elif found is None:
                    bad.append(f"{where}: docs page {target} missing")
                elif not fragment:
                    bad.append(f"{where}: link has no anchor")
                elif fragment not in found:
                    bad.append(f"{where}: no heading #{fragment} on {target}")
                elif bullet.name.lower() not in fragment:
                    bad.append(f"{where}: heading #{fragment} does not name it")
                elif fragment in used:
                    bad.append(f"{where}: heading #{fragment} also taken by `{used[fragment]}`")
                else:
                    used[fragment] = bullet.name
        for bullet in groups["attributes"]:
            attributes += 1
            where = f"{kw_rel}:{bullet.line}: attribute `{bullet.name}`"
            for match in _LINK.finditer(bullet.rest):
                written, _, raw = match.group(1).partition("#")
                if not written.endswith(DOCS_SUFFIX):
                    continue
                anchor = unquote(raw)
                if found is None or anchor not in found:
                    bad.append(f"{where}: no heading #{anchor} on {docs_rel}")
                elif anchor != "module-attributes" and not anchor.startswith("class-"):
                    bad.append(f"{where}: #{anchor} is neither its class nor Module attributes")
    summary = (
        f"{checked} class/function bullets, {attributes} attribute bullets, {len(bad)} problems"
    )
    return Result("2a kw bullet anchors", not bad, summary, bad[:show])


def count_links(out: Path) -> int | None:
    """How many links check_links reads; uses linkcheck's private parser, so may vanish."""
    parser = getattr(linkcheck, "_parser", None)
    parse = getattr(linkcheck, "_parse", None)
    pages = getattr(linkcheck, "_all_pages", None)
    if parser is None or parse is None or pages is None:
        return None
    md = parser()
    total = 0
    for page in pages(str(out.resolve())):
        text = read_text(Path(page))
        if text is not None:
            total += len(parse(md, text).links)
    return total


def check_all_links(tree: Tree, show: int, count: bool) -> Result:
    broken = linkcheck.check_links(tree.out, tree.repo)
    pages = sum(1 for p in tree.pages if p.endswith(".md"))
    links = count_links(tree.out) if count else None
    counted = "n/a" if links is None else f"{links:,}"
    summary = f"{pages} pages, {counted} links checked, {len(broken)} broken"
    return Result(
        "2b check_links",
        not broken,
        summary,
        [linkcheck.format_broken(b) for b in broken[:show]],
    )


# ------------------------------------------------------------------ 3: layout


def check_layout(tree: Tree, show: int) -> Result:
    pages = set(tree.pages)
    problems: list[str] = []
    of_pages = [p for p in tree.pages if "_docs.md_" in p or "_kw.md_" in p]
    problems += [f"a page documents a page: {p}" for p in of_pages]
    for page in tree.pages:
        if page.endswith((DOCS_SUFFIX, KW_SUFFIX)):
            source = front_matter(read_text(tree.out / page) or "").get("source", "")
            if source.rstrip('"').endswith((DOCS_SUFFIX, KW_SUFFIX)):
                problems.append(f"front matter source is a page: {page} ({source})")
    missing = [
        page
        for path in tree.documented
        for page in (path + DOCS_SUFFIX, path + KW_SUFFIX)
        if page not in pages
    ]
    problems += [f"missing page: {p}" for p in missing]
    folders = sorted({folder for path in tree.sources for folder in parent_folders(path)})
    missing_folder_pages = [
        page
        for folder in folders
        for page in (posixpath.join(folder, FOLDER_INDEX), posixpath.join(folder, FOLDER_DOC))
        if page.lstrip("/") not in pages
    ]
    problems += [f"missing folder page: {p}" for p in missing_folder_pages]
    expected = {p + s for p in tree.documented for s in (DOCS_SUFFIX, KW_SUFFIX)}
    expected |= {
        posixpath.join(f, n).lstrip("/") for f in folders for n in (FOLDER_INDEX, FOLDER_DOC)
    }
    repo_wide: dict[str, int] = {}
    strays = []
    for page in sorted(pages - expected):
        kind = repo_wide_kind(tree.out, page)
        if kind is None:
            strays.append(page)
        else:
            repo_wide[kind] = repo_wide.get(kind, 0) + 1
    problems += [f"page for nothing documented: {p}" for p in strays]
    wide = ", ".join(f"{n} {kind}" for kind, n in sorted(repo_wide.items())) or "none"
    summary = (
        f"{len(tree.sources)} files ({len(tree.documented)} documented), {len(folders)} folders, "
        f"repo-wide pages: {wide}; {len(of_pages)} pages of pages, {len(missing)} missing "
        f"file pages, {len(missing_folder_pages)} missing folder pages, {len(strays)} stray pages"
    )
    return Result("3 page layout", not problems, summary, problems[:show])


def repo_wide_kind(out: Path, page: str) -> str | None:
    """The kind of a page about the whole repository (`keywords-a.md`), else None.

    Such a page sits at the top of OUT, is docgen's (by its front matter) and
    documents the root (`source: "."`) with a kind no file or folder has.
    """
    if "/" in page or not page.endswith(".md"):
        return None
    front = front_matter(read_text(out / page) or "")
    try:
        source = json.loads(front.get("source", "null"))
        kind = json.loads(front.get("kind", "null"))
        generator = json.loads(front.get("generator", "null"))
    except json.JSONDecodeError:
        return None
    if source != "." or not isinstance(kind, str) or kind in FILE_AND_FOLDER_KINDS:
        return None
    return kind if isinstance(generator, str) and generator.startswith("docgen") else None


def check_modes(tree: Tree, show: int) -> Result:
    """Pages should be as readable as any file the user writes (umask), not owner-only."""
    umask = os.umask(0)
    os.umask(umask)
    wanted = 0o666 & ~umask
    odd = []
    for page in tree.pages:
        try:
            mode = (tree.out / page).stat().st_mode & 0o777
        except OSError:
            continue
        if mode != wanted:
            odd.append(f"{page}: {mode:o} (umask {umask:03o} gives {wanted:o})")
    summary = f"{len(odd)} of {len(tree.pages)} files not {wanted:o}"
    return Result("3b page modes", True, summary, odd[:show], warn=bool(odd))


# ------------------------------------------------------------------ 4: labels


def check_labels(tree: Tree, labels_file: Path, show: int) -> Result:
    try:
        labels = json.loads(labels_file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        return Result("4 labels", False, f"cannot read {labels_file}: {exc}")
    if not isinstance(labels, dict):
        return Result("4 labels", False, f"{labels_file}: not a JSON object of path -> tags")
    bad = []
    for path, want in sorted(labels.items()):
        docs = read_text(tree.out / (path + DOCS_SUFFIX))
        kw = read_text(tree.out / (path + KW_SUFFIX))
        if docs is None or kw is None:
            bad.append(f"{path}: no pages")
            continue
        tags, kw_tags = front_tags(docs), front_tags(kw)
        if tags != kw_tags:
            bad.append(f"{path}: docs page tags {tags} != keyword page tags {kw_tags}")
        if tags is None or sorted(tags) != sorted(want):
            extra = sorted(set(tags or ()) - set(want))
            lost = sorted(set(want) - set(tags or ()))
            bad.append(
                f"{path}: tags {tags}, expected {sorted(want)} (extra {extra}, missing {lost})"
            )
    summary = f"{len(labels)} labelled files, {len(bad)} mismatches"
    return Result("4 labels", not bad, summary, bad[:show])


# ------------------------------------------------------------------ 5: determinism


def _walk_files(root: Path) -> set[str]:
    return set(output_files(root))


def _first_difference(a: Path, b: Path) -> str:
    left = read_text(a) or ""
    right = read_text(b) or ""
    for number, (x, y) in enumerate(zip(left.split("\n"), right.split("\n"), strict=False), 1):
        if x != y:
            return f"line {number}: {x[:80]!r} vs {y[:80]!r}"
    return "one is a prefix of the other"


def check_twice(tree: Tree, show: int) -> Result:
    """Rebuild with one worker beside OUT (so relative links to REPO are the same)."""
    out = tree.out.resolve()
    if tree.repo.resolve() in out.parents:
        note = "OUT is inside REPO: a second build beside it would document the first"
        return Result("5 determinism", None, note)
    second = Path(tempfile.mkdtemp(prefix=f".{out.name}.twice-", dir=out.parent))
    try:  # a sibling of OUT: the same depth, so the same relative links to REPO
        command = [sys.executable, "-m", "docgen", "build", str(tree.repo), "--out", str(second)]
        started = time.perf_counter()
        run = subprocess.run([*command, "-j", "1", "-q"], capture_output=True, text=True)
        took = time.perf_counter() - started
        if run.returncode != 0:
            return Result("5 determinism", False, f"second build failed: {run.stderr[-500:]}")
        first, again = _walk_files(out), _walk_files(second)
        only_first, only_second = sorted(first - again), sorted(again - first)
        differ = [
            p for p in sorted(first & again) if not filecmp.cmp(out / p, second / p, shallow=False)
        ]
        details = [f"only in OUT: {p}" for p in only_first[:show]]
        details += [f"only in rebuild: {p}" for p in only_second[:show]]
        details += [
            f"differs: {p}: {_first_difference(out / p, second / p)}" for p in differ[:show]
        ]
        ok = not (only_first or only_second or differ)
        summary = (
            f"rebuild -j 1 in {took:.1f}s: "
            + (
                "identical"
                if ok
                else f"{len(differ)} differ, {len(only_first)} only in OUT, "
                f"{len(only_second)} only in rebuild"
            )
            + f" ({len(first)} files compared)"
        )
        return Result("5 determinism", ok, summary, details)
    finally:
        shutil.rmtree(second, ignore_errors=True)


# ------------------------------------------------------------------ 6: leaks


def searchable(text: str) -> str:
    """The page without its own scaffolding (headings outside code, fence lines).

    Those lines are docgen's, so an outside file that happens to contain
    `## File Purpose` (docgen's README does) leaks nothing; a leaked source line
    would sit inside a fence, in inline code or in prose, and stays searchable.
    """
    kept = [
        line
        for _, line, where in page_lines(text)
        if where == "code" or (where == "text" and not _HEADING.match(line))
    ]
    return "\n".join(kept)


_WORD = re.compile(r"\w+")


def _interior_words(needle: str) -> set[str]:
    """Words of a line that are whole wherever the line occurs (not its first or last)."""
    return set(_WORD.findall(needle)[1:-1])


def page_source(page: str) -> str | None:
    for suffix in (DOCS_SUFFIX, KW_SUFFIX):
        if page.endswith(suffix):
            return page[: -len(suffix)]
    return None


class WordIndex:
    """Which texts hold which words, to search a line only where it can be."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self.words = {name: set(_WORD.findall(text)) for name, text in texts.items()}
        self.holders: dict[str, set[str]] = {}
        for name, words in self.words.items():
            for word in words:
                self.holders.setdefault(word, set()).add(name)

    def containing(self, line: str) -> list[str]:
        """Names of the texts that contain `line`, sorted."""
        interior = sorted(_interior_words(line), key=lambda w: len(self.holders.get(w, ())))
        if interior:
            names = set(self.holders.get(interior[0], ()))
            for word in interior[1:]:
                names &= self.holders.get(word, set())
        else:
            names = set(self.texts)
        return sorted(name for name in names if line in self.texts[name])


def check_outside(tree: Tree, outside: list[Path], show: int) -> Result:
    """Lines of files outside REPO must not show up on any page.

    A line that also occurs in a documented file of REPO may be quoted from
    there legitimately, so it is set aside.  A hit on a file's own page whose
    words all occur in that file is docgen re-assembling the file's text (a
    multi-line signature or import folded onto one line), listed but not failed.
    """
    needles: dict[str, str] = {}
    for path in outside:
        text = read_text(path)
        if text is None:
            return Result("6 leaks", False, f"cannot read {path}")
        for line in text.splitlines():
            stripped = line.strip()
            if len(stripped) >= MIN_LEAK_LINE:
                needles.setdefault(stripped, str(path))
    sources = WordIndex({p: read_text(tree.repo / p) or "" for p in tree.documented})
    pages = WordIndex({p: searchable(read_text(tree.out / p) or "") for p in tree.pages})
    shared = 0
    leaks: list[str] = []
    folded: list[str] = []
    for needle, where in needles.items():
        if sources.containing(needle):
            shared += 1
            continue
        for page in pages.containing(needle):
            hit = f"{page}: {needle[:70]!r} from {where}"
            source = page_source(page)
            if source in sources.words and set(_WORD.findall(needle)) <= sources.words[source]:
                folded.append(hit)
            else:
                leaks.append(hit)
    leaks.sort()
    folded.sort()
    summary = (
        f"{len(outside)} files, {len(needles)} lines > 8 chars "
        f"({shared} also in REPO, ignored); {len(leaks)} leaked lines, "
        f"{len(folded)} explained by the page's own source"
    )
    details = leaks[:show] + [f"explained: {hit}" for hit in folded[:show]]
    return Result("6 leaks", not leaks, summary, details, warn=bool(folded))


# ------------------------------------------------------------------ main


def timed(run: Callable[[], Result]) -> Result:
    started = time.perf_counter()
    result = run()
    result.seconds = time.perf_counter() - started
    return result


def verdict(result: Result) -> str:
    if result.ok is None:
        return "SKIP"
    if not result.ok:
        return "FAIL"
    return "WARN" if result.warn else "ok"


def table(results: list[Result]) -> Iterator[str]:
    width = max(len(r.name) for r in results)
    yield f"{'check':<{width}}  result  time    summary"
    yield f"{'-' * width}  ------  ------  -------"
    for r in results:
        yield f"{r.name:<{width}}  {verdict(r):<6}  {r.seconds:5.1f}s  {r.summary}"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Check a docgen build of REPO in OUT against ast, links and the file system."
    )
    parser.add_argument("repo", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--labels", type=Path, help="JSON object: path -> expected tag list")
    parser.add_argument("--twice", action="store_true", help="rebuild with -j 1 and compare")
    parser.add_argument(
        "--outside",
        type=Path,
        nargs="+",
        default=[],
        metavar="PATH",
        help="files outside REPO whose lines must not appear on any page",
    )
    parser.add_argument("--show", type=int, default=5, help="details shown per check")
    parser.add_argument(
        "--no-count-links",
        action="store_true",
        help="skip counting links (a second parse of every page)",
    )
    return parser.parse_args(argv)


# --- 7: imported-by = the import rule, computed here independently with ast ----------


def rule_modules(py_files: list[str]) -> dict[str, str]:
    """Dotted module -> file, with the repository root and src/ on sys.path (in that order;
    within one root a package's __init__.py beats a module of the same name)."""
    modules: dict[str, str] = {}
    for root in ("", "src"):
        found: dict[str, str] = {}
        for path in sorted(py_files):
            if root and not path.startswith(root + "/"):
                continue
            rel = path[len(root) + 1 :] if root else path
            parts = rel[: -len(".py")].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if not parts or not all(p.isidentifier() for p in parts):
                continue
            name = ".".join(parts)
            if name not in found or path.endswith("/__init__.py"):
                found[name] = path
        for name, path in found.items():
            modules.setdefault(name, path)
    return modules


def rule_edges(repo: Path, py_files: list[str]) -> dict[str, set[str]]:
    """importer -> imported files, by the documented rule."""
    modules = rule_modules(py_files)
    names = {path: name for name, path in modules.items()}
    edges: dict[str, set[str]] = {}
    for path in py_files:
        text = read_text(repo / path)
        try:
            tree = ast.parse(text or "")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        own = names.get(path)
        if own is None:
            parts = path[: -len(".py")].split("/")
            own = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = own if path.endswith("__init__.py") else own.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        found.add(modules[alias.name])
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package.split(".") if package else []
                    if node.level - 1 > len(base_parts):
                        continue
                    base = base_parts[: len(base_parts) - (node.level - 1)]
                    if node.module:
                        base.append(node.module)
                    p_name = ".".join(base)
                else:
                    p_name = node.module or ""
                for alias in node.names:
                    sub = modules.get(f"{p_name}.{alias.name}") if alias.name != "*" else None
                    target = sub or modules.get(p_name)
                    if target:
                        found.add(target)
        found.discard(path)
        edges[path] = found
    return edges


IMPORTER_LINK = re.compile(r"^- \[`([^`]+)`\]\(")


def page_importers(out: Path, path: str) -> set[str] | None:
    text = read_text(out / (path + "_docs.md"))
    if text is None:
        return None
    if "### Imported by" not in text:
        return set()
    section = text.split("### Imported by", 1)[1].split("\n## ", 1)[0]
    return {m.group(1) for line in section.splitlines() if (m := IMPORTER_LINK.match(line))}


def check_imported_by(tree: Tree, show: int) -> Result:
    py_files = [p for p in tree.documented if p.endswith(".py")]
    edges = rule_edges(tree.repo, py_files)
    expected: dict[str, set[str]] = {p: set() for p in py_files}
    for importer, targets in edges.items():
        for target in targets:
            expected[target].add(importer)
    # Files this Python cannot parse (newer syntax) have unknown imports here; docgen's
    # libcst may well read them, so their edges are left out of the comparison.
    unknown = set(py_files) - set(edges)
    bad = []
    total = 0
    for path in sorted(py_files):
        shown = page_importers(tree.out, path)
        if shown is not None:
            shown -= unknown
        total += len(expected[path])
        if shown != expected[path]:
            missing = sorted(expected[path] - (shown or set()))[:3]
            extra = sorted((shown or set()) - expected[path])[:3]
            bad.append(f"{path}: missing {missing} extra {extra}")
    summary = (
        f"{len(py_files)} files, {total} import edges by the rule, {len(bad)} pages differ"
        f" ({len(unknown)} files this Python cannot parse left out as importers)"
    )
    return Result("7 imported-by = rule", not bad, summary, bad[:show])


def check_find(tree: Tree, show: int) -> Result:
    """`docgen find NAME` lists every definition and attribute an ast walk finds, for
    sampled names
    (its C-family answers, of a tree with headers, are checked against ctags instead)."""
    expected: dict[str, set[tuple[str, int]]] = {}
    for path in tree.documented:
        if not path.endswith((".py", ".pyi")):  # stubs are documented and indexed too
            continue
        try:
            parsed = ast.parse(read_text(tree.repo / path) or "")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(parsed):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                expected.setdefault(node.name, set()).add((path, node.lineno))
        for name, at in ast_attributes(parsed):
            expected.setdefault(name, set()).add((path, at))
    names = sorted(expected)[:: max(1, len(expected) // 40)]
    bad = []
    slowest = 0.0
    for name in names:
        started = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "docgen", "find", name, "--out", str(tree.out)],
            capture_output=True,
            text=True,
            check=False,
        )
        slowest = max(slowest, time.perf_counter() - started)
        got = set()
        for line in run.stdout.splitlines():
            where = line.split(": ", 1)[0]
            file, _, number = where.rpartition(":")
            if file.endswith((".py", ".pyi")):
                got.add((file, int(number)))
        if got != expected[name]:
            missing, extra = sorted(expected[name] - got)[:3], sorted(got - expected[name])[:3]
            bad.append(f"{name}: missing {missing} extra {extra}")
    summary = f"{len(names)} sampled names, {len(bad)} differ; slowest `docgen find` {slowest:.2f}s"
    return Result("8 docgen find", not bad, summary, bad[:show])


# ------------------------------------------------------------------ 9, 10: page content


def page_section(text: str, title: str) -> str:
    """The body of the level-2 section `title`, found by real headings (a `## ` line
    inside a fenced block, such as an embedded docstring, is not one)."""
    lines = text.split("\n")
    fence = ""
    start = None
    for number, line in enumerate(lines):
        stripped = line.lstrip(" ")
        if fence:
            if stripped.startswith(fence) and not stripped[len(fence) :].strip(fence[0] + " "):
                fence = ""
            continue
        opening = re.match(r"(`{3,}|~{3,})", stripped)
        if opening and len(line) - len(stripped) < 4:
            fence = opening.group(1)
            continue
        if line.startswith("## "):
            if start is not None:
                return "\n".join(lines[start:number])
            if line[3:].strip() == title:
                start = number + 1
    return "\n".join(lines[start:]) if start is not None else ""


def ast_definitions(tree: ast.Module) -> set[tuple[str, str]]:
    """(kind, qualname) of every class and function, as Python's own parser sees them."""
    found: set[tuple[str, str]] = set()
    stack: list[tuple[ast.AST, str, bool]] = [(tree, "", False)]
    while stack:
        node, prefix, in_class = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = prefix + child.name
                found.add(("class", name))
                stack.append((child, name + ".", True))
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                found.add(("method" if in_class else "function", name))
                stack.append((child, name + ".", False))
            else:
                stack.append((child, prefix, in_class))
    return found


_DEFINITION_HEADING = re.compile(r"^#{3,6} (class|function|method) `([^`]+)`$", re.MULTILINE)


def check_detailed(tree: Tree, show: int) -> Result:
    """Every class and function of a parsed .py file has its heading in Detailed Analysis."""
    pages = missing = 0
    details: list[str] = []
    for path in (p for p in tree.documented if p.endswith(".py")):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                parsed = ast.parse((tree.repo / path).read_bytes())
        except (SyntaxError, ValueError, RecursionError, MemoryError, OSError):
            continue
        want = ast_definitions(parsed)
        if not want:
            continue
        docs = read_text(tree.out / (path + DOCS_SUFFIX)) or ""
        section = page_section(docs, "Detailed Analysis")
        have = set(_DEFINITION_HEADING.findall(section))
        pages += 1
        lacking = want - have
        if lacking:
            missing += 1
            if len(details) < show:
                names = sorted(f"{k} {q}" for k, q in lacking)
                details.append(f"{path}: missing {', '.join(names[:5])}")
    summary = f"{pages} pages of files with definitions, {missing} lack a definition"
    return Result("9 detailed analysis", missing == 0, summary, details)


_SECURITY_LINE = re.compile(r"^- \[L(\d+)\]\(", re.MULTILINE)


def expected_risks(parsed: ast.Module) -> set[int]:
    """Lines an independent, deliberately simple reading must flag: `pickle.load(s)` and
    `torch.load` without `weights_only=True` under a plain `import pickle` / `import
    torch`, and the builtin `eval`/`exec` of something other than a string literal."""
    imported = {
        a.asname or a.name for n in ast.walk(parsed) if isinstance(n, ast.Import) for a in n.names
    }
    bound = {
        n.name
        for n in ast.walk(parsed)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    bound |= {
        a.asname or a.name
        for n in ast.walk(parsed)
        if isinstance(n, ast.ImportFrom)
        for a in n.names
    }
    lines: set[int] = set()
    for node in ast.walk(parsed):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner, attr = func.value.id, func.attr
            if owner == "pickle" and "pickle" in imported and attr in ("load", "loads"):
                lines.add(func.end_lineno or node.lineno)
            if owner == "torch" and "torch" in imported and attr == "load":
                safe = any(
                    k.arg == "weights_only"
                    and isinstance(k.value, ast.Constant)
                    and k.value.value is True
                    for k in node.keywords
                )
                if not safe:
                    lines.add(func.end_lineno or node.lineno)
        elif isinstance(func, ast.Name) and func.id in ("eval", "exec") and func.id not in bound:
            first = node.args[0] if node.args else None
            literal = isinstance(first, ast.Constant) and isinstance(first.value, (str, bytes))
            if first is not None and not literal:
                lines.add(node.lineno)
    return lines


def check_security(tree: Tree, show: int) -> Result:
    """The Security & Safety section flags at least what a simple independent reading
    finds; what it flags beyond that is listed for a reader to judge."""
    expected_total = missed = extra = 0
    details: list[str] = []
    extras: list[str] = []
    for path in (p for p in tree.documented if p.endswith(".py")):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                parsed = ast.parse((tree.repo / path).read_bytes())
        except (SyntaxError, ValueError, RecursionError, MemoryError, OSError):
            continue
        want = expected_risks(parsed)
        docs = read_text(tree.out / (path + DOCS_SUFFIX)) or ""
        section = page_section(docs, "Security & Safety")
        have = {int(n) for n in _SECURITY_LINE.findall(section)}
        expected_total += len(want)
        if want - have:
            missed += len(want - have)
            if len(details) < show:
                details.append(f"{path}: not flagged at lines {sorted(want - have)}")
        for line in sorted(have - want):
            extra += 1
            extras.append(f"{path}:{line}")
    details += [f"flagged beyond the simple reading (judge by eye): {x}" for x in extras[:show]]
    summary = (
        f"{expected_total} risky calls by the simple reading, {missed} not flagged; "
        f"{extra} further findings (aliases, other kinds)"
    )
    return Result("10 security findings", missed == 0, summary, details)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    repo, out = args.repo.resolve(), args.out.resolve()
    if not repo.is_dir() or not out.is_dir():
        print(f"verify: REPO and OUT must be folders: {repo}, {out}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    tree = load_tree(repo, out)
    print(
        f"verify: {repo} -> {out}: {len(tree.sources)} files, {len(tree.pages)} output files "
        f"(discovery {time.perf_counter() - started:.1f}s)"
    )
    checks: list[Callable[[], Result]] = [
        lambda: check_ast(tree, args.show),
        lambda: check_anchors(tree, args.show),
        lambda: check_all_links(tree, args.show, not args.no_count_links),
        lambda: check_layout(tree, args.show),
        lambda: check_modes(tree, args.show),
        lambda: check_imported_by(tree, args.show),
        lambda: check_find(tree, args.show),
        lambda: check_detailed(tree, args.show),
        lambda: check_security(tree, args.show),
    ]
    if args.labels:
        checks.append(lambda: check_labels(tree, args.labels, args.show))
    if args.twice:
        checks.append(lambda: check_twice(tree, args.show))
    if args.outside:
        checks.append(lambda: check_outside(tree, args.outside, args.show))
    results = []
    for check in checks:
        result = timed(check)
        results.append(result)
        if result.details:
            print(f"\n== {result.name}: {verdict(result)}")
            for line in result.details:
                print(f"  {line}")
    print()
    for line in table(results):
        print(line)
    return 1 if any(r.ok is False for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
