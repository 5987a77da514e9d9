"""How far docgen's C, C++ and CUDA names agree with Universal Ctags.

    python bench/ctags_agree.py REPO [--show N]

Scans every C-family file of REPO as a build does (attribute macros learned from
the tree, `.h` as C++ when the tree has C++ sources), runs `ctags` over the same
files with every macro docgen blanks given as `-D NAME=` (`-D 'NAME(...)='` for
function-like ones) and compares, per category, (path, line, name):

| category | ctags kinds | docgen kinds |
|---|---|---|
| namespace, class, struct, union, enum, macro | the same | the same |
| functions | function (free, out-of-line and inline member definitions) | callables with a body |
| prototypes | prototype (in-class declarations too) | callables without a body |
| members | member | field |
| typedefs | typedef (`using X =` too) | typedef, alias |

`found` is the share of ctags' entries that docgen has on the same line with the
same name; `extra` counts docgen entries ctags lacks.  Macro uses that ctags
takes for functions or prototypes (a line that starts with an upper-case name and
its arguments: `TEST(Suite, Case) {`, `DEFINE_DISPATCH(stub);`) are counted
apart and left out of the comparison: docgen lists registrations and test cases
as such and other macro uses as nothing.  Anonymous entities are
left out of both sides.  `--show N` prints N misses and extras per category with
their source lines, for a person to judge which tool is right.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from docgen.discover.tree import discover
from docgen.model.languages import C_FAMILY, CPP_SOURCE_SUFFIXES, defines_macros, language_for
from docgen.scan.cfamily.preprocess.blanking import _namespace_text
from docgen.scan.cfamily.preprocess.builtin_macros import BUILTIN_MACROS
from docgen.scan.cfamily.preprocess.macros import macro_defs
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.table import scan_file

CALLABLES = frozenset({"function", "kernel", "method", "constructor", "destructor", "operator"})
CATEGORIES = (
    "namespace",
    "class",
    "struct",
    "union",
    "enum",
    "macro",
    "functions",
    "prototypes",
    "members",
    "typedefs",
)
CTAGS_CATEGORY = {
    "namespace": "namespace",
    "class": "class",
    "struct": "struct",
    "union": "union",
    "enum": "enum",
    "macro": "macro",
    "function": "functions",
    "prototype": "prototypes",
    "member": "members",
    "typedef": "typedefs",
}
CUDA_WORDS = ("__global__", "__device__", "__host__", "__forceinline__", "__shared__")
ANONYMOUS = re.compile(r"__anon[0-9a-f]+|\(anonymous\)")
Key = tuple[str, str, int, str]  # category, path, line, name


def spelled(name: str) -> str:
    """`operator ==` and `operator==` alike: spaces only between two word characters."""
    return re.sub(r"(?<=\W) | (?=\W)", "", " ".join(name.split()))


def docgen_category(kind: str, is_definition: bool) -> str:
    if kind in CALLABLES:
        return "functions" if is_definition else "prototypes"
    return {"field": "members", "typedef": "typedefs", "alias": "typedefs"}.get(kind, kind)


def docgen_entries(
    repo: Path, paths: list[str], templates: Sequence[str] = ()
) -> tuple[set[Key], ScanSettings]:
    """docgen's entries, with the settings a build learns from `paths` and the header
    `templates` (`config.h.in`) of the tree."""
    data = {p: (repo / p).read_bytes() for p in paths}
    defs = [d for blob in data.values() for d in macro_defs(blob)]
    defs += [d for p in templates for d in macro_defs((repo / p).read_bytes())]
    cpp = any(p.lower().endswith(CPP_SOURCE_SUFFIXES) for p in paths)
    settings = ScanSettings.learned(defs, "cpp" if cpp else "c")
    found: set[Key] = set()
    for path in paths:
        facts = scan_file(path, data[path], settings).cfamily
        for d in facts.definitions if facts is not None else ():
            if not ANONYMOUS.search(d.name):
                category = docgen_category(d.kind, d.is_definition)
                found.add((category, path, d.line, spelled(d.name)))
    return found, settings


def ctags_entries(repo: Path, paths: list[str], settings: ScanSettings) -> set[Key]:
    ctags = shutil.which("ctags")
    if ctags is None:
        raise SystemExit(
            "ctags_agree: Universal Ctags is not installed (apt-get install universal-ctags)"
        )
    command = [ctags, "--options=NONE", "--languages=C,C++", "--output-format=json"]
    header = "C" if settings.headers_as == "c" else "C++"
    command += [
        f"--langmap=C:.c{'.h' if header == 'C' else ''},"
        f"C++:{'.h' if header == 'C++' else ''}.cc.cpp.cxx.hpp.hh.hxx.inl.cu.cuh",
        "--extras=-p",
        "--fields=+nK",
        "--kinds-C++=ncsugfmdpt",
        "--kinds-C=sugfmdpt",
    ]
    for name in sorted(BUILTIN_MACROS | settings.attribute_macros | set(CUDA_WORDS)):
        command.append(f"-D{name[:-2]}(...)=" if name.endswith("()") else f"-D{name}=")
    for name, written_place in settings.values("wrapper"):  # the argument kept, the others dropped
        place = int(written_place)
        params = ",".join(f"a{i}" for i in range(1, place + 1))
        command.append(f"-D{name[:-2]}({params},...)=a{place}")
    # As docgen reads namespace macros: one brace each.  An opening one too long to write
    # over its own name is blanked, and so is a closing one after it (docgen counts per
    # file; here a closing one is blanked when no opening one in the tree can be written).
    writable = {
        name: name.endswith("()") or _namespace_text(expansion, [], len(name)) is not None
        for name, expansion in settings.values("namespace")
        if expansion != "}"
    }
    for name, expansion in settings.values("namespace"):
        if expansion == "}":
            body = "}" if any(writable.values()) else ""
        else:
            body = f"namespace {expansion.replace('$1', 'x')} {{" if writable[name] else ""
        head = f"{name[:-2]}(x)" if name.endswith("()") else name
        command.append(f"-D{head}={body}")
    command += ["-f", "-", "-L", "-"]
    listing = "\n".join(paths) + "\n"
    result = subprocess.run(
        command, cwd=repo, input=listing, capture_output=True, text=True, check=False
    )
    found: set[Key] = set()
    for row in result.stdout.splitlines():
        try:
            tag = json.loads(row)
        except ValueError:
            continue
        category = CTAGS_CATEGORY.get(tag.get("kind", ""))
        name = tag.get("name", "")
        if category is None or ANONYMOUS.search(name):
            continue
        found.add((category, tag["path"], int(tag.get("line", 0)), spelled(name)))
    return found


MACRO_USE = re.compile(r"\s*([A-Z][A-Z0-9_]*)\s*\(")


def read_as_macro(key: Key, line: str) -> bool:
    """A ctags function or prototype that is a macro's use: the line starts with the
    upper-case name and its arguments, no return type (`TEST(Suite, Case) {`,
    `DEFINE_DISPATCH(stub);`); docgen lists registrations and tests as such."""
    match = MACRO_USE.match(line)
    return key[0] in ("functions", "prototypes") and match is not None and match[1] == key[3]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("repo")
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args(argv)
    repo = Path(args.repo).resolve()
    files = [s.path for s in discover(repo).files]
    paths = [p for p in files if language_for(p) in C_FAMILY]
    templates = [p for p in files if defines_macros(p) and language_for(p) not in C_FAMILY]
    ours, settings = docgen_entries(repo, paths, templates)
    theirs = ctags_entries(repo, paths, settings)
    macros = len(settings.macros)
    print(f"{repo.name}: {len(paths):,} C-family files, {macros} learned macros")
    print()
    print("| category | ctags | docgen | found | found % | extra | ctags: macro uses |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    texts: dict[str, list[str]] = {}

    def line_of(path: str, line: int) -> str:
        if path not in texts:
            texts[path] = (repo / path).read_text(errors="replace").split("\n")
        lines = texts[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    uses = {k for k in theirs if read_as_macro(k, line_of(k[1], k[2]))}
    macro_uses = Counter(k[0] for k in uses)
    theirs -= uses
    counts_ours = Counter(k[0] for k in ours)
    counts_theirs = Counter(k[0] for k in theirs)
    both = ours & theirs
    counts_both = Counter(k[0] for k in both)
    for category in CATEGORIES:
        total = counts_theirs[category]
        share = f"{100 * counts_both[category] / total:.1f}" if total else "-"
        extra = counts_ours[category] - counts_both[category]
        print(
            f"| {category} | {total:,} | {counts_ours[category]:,} | {counts_both[category]:,}"
            f" | {share} | {extra:,} | {macro_uses[category]:,} |"
        )
    if args.show:
        for category in CATEGORIES:
            for label, keys in (("MISS", theirs - ours), ("EXTRA", ours - theirs)):
                for _, path, line, name in sorted(k for k in keys if k[0] == category)[: args.show]:
                    text = line_of(path, line).strip()
                    print(f"{label} {category} {path}:{line} {name} | {text[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
