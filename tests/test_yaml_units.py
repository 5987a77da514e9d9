"""The YAML idioms found on real trees, as data: each folder of `yaml_units/` holds
YAML files and `expected`, every name docgen must index from them.

A line of `expected` is `FILE:LINE KIND QUALNAME` (KIND: `op`, `derivative`, `key` or
`entry`), or `FILE:LINE dispatch KEYS -> KERNEL` for each line of an operator's
`dispatch:` block, or `FILE:LINE formula KEY` for each formula of a derivative entry;
`#` at the start of a line makes it a comment.  To add a case: a folder with the files
and the `expected` lines, checked by hand against the sources
(`python tests/test_yaml_units.py FOLDER` prints what docgen finds now).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import expected_lines

from docgen.analyze.sites import yaml_sites
from docgen.scan.yaml.scanner import scan

UNITS = Path(__file__).resolve().parent / "yaml_units"
CASES = sorted(p.name for p in UNITS.iterdir() if p.is_dir())


def found(case: Path) -> list[str]:
    """Every name docgen finds in a case's files, as `expected` lines, sorted."""
    lines = []
    for source in sorted(case.glob("*.yaml")):
        facts = scan(source.name, source.read_bytes())
        assert facts.parsed and not facts.problems, (source.name, facts.problems)
        assert facts.yaml is not None
        for site in yaml_sites(source.name, facts.yaml):
            lines.append(f"{source.name}:{site.line} {site.kind} {site.qualname}")
        for o in facts.yaml.operators:
            for d in o.dispatch:
                lines.append(f"{source.name}:{d.line} dispatch {', '.join(d.keys)} -> {d.kernel}")
        for dv in facts.yaml.derivatives:
            lines.extend(f"{source.name}:{f.line} formula {f.key}" for f in dv.formulas)
    return sorted(lines)


@pytest.mark.parametrize("case", CASES)
def test_every_expected_name_is_found_and_nothing_else(case: str) -> None:
    assert found(UNITS / case) == expected_lines(UNITS / case)


if __name__ == "__main__":
    for name in sys.argv[1:] or CASES:
        print("\n".join(found(UNITS / name)))
