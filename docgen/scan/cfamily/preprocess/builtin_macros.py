"""The words docgen knows before it reads a tree's `#define`s: the attribute macros of
the tables in `tables/` (the compilers', Windows' and PyTorch's), the specifiers an
attribute macro's body may hold, and the CUDA words the grammars read themselves (see
`macros`, which learns the rest)."""

from __future__ import annotations

from pathlib import Path

from docgen.scan.cfamily.preprocess.macro_def import Macro

#: The macro tables docgen knows before it reads a tree, one file each by where its
#: macros come from (the compilers, Windows' SDK, PyTorch), as data in `tables/`.
TABLES = ("compilers", "windows", "pytorch")


def read_table(text: str) -> tuple[Macro, ...]:
    """The macros of one table file: one a line, `NAME`, `NAME()` or `NAME=meaning:value`
    (see `Macro`), `#` starting a comment."""
    found = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, meaning = line.partition("=")
        means, _, value = meaning.partition(":")
        found.append(Macro(name.strip(), means.strip() or "attribute", value.strip()))
    return tuple(found)


def builtin_table() -> tuple[Macro, ...]:
    """Every table of `TABLES`, in order."""
    folder = Path(__file__).resolve().parent / "tables"
    return tuple(
        m for name in TABLES for m in read_table((folder / f"{name}.macros").read_text("utf-8"))
    )


#: Macros every C++ tree may use, blanked whether or not a header defines them.
BUILTIN_MACROS: frozenset[str] = frozenset(
    m.name for m in builtin_table() if m.means == "attribute"
)

#: Words an attribute macro's body may hold besides attributes and other such macros.
SPECIFIER_WORDS: frozenset[str] = frozenset(
    {
        "inline",
        "__inline",
        "__inline__",
        "__forceinline",
        "__forceinline__",
        "static",
        "extern",
        "constexpr",
        "__host__",
        "__device__",
        "noexcept",
        "explicit",
        "__cdecl",
        "__stdcall",
    }
)

#: Never blanked, whatever a header does with them: the grammars know these words.
RESERVED: frozenset[str] = frozenset(
    {
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__constant__",
        "__managed__",
        "__forceinline__",
        "__restrict__",
        "__noinline__",
    }
)
