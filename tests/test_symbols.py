"""Declarations matched to definitions: the bracket scans that read parameter lists
agree with a plain character-by-character reading of the same text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.facts import CDefinition
from docgen.scan.cfamily_macros import split_commas
from docgen.symbols import _TRAILING_NAME, _TYPE_WORDS, _parameter_type, _parameters, signature_key


def reference_split_commas(text: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [" ".join(p.split()) for p in parts if p.strip()]


def reference_parameters(declaration: str, name: str) -> str | None:
    at = declaration.find(name + "(")
    at = at if at >= 0 else declaration.find(name)
    start = declaration.find("(", at + len(name)) if at >= 0 else -1
    depth = 0
    for i, ch in enumerate(declaration[start:] if start >= 0 else "", start):
        depth += (ch in "(<[{") - (ch in ")>]}")
        if depth == 0 and ch in ")>]}":
            return declaration[start + 1 : i]
    return None


def reference_parameter_type(parameter: str) -> str:
    depth = 0
    for i, ch in enumerate(parameter):
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            parameter = parameter[:i].strip()
            break
    match = _TRAILING_NAME.match(parameter)
    if match and match.group(2) not in _TYPE_WORDS and not match.group(1).endswith("::"):
        parameter = match.group(1)
    return parameter.replace(" ", "")


PIECES = st.sampled_from(
    ["f", "(", ")", "<", ">", "[", "]", "{", "}", ",", "=", " ", "int", "x", "T", "::", "&", "\n"]
)
TEXTS = st.lists(PIECES, max_size=30).map("".join)


@settings(max_examples=400)
@given(TEXTS)
def test_split_commas_reads_as_one_char_at_a_time(text: str) -> None:
    assert split_commas(text) == reference_split_commas(text)


@settings(max_examples=400)
@given(TEXTS, st.sampled_from(["f", "x", "T"]))
def test_parameters_read_as_one_char_at_a_time(declaration: str, name: str) -> None:
    assert _parameters(declaration, name) == reference_parameters(declaration, name)


@settings(max_examples=400)
@given(TEXTS)
def test_a_parameter_type_reads_as_one_char_at_a_time(parameter: str) -> None:
    assert _parameter_type(parameter) == reference_parameter_type(parameter)


def test_signature_keys_ignore_names_and_defaults() -> None:
    def declared(text: str) -> CDefinition:
        return CDefinition("method", "bar", "Foo::bar", 1, 1, text)

    key = signature_key(declared("void Foo::bar(const Tensor& self, int64_t dim = 0) const"))
    assert key == "Foo::bar(constTensor&,int64_t)"
    assert signature_key(declared("void bar(const Tensor &other, int64_t d = -1)")) == key
    assert signature_key(declared("void bar")) is None
    assert signature_key(declared("void bar(std::vector<int> v, Foo *p)")) == (
        "Foo::bar(std::vector<int>,Foo*)"
    )
