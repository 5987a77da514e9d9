"""Page-input digests: one hash of NUL-terminated parts, the same digest that hashing
the parts one by one gives (pages already written keep their digests)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from docgen.incremental import _digest


def streamed(parts: list[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@given(st.lists(st.text(st.characters(codec=None)), max_size=6))
def test_digest_equals_hashing_each_part_then_a_nul(parts: list[str]) -> None:
    assert _digest(parts) == streamed(parts)
    assert _digest(iter(parts)) == streamed(parts)


def test_part_boundaries_count() -> None:
    assert _digest(["ab", "c"]) != _digest(["a", "bc"])
    assert _digest([]) != _digest([""])
    assert _digest(["\ud800"]) == streamed(["\ud800"])  # a lone surrogate, as file names hold
