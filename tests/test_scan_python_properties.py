"""Properties of the Python scanner on generated and arbitrary input.

It never raises; and wherever Python's own parser accepts the source, the scan
finds exactly the classes, functions and imports an `ast.walk` finds, on the
same lines, with signatures equal to libcst's code generation.
"""

from __future__ import annotations

import ast
import hashlib
import warnings

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_scan_python import ast_inventory, libcst_signatures, scan_inventory

import docgen.scan.python.refs as python_refs
import docgen.scan.python.scanner as python
from docgen.model.facts import FileFacts
from docgen.scan.decode import decode_python

# hypothesmith compiles what it generates; CPython's warnings about that code are noise here.
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)

# Statement-shaped pieces that reach definitions, imports and odd headers far
# more often than uniformly random text does; most joins are not valid Python.
FRAGMENTS = st.sampled_from(
    [
        "def f(",
        "async def g(",
        "class A(B, metaclass=M):",
        "):",
        ") -> int:",
        "x=(1, ')'),",
        "*, y",
        "# (",
        '"""doc"""',
        "'''",
        "@dec\n",
        "import a.b as c\n",
        "from . import x\n",
        "from ..m import *\n",
        "if TYPE_CHECKING:\n",
        "try:\n",
        "except E:\n",
        "with w:\n",
        "for i in r:\n",
        "match m:\n case 1:\n",
        "pass\n",
        "torch.cuda.synchronize()\n",
        'x.to("cuda")\n',
        "if __name__ == '__main__':\n",
        "\n",
        "\r\n",
        "    ",
        "\t",
        "\\\n",
        "\ufeff",
        "\x00",
    ]
)
PYTHONISH = st.lists(st.one_of(FRAGMENTS, st.text(max_size=6)), max_size=40).map("".join)


# Valid programs built from blocks: definitions and imports at every depth, in
# every kind of block, with headers that span lines, hold comments and strings.
SIMPLE_LINES = st.sampled_from(
    [
        "pass",
        "import a.b as c, d",
        "from . import x",
        "from ..m.n import (a,  # (\n    b as c,\n)",
        "from m import *",
        "x = f(a).b.c(')')",
        '"""doc"""',
        "torch.cuda.synchronize()",
        "x: int = 1",
        "y = z = 'é'",
        "a, *b = c",
        "self.k: T = [1,\n    2]",
        "__all__ = ['x']",
        "#: doc\nw = 0",
        "def typed(s: torch.cuda.Stream) -> torch.cuda.Event: torch.cuda.sync()",
    ]
).map(lambda line: line.split("\n"))
HEADERS = st.sampled_from(
    [
        "def f(a, b=')', *c, d: 'x(' = None, **e) -> int:",
        "async def g(*, k=(1, 2)):",
        "def h(\n    x,  # ) comment\n    y=[1,\n2],\n):",
        'def s(x="""a (\nb"""):',
        "@dec(1)\n@other\ndef decorated(self) -> dict[\n    str, int\n]:",
        "class C(B, metaclass=M):",
        "class D:",
        "def __init__(self, v):",
        "if TYPE_CHECKING:",
        "if x:",
        "try:",
        "with a as b, c:",
        "for i in x:",
        "while x:",
        "match x:",
    ]
)


def nest(header_and_bodies: tuple[str, list[list[str]]]) -> list[str]:
    header, bodies = header_and_bodies
    body = ["    " + line for block in bodies for line in block]
    if header == "try:":
        return ["try:", *body, "except E:", "    import handled", "finally:", "    pass"]
    if header == "match x:":
        return ["match x:", "    case 1:", *["    " + line for line in body]]
    return [*header.split("\n"), *body]


BLOCKS = st.recursive(
    SIMPLE_LINES,
    lambda children: st.tuples(HEADERS, st.lists(children, min_size=1, max_size=3)).map(nest),
    max_leaves=12,
)
PROGRAMS = st.lists(BLOCKS, min_size=1, max_size=4).map(
    lambda blocks: "\n".join(line for block in blocks for line in block) + "\n"
)


def check(data: bytes) -> FileFacts:
    """Scan `data` and check what holds for any input."""
    facts = python.scan("gen.py", data)
    decoded = decode_python(data)
    assert facts.size == len(data)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    assert facts.encoding == decoded.encoding
    text = decoded.text
    assert facts.line_count == text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    assert facts.python is not None
    if not facts.parsed:
        assert any(problem.severity == "error" for problem in facts.problems)
        return facts
    assert all(problem.severity == "warning" for problem in facts.problems)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except Exception:
        return facts
    # Python's parser accepts it: the scan must agree with an independent ast walk.
    assert_walk_finds_what_ast_walk_finds(tree)
    assert scan_inventory(facts.python) == ast_inventory(text)
    functions = [d for d in facts.python.definitions if d.kind != "class"]
    assert [d.signature for d in functions] == libcst_signatures(text)
    for definition in facts.python.definitions:
        assert definition.line <= definition.end_line
        assert definition.qualname.endswith(definition.name)
    assert_attributes_hold(facts, text)
    for ref in facts.python.code_refs:
        assert set(ref.annotation_lines) <= set(ref.lines)
    return facts


def assert_attributes_hold(facts: FileFacts, text: str) -> None:
    """Attributes sit in a class of the file (or the module), once per scope and name,
    with values and annotations cut from the source as written."""
    assert facts.python is not None
    classes: dict[str, list[tuple[int, int]]] = {}
    for d in facts.python.definitions:
        if d.kind == "class":
            classes.setdefault(d.qualname, []).append((d.line, d.end_line))
    seen = set()
    for a in facts.python.attributes:
        if a.parent is None or len(classes[a.parent]) == 1:  # each class of a name has its own
            assert (a.scope, a.qualname) not in seen
            seen.add((a.scope, a.qualname))
        assert a.name != "__all__"
        assert a.qualname == (f"{a.parent}.{a.name}" if a.parent else a.name)
        assert (a.parent is None) == (a.scope == "module")
        if a.parent is not None:
            spans = classes[a.parent]  # a class defined twice has two
            assert any(start <= a.line <= a.end_line <= end for start, end in spans)
        for piece in (a.annotation, a.value):
            assert piece is None or piece in text
        assert a.value is None or a.has_value


def assert_walk_finds_what_ast_walk_finds(tree: ast.AST) -> None:
    """The scanner's own code-reference walk skips no Attribute or Call node."""
    expected = {id(node) for node in ast.walk(tree) if isinstance(node, (ast.Attribute, ast.Call))}
    attributes, calls = python_refs._attributes_and_calls(tree)
    assert {id(node) for node in (*attributes, *calls)} == expected
    assert len(attributes) + len(calls) == len(expected)


def encode(source: str) -> bytes:
    return source.encode("utf-8", "surrogatepass")


@SETTINGS
@given(hypothesmith.from_grammar())
def test_sources_from_the_grammar(source: str) -> None:
    check(encode(source))


@SETTINGS
@given(hypothesmith.from_node())
def test_sources_from_libcst_nodes(source: str) -> None:
    check(encode(source))


@SETTINGS
@given(PROGRAMS)
def test_generated_programs(source: str) -> None:
    facts = check(encode(source))
    assert facts.parsed and facts.problems == ()  # so check() compared it with ast


@SETTINGS
@given(PYTHONISH)
def test_pythonish_text(source: str) -> None:
    check(encode(source))


@SETTINGS
@given(st.binary())
def test_arbitrary_bytes(data: bytes) -> None:
    check(data)
