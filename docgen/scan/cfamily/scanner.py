"""The C, C++ and CUDA scanner: tree-sitter with the pinned grammar wheels.

Attribute macros are blanked first (`cpp_macros`), so `class TORCH_API Foo`
parses as a class named `Foo`; every text a page shows (declarations, doc
comments) is cut from the original bytes at the same offsets.  The walk is
iterative (deep trees cannot overflow Python's stack) and reads only the
structure that declares names: namespaces, classes, declarations, the
preprocessor, and the few function bodies that launch kernels, call the CUDA
runtime or register operators.  Parse trees never leave this module: it
returns frozen facts.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from docgen.model.cfamily_facts import CDefinition, CFacts, CInclude, CodeUse
from docgen.model.facts import FileFacts, Problem
from docgen.model.languages import language_for
from docgen.scan.cfamily import walk as cfamily_walk
from docgen.scan.cfamily.bindings import bindings_in_order
from docgen.scan.cfamily.code import in_order
from docgen.scan.cfamily.name_uses import name_uses
from docgen.scan.cfamily.names import Walked, outside_bodies
from docgen.scan.cfamily.preprocess.blanking import (
    Blanked,
    calls_at_errors_blanked,
)
from docgen.scan.cfamily.preprocess.conditionals import (
    CONDITIONAL,
    OPENING,
    OTHER_BRANCH,
    first_branches,
    parenthesized_conditionals_blanked,
)
from docgen.scan.cfamily.preprocess.enum_directives import directives_alone
from docgen.scan.cfamily.preprocess.objc import ObjcBlock
from docgen.scan.cfamily.preprocess.passes import rewritten
from docgen.scan.cfamily.preprocess.stub_lines import stub_registrations
from docgen.scan.cfamily.preprocess.stub_macros import stub_macro_registrations
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings
from docgen.scan.decode import count_lines, decode_text, lone_returns_as_newlines

if TYPE_CHECKING:
    import tree_sitter

#: what only C++ writes: a `.h` that has one of these is C++ whatever the tree holds
CPP_WORDS = re.compile(
    rb"^[ \t]*(?:namespace\b|template\s*<|class\s+\w+[^;]*\{|(?:public|private|protected):)"
    rb"|\bstd::",
    re.MULTILINE,
)
#: CUDA words that make a C++ header worth reading with the CUDA grammar
CUDA_WORDS = (b"__global__", b"__device__", b"<<<")
#: the nodes of a conditional's branches
CONDITIONALS = frozenset(
    {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}
)
#: what a preprocessor line reads as inside an ERROR node
PREPROCESSOR_LINES = CONDITIONALS | {
    "#if",
    "#ifdef",
    "#ifndef",
    "#else",
    "#elif",
    "#elifdef",
    "#endif",
    "preproc_def",
    "preproc_function_def",
    "preproc_include",
    "preproc_call",
}
#: error lines listed per file at most (the rest are counted)
ERROR_LINES_KEPT = 50


class Prepared(NamedTuple):
    """A file as the grammar reads it: what blanking kept and what it wrote over."""

    dialect: str
    blanked: Blanked
    lone: frozenset[str]  # macros used alone on a line, blanked
    parsed: bytes  # the bytes tree-sitter parses, every offset the original's
    stubs: tuple[tuple[int, int], ...] = ()  # dispatch-stub calls blanked, read from the text
    #: `#define`s and `#undef`s taken out of enum bodies (see `cpp_enum_directives`)
    enum_directives: tuple[tuple[int, bytes], ...] = ()
    objc: tuple[ObjcBlock, ...] = ()  # Objective-C blocks blanked (see `cpp_objc`)


def prepare(path: str, data: bytes, settings: ScanSettings) -> Prepared:
    """The dialect and the bytes to parse: the file through every rewriting pass of its
    dialect (see `preprocess.passes.PASSES`), with what the passes set aside."""
    dialect = dialect_for(path, data, settings)
    done = rewritten(data, dialect, settings.macro_table)
    assert done.blanked is not None  # the macro pass runs in every dialect
    return Prepared(
        dialect, done.blanked, done.lone, done.data, done.stubs, done.enum_directives, done.objc
    )


@cache
def language(dialect: str) -> tree_sitter.Language:
    """The grammar of one dialect, loaded once per process (a constant, never changed)."""
    import tree_sitter

    module = {"c": "tree_sitter_c", "cuda": "tree_sitter_cuda"}.get(dialect, "tree_sitter_cpp")
    grammar = importlib.import_module(module)
    return tree_sitter.Language(grammar.language())


def dialect_for(path: str, data: bytes, settings: ScanSettings) -> str:
    """`.c` is C, `.cu`/`.cuh` CUDA, C++ sources C++; a `.h` is C++ in a tree with C++
    sources, else C unless it is plainly C++ itself (a header-only C++ library); a C++
    header that uses CUDA qualifiers is read as CUDA."""
    lower = path.lower()
    if lower.endswith((".cu", ".cuh")):
        return "cuda"
    if lower.endswith(".c"):
        return "c"
    dialect = "cpp"
    if lower.endswith(".h") and settings.headers_as == "c" and not CPP_WORDS.search(data):
        dialect = "c"
    if dialect == "cpp" and any(word in data for word in CUDA_WORDS):
        return "cuda"
    return dialect


def error_at_branch(root: tree_sitter.Node) -> bool:
    """Whether a syntax error lies inside a conditional or holds a preprocessor line, or
    a function is defined in a function body that holds an error: the marks of branches
    that each open a head, or a block in a body (an error elsewhere is not theirs, and
    reading the first branches again finds nothing more there)."""
    stack = [(root, False)]
    while stack:
        node, in_branch = stack.pop()
        if node.is_error and (
            in_branch or any(child.type in PREPROCESSOR_LINES for child in node.children)
        ):
            return True
        if node.type == "compound_statement" and any(
            child.type == "function_definition" for child in node.children
        ):
            return True  # the brace opened in both branches closed once: what follows is in
        in_branch = in_branch or node.type in CONDITIONALS
        stack.extend((child, in_branch) for child in node.children if child.has_error)
    return False


def error_lines(root: tree_sitter.Node) -> tuple[tuple[int, ...], int]:
    """Lines of ERROR and MISSING nodes (the first few) and how many there are."""
    lines: set[int] = set()
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        below = [child for child in node.children if child.has_error or child.is_missing]
        # A node can hold an error that none of its children shows (a token missing at
        # the end of a `#define`): the error is then the node's own.
        if node.is_error or node.is_missing or not below:
            count += 1
            if len(lines) < ERROR_LINES_KEPT:
                lines.add(node.start_point[0] + 1)
            if node.is_missing:
                continue
        stack.extend(below)
    return tuple(sorted(lines)), count


def _reads_better(
    walked: Walked,
    rewalked: Walked,
    root: tree_sitter.Node,
    retry: tree_sitter.Node,
) -> bool:
    """Whether another reading of the file is kept: it finds more names, or loses none
    with fewer syntax errors."""
    return len(rewalked.definitions) > len(walked.definitions) or (
        _no_name_lost_and_fewer_errors(walked, rewalked, root, retry)
    )


def _no_name_lost_and_fewer_errors(
    walked: Walked,
    rewalked: Walked,
    root: tree_sitter.Node,
    retry: tree_sitter.Node,
) -> bool:
    """Whether the first branches' reading keeps every definition of the first reading
    as it was (declaration and lines too) with fewer syntax errors: `ska::flat_hash_map<
    Key, #ifdef ... #else ... #endif> kernels_;` is then one error less and no name the
    worse.  (A declaration whose head holds a conditional reads differently there.)"""
    if not set(walked.definitions) <= set(rewalked.definitions):
        return False
    return error_lines(retry)[1] < error_lines(root)[1]


#: readings of a file's later branches at most (the second, third ... of each)
LATER_READINGS = 3


def _misread_whole(root: tree_sitter.Node) -> bool:
    """Whether one syntax error holds at least half the file at its top level (or is
    the whole tree): pybind11's `internals.h`, whose destructor opens `if (...) {` in
    both branches of an `#ifdef`, lost its namespace and a class that way."""
    size = max(1, root.end_byte)
    return root.is_error or any(
        child.is_error and 2 * (child.end_byte - child.start_byte) >= size
        for child in root.children
    )


def _later_branches(
    parsed: bytes, first: bytes, read: Callable[[bytes], tuple[tree_sitter.Node, Walked]]
) -> list[Walked]:
    """The walks of the second, third ... branches of every conditional, each read
    without a syntax error, until no conditional has another branch (`first`: the
    first branches' reading, already made)."""
    found: list[Walked] = []
    last = first
    for take in range(1, LATER_READINGS + 1):
        branches = first_branches(parsed, take)[0]
        if branches == last:
            break
        last = branches
        again, walked = read(branches)
        if not again.has_error:
            found.append(walked)
    return found


def _together(first: Walked, others: list[Walked]) -> Walked:
    """`first` with what only the other readings found, each in the walk's order: the
    names on lines where `first` has none (a branch's own heads and code; the code of
    all branches stays in the scopes of the first), kernel launches, registrations,
    GPU calls and test cases."""
    named = {d.line for d in first.definitions}
    more = []
    for other in others:
        found = [d for d in other.definitions if d.line not in named]
        named.update(d.line for d in found)
        more += found
        first.gpu_calls |= other.gpu_calls
        first.test_cases |= other.test_cases
    first.definitions = tuple(
        sorted((*first.definitions, *more), key=lambda d: (d.line, d.qualname, d.kind))
    )
    # (first seen first: a stable sort keeps ties as the readings gave them)
    launches = dict.fromkeys(k for w in (first, *others) for k in w.launches)
    first.launches = tuple(sorted(launches, key=lambda k: (k.line, k.kernel)))
    first.registrations = in_order(
        dict.fromkeys(r for w in (first, *others) for r in w.registrations)
    )
    first.bindings = bindings_in_order(b for w in (first, *others) for b in w.bindings)
    return first


def _conditional_at_error(parsed: bytes, root: tree_sitter.Node) -> bool:
    """Whether a conditional's line is one of the first lines with a syntax error, or
    next to one (what the reading of `parenthesized_conditionals_blanked` can mend)."""
    lines = parsed.split(b"\n")
    near = {n + d for n in error_lines(root)[0] for d in (-1, 0, 1)}
    return any(0 < n <= len(lines) and CONDITIONAL.match(lines[n - 1]) for n in near)


def in_line_order(
    definitions: tuple[CDefinition, ...], more: list[CDefinition]
) -> tuple[CDefinition, ...]:
    """`definitions` with `more` each put before the first one that starts below it."""
    merged = list(definitions)
    for extra in more:
        at = next((i for i, d in enumerate(merged) if d.line > extra.line), len(merged))
        merged.insert(at, extra)
    return tuple(merged)


def scan(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> FileFacts:
    digest = hashlib.sha256(data).hexdigest()
    data = lone_returns_as_newlines(data)
    decoded = decode_text(data)
    dialect, blanked, lone, parsed, stubs, taken, objc = prepare(path, data, settings)
    import tree_sitter

    parser = tree_sitter.Parser(language(dialect))
    tree = parser.parse(parsed)

    def read(rewritten: bytes) -> tuple[tree_sitter.Node, Walked]:
        """A fresh parse of other bytes for the same file, walked."""
        again = parser.parse(rewritten).root_node
        return again, cfamily_walk.walk(
            again, data, rewritten, blanked.spans, dialect, settings.function_heads
        )

    root = tree.root_node
    walked = cfamily_walk.walk(root, data, parsed, blanked.spans, dialect, settings.function_heads)
    if root.has_error and OPENING.search(parsed) and error_at_branch(root):
        # Branches that each open a class or function head: read the first branches
        # only, kept when that finds more names.  A conditional with no other branch
        # inside a construct (`: a_(x),` between `#if` and `#endif` among member
        # initializers): the same reading leaves no code out, kept when it reads
        # without a syntax error.  (The parser reads again only the lines blanked,
        # which keep their length.)
        retry_data, changed = first_branches(parsed)
        for row, start, end in changed:
            width = end - start
            tree.edit(start, end, end, (row, 0), (row, width), (row, width))
        retry = parser.parse(retry_data, tree).root_node
        rewalked = cfamily_walk.walk(
            retry, data, retry_data, blanked.spans, dialect, settings.function_heads
        )
        whole = OTHER_BRANCH.search(parsed) is None  # no code left out
        if _reads_better(walked, rewalked, root, retry) or (whole and not retry.has_error):
            root, walked = retry, rewalked
            if not whole and not retry.has_error:  # the other branches' names too
                walked = _together(rewalked, _later_branches(parsed, retry_data, read))
        elif not retry.has_error and _misread_whole(root):
            # One error swallowed the file, so names lost their scopes: the first
            # branches, with the names of the second, third ... branches read each in
            # turn without an error, are kept when they find as many names in all (but
            # for those the error put outside the function bodies they stand in).
            together = _together(rewalked, _later_branches(parsed, retry_data, read))
            if len(together.definitions) >= len(
                outside_bodies(walked.definitions, together.definitions)
            ):
                root, walked = retry, together

    # Two more readings, each kept when it finds more names or loses none with fewer
    # errors: conditionals inside parentheses (parameters, arguments) with every branch
    # read at once; and without the macro calls the grammar took for declarations.
    def better(
        rewritten: bytes, root: tree_sitter.Node, walked: Walked
    ) -> tuple[tree_sitter.Node, Walked]:
        if rewritten is parsed:  # nothing to read differently
            return root, walked
        again, rewalked = read(rewritten)
        return (again, rewalked) if _reads_better(walked, rewalked, root, again) else (root, walked)

    if root.has_error and _conditional_at_error(parsed, root):
        root, walked = better(parenthesized_conditionals_blanked(parsed), root, walked)
    if root.has_error:
        root, walked = better(calls_at_errors_blanked(parsed, error_lines(root)[0]), root, walked)
    definitions = walked.definitions
    if taken:  # the macros of the directives taken out of enum bodies, read alone
        alone = read(directives_alone(parsed, taken))[1]
        macros = [d for d in alone.definitions if d.kind == "macro"]
        definitions = in_line_order(definitions, macros)
    problems = list(decoded.problems)
    problems.extend(
        Problem(b.line, f"Objective-C `{b.head}` (to L{b.end_line}) not read: no grammar for it")
        for b in objc
    )
    lines: tuple[int, ...] = ()
    if root.has_error:
        lines, count = error_lines(root)
        shown = ", ".join(f"L{n}" for n in lines[:10])
        more = f" and {len(lines) - 10} more" if len(lines) > 10 else ""
        problems.append(
            Problem(
                lines[0] if lines else 0,
                f"the {dialect} grammar found {count} syntax error"
                f"{'s' if count != 1 else ''} (at {shown}{more}); names there may be missing",
            )
        )
    facts = CFacts(
        dialect=dialect,
        definitions=definitions,
        includes=tuple(
            CInclude(line, target, system) for line, target, system in sorted(walked.includes)
        ),
        launches=walked.launches,
        # the dispatch stubs read from the text beside those the walk found
        registrations=in_order(
            (
                *walked.registrations,
                *stub_registrations(data, stubs),
                *stub_macro_registrations(data),
            )
        ),
        bindings=walked.bindings,
        gpu_calls=tuple(CodeUse(name, line) for line, name in sorted(walked.gpu_calls)),
        test_cases=tuple(CodeUse(name, line) for line, name in sorted(walked.test_cases)),
        error_lines=lines,
        neutralised=tuple(sorted({*blanked.names, *lone})),
        uses=name_uses(data, definitions),
    )
    return FileFacts(
        path=path,
        kind="cfamily",
        # Objective-C++ is read with the C++ grammar, its Objective-C set aside
        language="objective-c++" if language_for(path) == "objective-c++" else dialect,
        size=len(data),
        sha256=digest,
        line_count=count_lines(decoded.text),
        encoding=decoded.encoding,
        parsed=True,
        problems=tuple(problems),
        cfamily=facts,
    )
