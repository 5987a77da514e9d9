"""The letters the keyword index is split by: which page a name is listed on, in which
order.  Light, so that the state database can read the index by letter."""

from __future__ import annotations

OTHER = "other"  # names that start with neither an ASCII letter nor `_`
LETTERS: tuple[str, ...] = (*"abcdefghijklmnopqrstuvwxyz", "_", OTHER)


def letter_of(name: str) -> str:
    """The letter page a name belongs to, ignoring case."""
    first = name[:1]
    if first.isascii() and first.isalpha():
        return first.lower()
    return "_" if first == "_" else OTHER


def letter_page(letter: str, part: int = 1) -> str:
    """`keywords-a.md`, `keywords-a-2.md`, `keywords-_.md`, `keywords-other.md`."""
    return f"keywords-{letter}.md" if part == 1 else f"keywords-{letter}-{part}.md"


def name_order(name: str) -> tuple[int, str, str]:
    """Letter pages in order (a-z, `_`, other), case ignored within; the exact name breaks ties.

    One page or many, names come in the same order.
    """
    return (LETTERS.index(letter_of(name)), name.casefold(), name)
