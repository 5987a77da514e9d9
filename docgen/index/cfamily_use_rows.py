"""The names each C, C++ and CUDA file's code writes (`docgen.scan.cfamily.name_uses`),
kept as a relation keyed by their last names, so that the uses of one name read the
rows of the files that write it only (see `docgen.index.cfamily_uses`)."""

from __future__ import annotations

from docgen.index.relations import Relation
from docgen.model import cfamily_facts as facts
from docgen.model.cfamily_facts import CFacts

#: (as written, scope, the `using`s open joined by newlines, called, lines joined by ","):
#: called is 0 or 1, or what a namespace's own line says of a name (scope: the
#: namespace): `DIRECTIVE` (`using namespace n;`, written: the namespace nominated),
#: `FORWARD` (`class X;`) or `USING` (`using n::X;`, written: `n::X`)
CUseRow = tuple[str, str, str, int, str]
DIRECTIVE, FORWARD, USING = 2, 3, 4
_KIND_CODES = {facts.DIRECTIVE: DIRECTIVE, facts.FORWARD: FORWARD, facts.USING: USING}
#: the key of every namespace's `using namespace` row: no name can be it
DIRECTIVE_KEY = "#using"


def _row(data: list[str | int]) -> CUseRow:
    name, scope, usings, call, lines = data
    if not isinstance(call, int):
        raise TypeError("a C-family use row is (name, scope, usings, call, lines)")
    return str(name), str(scope), str(usings), call, str(lines)


def use_key(row: CUseRow) -> str:
    """The last name of what a row writes (what it is kept under), `DIRECTIVE_KEY` for a
    `using namespace` row."""
    return DIRECTIVE_KEY if row[3] == DIRECTIVE else row[0].rpartition("::")[2].lstrip("~")


CFAMILY_USES: Relation[CUseRow] = Relation("cfamily-uses", "1", use_key, _row, keyed=True)


def use_rows(c: CFacts | None) -> tuple[CUseRow, ...]:
    """A C-family file's rows: every name its code writes (see `CFacts.uses`)."""
    if c is None:
        return ()
    return tuple(
        (
            u.name,
            u.scope,
            "\n".join(u.usings),
            _KIND_CODES.get(u.kind, int(u.call)),
            ",".join(map(str, u.lines)),
        )
        for u in c.uses
    )


def row_lines(row: CUseRow) -> tuple[int, ...]:
    return tuple(int(n) for n in row[4].split(",")) if row[4] else ()


def is_header(path: str) -> bool:
    """Whether a file is one others include (by its suffix), not one compiled alone."""
    return path.rpartition(".")[2].lower() in {"h", "hh", "hpp", "hxx", "cuh", "inc", "inl", "ipp"}
