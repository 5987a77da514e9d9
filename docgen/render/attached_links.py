"""Which definitions another file documents at import (see
`docgen.index.attached_rows`): `add_docstr(torch.add, r\"\"\"...\"\"\")` of
`torch/_torch_docs.py` leads, through `torch/__init__.py`'s `from
torch._C._VariableFunctions import *`, to the `add` of
`torch/_C/_VariableFunctions.pyi`, whose section then shows the text.  Each target is
resolved as a docstring's role is (`docgen.render.role_links.Resolver`), and before
the pages are digested, so that a page's digest covers the texts it shows."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.index.attached_rows import attached_key
from docgen.render.role_links import resolver_of

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.render.role_links import NamedSites


@dataclass(frozen=True, order=True)
class AttachedText:
    """A docstring a file attaches at import to a definition of another file."""

    source: str  # the file that attaches it
    line: int
    target: str  # as that file writes it
    text: str  # "" when code docgen does not run makes it
    fields: str  # the arguments of a `.format(...)` that fills it at import, or ""
    via: str  # the call as written

    def key(self) -> str:
        """What a page shows of it, for the page's digest."""
        digest = hashlib.sha256(self.text.encode("utf-8", "surrogatepass")).hexdigest()
        return f"{self.source}:{self.line}:{self.target}:{self.fields}:{self.via}:{digest}"


@dataclass(frozen=True)
class AttachedLinks:
    """Each file's definitions that other files document, by anchor."""

    by_file: Mapping[str, Mapping[str, tuple[AttachedText, ...]]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def of(self, path: str) -> Mapping[str, tuple[AttachedText, ...]]:
        return self.by_file.get(path, _NONE)

    def inputs(self, path: str) -> list[str]:
        """What a file's page shows of other files' attached texts, for its digest."""
        return [f"{a}<{t.key()}" for a, texts in sorted(self.of(path).items()) for t in texts]


_NONE: Mapping[str, tuple[AttachedText, ...]] = MappingProxyType({})


def attached_links(
    index: RepoIndex, named: NamedSites, paths: Iterable[str] | None
) -> AttachedLinks:
    """The attached texts of the definitions of `paths` (None: every file)."""
    relation = index.attached_rows
    if relation is None:
        return AttachedLinks()
    kinds = index.files.kinds()
    python = [p for p, kind in kinds.items() if kind == "python"]
    keys: set[str] | None = None  # the names the wanted files define (None: every name)
    if paths is None:
        wanted = set(python)
        held = relation.rows.rows_of(python)
    else:
        wanted = {p for p in paths if kinds.get(p) == "python"}
        keys = set()
        for path in wanted:
            facts = index.files[path].facts.python
            keys.update(d.name for d in (facts.definitions if facts is not None else ()))
        held = relation.rows.rows_of(sorted(relation.holding(keys))) if keys else {}
    resolver = resolver_of(index, named)
    found: dict[str, dict[str, list[AttachedText]]] = {}
    for source, rows in sorted(held.items()):
        for row in rows:
            if keys is not None and attached_key(row) not in keys:
                continue  # its target bears a name no wanted file defines
            destination = resolver.target(source, row[0], row[1])
            if destination is None:
                continue
            path, anchor = destination
            if path in wanted and anchor and path != source:
                text = AttachedText(source, row[2], row[0], row[3], row[4], row[5])
                found.setdefault(path, {}).setdefault(anchor, []).append(text)
    return AttachedLinks(
        MappingProxyType(
            {
                p: MappingProxyType({a: tuple(sorted(t)) for a, t in sorted(by.items())})
                for p, by in sorted(found.items())
            }
        )
    )


def attached_targets(
    index: RepoIndex,
    named: NamedSites,
    edits: Iterable[str],
    linked: Iterable[str],
) -> set[str] | None:
    """The Python files whose definitions an edit can give or take an attached text:
    those defining a name whose rows of the edited files came or went, or whose rows
    lead elsewhere now (`linked`: the files whose roles may lead elsewhere, which hold
    the attached targets too); None when an edited file's rows before are not known."""
    relation = index.attached_rows
    if relation is None:
        return set()
    edited = list(edits)
    keys = relation.moved(edited)
    if keys is None:
        return None
    kinds = index.files.kinds()
    holders = sorted({p for p in linked if kinds.get(p) == "python"} - set(edited))
    for rows in relation.rows.rows_of(holders).values():
        keys.update(attached_key(row) for row in rows)
    # a Python definition shows the text; an operator file's op, the name it is bound to
    shown = ("python", "yaml")
    return {s.path for key in sorted(keys) for s in named(key) if kinds.get(s.path) in shown}
