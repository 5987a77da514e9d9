"""Where an imported name comes from, through the modules that re-export it.

`from torch.distributed.fsdp import fully_shard` names the package, whose
`__init__.py` imports `fully_shard` from `._fully_shard`, whose `__init__.py` imports
it from `._fully_shard`: the code a test reaches that way is the last file, not the
shims on the way.  Read from the import graph alone: a name a module imports from
another is the other's (Python binds the same object), followed until a module
imports it from nowhere in the repository; a name imported under another name, or
through `*`, ends the walk at the module that binds it.
"""

from __future__ import annotations

from collections.abc import Iterable

from docgen.index.graph import ImportGraph, ImportTarget

#: the longest chain of re-exports followed (a cycle ends the walk sooner)
MAX_HOPS = 16


class Origins:
    """The files names come from, memoised for one graph."""

    def __init__(self, graph: ImportGraph) -> None:
        self._graph = graph
        self._known: dict[tuple[str, str], str] = {}

    def of_name(self, path: str, name: str) -> str:
        """The file that binds `name` for `from <path's module> import name`: `path`
        itself unless it imports the name from another file of the repository."""
        key = (path, name)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = self._walk(path, name)
        return found

    def _walk(self, path: str, name: str) -> str:
        seen = {path}
        for _ in range(MAX_HOPS):
            source = self._source(path, name)
            if source is None or source in seen:
                return path
            seen.add(source)
            path = source
        return path

    def _source(self, path: str, name: str) -> str | None:
        """The file `path` imports `name` from (a submodule of that name is the file
        itself), or None."""
        for target in self._graph.imports.get(path, ()):
            if name in target.names and name not in target.renamed and target.absolute:
                submodule = self._graph.modules.get(f"{target.absolute}.{name}")
                return submodule or self._graph.modules.get(target.absolute)
        return None

    def of_imports(self, targets: Iterable[ImportTarget]) -> tuple[str, ...]:
        """The files a file's imports reach, each name followed to where it comes from
        (a plain `import x` reaches `x` itself); sorted."""
        return tuple(sorted({path for _, path in self.pairs(targets)}))

    def pairs(self, targets: Iterable[ImportTarget]) -> set[tuple[str, str]]:
        """(name as imported, the file it comes from) for each name of these imports; the
        name is "" for a plain `import x`."""
        found: set[tuple[str, str]] = set()
        for target in targets:
            if not target.names or not target.absolute:
                found.update(("", path) for path in target.targets)
                continue
            base = self._graph.modules.get(target.absolute)
            for name in target.names:
                submodule = self._graph.modules.get(f"{target.absolute}.{name}")
                if submodule is not None:
                    found.add((name, submodule))
                elif base is not None:
                    found.add((name, self.of_name(base, name)))
        return found
