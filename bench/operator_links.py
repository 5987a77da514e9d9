"""How far a build of PyTorch links its operators: Python stub -> operator -> kernel.

    python bench/operator_links.py REPO OUT

REPO holds `torch/` and `torchgen/` side by side (the CPU wheel unzipped); OUT is
`docgen build REPO --out OUT`.  Each figure is read from the pages and compared with
what docgen did not compute itself where it can: the kernels no dispatch line links
are looked for as words of every `ATen/ops/*_native.h` (a kernel the headers declare
must be linked), and the stub names come from Python's own `ast` of the stubs.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections import Counter
from pathlib import Path

from docgen.model.kernel_names import is_structured, kernel_qualname
from docgen.scan.yaml.scanner import scan

OPERATORS = "torchgen/packaged/ATen/native/native_functions.yaml"
DERIVATIVES = "torchgen/packaged/autograd/derivatives.yaml"
HEADERS = "torch/include/ATen/ops"
STUBS = (("torch/_C/_VariableFunctions.pyi", None), ("torch/_C/__init__.pyi", "TensorBase"))


def sections(page: str, level: str = "###") -> list[str]:
    return re.split(rf"\n(?={level} )", page)[1:]


def dispatch_lines(repo: Path, out: Path) -> None:
    facts = scan(OPERATORS, (repo / OPERATORS).read_bytes())
    assert facts.yaml is not None
    page = (out / f"{OPERATORS}_docs.md").read_text(encoding="utf-8")
    words: set[str] = set()
    for header in (repo / HEADERS).glob("*_native.h"):
        words.update(re.findall(r"\b\w+\b", header.read_text(encoding="utf-8")))
    lines = linked = declared_unlinked = 0
    unlinked: Counter[str] = Counter()
    for operator in facts.yaml.operators:
        for d in operator.dispatch:
            qualname = kernel_qualname(d.kernel, is_structured(operator), d.keys)
            lines += 1
            if f"[`{qualname}`](" in page:
                linked += 1
                continue
            unlinked[d.keys[0]] += 1
            declared_unlinked += qualname.rsplit("::", 1)[1] in words
    print(
        f"dispatch lines: {lines}, linked to a declaration: {linked} ({100 * linked / lines:.1f} %)"
    )
    print(f"  not linked, by first key: {dict(unlinked.most_common())}")
    print(f"  not linked but a word of some *_native.h: {declared_unlinked}")
    bound = sum("\n- Bound in Python as:" in s for s in sections(page))
    graded = sum("\n- Derivative formulas:" in s for s in sections(page))
    print(
        f"operators: {len(facts.yaml.operators)}, with Python bindings: {bound}, "
        f"with derivative formulas: {graded}"
    )


def derivatives(out: Path) -> None:
    found = sections((out / f"{DERIVATIVES}_docs.md").read_text(encoding="utf-8"))
    missing = [s.split("\n", 1)[0] for s in found if "\n- Operator:" not in s]
    print(
        f"derivative entries: {len(found)}, linked to their operator: {len(found) - len(missing)}"
        f"; not: {missing[:5]}"
    )


def kernels(out: Path) -> None:
    pages = with_it = overloaded = 0
    for page in (out / HEADERS).glob("*_native.h_docs.md"):
        text = page.read_text(encoding="utf-8")
        one, several = text.count("\n- Kernel of:"), text.count("\n- Its name is the kernel of:")
        pages += one + several > 0
        with_it += one + several
        overloaded += several
    print(
        f"*_native.h pages naming the operators of their kernels: {pages}, definitions: "
        f"{with_it}, of which overloads of one name (the overload not told): {overloaded}"
    )


def stubs(repo: Path, out: Path) -> None:
    for stub, cls in STUBS:
        tree = ast.parse((repo / stub).read_text(encoding="utf-8"))
        body = tree.body
        if cls:
            body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
        names = {n.name for n in body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        page = (out / f"{stub}_docs.md").read_text(encoding="utf-8")
        linked = set()
        for section in sections(page, "#{3,4}"):
            heading = re.match(r"#{3,4} (?:function|method) `(?:TensorBase\.)?([^`]+)`", section)
            if heading and "\n- Runs in C++:" in section:
                linked.add(heading.group(1))
        missing = sorted(names - linked)
        print(
            f"{stub}{' ' + cls if cls else ''}: {len(names)} names, {len(names & linked)} "
            f"say which operators they run; not: {len(missing)}, e.g. {missing[:8]}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    dispatch_lines(args.repo, args.out)
    derivatives(args.out)
    kernels(args.out)
    stubs(args.repo, args.out)


if __name__ == "__main__":
    main()
