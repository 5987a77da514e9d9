"""What the top level of a Python file binds: its own classes and functions, the names
its imports bind and from which modules, its `from m import *` and `__all__` (the Public
API trace of `docgen.render.api_views` follows names through them)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docgen.analyze.summary import FileSummary, plain_binding, top_level
from docgen.index.graph import absolute_module, package_of
from docgen.model.facts import Import

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex


@dataclass(frozen=True)
class FileBindings:
    """What the top level of one Python file binds, as far as its facts tell."""

    definitions: Mapping[str, str]  # top-level class or function -> its kind (`top_level`)
    imported: dict[str, list[tuple[str, str]]]  # bound name -> (absolute module, name there)
    modules: dict[str, list[str]]  # `import a.b as c`: bound name -> absolute module
    stars: tuple[str, ...]  # absolute modules of `from m import *`
    exported: tuple[str, ...] | None  # its `__all__`


def _bindings(
    definitions: Mapping[str, str],
    imports: Iterable[Import],
    resolved: Iterable[str],
    exported: tuple[str, ...] | None,
) -> FileBindings:
    imported: dict[str, list[tuple[str, str]]] = {}
    modules: dict[str, list[str]] = {}
    stars: list[str] = []
    for imp, absolute in zip(imports, resolved, strict=True):
        if not absolute:
            continue
        if imp.star:
            stars.append(absolute)
        elif imp.is_from:
            bound = [b for b, _ in imp.aliases] if len(imp.aliases) == len(imp.names) else imp.names
            for name, as_name in zip(imp.names, bound, strict=True):
                imported.setdefault(as_name, []).append((absolute, name))
        else:  # `import a.b as c` binds `c` to `a.b`; `import a.b` binds `a` to `a`
            for as_name, module in imp.aliases or plain_binding(imp):
                modules.setdefault(as_name, []).append(module)
    return FileBindings(definitions, imported, modules, tuple(stars), exported)


def file_bindings(index: RepoIndex, path: str) -> FileBindings | None:
    """A file's bindings, from its summary where it has one (see
    `docgen.analyze.summary`), its imports made absolute as the import graph makes
    them (without resolving them to files, which costs more)."""
    files = index.files
    own = index.graph.module_names.get(path)
    package = package_of(path, own) if own is not None else None
    kept = files.summary(path)
    if kept is not None:
        return summary_bindings(kept, package)
    scanned = files.get(path)
    python = scanned.facts.python if scanned is not None else None
    if python is None:
        return None
    resolved = [absolute_module(imp, package) for imp in python.imports]
    return _bindings(top_level(python), python.imports, resolved, python.dunder_all)


def summary_bindings(summary: FileSummary, package: str | None) -> FileBindings | None:
    """A file's bindings from its stored summary (`package`: the one its relative
    imports start from); None when it has no Python facts."""
    if summary.imports is None:
        return None
    resolved = [absolute_module(imp, package) for imp in summary.imports]
    return _bindings(dict(summary.top_level), summary.imports, resolved, summary.exported)


def star_binds(bindings: FileBindings, name: str) -> bool:
    """Whether `from m import *` binds `name`: listed in `__all__`, or public without one."""
    if bindings.exported is not None:
        return name in bindings.exported
    return not name.startswith("_")
