"""The YAML scanner: every document's top-level keys, the entries of a top-level list
of mappings, and the operators and derivative formulas of PyTorch's operator files
(`operators.py`).  A file PyYAML cannot read keeps what came before the error, and the
error is a problem on the page, at its line."""

from __future__ import annotations

from dataclasses import replace

import yaml

from docgen.model.facts import FileFacts, Problem
from docgen.model.yaml_facts import (
    DerivativeEntry,
    OperatorEntry,
    YamlEntry,
    YamlFacts,
    YamlKey,
)
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings
from docgen.scan.decode import decode_text
from docgen.scan.text import text_facts
from docgen.scan.yaml.nodes import as_text, first_line, holds, pairs, scalar
from docgen.scan.yaml.operators import (
    ATEN_FILE,
    DERIVATIVES_FILE,
    derivative_entry,
    operator_entry,
)

#: libyaml's composer when PyYAML was built with it (ten times faster), else PyYAML's own
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Read:
    """What the documents of one file give, in order."""

    def __init__(self, name: str) -> None:
        self.derivatives_file = name == DERIVATIVES_FILE
        self.documents = 0
        self.keys: list[YamlKey] = []
        self.entries: list[YamlEntry] = []
        self.operators: list[OperatorEntry] = []
        self.derivatives: list[DerivativeEntry] = []

    def document(self, root: yaml.Node | None) -> None:
        self.documents += 1
        if isinstance(root, yaml.MappingNode):
            for name, value, line in pairs(root):
                self.keys.append(YamlKey(name, line, holds(value)))
        elif isinstance(root, yaml.SequenceNode):
            for item in root.value:
                self.item(item)

    def item(self, item: yaml.Node) -> None:
        derivative = derivative_entry(item) if self.derivatives_file else None
        if derivative is not None:
            self.derivatives.append(derivative)
            return
        operator = operator_entry(item)
        if operator is not None:
            self.operators.append(operator)
            return
        found = pairs(item)
        if found:
            key, value, _ = found[0]
            written = scalar(value)
            if written is not None:
                rest = tuple((k, as_text(v)) for k, v, _ in found[1:])
                self.entries.append(YamlEntry(key, written, first_line(item), rest))


def scan(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    decoded = decode_text(data)
    name = path.rpartition("/")[2]
    read = _Read(name)
    problems = list(decoded.problems)
    parsed = True
    try:
        for root in yaml.compose_all(decoded.text, Loader=LOADER):
            read.document(root)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = int(mark.line) + 1 if mark is not None else 0
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        problems.append(Problem(line, f"YAML: {problem}"))
        parsed = False
    except RecursionError:  # nesting deeper than the composer's stack
        problems.append(Problem(0, "YAML: nested too deeply to read"))
        parsed = False
    facts = YamlFacts(
        documents=read.documents,
        keys=tuple(read.keys),
        entries=tuple(read.entries),
        operators=tuple(read.operators),
        derivatives=tuple(read.derivatives),
        namespace="aten" if name in (ATEN_FILE, DERIVATIVES_FILE) else "",
    )
    return replace(
        text_facts(path, data, decoded),
        kind="yaml",
        parsed=parsed,
        problems=tuple(problems),
        yaml=facts,
    )
