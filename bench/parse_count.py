"""How many times the C-family scanner parses each file, and how many byte-rewriting
passes prepare it.

    python bench/parse_count.py REPO [--top N]

Scans every C, C++ and CUDA file of REPO in this process, with the attribute macros
a build learns from the tree, and counts the calls of tree-sitter's
`Parser.parse` each file costs (the first parse, and every re-reading of
conditionals, branches and grammar gaps).  Prints the median, the mean and the
maximum per file, how many files took each count, and the `--top` files that took
the most, so that a change to the preprocessor layer can be measured before and
after.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

import tree_sitter

from docgen.discover.tree import discover
from docgen.model.languages import CPP_SOURCE_SUFFIXES, is_cfamily
from docgen.scan.cfamily.preprocess.macros import macro_defs
from docgen.scan.cfamily.preprocess.passes import PASSES
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.table import scan_file


class _Counting:
    """tree-sitter's parser, counting its parses (the real one is a C type: wrapped)."""

    def __init__(self) -> None:
        self.calls = 0
        self.real = tree_sitter.Parser

    def parser(self, *args: object, **kwargs: object) -> object:
        counter = self
        inner = self.real(*args, **kwargs)  # type: ignore[arg-type]

        class Wrapped:
            def parse(self, *a: object, **k: object) -> object:
                counter.calls += 1
                return inner.parse(*a, **k)  # type: ignore[arg-type]

            def __getattr__(self, name: str) -> object:
                return getattr(inner, name)

        return Wrapped()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    paths = [f.path for f in discover(repo).files if is_cfamily(f.path)]
    data = {p: (repo / p).read_bytes() for p in paths}
    defs = [d for blob in data.values() for d in macro_defs(blob)]
    cpp = any(p.lower().endswith(CPP_SOURCE_SUFFIXES) for p in paths)
    settings = ScanSettings.learned(defs, "cpp" if cpp else "c")
    counting = _Counting()
    tree_sitter.Parser = counting.parser  # type: ignore[misc,assignment]
    counts: dict[str, int] = {}
    dialects: Counter[str] = Counter()
    try:
        for path in paths:
            before = counting.calls
            facts = scan_file(path, data[path], settings)
            counts[path] = counting.calls - before
            dialects[facts.cfamily.dialect if facts.cfamily is not None else ""] += 1
    finally:
        tree_sitter.Parser = counting.real  # type: ignore[misc]
    if not counts:
        print("no C-family file", file=sys.stderr)
        return 1
    values = sorted(counts.values())
    print(f"{len(values)} C-family files of {repo}")
    print(
        f"parses per file: median {statistics.median(values):g}, "
        f"mean {statistics.fmean(values):.3f}, max {values[-1]}"
    )
    for count, files in sorted(Counter(values).items()):
        print(f"  {count} parse{'s' if count != 1 else ''}: {files} files")
    for dialect, files in sorted(dialects.items()):
        passes = [p.name for p in PASSES if dialect in p.dialects]
        print(f"  {dialect or 'unread'}: {files} files, {len(passes)} rewriting passes each")
    for path, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[: args.top]:
        print(f"  {count:3d}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
