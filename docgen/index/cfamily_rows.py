"""The C-family relations between files, each one a relation of `docgen.index.relations`.

- `INCLUDES`: each C-family file's includes as resolved (line, target as written,
  system or not, the repository file it names, how it was found).  They follow from
  the file's own includes, the include roots and the paths an include could name (the
  paths whose last part is the last part of some include's target: `include_names`).
- `SPECIALIZATIONS`: each file's class specializations (qualified name, arguments).
- `DECLARATIONS`: each file's functions and the like with their parameters as
  written (`docgen.index.symbols.declaration_rows`); a declaration and a definition
  of one name and signature are a pair.  They follow from the file's facts and the
  specializations of the whole tree (an out-of-line member names the specialization
  it belongs to).

`CFamilyRows` is the C-family side of an index: the include graph and the declaration
pairs made from the rows, which stay encoded until a page reads them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from docgen.index.cfamily_keyed import IncludeRow, Includes, KeyedIncludes, KeyedPairs, Pairs
from docgen.index.includes import IncludeGraph, ResolvedInclude, build_include_graph
from docgen.index.relations import Kept, Relation, RelationRows, made_from
from docgen.index.symbols import (
    CppSymbols,
    DeclarationRow,
    declaration_rows,
    tree_specializations,
)
from docgen.model.facts import ScannedFile
from docgen.model.languages import is_cfamily
from docgen.state import StateDamaged

SpecializationRow = tuple[str, str]  # (qualified name, template arguments)


def _include_row(data: list[str | int]) -> IncludeRow:
    line, target, system, path, how, others = data
    if not (isinstance(line, int) and isinstance(system, int)):
        raise TypeError("an include row is (line, target, system, path, how, others)")
    return line, str(target), system, str(path), str(how), str(others)


def _specialization_row(data: list[str | int]) -> SpecializationRow:
    qualname, arguments = data
    return str(qualname), str(arguments)


def _declaration_row(data: list[str | int]) -> DeclarationRow:
    qualname, line, kind, is_definition, owner, params = data
    if not (isinstance(line, int) and isinstance(is_definition, int)):
        raise TypeError("a declaration row is (qualname, line, kind, definition, owner, params)")
    return str(qualname), line, str(kind), is_definition, str(owner), str(params)


INCLUDES: Relation[IncludeRow] = Relation(
    "includes", "2", lambda row: row[3], _include_row, keyed=True
)
SPECIALIZATIONS: Relation[SpecializationRow] = Relation(
    "specializations", "1", lambda row: row[0], _specialization_row
)
DECLARATIONS: Relation[DeclarationRow] = Relation(
    "declarations", "3", lambda row: row[0], _declaration_row, keyed=True
)
RELATIONS = (INCLUDES, SPECIALIZATIONS, DECLARATIONS)


def include_rows(resolved: Iterable[ResolvedInclude]) -> tuple[IncludeRow, ...]:
    return tuple(
        (r.line, r.target, int(r.system), r.path, r.how, "\n".join(r.others)) for r in resolved
    )


def specialization_rows(specialized: Iterable[tuple[str, str]]) -> tuple[SpecializationRow, ...]:
    return tuple(sorted(specialized))


def include_names(includes: IncludeGraph) -> tuple[str, ...]:
    """The last part of every include's target, as written and as normalised: a file can
    resolve an include only when its own last part is one of these."""
    targets = {inc.target for resolved in includes.includes.values() for inc in resolved}
    found: set[str] = set()
    for target in targets:  # far fewer than the includes: headers are included many times
        found.add(posixpath.basename(target))
        found.add(posixpath.basename(posixpath.normpath(target or ".")))
    return tuple(sorted(found))


@dataclass(frozen=True)
class Contexts:
    """What each C-family relation's rows follow from besides their file's facts."""

    includes: str
    specializations: str
    declarations: str

    @classmethod
    def of(
        cls,
        code: str,
        roots: Sequence[str],
        names: Iterable[str],
        paths: Iterable[str],
        specialized: Iterable[tuple[str, str]],
    ) -> Contexts:
        """`names`: the include names (see `include_names`); `paths`: the tree's."""
        wanted = frozenset(names)
        named = sorted(p for p in paths if p.rpartition("/")[2] in wanted)
        return cls(
            INCLUDES.context(code, list(roots), sorted(wanted), named),
            SPECIALIZATIONS.context(code),
            DECLARATIONS.context(code, sorted(specialized)),
        )


AnyRows = RelationRows[IncludeRow] | RelationRows[SpecializationRow] | RelationRows[DeclarationRow]


ThreeRows = tuple[
    RelationRows[IncludeRow], RelationRows[SpecializationRow], RelationRows[DeclarationRow]
]


class CFamilyRows:
    """The C-family side of an index: each relation's rows, kept or made again, and what
    is made of them (the include graph, the declaration pairs) when first read, unless
    this build made them from the facts already.  `rows` may be made when first read:
    where no C-family file changed, every row is as kept and most builds read none."""

    def __init__(
        self,
        rows: ThreeRows | Callable[[], ThreeRows],
        roots: tuple[str, ...],
        guessed: bool,
        specialized: frozenset[tuple[str, str]],
        graph: Includes | None = None,
        symbols: Pairs | None = None,
    ) -> None:
        self._rows = rows
        self.roots, self.guessed, self.specialized = roots, guessed, specialized
        self._graph = graph
        self._symbols = symbols

    def _made(self) -> ThreeRows:
        if callable(self._rows):
            self._rows = self._rows()
        return self._rows

    @property
    def includes(self) -> RelationRows[IncludeRow]:
        return self._made()[0]

    @property
    def specializations(self) -> RelationRows[SpecializationRow]:
        return self._made()[1]

    @property
    def declarations(self) -> RelationRows[DeclarationRow]:
        return self._made()[2]

    def every(self) -> tuple[AnyRows, ...]:
        """Each relation's rows, for the next build to keep: none when they were never
        made (every row is then as kept)."""
        return () if callable(self._rows) else self._made()

    def include_graph(self) -> Includes:
        """Who includes whom: made by this build, or read for each file a page asks about
        from its own rows and those of the files that include it."""
        if self._graph is None:
            self._graph = KeyedIncludes(self.includes, self.roots, self.guessed)
        return self._graph

    def symbols(self) -> Pairs:
        """The declaration pairs: made by this build, or found for each file a page asks
        about from the rows of the files that share a name with it."""
        if self._symbols is None:
            self._symbols = KeyedPairs(self.declarations, self.specialized)
        return self._symbols


def _relation_rows(
    kept: Mapping[str, Kept],
    contexts: Contexts,
    digests: Mapping[str, str],
    paths: Sequence[str],
    includes_of: Callable[[str], tuple[IncludeRow, ...]],
    files: Mapping[str, ScannedFile],
    specialized: frozenset[tuple[str, str]],
    declared: Mapping[str, tuple[DeclarationRow, ...]] | None = None,
    unchanged: Collection[str] = (),
) -> ThreeRows:
    """Each relation's rows of the C-family files `paths`: kept where they still hold, else
    made (the includes by `includes_of`, unless the files are `unchanged` in their
    includes; the others from the facts in `files`, or `declared` where this build made
    every file's declaration rows already)."""

    def specializations_of(path: str) -> tuple[SpecializationRow, ...]:
        return specialization_rows(tree_specializations(files[path]))

    def declarations_of(path: str) -> tuple[DeclarationRow, ...]:
        if declared is not None:
            return declared[path]
        return declaration_rows(files[path], specialized)

    return (
        RelationRows(
            INCLUDES,
            kept.get(INCLUDES.name, {}),
            made_from(contexts.includes, digests, paths),
            includes_of,
            unchanged,
        ),
        RelationRows(
            SPECIALIZATIONS,
            kept.get(SPECIALIZATIONS.name, {}),
            made_from(contexts.specializations, digests, paths),
            specializations_of,
        ),
        RelationRows(
            DECLARATIONS,
            kept.get(DECLARATIONS.name, {}),
            made_from(contexts.declarations, digests, paths),
            declarations_of,
        ),
    )


def made_side(
    c_files: Sequence[ScannedFile],
    tree: Iterable[str],
    include_roots: Sequence[str],
    kept: Mapping[str, Kept],
    digests: Mapping[str, str],
    code: str,
) -> tuple[CFamilyRows, tuple[str, ...]]:
    """The C-family side made from every C-family file's facts (the rows kept where they
    still hold), with its include names."""
    paths = sorted(tree)
    graph = build_include_graph(c_files, paths, include_roots)
    names = include_names(graph)
    specialized = frozenset(s for f in c_files for s in tree_specializations(f))
    contexts = Contexts.of(code, graph.roots, names, paths, specialized)
    files = {f.facts.path: f for f in c_files}
    c_paths = sorted(files)

    def includes_of(path: str) -> tuple[IncludeRow, ...]:
        return include_rows(graph.includes.get(path, ()))

    declared = {p: declaration_rows(f, specialized) for p, f in files.items()}
    rows = _relation_rows(
        kept, contexts, digests, c_paths, includes_of, files, specialized, declared
    )
    symbols = CppSymbols.from_rows(declared, specialized)
    return CFamilyRows(rows, graph.roots, graph.guessed, specialized, graph, symbols), names


def kept_side(
    names: Sequence[str],
    roots: tuple[str, ...],
    guessed: bool,
    specialized: frozenset[tuple[str, str]],
    tree: Iterable[str],
    kept: Mapping[str, Kept],
    digests: Mapping[str, str],
    code: str,
    files: Mapping[str, ScannedFile],
    edited: Sequence[str],
) -> CFamilyRows:
    """The C-family side the last build kept, with the rows of the C-family files
    `edited` since made again: an edit that left their includes and class
    specializations as they were (so their include rows are the kept ones), and every
    path an include can name."""

    def includes_of(path: str) -> tuple[IncludeRow, ...]:
        # every C-family file's include rows are the kept ones (see `unchanged`)
        raise StateDamaged(f"the kept includes of {path} cannot be read")

    def rows() -> ThreeRows:
        paths = sorted(tree)
        contexts = Contexts.of(code, roots, names, paths, specialized)
        c_paths = [p for p in paths if is_cfamily(p)]
        return _relation_rows(
            kept, contexts, digests, c_paths, includes_of, files, specialized, unchanged=edited
        )

    return CFamilyRows(rows if not edited else rows(), roots, guessed, specialized)


def affected_by(side: CFamilyRows, edited: Iterable[str]) -> set[str]:
    """The C-family files whose pages show a pair of a name the `edited` files declare or
    define, before or after their edit (their own included)."""
    rows = side.declarations
    qualnames: set[str] = set()
    found = set(edited)
    for path in found:
        for held in (rows.before.get(path) or (), rows.rows[path]):
            qualnames.update(row[0] for row in held)
    return found | rows.holding(qualnames)


def keeps_includes(before: ScannedFile, after: ScannedFile) -> bool:
    """Whether an edit of a C-family file leaves its includes (and so its include rows and
    the include graph) and its class specializations (which other files' declaration
    rows read) as they were."""
    old, new = before.facts.cfamily, after.facts.cfamily
    if old is None or new is None or old.includes != new.includes:
        return False
    return tree_specializations(before) == tree_specializations(after)
