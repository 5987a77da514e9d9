"""Which file imports which: module names, import resolution and the reverse graph.

Files map to dotted module names as Python would find them with the repository
root and `src/` (or the configured source roots) on `sys.path`; folders without `__init__.py` are
namespace packages (PEP 420).  The edge rule: file F imports file G when an
import statement in F reads `import a.b.c` and `a.b.c` is G, or `from P import N`
and `P.N` is the module G, or else `P` is G.  Relative imports resolve against
F's package.  A file never imports itself.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from docgen.model.options import DEFAULT_SOURCE_ROOTS

if TYPE_CHECKING:  # the command line reads SOURCE_ROOTS without loading the facts
    from docgen.model.facts import Import

SOURCE_ROOTS = DEFAULT_SOURCE_ROOTS
PYTHON_SUFFIXES = (".py", ".pyi")
STDLIB_MODULES = frozenset(getattr(sys, "stdlib_module_names", ())) | {"__future__"}


class ModuleImports(NamedTuple):
    """What the graph reads of one file, from its facts or from its summary."""

    path: str
    kind: str
    imports: Sequence[Import] | None  # None when the file has no Python facts


class ImportTarget(NamedTuple):
    """One import statement of a file, resolved (a tuple: a build resolves every import
    of the tree)."""

    line: int
    written: str  # the module as written, or "." * level for `from . import x`
    absolute: str  # the absolute dotted module it names ("" when a relative import climbs too far)
    targets: tuple[str, ...]  # repo paths of the files it imports (may be empty)
    names: tuple[str, ...] = ()
    renamed: tuple[str, ...] = ()  # of `names`, those bound under another name (`as x`)
    star: bool = False  # `from x import *`

    @property
    def internal(self) -> bool:
        return bool(self.targets) or self.written.startswith(".")


@dataclass(frozen=True)
class ImportGraph:
    """Who imports whom inside the repository, both ways, for Dependencies and Imported By."""

    modules: Mapping[str, str]  # dotted module name -> repo path
    module_names: Mapping[str, str]  # repo path -> its dotted module name
    imports: Mapping[str, tuple[ImportTarget, ...]]  # repo path -> its resolved imports
    imported_by: Mapping[str, tuple[str, ...]]  # repo path -> sorted importing paths

    def resolve(self, path: str, imports: Iterable[Import]) -> tuple[ImportTarget, ...]:
        """A file's imports resolved as this graph resolves them (for imports it was not
        built from: another version of the file's facts)."""
        return resolve_imports(path, imports, self.modules, self.module_names)

    def imports_of(self, path: str) -> tuple[str, ...]:
        """The repo files that `path` imports, sorted, without duplicates (none for a stub)."""
        if not is_module(path):
            return ()
        found = {t for imp in self.imports.get(path, ()) for t in imp.targets}
        return tuple(sorted(found))


def module_name(path: str, root: str) -> str | None:
    """The dotted module a file has under one source root, or None if it has none there."""
    if root:
        if not path.startswith(root + "/"):
            return None
        path = path[len(root) + 1 :]
    for suffix in PYTHON_SUFFIXES:
        if path.endswith(suffix):
            stem = path[: -len(suffix)]
            break
    else:
        return None
    parts = stem.split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts)


def map_modules(
    paths: Iterable[str], roots: Sequence[str] = SOURCE_ROOTS
) -> tuple[dict[str, str], dict[str, str]]:
    """Dotted name -> file (first source root wins; a package beats a same-named module),
    and each file's own name under its most specific root."""
    ordered = sorted(paths)
    modules: dict[str, str] = {}
    names: dict[str, str] = {}
    for root in roots:
        found: dict[str, str] = {}
        for path in ordered:
            name = module_name(path, root)
            if name is None:
                continue
            names[path] = name  # later (more specific) roots override
            current = found.get(name)
            if current is None or _precedence(path) < _precedence(current):
                found[name] = path
        for name, path in found.items():
            modules.setdefault(name, path)
    return modules, names


def _precedence(path: str) -> int:
    """A package's `__init__.py` wins over a module of the same dotted name."""
    return 0 if path.endswith(("/__init__.py", "/__init__.pyi")) else 1


def package_of(path: str, name: str) -> str:
    """The package a module's relative imports start from."""
    if path.endswith(("/__init__.py", "/__init__.pyi")) or path in ("__init__.py", "__init__.pyi"):
        return name
    return name.rpartition(".")[0]


def absolute_module(imp: Import, package: str | None) -> str:
    """The absolute dotted module an import names; "" when it cannot be resolved."""
    if imp.level == 0:
        return imp.module or ""
    return absolute_name(imp.module or "." * imp.level, package)


def absolute_name(written: str, package: str | None) -> str:
    """A dotted name as a relative import writes it (`..x.y`), made absolute from the
    package its file's relative imports start from; "" when it climbs too far or the
    package is not known.  An absolute name is itself."""
    rest = written.lstrip(".")
    level = len(written) - len(rest)
    if level == 0:
        return written
    if package is None:
        return ""
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return ""
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, rest] if rest else base)


#: (absolute module, from-import, names) -> the files such an import leads to
TargetCache = dict[tuple[str, bool, tuple[str, ...]], tuple[str, ...]]


def resolve_import(
    imp: Import,
    package: str | None,
    modules: Mapping[str, str],
    self_path: str,
    cache: TargetCache | None = None,
) -> ImportTarget:
    """`cache`, kept over one graph's imports, resolves each distinct import once (the
    same `import torch` is in thousands of files)."""
    module = imp.module
    absolute = (module or "") if imp.level == 0 else absolute_module(imp, package)
    written = module if module is not None else "." * imp.level
    key = (absolute, imp.is_from, imp.names)
    found = cache.get(key) if cache is not None else None
    if found is None:
        found = _targets(absolute, imp, modules)
        if cache is not None:
            cache[key] = found
    if self_path in found:
        found = tuple(t for t in found if t != self_path)
    # The tuple made directly: a build resolves every import of the tree, and the named
    # tuple's own constructor is a Python function.
    renamed = tuple(
        target.rsplit(".", 1)[-1]
        for bound, target in imp.aliases
        if imp.is_from and bound != target.rsplit(".", 1)[-1]
    )
    fields = (imp.line, written, absolute, found, imp.names, renamed, imp.star)
    return _new_tuple(ImportTarget, fields)


_new_tuple = tuple.__new__


def resolve_imports(
    path: str,
    imports: Iterable[Import],
    modules: Mapping[str, str],
    names: Mapping[str, str],
    cache: TargetCache | None = None,
) -> tuple[ImportTarget, ...]:
    """A file's imports resolved against its package (`names`: path -> module name)."""
    own = names.get(path)
    package = package_of(path, own) if own is not None else None
    return tuple(resolve_import(imp, package, modules, path, cache) for imp in imports)


def _targets(absolute: str, imp: Import, modules: Mapping[str, str]) -> tuple[str, ...]:
    targets: set[str] = set()
    if absolute:
        if imp.is_from:
            for name in imp.names or ("*",):
                submodule = modules.get(f"{absolute}.{name}") if name != "*" else None
                target = submodule or modules.get(absolute)
                if target:
                    targets.add(target)
        elif absolute in modules:
            targets.add(modules[absolute])
    return tuple(sorted(targets))


def build_graph(files: Iterable[ModuleImports], roots: Sequence[str] = SOURCE_ROOTS) -> ImportGraph:
    """The import graph of the repository's `.py` files.

    Every `.py` file is a module, even one that could not be parsed: others may
    import it.  Stubs (`.pyi`) are never imported by Python itself, so they are
    neither modules nor importers here; their own imports are still resolved
    for their pages.
    """
    python_files = python_modules(files)
    modules, names = module_maps(python_files, roots)
    imports: dict[str, tuple[ImportTarget, ...]] = {}
    importers: dict[str, set[str]] = {}
    cache: TargetCache = {}
    for path, _, written in python_files:
        if written is None:
            continue
        resolved = resolve_imports(path, written, modules, names, cache)
        imports[path] = resolved
        if not is_module(path):
            continue
        for target in {t for r in resolved for t in r.targets}:
            importers.setdefault(target, set()).add(path)
    return ImportGraph(
        modules=MappingProxyType(dict(sorted(modules.items()))),
        module_names=MappingProxyType(dict(sorted(names.items()))),
        imports=MappingProxyType(imports),
        imported_by=MappingProxyType({k: tuple(sorted(v)) for k, v in sorted(importers.items())}),
    )


def python_modules(files: Iterable[ModuleImports]) -> list[ModuleImports]:
    """The Python files among these, by path: the graph's own files."""
    return sorted((f for f in files if f.kind == "python"), key=lambda f: f.path)


def module_maps(
    python_files: Sequence[ModuleImports], roots: Sequence[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Dotted name -> module file, and each file's own name (stubs' included): what the
    imports are resolved against (see `map_modules`)."""
    modules, names = map_modules((f.path for f in python_files if is_module(f.path)), roots)
    for f in python_files:
        if not is_module(f.path):
            stub_name = _own_name(f.path, roots)
            if stub_name is not None:
                names[f.path] = stub_name
    return modules, names


def imported_files(
    path: str,
    imports: Iterable[Import] | None,
    modules: Mapping[str, str],
    names: Mapping[str, str],
) -> set[str]:
    """The files a module's imports lead to (none for a stub, which imports nothing)."""
    if imports is None or not is_module(path):
        return set()
    return {t for r in resolve_imports(path, imports, modules, names) for t in r.targets}


def is_module(path: str) -> bool:
    """Whether Python's import system can load this file (stubs it never loads)."""
    return path.endswith(".py")


def _own_name(path: str, roots: Sequence[str]) -> str | None:
    name = None
    for root in roots:
        name = module_name(path, root) or name
    return name


def top_level(module: str) -> str:
    return module.split(".", 1)[0]


def is_stdlib(module: str) -> bool:
    return top_level(module) in STDLIB_MODULES
