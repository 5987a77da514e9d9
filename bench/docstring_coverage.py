"""How much of each docstring a build's docs pages show, read independently of docgen.

Usage:
    python bench/docstring_coverage.py TREE OUT [--worst N]

Every Python file of TREE is read with `ast`; each docstring of a module, class or
function is cut into words (letters and digits; reST role and directive names,
field markers such as `:param`, and section titles on their own line, such as
`Args:`, left out: they are markup, not words); a word counts as shown when the definition's
section of `OUT/<path>_docs.md` (from its heading to the next heading) holds it,
Markdown's escapes undone, case ignored.  Prints the share of words shown and how
many definitions show every word of their docstring.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

WORD = re.compile(r"[A-Za-z0-9]+")
MARKUP = re.compile(
    r":[A-Za-z][\w.+-]*(?::[\w.+-]+)?:(?=`)"  # a role's name
    r"|^\s*\.\. [\w:-]+::"  # a directive's name
    r"|^\s*:(?:param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?"
    r"|except|exception|yields?|ytype|var|ivar|cvar|vartype)\b"  # a field list's marker
    # a section's title on its own line (`Args:`, NumPy's `Notes` over dashes), which a
    # page shows as its table's or its alert's title
    r"|^\s*(?:Args|Arguments|Keyword Args|Keyword Arguments|Kwargs|Parameters|Params"
    r"|Other Parameters|Returns?|Yields?|Raises?|Examples?|Notes?|Warnings?|See Also"
    r"|Attributes|Todo|References)\s*:{0,2}\s*(?:\n\s*-{3,})?$",
    re.M | re.I,
)
HEADING = re.compile(r"^(#{1,6}) (\S+) `(.+)`\s*$")
ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def docstrings(tree: ast.Module) -> Iterator[tuple[str, str]]:
    """(qualname, docstring) of every class and function, "" for the module's."""
    module = ast.get_docstring(tree, clean=True)
    if module:
        yield "", module

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                doc = ast.get_docstring(child, clean=True)
                if doc:
                    yield name, doc
                yield from walk(child, name + ".")
            elif isinstance(child, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                yield from walk(child, prefix)

    yield from walk(tree, "")


def sections(page: str) -> dict[str, str]:
    """Each definition's section by qualname ("" for the page before the first one)."""
    found: dict[str, list[str]] = {"": []}
    current = ""
    for line in page.splitlines():
        match = HEADING.match(line)
        if match and match.group(2) in {"class", "function", "method"}:
            current = match.group(3)
            found.setdefault(current, [])
            continue
        if line.startswith("#"):
            current = "" if line.startswith("## ") else current
        found.setdefault(current, []).append(line)
    return {k: "\n".join(v) for k, v in found.items()}


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(MARKUP.sub(" ", text))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--worst", type=int, default=5)
    args = parser.parse_args(argv)
    total = shown = definitions = whole = 0
    worst: list[tuple[float, str, str]] = []
    for source in sorted(args.tree.rglob("*.py")):
        rel = source.relative_to(args.tree).as_posix()
        page_file = args.out / f"{rel}_docs.md"
        try:
            tree = ast.parse(source.read_bytes())
        except (SyntaxError, ValueError):
            continue
        if not page_file.exists():
            continue
        by_name = sections(page_file.read_text(encoding="utf-8"))
        for qualname, doc in docstrings(tree):
            wanted = words(doc)
            if not wanted:
                continue
            section = by_name.get(qualname)
            have = set(words(ESCAPE.sub(r"\1", section))) if section is not None else set()
            hits = sum(1 for w in wanted if w in have)
            total += len(wanted)
            shown += hits
            definitions += 1
            whole += hits == len(wanted)
            if hits < len(wanted):
                worst.append((hits / len(wanted), rel, qualname or "(module)"))
    if not total:
        print("no docstring found", file=sys.stderr)
        return 1
    print(f"words shown: {shown:,} of {total:,} ({100 * shown / total:.2f} %)")
    print(
        f"docstrings shown whole: {whole:,} of {definitions:,} ({100 * whole / definitions:.2f} %)"
    )
    for share, rel, qualname in sorted(worst)[: args.worst]:
        print(f"  {100 * share:5.1f} %  {rel}  {qualname}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
