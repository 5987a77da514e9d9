"""The names one file defines, as keyword sites: made from its facts alone, in the
scan workers, so that an unchanged file's sites come from the last build."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from docgen.model.digests import code_digest
from docgen.model.sites import DefinitionSite

if TYPE_CHECKING:
    from docgen.model.cfamily_facts import Binding, Registration
    from docgen.model.facts import ScannedFile
    from docgen.model.yaml_facts import YamlFacts

#: C-family kinds left out of the repository index: a namespace is reopened in every
#: file that uses it, so listing each opening would bury the definitions.
UNINDEXED_C_KINDS = frozenset({"namespace"})


def preload_sites() -> None:
    """Load what `sites_of` needs now, e.g. once before forking workers that call it."""
    import docgen.model.anchors  # noqa: F401


def sites_of(scanned: ScannedFile) -> list[DefinitionSite]:
    """The names one file defines (and binds of its own by import), with their anchors."""
    # Imported here so that `docgen find` never loads the anchors' slugger.
    from docgen.model.anchors import (
        anchored_c_definitions,
        anchored_definitions,
        attribute_anchor,
        definition_anchors,
        section_anchor,
        subsection_anchor,
    )

    path = scanned.facts.path
    sites = []
    c = scanned.facts.cfamily
    if c is not None:
        for item in anchored_c_definitions(path, c.definitions):
            cdef = item.definition
            if cdef.kind not in UNINDEXED_C_KINDS:
                site = (cdef.name, path, cdef.line, cdef.kind, cdef.qualname)
                sites.append(DefinitionSite(*site, item.anchor))
        sites.extend(registered_sites(path, c.registrations))
        sites.extend(stub_sites(path, c.registrations))
        sites.extend(binding_sites(path, c.bindings))
    yaml = scanned.facts.yaml
    if yaml is not None:
        sites.extend(yaml_sites(path, yaml))
    py = scanned.facts.python
    if py is None:
        return sites
    dependencies = section_anchor("dependencies")
    for imp in py.imports:
        for bound, target in imp.aliases:
            if is_alias(bound, target, imp.is_from):
                sites.append(DefinitionSite(bound, path, imp.line, "import", target, dependencies))
    sites.extend(registered_sites(path, py.registrations))
    extensions = subsection_anchor("extensions")
    for e in py.extensions:
        short = e.name.rsplit(".", 1)[-1]
        sites.append(DefinitionSite(short, path, e.line, "extension", e.name, extensions))
    items = anchored_definitions(path, py.definitions)
    for anchored in items:
        d = anchored.definition
        sites.append(DefinitionSite(d.name, path, d.line, d.kind, d.qualname, anchored.anchor))
    anchors = definition_anchors(items)
    for a in py.attributes:
        anchor = attribute_anchor(a, anchors)
        sites.append(DefinitionSite(a.name, path, a.line, "attribute", a.qualname, anchor))
    return sites


#: what a `TORCH_LIBRARY` block's `m.def` and a `TORCH_LIBRARY_IMPL` block's `m.impl`
#: make of an operator: its schema (an `op`, as a `- func:` entry is) and a kernel for it
REGISTERED_KINDS = {"def": "op", "impl": "impl"}


def registered_sites(path: str, registrations: Iterable[Registration]) -> list[DefinitionSite]:
    """The operators a file's library blocks define (`m.def`) and implement (`m.impl`),
    each as `ns::name.overload` (a catch-all block, `TORCH_LIBRARY_IMPL(_, ...)`, has no
    namespace of its own and is left out)."""
    from docgen.model.anchors import subsection_anchor

    anchor = subsection_anchor("registrations")
    found = []
    for r in registrations:
        if r.is_dispatch_stub or r.name in ("", "_"):
            continue
        for op in r.ops:
            name = op.name.rsplit("::", 1)[-1]
            qualname = op.name if "::" in op.name else f"{r.name}::{op.name}"
            kind = REGISTERED_KINDS[op.verb]
            base = name.split(".", 1)[0]
            found.append(DefinitionSite(base, path, op.line, kind, qualname, anchor))
    return found


#: the kind of keyword site each dispatch-stub macro makes (`docgen.model.kinds.StubKind`)
STUB_KINDS = {"declares": "dispatch stub", "defines": "stub definition", "registers": "stub kernel"}


def stub_sites(path: str, registrations: Iterable[Registration]) -> list[DefinitionSite]:
    """The dispatch stubs a file declares, defines or gives a kernel, each under the
    stub's name (`docgen find abs_stub` lists all three)."""
    from docgen.model.anchors import subsection_anchor
    from docgen.model.stub_devices import stub_role

    anchor = subsection_anchor("registrations")
    found = []
    for r in registrations:
        if r.is_dispatch_stub and r.name:
            kind = STUB_KINDS[stub_role(r.macro, r.target, path).verb]
            found.append(DefinitionSite(r.name, path, r.line, kind, r.name, anchor))
    return found


def binding_sites(path: str, bindings: Iterable[Binding]) -> list[DefinitionSite]:
    """Each Python name a file's pybind11 or nanobind calls make (`binding`), under its
    name and qualified by its module, submodule and class as far as the file says
    (`_C.sub.Foo.bar`, `fwd` in a module a build script names)."""
    from docgen.model.anchors import subsection_anchor
    from docgen.model.binding_names import UNNAMED_KINDS, bound_qualname, module_root

    anchor = subsection_anchor("bindings")
    made = list(bindings)
    root = module_root(made)
    return [
        DefinitionSite(b.name, path, b.line, "binding", bound_qualname(b, root), anchor)
        for b in made
        if b.kind not in UNNAMED_KINDS
    ]


#: a YAML entry's value indexed as a name: an identifier, not a sentence
ENTRY_NAME = re.compile(r"[A-Za-z_][\w.:-]*")


def yaml_sites(path: str, yaml: YamlFacts) -> list[DefinitionSite]:
    """A YAML file's names: each operator and derivative entry under its base name
    (`add` for `aten::add.Tensor`), each top-level key, each entry named like a name."""
    from docgen.model.anchors import anchored_yaml, subsection_anchor
    from docgen.model.kernel_names import operator_qualname

    anchored = anchored_yaml(path, yaml)
    sites = []
    for kind, items in (("op", anchored.operators), ("derivative", anchored.derivatives)):
        for item, anchor in items:
            qualname = operator_qualname(yaml.namespace, item.name)
            base = item.name.split(".", 1)[0]
            sites.append(DefinitionSite(base, path, item.line, kind, qualname, anchor))
    keys = subsection_anchor("yaml_keys")
    sites.extend(DefinitionSite(k.name, path, k.line, "key", k.name, keys) for k in yaml.keys)
    entries = subsection_anchor("yaml_entries")
    for e in yaml.entries:
        if ENTRY_NAME.fullmatch(e.value):
            sites.append(DefinitionSite(e.value, path, e.line, "entry", e.value, entries))
    return sites


def is_alias(bound: str, target: str, is_from: bool) -> bool:
    """Whether an import binds a name of its own that code uses for the target:
    `as FSDP`, `import torch.nn.functional as F`, `import torch.distributed as dist`
    (not `import os` nor `from x import y`, whose names are the target's own)."""
    if is_from:
        return bound != target.rsplit(".", 1)[-1]
    return bound != target


def sites_made_from(facts_digests: Mapping[str, str]) -> dict[str, str]:
    """What each file's keyword sites are made from: its facts and docgen's code."""
    code = code_digest()
    return {path: f"{digest}:{code}" for path, digest in facts_digests.items()}
