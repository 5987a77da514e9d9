"""`docgen` with the C-family scanner cut down to what any C-family page needs first.

    python bench/cfamily_floor.py [--unparsed] build REPO --out OUT [docgen's other flags]

Each C, C++ or CUDA file is read as the real scanner reads it up to the parse: its
dialect chosen, its attribute macros learned and blanked, its lone macro lines and
directive comments blanked, and tree-sitter's parse made.  Then nothing of the tree
is walked: the file gets the plain text facts (and so plain text pages) that every
text file has.  `bench/cfamily.py --floor` times a cold build of this beside the
real ones: what a C-family file costs before a single name is read from it.
With `--unparsed` the files are not even parsed: plain text pages straight away, as
docgen gave C-family files before it read them (`bench/cfamily.py --unparsed`).
"""

from __future__ import annotations

import sys
import types

from docgen.model.facts import FileFacts
from docgen.scan import table, text
from docgen.scan.cfamily import scanner as cfamily
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings

MODULE = "docgen_bench_cfamily_floor"


def scan(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    """The real scanner's steps up to and with the parse, then plain text facts."""
    import tree_sitter

    prepared = cfamily.prepare(path, data, settings)  # as the real scanner prepares it
    tree_sitter.Parser(cfamily.language(prepared.dialect)).parse(prepared.parsed)
    return text.scan(path, data, settings)


def main() -> None:
    unparsed = "--unparsed" in sys.argv[1:2]
    if unparsed:
        del sys.argv[1]
    module = types.ModuleType(MODULE)
    module.scan = text.scan if unparsed else scan  # type: ignore[attr-defined]
    sys.modules[MODULE] = module  # the workers fork from this process and inherit it
    for language in ("c", "cpp", "cuda"):
        table.SCANNERS[language] = MODULE
    from docgen.cli.launch import main as docgen_main

    docgen_main()


if __name__ == "__main__":
    main()
