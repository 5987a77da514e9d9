"""What the sections of a docs page say, on a small repository with known answers:
security findings on their lines and none elsewhere, run commands only for tests,
docstring tables, usage examples, patterns, and where Markdown links lead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docgen.build import build
from docgen.cli.build_options import resolve_options
from docgen.site.linkcheck import check_links, format_broken

FILES = {
    "pkg/__init__.py": (
        '"""The package."""\n\nfrom pkg.core import Engine\n\n__all__ = ["Engine"]\n'
    ),
    "pkg/core.py": '''"""Core engine: loads models and runs them.

More words about the engine.
"""

import pickle
import subprocess
import yaml
from dataclasses import dataclass

import torch


@dataclass
class Settings:
    """Settings of an engine."""

    depth: int = 1


class Engine:
    """Runs a model.

    Args:
        path (str): where the model lives.
        retries (int, optional): how often to try | at most.

    Returns:
        Engine: a ready engine.

    Raises:
        ValueError: when the path is empty.

    Example:
        >>> engine = Engine("model.pt")
        >>> engine.run()
    """

    def __init__(self, path, retries=1):
        self.model = torch.load(path)
        self.safe = torch.load(path, weights_only=True)

    def run(self, command):
        subprocess.run(command, shell=True)
        return pickle.loads(command)

    def evaluate(self, text):
        """Not the builtin eval: no finding."""
        return yaml.safe_load(text)


def stream(batches):
    for batch in batches:
        yield batch.item()
''',
    "pkg/quiet.py": '''"""Nothing risky; eval(x) and pickle.loads are named in a docstring."""

import ast


def parse(text):
    # eval(text) would be wrong; ast.literal_eval is safe
    return ast.literal_eval(text)
''',
    "tests/test_core.py": """from pkg.core import Engine


def test_engine_runs():
    assert Engine


if __name__ == "__main__":
    test_engine_runs()
""",
    "docs/guide.md": """# Guide

## Install

See [the core](../pkg/core.py), [the package folder](../pkg/),
[install](#install), [a gone file](missing.md), [up](../../x.md),
[bad anchor](../README.md#nowhere), [readme](../README.md#readme-title) and
[the web](https://example.com/page).

```python
import pkg
```
""",
    "README.md": "# Readme title\n\nThe demo.\n",
    # libcst refuses a parenthesised annotated target; Python accepts it
    "pkg/grammar.py": "(x): int = 1\n\n\ndef kept() -> None:\n    pass\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("content")
    repo = root / "repo"
    for rel, text in FILES.items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    out = root / "out"
    build(resolve_options(repo, out, 1))
    broken = check_links(out, repo)
    assert broken == [], "\n".join(format_broken(b) for b in broken)
    return out


def section(out: Path, page: str, title: str) -> str:
    text = (out / page).read_text(encoding="utf-8")
    if f"\n## {title}\n" not in text:
        return ""
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_security_findings_appear_on_their_lines(built: Path) -> None:
    found = section(built, "pkg/core.py_docs.md", "Security & Safety")
    lines = re.findall(r"\[L(\d+)\]\([^)]*core\.py#L\1\)", found)
    assert lines == ["40", "44", "45"], found
    assert "`torch.load` without `weights_only=True`" in found
    assert "shell" in found and "`pickle.loads`" in found
    assert "L41" not in found  # weights_only=True is safe
    assert "evaluate" not in found and "safe_load" not in found


def test_a_file_with_no_findings_has_no_security_section_and_comments_do_not_count(
    built: Path,
) -> None:
    # quiet.py names `eval` and `pickle.loads` only in comments and docstrings
    assert section(built, "pkg/quiet.py_docs.md", "Security & Safety") == ""
    assert "Security & Safety" not in (built / "pkg/quiet.py_docs.md").read_text()


def test_only_python_files_get_a_security_section(built: Path) -> None:
    assert section(built, "docs/guide.md_docs.md", "Security & Safety") == ""
    assert section(built, "README.md_docs.md", "Security & Safety") == ""


def test_test_files_get_their_run_commands_and_markdown_none(built: Path) -> None:
    testing = section(built, "tests/test_core.py_docs.md", "Testing & Usage")
    assert "pytest tests/test_core.py\npython tests/test_core.py" in testing
    assert "test_engine_runs" in testing
    for page in ("docs/guide.md_docs.md", "README.md_docs.md"):
        assert section(built, page, "Testing & Usage") == ""
        assert "python docs/guide.md" not in (built / page).read_text(encoding="utf-8")


def test_a_module_names_its_tests_and_its_docstring_examples(built: Path) -> None:
    usage = section(built, "pkg/core.py_docs.md", "Testing & Usage")
    assert "[`tests/test_core.py`](../tests/test_core.py_docs.md)" in usage
    assert "Usage examples are in the docstrings of [`Engine`](#class-engine) (1)" in usage
    detailed = section(built, "pkg/core.py_docs.md", "Detailed Analysis")
    engine = detailed.split("### class `Engine`", 1)[1].split("\n### ", 1)[0]
    assert '```pycon\n>>> engine = Engine("model.pt")' in engine  # whole, with its class
    quiet = section(built, "pkg/quiet.py_docs.md", "Testing & Usage")
    assert (
        "No test file in the repository is named after this file or imports it, "
        "directly or through a module that re-exports its names." in quiet
    )


def test_the_module_docstring_leads_the_overview(built: Path) -> None:
    overview = section(built, "pkg/core.py_docs.md", "High-Level Overview")
    assert overview.strip().startswith("Core engine: loads models and runs them.")


def test_definitions_are_listed_with_their_lines_and_docstring_tables(built: Path) -> None:
    detailed = section(built, "pkg/core.py_docs.md", "Detailed Analysis")
    assert "### class `Engine`" in detailed
    assert re.search(r"Declared: `class Engine` at \[L21\]\([^)]*core\.py#L21\)", detailed)
    assert "| `path` | `str` | where the model lives. |" in detailed
    assert "| `retries` | `int, optional` | how often to try \\| at most. |" in detailed
    assert "| `ValueError` | when the path is empty. |" in detailed
    assert "Returns:\n\n| Type | Description |\n| --- | --- |\n| `Engine` | a ready engine. |" in (
        detailed
    )


def test_patterns_come_from_the_code(built: Path) -> None:
    patterns = section(built, "pkg/core.py_docs.md", "Code Patterns & Idioms")
    assert "[`Settings`](#class-settings)" in patterns.split("Generators")[0]
    assert "Dataclasses" in patterns
    assert "[`stream`](#function-stream)" in patterns
    performance = section(built, "pkg/core.py_docs.md", "Performance Considerations")
    assert "batch.item()" in performance


def test_internal_imports_link_to_their_pages(built: Path) -> None:
    deps = section(built, "tests/test_core.py_docs.md", "Dependencies")
    assert "[`pkg/core.py`](../pkg/core.py_docs.md)" in deps


def test_markdown_links_say_where_they_lead(built: Path) -> None:
    links = section(built, "docs/guide.md_docs.md", "Detailed Analysis").split("### Links", 1)[1]
    expect = {
        "`../pkg/core.py`": "resolves to [`pkg/core.py`](../pkg/core.py_docs.md)",
        "`../pkg/`": "resolves to the folder [`pkg`](../pkg/index.md)",
        "`#install`": "a heading of this file",
        "`missing.md`": "broken: no such file or folder in the repository",
        "`../../x.md`": "broken: it points outside the repository",
        "`../README.md#nowhere`": "broken: [`README.md`](../README.md_docs.md) has no heading",
        "`../README.md#readme-title`": "resolves to [`README.md`](../README.md_docs.md)",
        "`https://example.com/page`": "a web link, not checked",
    }
    for target, words in expect.items():
        line = next(x for x in links.splitlines() if f": {target} " in x)
        assert words in line, line
    languages = section(built, "docs/guide.md_docs.md", "Detailed Analysis")
    assert "`python`" in languages.split("### Code Blocks", 1)[1]


def test_a_file_only_python_parses_keeps_its_definitions_and_says_so(built: Path) -> None:
    page = (built / "pkg" / "grammar.py_docs.md").read_text(encoding="utf-8")
    assert "- Parsed: yes, by Python's own parser (`ast`): libcst could not read it\n" in page
    assert "### function `kept`" in page
    assert "[`kept`](grammar.py_docs.md#function-kept)" in (
        built / "pkg" / "grammar.py_kw.md"
    ).read_text(encoding="utf-8")
