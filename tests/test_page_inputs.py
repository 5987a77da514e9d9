"""Page-input digests: one hash of NUL-terminated parts, the same digest that hashing
the parts one by one gives (pages already written keep their digests)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from docgen.model.digests import parts_digest


def streamed(parts: list[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@given(st.lists(st.text(st.characters(codec=None)), max_size=6))
def test_digest_equals_hashing_each_part_then_a_nul(parts: list[str]) -> None:
    assert parts_digest(parts) == streamed(parts)
    assert parts_digest(iter(parts)) == streamed(parts)


def test_part_boundaries_count() -> None:
    assert parts_digest(["ab", "c"]) != parts_digest(["a", "bc"])
    assert parts_digest([]) != parts_digest([""])
    assert parts_digest(["\ud800"]) == streamed(["\ud800"])  # a lone surrogate, as file names hold
