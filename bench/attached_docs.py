"""How many of the docstrings a tree attaches at import reach the page of the name
they document (`add_docstr(torch.add, r"...")` on `torch/_C/_VariableFunctions.pyi`'s
`add`).

    python bench/attached_docs.py REPO OUT

OUT is `docgen build REPO --out OUT`.  The calls are counted twice: by a regular
expression over every `.py` file of REPO (a call's first line, at any indentation,
of `add_docstr(`, `_add_docstr(`, `add_docstr_all(` or `torch._C._add_docstr(`),
which docgen's own reading does not share, and from the pages: each attaching
file's "Docstrings attached at import" lines (linked or "defined nowhere"), and
each "Docstring attached at import by" on a definition's section.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

CALL = re.compile(r"^\s*(?:\w+\s*=\s*)?(?:torch\._C\.|_C\.)?_?add_docstr(?:_all)?\(", re.M)
LISTED = re.compile(r"^- \[L\d+\]\([^)]*\) `[^`]*`: (\[`(?P<linked>[^`]*)`\]|`(?P<bare>[^`]*)`)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    written: Counter[str] = Counter()
    for source in sorted(args.repo.rglob("*.py")):
        found = len(CALL.findall(source.read_text(encoding="utf-8", errors="replace")))
        if found:
            written[source.relative_to(args.repo).as_posix()] = found
    listed: Counter[str] = Counter()
    linked: Counter[str] = Counter()
    nowhere: Counter[str] = Counter()
    bound_only = 0  # defined nowhere, but bound to a name of the attaching module
    shown = 0
    for page in sorted(args.out.rglob("*_docs.md")):
        text = page.read_text(encoding="utf-8")
        shown += text.count("- Docstring attached at import by ")
        if "### Docstrings attached at import" not in text:
            continue
        section = text.split("### Docstrings attached at import", 1)[1].split("\n## ", 1)[0]
        path = page.relative_to(args.out).as_posix().removesuffix("_docs.md")
        for line in section.splitlines():
            match = LISTED.match(line)
            if match is None:
                continue
            listed[path] += 1
            if match["linked"]:
                linked[path] += 1
            else:
                nowhere[".".join(match["bare"].split(".")[:-1]) or match["bare"]] += 1
                bound_only += ", bound to `" in line
    print(f"calls written (regular expression): {sum(written.values()):,} in {len(written)} files")
    print(f"read by docgen (listed on the attaching pages): {sum(listed.values()):,}")
    for path, n in sorted(written.items()):
        print(f"  {path}: written {n}, read {listed[path]}, linked {linked[path]}")
    print(f"linked to a definition of the tree: {sum(linked.values()):,}")
    print(f"texts shown on a definition's section: {shown:,}")
    print(f"not linked, shown as the docstring of the name the module binds: {bound_only:,}")
    print("targets defined nowhere in the tree, by what they are read on:")
    for owner, n in nowhere.most_common():
        print(f"  {owner}: {n}")


if __name__ == "__main__":
    main()
