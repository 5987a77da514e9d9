"""The rewriting passes the preprocessor layer makes before a C-family file is parsed:
one list, in order, each with its name and the reason it exists.

Every pass keeps every byte's offset (it blanks or writes over what it rewrites), so
the names the parse finds stand on the lines of the original.  A pass may also set
aside what it took out (the Objective-C blocks, the macros blanked, the dispatch-stub
calls), which the scanner reads back from the text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from docgen.scan.cfamily.preprocess.blanking import Blanked, lone_macros_blanked, neutralise
from docgen.scan.cfamily.preprocess.conditionals import (
    directive_comments_blanked,
    disabled_branches_blanked,
    head_conditionals_blanked,
    linkage_guards_blanked,
    null_directives_blanked,
    specifier_conditionals_blanked,
)
from docgen.scan.cfamily.preprocess.enum_directives import enum_directives_blanked
from docgen.scan.cfamily.preprocess.grammar_gaps import grammar_gaps_blanked
from docgen.scan.cfamily.preprocess.macro_table import MacroTable
from docgen.scan.cfamily.preprocess.macros_in_use import macros_in_use
from docgen.scan.cfamily.preprocess.objc import ObjcBlock, objective_c_blanked
from docgen.scan.cfamily.preprocess.stub_lines import stub_lines_blanked
from docgen.scan.cfamily.preprocess.test_cases import case_heads_blanked

#: every dialect the grammars read
ALL = frozenset({"c", "cpp", "cuda"})
#: the dialects of the C++ grammar (CUDA's extends it)
CPP = frozenset({"cpp", "cuda"})


@dataclass(frozen=True)
class Rewriting:
    """A file on its way through the passes: the bytes so far, and what passes set aside."""

    data: bytes
    macros: MacroTable
    #: the bytes before the macros were rewritten (what the lone-macro pass reads)
    before_macros: bytes = b""
    blanked: Blanked | None = None  # what the macro pass kept and wrote over
    lone: frozenset[str] = frozenset()  # macros used alone on a line, blanked
    objc: tuple[ObjcBlock, ...] = ()  # Objective-C blocks blanked
    #: `#define`s and `#undef`s taken out of enum bodies
    enum_directives: tuple[tuple[int, bytes], ...] = ()
    stubs: tuple[tuple[int, int], ...] = ()  # dispatch-stub calls blanked


@dataclass(frozen=True)
class Pass:
    """One rewriting pass: what it does, why, and in which dialects."""

    name: str
    reason: str
    run: Callable[[Rewriting], Rewriting]
    dialects: frozenset[str] = ALL


def _bytes(rewrite: Callable[[bytes], bytes]) -> Callable[[Rewriting], Rewriting]:
    """A pass that only rewrites the bytes."""
    return lambda r: replace(r, data=rewrite(r.data))


def _objc(r: Rewriting) -> Rewriting:
    data, blocks = objective_c_blanked(r.data)
    return replace(r, data=data, objc=blocks)


def _macros(r: Rewriting) -> Rewriting:
    blanked = neutralise(r.data, r.macros, macros_in_use(r.data))
    return replace(r, data=blanked.data, before_macros=r.data, blanked=blanked)


def _lone(r: Rewriting) -> Rewriting:
    data, lone = lone_macros_blanked(r.data, r.before_macros)
    return replace(r, data=data, lone=lone)


def _enum(r: Rewriting) -> Rewriting:
    data, taken = enum_directives_blanked(r.data)
    return replace(r, data=data, enum_directives=taken)


def _stubs(r: Rewriting) -> Rewriting:
    data, stubs = stub_lines_blanked(r.data)
    return replace(r, data=data, stubs=stubs)


PASSES: tuple[Pass, ...] = (
    Pass(
        "disabled branches",
        "`#if 0` branches hold no name that exists (see `conditionals`)",
        _bytes(disabled_branches_blanked),
    ),
    Pass(
        "null directives",
        "a `#` alone on its line is a directive the grammars cannot read",
        _bytes(null_directives_blanked),
    ),
    Pass(
        "Objective-C",
        "torch's Metal headers hold Objective-C blocks, which no grammar here reads (see `objc`)",
        _objc,
    ),
    Pass(
        "macros",
        "export, attribute, namespace, wrapping and declaring macros are read as what they "
        "mean (the tree's macro table, see `blanking` and `macro_table`)",
        _macros,
    ),
    Pass(
        "lone macros",
        "a macro call alone on a line (`C10_DECLARE_bool(x)`) reads as a broken declaration",
        _lone,
    ),
    Pass(
        "directive comments",
        "a comment inside a directive can hide the directive's end from the grammar",
        _bytes(directive_comments_blanked),
    ),
    Pass(
        "linkage guards",
        '`#ifdef __cplusplus extern "C" { #endif` leaves a brace the grammar cannot match',
        _bytes(linkage_guards_blanked),
    ),
    Pass(
        "specifier conditionals",
        "a conditional between a declaration's specifiers splits it in two",
        _bytes(specifier_conditionals_blanked),
    ),
    Pass(
        "head conditionals",
        "branches that each open a template or class head: all but the first are blanked",
        _bytes(head_conditionals_blanked),
    ),
    Pass(
        "enum directives",
        "`#define`s among an enum's enumerators (X-macros) end the enum for the grammar "
        "(see `enum_directives`)",
        _enum,
    ),
    Pass(
        "grammar gaps",
        "valid C++ the pinned tree-sitter-cpp grammar cannot read (see `grammar_gaps`)",
        _bytes(grammar_gaps_blanked),
        CPP,
    ),
    Pass(
        "test case heads",
        "Catch2's and doctest's `TEST_CASE(\"name\")` read as googletest's (see `test_cases`)",
        _bytes(case_heads_blanked),
        CPP,
    ),
    Pass(
        "dispatch-stub lines",
        "dispatch-stub macro calls on lines of their own, read from the text (see `stub_lines`)",
        _stubs,
        CPP,
    ),
)


def rewritten(data: bytes, dialect: str, macros: MacroTable) -> Rewriting:
    """A file's bytes through every pass of its dialect, in order."""
    state = Rewriting(data, macros)
    for each in PASSES:
        if dialect in each.dialects:
            state = each.run(state)
    return state
