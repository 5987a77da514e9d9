"""The tree's operator files, read once for every link that starts from their operators
(to kernels, to stubs, back from both)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docgen.model.anchors import AnchoredYaml, anchored_yaml
from docgen.model.yaml_facts import YamlFacts

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex

#: an operator file of the tree: its path, facts and the anchors of its sections
OperatorFile = tuple[str, YamlFacts, AnchoredYaml]


def operator_files(index: RepoIndex) -> list[OperatorFile]:
    """Every YAML file of the tree that declares operators, with its sections' anchors."""
    found = []
    for path, kind in index.files.kinds().items():
        yaml = index.files[path].facts.yaml if kind == "yaml" else None
        if yaml is not None and yaml.operators:
            found.append((path, yaml, anchored_yaml(path, yaml)))
    return found
