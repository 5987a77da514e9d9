"""What a scanner is told about the whole repository before it reads one file.

Facts must depend only on a file's bytes and these settings, so the settings
are part of the cache key of every file whose scanner reads them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from docgen.scan.cfamily.preprocess.macro_def import MacroDef
    from docgen.scan.cfamily.preprocess.macro_table import MacroTable


@dataclass(frozen=True)
class ScanSettings:
    """Repository-wide inputs of the C-family scanner.

    `attribute_macros`: export and attribute macros to blank before parsing, in
    addition to the built-in list (learned from the repository's headers and
    configured).  `headers_as`: the grammar for `.h` files, "cpp" in a tree
    that has C++ sources, else "c".  `namespace_macros`: macros such as
    `FMT_BEGIN_NAMESPACE` that open or close namespaces, read as what they write.
    """

    attribute_macros: frozenset[str] = field(default_factory=frozenset)
    headers_as: str = "cpp"
    #: (macro, expansion) of macros that open or close namespaces (see cpp_macros)
    namespace_macros: tuple[tuple[str, str], ...] = ()
    #: (macro, place of the argument kept) of macros that wrap a declaration in
    #: attributes, such as `GGML_DEPRECATED(func, hint)` (see cpp_macros)
    wrapper_macros: tuple[tuple[str, int], ...] = ()
    #: macros that open a loop or a condition, such as `list_for_each(pos, head)`, read as
    #: the `if` they stand for (see cpp_macros)
    statement_macros: tuple[str, ...] = ()
    #: (macro, identifier) of macros that stand for one name, read for what a namespace
    #: macro's argument names (`PYBIND11_NAMESPACE_BEGIN(PYBIND11_NAMESPACE)`)
    name_macros: tuple[tuple[str, str], ...] = ()
    #: (macro, keyword) of macros that stand for an access specifier (see cpp_macros)
    access_macros: tuple[tuple[str, str], ...] = ()
    #: macros that make a string of their arguments, which are blanked (see
    #: cpp_string_macros)
    string_macros: tuple[str, ...] = ()
    #: macros that make a dependent type, read as a type of their own name (see
    #: cpp_declaring_macros.type_macros)
    type_macros: tuple[str, ...] = ()
    #: macros that make a pointer declarator of their argument, read as one (see
    #: cpp_declaring_macros.pointer_macros)
    pointer_macros: tuple[str, ...] = ()
    #: (macro, name) of macros that declare a function of their arguments, read as that
    #: function's name (see cpp_declaring_macros.written_macros)
    written_macros: tuple[tuple[str, str], ...] = ()

    @classmethod
    def learned(
        cls, defs: Sequence[MacroDef], headers_as: str, configured: Iterable[str] = ()
    ) -> ScanSettings:
        """The settings a tree's `#define`s make, with the configured attribute macros."""
        from docgen.scan.cfamily.preprocess.declaring_macros import (
            pointer_macros,
            type_macros,
            written_macros,
        )
        from docgen.scan.cfamily.preprocess.macros import (
            access_macros,
            attribute_macros,
            name_macros,
            statement_macros,
            wrapper_macros,
        )
        from docgen.scan.cfamily.preprocess.namespace_macros import namespace_macros
        from docgen.scan.cfamily.preprocess.string_macros import string_macros

        attributes = attribute_macros(defs) | frozenset(configured)
        return cls(
            attributes,
            headers_as,
            namespace_macros(defs),
            wrapper_macros(defs, attributes),
            statement_macros(defs),
            name_macros(defs),
            access_macros(defs),
            string_macros(defs, attributes),
            type_macros(defs, attributes),
            pointer_macros(defs, attributes),
            written_macros(defs, attributes),
        )

    @cached_property
    def macro_table(self) -> MacroTable:
        """The macros prepared once for every file a worker scans with these settings."""
        from docgen.scan.cfamily.preprocess.macro_table import MacroTable

        return MacroTable.of(
            self.attribute_macros,
            self.namespace_macros,
            self.wrapper_macros,
            self.statement_macros,
            self.name_macros,
            self.access_macros,
            self.string_macros,
            self.type_macros,
            self.pointer_macros,
            self.written_macros,
        )

    def to_json(self) -> str:
        return json.dumps(
            [
                sorted(self.attribute_macros),
                self.headers_as,
                [list(pair) for pair in self.namespace_macros],
                [list(pair) for pair in self.wrapper_macros],
                list(self.statement_macros),
                [list(pair) for pair in self.name_macros],
                [list(pair) for pair in self.access_macros],
                list(self.string_macros),
                list(self.type_macros),
                list(self.pointer_macros),
                [list(pair) for pair in self.written_macros],
            ]
        )

    @classmethod
    def from_json(cls, text: str) -> ScanSettings | None:
        """Settings `to_json` wrote; None for text it did not write."""
        try:
            (
                attributes,
                headers_as,
                namespaces,
                wrappers,
                statements,
                names,
                access,
                strings,
                types,
                pointers,
                written,
            ) = json.loads(text)
            return cls(
                frozenset(str(name) for name in attributes),
                str(headers_as),
                tuple((str(name), str(expansion)) for name, expansion in namespaces),
                tuple((str(name), int(place)) for name, place in wrappers),
                tuple(str(name) for name in statements),
                tuple((str(name), str(word)) for name, word in names),
                tuple((str(name), str(word)) for name, word in access),
                tuple(str(name) for name in strings),
                tuple(str(name) for name in types),
                tuple(str(name) for name in pointers),
                tuple((str(name), str(text)) for name, text in written),
            )
        except (ValueError, TypeError):
            return None

    def key(self) -> str:
        digest = hashlib.sha256(self.headers_as.encode() + b"\0")
        for name in sorted(self.attribute_macros):
            digest.update(name.encode() + b"\0")
        for name, expansion in self.namespace_macros:
            digest.update(f"{name}={expansion}".encode() + b"\0")
        for name, place in self.wrapper_macros:
            digest.update(f"{name}@{place}".encode() + b"\0")
        for name in self.statement_macros:
            digest.update(f"{name}:if".encode() + b"\0")
        for name, word in self.name_macros:
            digest.update(f"{name}->{word}".encode() + b"\0")
        for name, word in self.access_macros:
            digest.update(f"{name}:{word}".encode() + b"\0")
        for name in self.string_macros:
            digest.update(f"{name}:#".encode() + b"\0")
        for name in self.type_macros:
            digest.update(f"{name}:type".encode() + b"\0")
        for name in self.pointer_macros:
            digest.update(f"{name}:*".encode() + b"\0")
        for name, text in self.written_macros:
            digest.update(f"{name}:={text}".encode() + b"\0")
        return digest.hexdigest()


DEFAULT_SETTINGS = ScanSettings()
