"""Where each Python definition is used in the tree's other Python files: the "Used
in" of its section and its uses on the keyword page.  They are the rows of the
dotted-reads relation (`docgen.index.native_calls`) whose name leads to the
definition the way `docgen find NAME --uses` follows it (`docgen.index.python_uses`):
through imports, re-exports and stubs.  Resolved before the pages are digested, so
that a page's digest covers its uses; an edit moves the keys of the rows it changed,
and the pages of the files defining a name so keyed are the only others it changes
(`used_definers`), besides those whose re-exports it changed (see
`docgen.render.edit_scope`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from docgen.index.cfamily_use_rows import DIRECTIVE_KEY, use_key
from docgen.index.cfamily_uses import resolved_uses
from docgen.index.native_calls import call_key, row_lines
from docgen.index.python_uses import DEFINITION_KINDS, DefinitionFinder, lead_modules
from docgen.index.repo import declarations_of
from docgen.index.visibility import Visibility
from docgen.model.languages import is_cfamily, language_for
from docgen.render.native_links import moved_definers

if TYPE_CHECKING:
    from docgen.index.repo import RepoIndex
    from docgen.render.lookup import RepoLookup
    from docgen.render.role_links import NamedSites


@dataclass(frozen=True, order=True)
class FileUses:
    """One file's uses of a definition of another: its lines that import or read it."""

    path: str
    lines: tuple[int, ...]

    def key(self) -> str:
        return f"{self.path}@{','.join(str(n) for n in self.lines)}"


_NO_USES: Mapping[str, tuple[FileUses, ...]] = MappingProxyType({})


@dataclass(frozen=True)
class UseLinks:
    """Each Python file's definitions, by qualified name, with the other files that use
    them, most uses first: looked for before the pages are digested for the files
    whose pages a build may change (`known`), and on demand for any other page it
    renders (one restored after a hand edit)."""

    uses: Mapping[str, Mapping[str, tuple[FileUses, ...]]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    known: frozenset[str] = frozenset()  # the files whose uses were looked for (not a test's)
    later: Callable[[str], UseLinks] | None = None  # looks for one more file's
    _more: dict[str, UseLinks] = field(default_factory=dict, compare=False, repr=False)

    def _for(self, path: str) -> UseLinks:
        if path in self.known or self.later is None:
            return self
        found = self._more.get(path)
        if found is None:
            found = self._more[path] = self.later(path)
        return found

    def of(self, path: str) -> Mapping[str, tuple[FileUses, ...]]:
        return self._for(path).uses.get(path, _NO_USES)

    def has(self, path: str) -> bool:
        """Whether the file's uses were looked for before the pages (none looked for now)."""
        return path in self.known

    def looked_for(self, path: str) -> bool:
        """Whether the file's uses were looked for (a page says "none" only then)."""
        return path in self._for(path).known

    def inputs(self, path: str) -> list[str]:
        """What a file's pages show of the files that use it, for their digests."""
        return [f"{q}<{u.key()}" for q, found in sorted(self.of(path).items()) for u in found]


def use_links(
    index: RepoIndex, lookup: RepoLookup, named: NamedSites, paths: Iterable[str] | None
) -> UseLinks:
    """The uses of the definitions of the Python and C-family files among `paths` (None:
    every file), and of any other file's when asked."""
    found = _looked_for(index, lookup, named, paths)
    return replace(found, later=lambda path: _looked_for(index, lookup, named, [path]))


def _looked_for(
    index: RepoIndex, lookup: RepoLookup, named: NamedSites, paths: Iterable[str] | None
) -> UseLinks:
    kinds = index.files.kinds()
    chosen = kinds if paths is None else set(paths) & kinds.keys()
    python = _python_looked_for(index, lookup, sorted(p for p in chosen if kinds[p] == "python"))
    c_paths = sorted(p for p in chosen if kinds[p] == "cfamily")
    if not c_paths:
        return python
    c_uses = c_family_uses(index, named, c_paths)
    return UseLinks(MappingProxyType({**python.uses, **c_uses}), python.known | frozenset(c_paths))


def c_family_uses(
    index: RepoIndex, named: NamedSites, paths: Sequence[str]
) -> dict[str, Mapping[str, tuple[FileUses, ...]]]:
    """The uses other files make of the C-family files' declarations (see
    `docgen.index.cfamily_uses`), by file and qualified name."""
    rows = index.c_use_rows
    if rows is None:
        return {}
    every = [p for p in index.files if is_cfamily(p)]
    if len(paths) == len(every):  # every file: every row, no file's facts decoded for keys
        held = rows.rows.rows_of(every)
        keys = {use_key(r) for found in held.values() for r in found}
    else:
        keys = set()
        for path in paths:
            c = index.files[path].facts.cfamily
            if c is not None:
                keys.update(d.name.lstrip("~") for d in c.definitions)
        held = rows.rows.rows_of(sorted(rows.holding(keys | {DIRECTIVE_KEY}))) if keys else {}
    if not keys:
        return {}
    includes = index.includes
    visibility = Visibility(held, includes.includes_of)  # what each user sees, no more
    specialized = {q for q, _ in index.c_family.specialized}
    wanted = set(paths)
    found: dict[str, dict[str, dict[str, set[int]]]] = {}
    for use in resolved_uses(held, keys, named, visibility, specialized):
        for path in wanted.intersection(use.listed_on):
            by_file = found.setdefault(path, {}).setdefault(use.qualname, {})
            by_file.setdefault(use.user, set()).update(use.lines)
    return {
        path: MappingProxyType({q: _most_first(by_file) for q, by_file in sorted(by_name.items())})
        for path, by_name in sorted(found.items())
    }


def c_use_scope(
    index: RepoIndex, named: NamedSites, edits: Mapping[str, tuple[object, object]]
) -> frozenset[str] | None:
    """The C-family files whose uses an edit of these files can have changed, None when
    any can: those declaring a name whose rows of names written came, went or moved,
    and the edited files; any, when the include graph was made again, a file came or
    went, an edited file's declarations changed or moved, or a header's `using
    namespace` moved.  The other files' uses are as the last build found them, and so
    are their pages' digests (see `docgen.render.use_counts`)."""
    edited = sorted(p for p in edits if is_cfamily(p))
    rows = index.c_use_rows
    if not edited:
        return frozenset()
    if rows is None or not index.c_summaries or rows.gone:
        return None
    moved = rows.moved(edited)  # None for a file with no rows before: one new
    if moved is None or DIRECTIVE_KEY in moved:
        return None
    if declarations_of(index.files[p] for p in edited) != index.c_edited_before:
        return None  # a declaration came or went: lookups elsewhere may find others
    names = set(moved)
    found = set(edited)
    for name in sorted(names):
        found.update(s.path for s in named(name) if is_cfamily(s.path))
    return frozenset(found)


def _python_looked_for(index: RepoIndex, lookup: RepoLookup, wanted: list[str]) -> UseLinks:
    rows = index.native_rows
    if rows is None or not wanted:
        return UseLinks()
    defined: dict[str, frozenset[str]] = {}
    tests = lookup.test_files
    for path in wanted:
        if path in tests:
            continue  # a runner runs a test file's tests: its pages list no uses
        python = index.files[path].facts.python
        own = (
            {d.qualname for d in python.definitions if d.kind in DEFINITION_KINDS} if python else ()
        )
        if own:
            defined[path] = frozenset(own)
    keys = {q.rsplit(".", 1)[-1] for own in defined.values() for q in own}
    finder = DefinitionFinder(lead_modules(index.graph), lambda _: None, lookup.bindings)
    found: dict[str, dict[str, dict[str, set[int]]]] = {}
    held = rows.rows.rows_of(sorted(rows.holding(keys | {DIRECTIVE_KEY}))) if keys else {}
    for holder, made in sorted(held.items()):
        for row in made:
            if call_key(row) not in keys:
                continue
            target = finder.leads_to(holder, row[0])
            if target is None or target[0] == holder or target[1] not in defined.get(target[0], ()):
                continue
            by_file = found.setdefault(target[0], {}).setdefault(target[1], {})
            by_file.setdefault(holder, set()).update(row_lines(row))
    return UseLinks(
        MappingProxyType(
            {
                path: MappingProxyType(
                    {q: _most_first(by_file) for q, by_file in sorted(by_name.items())}
                )
                for path, by_name in sorted(found.items())
            }
        ),
        frozenset(wanted),
    )


def _most_first(by_file: Mapping[str, set[int]]) -> tuple[FileUses, ...]:
    uses = [FileUses(p, tuple(sorted(lines))) for p, lines in by_file.items()]
    return tuple(sorted(uses, key=lambda u: (-len(u.lines), u.path)))


def used_definers(
    index: RepoIndex, named: NamedSites, edits: Mapping[str, object]
) -> set[str] | None:
    """The Python files defining a name whose uses an edit of these files can have
    changed: those defining a name whose rows came, went or moved; None when the rows
    before the edit are not known."""
    return moved_definers(
        index,
        named,
        edits,
        lambda s: s.kind in DEFINITION_KINDS and language_for(s.path) == "python",
    )
