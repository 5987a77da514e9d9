"""What a scanner is told about the whole repository before it reads one file.

Facts must depend only on a file's bytes and these settings, so the settings
are part of the cache key of every file whose scanner reads them.  Most of them is
one macro table, as Universal Ctags' `-D NAME(args)=body`: each macro of the tree
with what it means to the scanner (`Macro`, the meanings in `MEANINGS`; see
`docgen.scan.cfamily.preprocess.macro_def`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from docgen.scan.cfamily.preprocess.macro_def import MEANINGS, ByMeaning, Macro, table_of

if TYPE_CHECKING:
    from docgen.scan.cfamily.preprocess.macro_def import MacroDef
    from docgen.scan.cfamily.preprocess.macro_table import MacroTable


@dataclass(frozen=True)
class ScanSettings:
    """Repository-wide inputs of the C-family scanner.

    `macros`: the tree's macro table, meaning by meaning in `MEANINGS` order (the
    attribute macros sorted, the others in the order their learners give them),
    learned from the repository's headers and configured.  `headers_as`: the grammar
    for `.h` files, "cpp" in a tree that has C++ sources, else "c".
    """

    macros: tuple[Macro, ...] = ()
    headers_as: str = "cpp"
    #: the table by meaning, made once (not compared: it follows from `macros`)
    by_meaning: ByMeaning = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_meaning", ByMeaning(self.macros))

    @classmethod
    def of(
        cls, headers_as: str = "cpp", **meanings: Iterable[str] | Iterable[tuple[str, str | int]]
    ) -> ScanSettings:
        """Settings from each meaning's macros (see `table_of`)."""
        return cls(table_of(**meanings), headers_as)

    @classmethod
    def learned(
        cls, defs: Sequence[MacroDef], headers_as: str, configured: Iterable[str] = ()
    ) -> ScanSettings:
        """The settings a tree's `#define`s make, with the configured attribute macros:
        each meaning's macros found by its learner (see `preprocess.meanings`)."""
        from docgen.scan.cfamily.preprocess.meanings import learned_table

        return cls(learned_table(defs, configured), headers_as)

    def named(self, means: str) -> tuple[str, ...]:
        """The names of the macros of one meaning, in the table's order."""
        return self.by_meaning.named(means)

    def values(self, means: str) -> tuple[tuple[str, str], ...]:
        """(name, value) of the macros of one meaning, in the table's order."""
        return self.by_meaning.values(means)

    @cached_property
    def attribute_macros(self) -> frozenset[str]:
        """The attribute macros, blanked before the parse beside the built-in ones."""
        return frozenset(self.named("attribute"))

    @cached_property
    def function_heads(self) -> Mapping[str, str]:
        """Macro -> the function head it writes (see `head_macros`): PyTorch's
        structured-kernel macros, then the tree's own, which a tree may redefine."""
        from docgen.scan.cfamily.preprocess.head_macros import STRUCTURED_KERNEL_HEADS

        return {**STRUCTURED_KERNEL_HEADS, **dict(self.values("head"))}

    @cached_property
    def macro_table(self) -> MacroTable:
        """The macros prepared once for every file a worker scans with these settings."""
        from docgen.scan.cfamily.preprocess.macro_table import MacroTable

        return MacroTable.of(self.by_meaning)

    def to_json(self) -> str:
        return json.dumps([self.headers_as, [[m.name, m.means, m.value] for m in self.macros]])

    @classmethod
    def from_json(cls, text: str) -> ScanSettings | None:
        """Settings `to_json` wrote; None for text it did not write."""
        try:
            headers_as, rows = json.loads(text)
            table = tuple(Macro(str(name), str(means), str(value)) for name, means, value in rows)
        except (ValueError, TypeError):
            return None
        if not isinstance(headers_as, str) or any(m.means not in MEANINGS for m in table):
            return None
        return cls(table, headers_as)

    def key(self) -> str:
        digest = hashlib.sha256(self.headers_as.encode() + b"\0")
        for macro in self.macros:
            digest.update(str(macro).encode() + b"\0")
        return digest.hexdigest()


DEFAULT_SETTINGS = ScanSettings()
