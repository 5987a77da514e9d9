"""The Python scanner: definitions, imports, code references, and files it cannot parse."""

from __future__ import annotations

import ast
import hashlib
import sys
import textwrap
import unicodedata
import warnings
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
import pytest

import docgen.scan.python.scanner as python
import docgen.scan.python.signatures as python_signatures
from docgen.model.facts import CodeRef, Definition, FileFacts, Import, PythonFacts, StringArg
from docgen.scan.decode import decode_python
from docgen.scan.python.statements import walk_cst

TORCH_DISTRIBUTED = Path("/work/corpora/torch-2.13/torch/distributed")


def scan_source(source: str) -> FileFacts:
    return python.scan("pkg/mod.py", textwrap.dedent(source).encode("utf-8"))


def facts_of(source: str) -> PythonFacts:
    facts = scan_source(source)
    assert facts.parsed, facts.problems
    assert facts.python is not None
    return facts.python


def by_qualname(facts: PythonFacts) -> dict[str, Definition]:
    return {definition.qualname: definition for definition in facts.definitions}


# --- an independent inventory from ast.walk, reused by the property tests -----


@dataclass(frozen=True)
class Inventory:
    """Classes, functions and imports of a source, in a form both sides can produce."""

    classes: tuple[tuple[str, int, int], ...]  # (name, line, end_line), sorted
    functions: tuple[tuple[str, int, int], ...]
    imports: tuple[tuple[int, str | None, tuple[str, ...]], ...]  # (line, module, names)


def ast_inventory(text: str) -> Inventory:
    """What `ast.walk` finds in a source, with modules as written (`.x`, None for `from .`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in the source
        tree = ast.parse(text)
    classes, functions, imports = [], [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            classes.append((node.name, node.lineno, node.end_lineno or node.lineno))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append((node.name, node.lineno, node.end_lineno or node.lineno))
        elif isinstance(node, ast.Import):
            imports.extend((node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + node.module if node.module else None
            names = tuple(alias.name for alias in node.names if alias.name != "*")
            imports.append((node.lineno, module, names))
    return Inventory(tuple(sorted(classes)), tuple(sorted(functions)), tuple(sorted(imports)))


def scan_inventory(facts: PythonFacts) -> Inventory:
    """The same inventory from scanned facts; names NFKC-normalised as Python's parser does."""

    def norm(name: str) -> str:
        return unicodedata.normalize("NFKC", name)

    def norm_module(module: str | None) -> str | None:
        return norm(module) if module is not None else None

    classes = [(norm(d.name), d.line, d.end_line) for d in facts.definitions if d.kind == "class"]
    functions = [(norm(d.name), d.line, d.end_line) for d in facts.definitions if d.kind != "class"]
    imports = [
        (i.line, norm_module(i.module), tuple(norm(name) for name in i.names))
        for i in facts.imports
    ]
    return Inventory(tuple(sorted(classes)), tuple(sorted(functions)), tuple(sorted(imports)))


def assert_matches_ast(data: bytes) -> None:
    """The scan of `data` finds exactly the classes, functions and imports ast.walk finds."""
    text = decode_python(data).text
    expected = ast_inventory(text)
    facts = python.scan("x.py", data)
    assert facts.parsed, facts.problems
    assert facts.python is not None
    assert scan_inventory(facts.python) == expected


# --- definitions ----------------------------------------------------------------

NESTED = '''\
"""Module docstring.

More text.
"""
import functools


@functools.lru_cache(maxsize=None)
@staticmethod
class Outer(Base, mixins.Mixin, *extra, metaclass=ABCMeta, **options):
    """Outer docstring."""

    class Inner:
        def method(self) -> None:
            def helper(x):
                """Helper docstring."""

                def deepest():
                    pass

                return deepest

    @property
    def size(
        self,  # the instance
        scale: float = 1.0,  # a comment with (parens)
        *,
        label: str = ")",
    ) -> dict[str, int]:
        return {}

    async def fetch(self, url: str, /, *args, **kwargs) -> "Outer":
        """
            Indented docstring.
        """


def top(a, b=(1, 2), *rest, c: "x(" = None, **kw):
    pass


async def atop(): ...
'''


def test_nested_definitions_have_kinds_qualnames_parents_and_source_order() -> None:
    facts = facts_of(NESTED)
    summary = [(d.kind, d.qualname, d.parent) for d in facts.definitions]
    assert summary == [
        ("class", "Outer", None),
        ("class", "Outer.Inner", "Outer"),
        ("method", "Outer.Inner.method", "Outer.Inner"),
        ("function", "Outer.Inner.method.helper", "Outer.Inner.method"),
        ("function", "Outer.Inner.method.helper.deepest", "Outer.Inner.method.helper"),
        ("method", "Outer.size", "Outer"),
        ("method", "Outer.fetch", "Outer"),
        ("function", "top", None),
        ("function", "atop", None),
    ]
    assert [d.name for d in facts.definitions][:3] == ["Outer", "Inner", "method"]


def test_lines_are_the_def_keyword_not_the_decorator() -> None:
    defs = by_qualname(facts_of(NESTED))
    assert (defs["Outer"].line, defs["Outer"].end_line) == (10, 35)
    assert (defs["Outer.size"].line, defs["Outer.size"].end_line) == (24, 30)
    assert (defs["Outer.fetch"].line, defs["Outer.fetch"].end_line) == (32, 35)
    assert defs["Outer.Inner.method.helper.deepest"].line == 18
    assert (defs["top"].line, defs["top"].end_line) == (38, 39)
    assert (defs["atop"].line, defs["atop"].end_line) == (42, 42)


def test_decorators_bases_docstrings_and_async_as_written() -> None:
    facts = facts_of(NESTED)
    defs = by_qualname(facts)
    assert facts.module_docstring == "Module docstring.\n\nMore text."
    outer = defs["Outer"]
    assert outer.decorators == ("functools.lru_cache(maxsize=None)", "staticmethod")
    assert outer.bases == ("Base", "mixins.Mixin", "*extra", "metaclass=ABCMeta", "**options")
    assert outer.signature == ""
    assert outer.docstring == "Outer docstring."
    assert defs["Outer.size"].decorators == ("property",)
    assert defs["Outer.Inner.method.helper"].docstring == "Helper docstring."
    assert defs["Outer.fetch"].docstring == "Indented docstring."
    assert defs["Outer.Inner"].docstring is None
    assert defs["Outer.fetch"].is_async and defs["atop"].is_async
    assert not defs["top"].is_async


def test_signatures_as_written_with_comments_and_multiline_params() -> None:
    defs = by_qualname(facts_of(NESTED))
    assert defs["Outer.Inner.method"].signature == "(self) -> None"
    assert defs["Outer.Inner.method.helper.deepest"].signature == "()"
    # libcst writes continuation lines relative to the block the def stands in
    assert defs["Outer.size"].signature == (
        "(self,  # the instance\n"
        "    scale: float = 1.0,  # a comment with (parens)\n"
        "    *,\n"
        '    label: str = ")",\n'
        ") -> dict[str, int]"
    )
    assert defs["Outer.fetch"].signature == '(self, url: str, /, *args, **kwargs) -> "Outer"'
    assert defs["top"].signature == '(a, b=(1, 2), *rest, c: "x(" = None, **kw)'
    assert defs["atop"].signature == "()"


def libcst_signatures(text: str) -> list[str]:
    """Every function's signature from libcst code generation, in source order."""
    module = cst.parse_module(text)
    signatures: list[str] = []

    class Collector(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            signature = "(" + module.code_for_node(node.params) + ")"
            if node.returns is not None:
                signature += " -> " + module.code_for_node(node.returns.annotation)
            signatures.append(signature)

    module.visit(Collector())
    return signatures


SIGNATURE_CASES = '''\
def a(x, y = 2 , *, z): pass
def b(  # comment right after the paren (
    x,
    y: "str)" = ')',  # )
    z=[(1, 2), {3: (4)}],
) -> tuple[int, ...]:  # trailing ) comment
    pass
async  def  c ( x = """a
multi-line ) string""" ) -> ( int ) :
    return 1
def d(x=lambda q: (q, ")")): pass
def e(
    x, y
): pass
def ünïcode(ä="ö", *, ß=1) -> "ç": pass
class K:
    def m(self, a=(
            1,
        ),
        b=2):
        def inner(x=f"{1 + 2!r}({x})"): pass
    async def n(self,
                x): pass
    def o(self, x) -> dict[
        str, int
    ]: ...
    def p(self, s="\\\\"): pass
    def q(self, s='it\\'s )'): pass
def r \\
(a): pass
'''


def test_signatures_equal_libcst_code_generation() -> None:
    facts = facts_of(SIGNATURE_CASES)
    functions = [d for d in facts.definitions if d.kind != "class"]
    assert [d.signature for d in functions] == libcst_signatures(SIGNATURE_CASES)
    names = ["a", "b", "c", "d", "e", "ünïcode", "m", "inner", "n", "o", "p", "q", "r"]
    assert [d.name for d in functions] == names


@pytest.mark.parametrize(
    ("source", "cut"),
    [
        ("def b(\n    x,  # )\n    y=')',\n) -> int:\n    pass\n", True),
        ("class A:\n    def m(self, s='(('):  # )\n        pass\n", True),
        ("class A:\n    def m(\n        self,\n    ):\n        pass\n", True),
        ("class A:\n\tdef m(\n\t\tself,\n\t):\n\t\tpass\n", True),
        ("class A:\n    def m(self,\n  x):\n        pass\n", True),
        (
            "class A:\n    class B:\n        def m(\n            self,\n"
            "            x=(1,\n               2),\n        ) -> int:\n            pass\n",
            True,
        ),
        ("class A:\n    def m(\n        self,  # c\n    ):\n        pass\n", False),
        ('class A:\n    def m(self, s="""a\n    b"""):\n        pass\n', False),
        ("class A:\n    def m(\n\n        self,\n    ):\n        pass\n", False),
    ],
)
def test_parameters_are_cut_from_the_source_when_that_is_provably_right(
    source: str, cut: bool
) -> None:
    # Regenerating parameters with libcst was most of a definition's cost; cutting
    # them from the source must give the same text, or not be done at all.
    module = cst.parse_module(source)
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    found = [item for item in walk_cst(module) if isinstance(item.node, cst.FunctionDef)]
    function = found[0].node
    assert isinstance(function, cst.FunctionDef)
    returns = module.code_for_node(function.returns.annotation) if function.returns else ""
    params = python_signatures._params_slice(
        module, python_signatures.Source(source), function, node.lineno, node.col_offset, returns
    )
    if cut:  # in a block, without the block's indentation, as libcst writes it
        assert params == module.code_for_node(function.params)
    else:  # a comment, a string or a blank line across the header's lines: left to libcst
        assert params is None


def test_signatures_when_lines_come_from_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(python, "_parse_ast", broken_ast)
    facts = scan_source(SIGNATURE_CASES).python
    assert facts is not None
    functions = [d for d in facts.definitions if d.kind != "class"]
    assert [d.signature for d in functions] == libcst_signatures(SIGNATURE_CASES)


# --- imports -------------------------------------------------------------------

IMPORT_FORMS = """\
import os
import a.b as c, x.y
from m import a, b as c
from .x import y
from ..x.z import y as w
from . import sibling
from .. import parent
from pkg import *
from . import (
    one,  # comment
    two,
)
"""


def test_import_forms_modules_names_and_aliases() -> None:
    imports = facts_of(IMPORT_FORMS).imports
    assert imports == (
        Import(1, "os", (), (("os", "os"),)),
        Import(2, "a.b", (), (("c", "a.b"),)),
        Import(2, "x.y", (), (("x", "x"),)),
        Import(3, "m", ("a", "b"), (("a", "m.a"), ("c", "m.b")), is_from=True),
        Import(4, ".x", ("y",), (("y", ".x.y"),), level=1, is_from=True),
        Import(5, "..x.z", ("y",), (("w", "..x.z.y"),), level=2, is_from=True),
        Import(6, None, ("sibling",), (("sibling", ".sibling"),), level=1, is_from=True),
        Import(7, None, ("parent",), (("parent", "..parent"),), level=2, is_from=True),
        Import(8, "pkg", (), (), is_from=True, star=True),
        Import(9, None, ("one", "two"), (("one", ".one"), ("two", ".two")), 1, True),
    )


IMPORT_CONTEXTS = """\
from typing import TYPE_CHECKING
import typing
if TYPE_CHECKING:
    import tc_only
elif typing.TYPE_CHECKING:
    import tc_elif
else:
    import tc_else
if typing.TYPE_CHECKING:
    import tc_attr
try:
    import in_try
except ImportError:
    import in_except
else:
    import in_try_else
finally:
    import in_finally
for _ in range(1):
    import in_for
else:
    import in_for_else
while False:
    import in_while
with open("x") as handle:
    import in_with
match handle:
    case 1:
        import in_match
    case _:
        pass
class C:
    import in_class
    def method(self):
        try:
            import in_method_try
        except ImportError: pass
        if x: import in_suite
def f():
    async def g():
        async with lock:
            async for item in items:
                import deep
"""


def test_imports_everywhere_with_their_context() -> None:
    contexts = {i.module: i.context for i in facts_of(IMPORT_CONTEXTS).imports}
    assert contexts == {
        "typing": (),
        "tc_only": ("TYPE_CHECKING",),
        "tc_elif": ("TYPE_CHECKING",),
        "tc_else": ("if",),
        "tc_attr": ("TYPE_CHECKING",),
        "in_try": ("try",),
        "in_except": ("try",),
        "in_try_else": ("try",),
        "in_finally": ("try",),
        "in_for": ("loop",),
        "in_for_else": ("loop",),
        "in_while": ("loop",),
        "in_with": ("with",),
        "in_match": ("match",),
        "in_class": ("class",),
        "in_method_try": ("class", "function", "try"),
        "in_suite": ("class", "function", "if"),
        "deep": ("function", "function", "with", "loop"),
    }
    lines = {i.module: i.line for i in facts_of(IMPORT_CONTEXTS).imports}
    assert (lines["tc_only"], lines["in_match"], lines["deep"]) == (4, 29, 43)


def test_a_function_in_a_class_if_block_is_a_method() -> None:
    facts = facts_of(
        """\
        class A:
            if flag:
                def m(self): pass
            def n(self):
                def local(): pass
        """
    )
    kinds = {d.qualname: d.kind for d in facts.definitions}
    assert kinds == {"A": "class", "A.m": "method", "A.n": "method", "A.n.local": "function"}


# --- module-level facts ------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("__all__ = ['a', \"b\"]\n", ("a", "b")),
        ("__all__ = ('a',)\n__all__ += ['b']\n__all__ += ('c', 'd')\n", ("a", "b", "c", "d")),
        (
            "__all__: list[str] = ['a']\n__all__.extend(['b'])\n__all__.append('c')\n",
            ("a", "b", "c"),
        ),
        ("__all__ = []\n", ()),
        ("__all__ = ['a' 'b']\n", ("ab",)),
        ("__all__ = ['a', name]\n", None),
        ("__all__ = [b'a']\n", None),
        ("__all__ = ['a'] + other.__all__\n", None),
        ("__all__ = ['a']\n__all__ += compute()\n", None),
        ("__all__ = ['a']\n__all__.remove('a')\n", None),
        ("__all__ += ['a']\n", None),
        ("if x:\n    __all__ = ['a']\n", None),
        ("x = 1\n", None),
    ],
)
def test_dunder_all(source: str, expected: tuple[str, ...] | None) -> None:
    assert facts_of(source).dunder_all == expected


def test_file_facts_of_a_plain_module() -> None:
    data = b"import os\n\n\ndef f():\n    return os.getcwd()"
    facts = python.scan("pkg/mod.py", data)
    assert (facts.path, facts.kind, facts.language) == ("pkg/mod.py", "python", "python")
    assert facts.size == len(data)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    assert facts.line_count == 5  # the last line has no newline and still counts
    assert (facts.encoding, facts.parsed, facts.problems) == ("utf-8", True, ())


# --- encodings and broken files --------------------------------------------------


def test_crlf_source() -> None:
    data = b"import os\r\n\r\nclass A:\r\n    def f(self,\r\n          x):\r\n        pass\r\n"
    facts = python.scan("a.py", data)
    assert facts.parsed and facts.line_count == 6
    assert facts.python is not None
    assert [(d.qualname, d.line) for d in facts.python.definitions] == [("A", 3), ("A.f", 4)]
    assert facts.python.definitions[1].signature == "(self,\n      x)"
    assert facts.python.imports[0].line == 1


def test_utf8_bom() -> None:
    facts = python.scan("a.py", b'\xef\xbb\xbf"""Doc."""\nimport os\n')
    assert facts.parsed and facts.encoding == "utf-8" and facts.problems == ()
    assert facts.python is not None
    assert facts.python.module_docstring == "Doc."
    assert facts.python.imports[0].line == 2


def test_latin1_with_a_coding_cookie() -> None:
    data = "# -*- coding: latin-1 -*-\ndef caf\u00e9(x='\u00e9t\u00e9'):\n    pass\n".encode(
        "latin-1"
    )
    facts = python.scan("a.py", data)
    assert facts.parsed and facts.encoding == "iso8859-1" and facts.problems == ()
    assert facts.python is not None
    (definition,) = facts.python.definitions
    assert (definition.name, definition.line) == ("caf\u00e9", 2)
    assert definition.signature == "(x='\u00e9t\u00e9')"


def test_invalid_utf8_keeps_the_problem_and_still_parses() -> None:
    data = b"def f():\n    pass\nx = '\xff'\n"
    facts = python.scan("a.py", data)
    assert facts.parsed
    assert [(p.line, p.severity) for p in facts.problems] == [(3, "warning")]
    assert "cannot be decoded" in facts.problems[0].message
    assert facts.python is not None
    assert [d.name for d in facts.python.definitions] == ["f"]


def test_syntax_error_reports_its_line() -> None:
    data = b"a = 1\nb = 2\ndef f(:\n    pass\n"
    facts = python.scan("a.py", data)
    assert not facts.parsed
    assert [(p.line, p.severity) for p in facts.problems] == [(3, "error")]
    assert facts.line_count == 4 and facts.size == len(data)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    assert facts.python == PythonFacts()


def test_python2_print_statement_is_an_error_not_a_crash() -> None:
    facts = python.scan("old.py", b'import sys\n\nprint "hello"\n')
    assert not facts.parsed
    (problem,) = facts.problems
    assert (problem.line, problem.severity) == (3, "error")
    assert "print" in problem.message
    assert facts.line_count == 3


def test_empty_file() -> None:
    facts = python.scan("empty.py", b"")
    assert facts.parsed and facts.line_count == 0 and facts.problems == ()
    assert facts.python == PythonFacts()


@pytest.mark.parametrize(
    "data",
    [
        b"(" * 3000,
        b"-" * 100_000 + b"1",
        b"x" + b".a" * 100_000,
        b"x = 1\0\n",
        b"".join(b" " * i + b"if x:\n" for i in range(150)) + b" " * 150 + b"pass\n",
    ],
)
def test_absurd_input_is_an_error_not_a_crash(data: bytes) -> None:
    facts = python.scan("deep.py", data)
    assert not facts.parsed
    assert [p.severity for p in facts.problems] == ["error"]


def test_nesting_too_deep_for_any_parser_is_on_its_line() -> None:
    # CPython gives up with RecursionError, which has no line; libcst must not see it.
    data = b"import os\n\nx = " + b" + ".join([b"1"] * 100_000) + b"\ny = 2\n"
    facts = python.scan("pathological.py", data)
    assert not facts.parsed
    (problem,) = facts.problems
    assert (problem.line, problem.severity) == (3, "error")
    assert problem.message.startswith("too deeply nested to parse")


def test_syntax_newer_than_this_python_still_gives_definitions() -> None:
    # PEP 695 generics parse in libcst everywhere but in ast only from Python 3.12.
    source = "import os\n\nclass Box[T]:\n    def get[U](self, x: U) -> T:\n        os.sep\n"
    facts = python.scan("new.py", source.encode())
    assert facts.parsed and facts.python is not None
    assert [(d.qualname, d.line, d.end_line) for d in facts.python.definitions] == [
        ("Box", 3, 5),
        ("Box.get", 4, 5),
    ]
    assert facts.python.definitions[1].signature == "[U](self, x: U) -> T"
    if sys.version_info < (3, 12):
        (problem,) = facts.problems
        assert problem.severity == "warning" and problem.line == 3
        assert problem.message.startswith("code references and attributes not collected")
        assert facts.python.code_refs == ()
    else:
        assert facts.problems == ()
        assert facts.python.code_refs == (CodeRef("os.sep", (5,)),)


def test_what_libcst_rejects_and_python_accepts_is_read_with_ast() -> None:
    """CPython's grammar tests annotate a parenthesised target, which libcst refuses."""
    source = (
        "import os\n"
        "from . import sibling as sib\n"
        "(x): int = 1\n"
        "class A(Base, metaclass=Meta):\n"
        '    """Doc."""\n'
        "    @staticmethod\n"
        "    async def m(a, *, b=1) -> int:\n"
        "        def inner(): pass\n"
        "if TYPE_CHECKING:\n"
        "    from typing import Any\n"
    )
    facts = python.scan("pkg/odd.py", source.encode())
    assert facts.parsed and facts.python is not None
    assert facts.python.parser == "ast"
    assert [(d.kind, d.qualname, d.line) for d in facts.python.definitions] == [
        ("class", "A", 4),
        ("method", "A.m", 7),
        ("function", "A.m.inner", 8),
    ]
    cls, method, _ = facts.python.definitions
    assert cls.bases == ("Base", "metaclass=Meta") and cls.docstring == "Doc."
    assert method.is_async and method.decorators == ("staticmethod",)
    assert method.signature == "(a, *, b=1) -> int"
    assert [(i.line, i.module, i.names, i.context) for i in facts.python.imports] == [
        (1, "os", (), ()),
        (2, None, ("sibling",), ()),
        (10, "typing", ("Any",), ("TYPE_CHECKING",)),
    ]
    assert facts.python.imports[1].aliases == (("sib", ".sibling"),)
    (problem,) = facts.problems
    assert problem.severity == "warning" and problem.line == 3
    assert problem.message.startswith("classes, functions and imports read with Python's own")


# --- when ast cannot give the lines ------------------------------------------------


def broken_ast(text: str) -> ast.Module:
    raise SyntaxError("pretend this Python is too old", ("x.py", 2, 1, "", 2, 1))


def test_without_ast_lines_come_from_libcst_and_refs_are_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    expected = facts_of(NESTED)
    monkeypatch.setattr(python, "_parse_ast", broken_ast)
    facts = scan_source(NESTED)
    assert facts.parsed and facts.python is not None
    (problem,) = facts.problems
    assert (problem.line, problem.severity) == (2, "warning")
    assert "code references and attributes not collected" in problem.message
    assert "pretend this Python is too old" in problem.message
    assert facts.python.definitions == expected.definitions
    assert facts.python.imports == expected.imports
    assert facts.python.module_docstring == expected.module_docstring
    assert facts.python.code_refs == facts.python.string_args == ()


def test_when_the_walks_disagree_lines_come_from_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = facts_of(NESTED)
    # a tree with other statements: the two walks cannot be zipped
    monkeypatch.setattr(python, "_parse_ast", lambda text: ast.parse("import os\n\ndef x(): pass"))
    facts = scan_source(NESTED)
    assert facts.parsed and facts.problems == ()
    assert facts.python is not None
    assert facts.python.definitions == expected.definitions
    assert facts.python.imports == expected.imports


# --- code references -------------------------------------------------------------


def test_code_refs_chains_leading_dots_and_calls() -> None:
    facts = facts_of(
        """\
        import torch
        torch.cuda.synchronize()
        x[0].cuda()
        y = model.to(
            device).half
        foo()
        foo(torch.cuda)
        get().attr.inner()
        """
    )
    assert facts.code_refs == (
        CodeRef(".attr", (8,)),
        CodeRef(".attr.inner", (8,), call=True),
        CodeRef(".cuda", (3,), call=True),
        CodeRef(".half", (5,)),  # the line of the attribute, not of the chain's start
        CodeRef("foo", (6, 7), call=True),
        CodeRef("get", (8,), call=True),
        CodeRef("model.to", (4,), call=True),
        CodeRef("torch.cuda", (2, 7)),
        CodeRef("torch.cuda.synchronize", (2,), call=True),
    )


def test_code_refs_ignore_strings_and_comments() -> None:
    facts = facts_of(
        '''\
        """torch.cuda is mentioned here."""
        # x.cuda()
        s = "torch.cuda"
        t = f"{'torch.cuda'}"
        '''
    )
    assert facts.code_refs == ()
    assert facts.string_args == ()
    assert facts.main_guard_calls == ()


def test_string_args() -> None:
    long = "a" * 65
    facts = facts_of(
        f"""\
        torch.device("cuda:0")
        x.to("cuda", non_blocking=True)
        f(device="cuda", path="a/b-c.txt", prose="not a token", computed="x" * 3)
        g("{long}", "{long[:-1]}")
        h(b"bytes", "", "x" "y", f"cuda")
        (lambda: 0)("ignored")
        x[0].to('cpu')
        load("model.pt", map_location="cpu", **{{"key": "value"}})
        """
    )
    assert facts.string_args == (
        StringArg(".to", None, "cpu", 7),
        StringArg("f", "device", "cuda", 3),
        StringArg("f", "path", "a/b-c.txt", 3),
        StringArg("g", None, "a" * 64, 4),
        StringArg("h", None, "xy", 5),
        StringArg("load", None, "model.pt", 8),
        StringArg("load", "map_location", "cpu", 8),
        StringArg("torch.device", None, "cuda:0", 1),
        StringArg("x.to", None, "cuda", 2),
    )


@pytest.mark.parametrize(
    "guard",
    [
        'if __name__ == "__main__":',
        "if __name__ == '__main__':",
        'if "__main__" == __name__:',
    ],
)
def test_main_guard_calls(guard: str) -> None:
    source = f"""\
import sys
def main(): pass
{guard}
    args = parse(sys.argv)
    sys.exit(main(args))
else:
    not_main()
def later():
    if __name__ == "__main__":
        nested_guard()
"""
    facts = facts_of(source)
    assert facts.main_guard_calls == (
        CodeRef("main", (5,), call=True),
        CodeRef("parse", (4,), call=True),
        CodeRef("sys.exit", (5,), call=True),
    )


def test_no_main_guard() -> None:
    facts = facts_of("if __name__ != '__main__':\n    f()\nif name == '__main__':\n    g()\n")
    assert facts.main_guard_calls == ()
    assert {ref.name for ref in facts.code_refs} == {"f", "g"}


# --- real files ------------------------------------------------------------------


def real_files(limit: int) -> list[Path]:
    if not TORCH_DISTRIBUTED.is_dir():
        pytest.skip(f"{TORCH_DISTRIBUTED} is not on this machine")
    return sorted(TORCH_DISTRIBUTED.rglob("*.py"))[:limit]


def test_real_files_match_an_ast_walk() -> None:
    files = real_files(40)
    assert len(files) == 40
    for path in files:
        assert_matches_ast(path.read_bytes())
