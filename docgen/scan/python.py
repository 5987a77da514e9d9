"""The Python scanner: definitions, imports and code references of one source file.

libcst gives the pieces shown as written (decorators, bases, signatures); Python's
own `ast` gives line numbers and code references, because libcst's position
metadata costs several parses while `ast.parse` costs a fifth of one.  Both trees
are walked through statement bodies only (definitions and imports are
statements), and the two walks are checked against each other before the `ast`
lines are trusted; when they disagree, libcst positions are used instead.
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from docgen.facts import (
    CodeRef,
    Definition,
    FileFacts,
    Import,
    Problem,
    PythonFacts,
    StringArg,
)
from docgen.scan.decode import decode_python

#: longest libcst error text kept in a Problem; its token lists run to hundreds of chars
MAX_MESSAGE = 200
#: string arguments worth recording: identifiers, devices, paths, not prose
MAX_STRING_ARG = 64
_STRING_ARG = re.compile(r"[A-Za-z0-9_:./\-]+")
#: what matters when looking for a closing parenthesis: brackets, comments, quotes
_SPECIAL = re.compile(r"[()\[\]{}#'\"]")
#: the rest of a string literal after its opening quote (a backslash escapes anything)
_STRING_END = MappingProxyType(
    {
        "'": re.compile(r"[^'\\\n]*(?:\\.[^'\\\n]*)*'", re.S),
        '"': re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*"', re.S),
        "'''": re.compile(r"[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''", re.S),
        '"""': re.compile(r'[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""', re.S),
    }
)

#: fields that never hold an expression: names, flags, operators, load/store contexts
_LEAF_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "name", "names", "module", "level", "asname"}
    | {"kind", "conversion", "is_async", "simple", "tag", "type_comment", "kwd_attrs", "rest"}
)


def _child_fields() -> Mapping[type, tuple[str, ...]]:
    table: dict[type, tuple[str, ...]] = {}
    for value in vars(ast).values():
        if isinstance(value, type) and issubclass(value, ast.AST) and value._fields:
            table[value] = tuple(f for f in value._fields if f not in _LEAF_FIELDS)
    table[ast.Constant] = ()
    return MappingProxyType(table)


#: ast statement class -> its statement-body fields, in source order
_AST_BLOCKS: Mapping[type, tuple[str, ...]] = MappingProxyType(
    {
        cls: fields
        for names, fields in (
            (("FunctionDef", "AsyncFunctionDef", "ClassDef", "With", "AsyncWith"), ("body",)),
            (("ExceptHandler", "match_case"), ("body",)),
            (("If", "For", "AsyncFor", "While"), ("body", "orelse")),
            (("Try", "TryStar"), ("body", "handlers", "orelse", "finalbody")),
            (("Match",), ("cases",)),
        )
        for name in names
        if (cls := getattr(ast, name, None)) is not None
    }
)

#: ast node class -> the fields the code-reference walk descends into
_CHILD_FIELDS = _child_fields()

_CstFound = cst.FunctionDef | cst.ClassDef | cst.Import | cst.ImportFrom
_AstFound = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom
# A statement-walk task: node, enclosing block kinds, enclosing qualname, in a class body.
_Task = tuple[cst.CSTNode, tuple[str, ...], str | None, bool]


@dataclass(frozen=True, slots=True)
class _Found:
    """A definition or import met by the libcst walk, with where it stands."""

    node: _CstFound
    context: tuple[str, ...]
    parent: str | None  # qualname of the enclosing definition
    in_class: bool  # the nearest enclosing definition is a class


@dataclass(frozen=True, slots=True)
class _Span:
    line: int
    end_line: int
    docstring: str | None
    column: int | None = None  # UTF-8 byte column of the `def`/`async`, when ast knows it


@dataclass(frozen=True, slots=True)
class _Refs:
    code_refs: tuple[CodeRef, ...] = ()
    string_args: tuple[StringArg, ...] = ()
    main_guard_calls: tuple[CodeRef, ...] = ()


@dataclass(frozen=True, slots=True)
class _AstFacts:
    """What the ast pass learns, kept so that its tree can be freed early."""

    keys: tuple[tuple[object, ...], ...]  # to check the two walks met the same statements
    spans: tuple[_Span, ...]
    docstring: str | None
    refs: _Refs


def scan(path: str, data: bytes) -> FileFacts:
    """Scan one Python file; never raises, failures become Problems."""
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        decoded = decode_python(data)
    except Exception as exc:  # decode_python should not raise; one file must not stop a build
        return FileFacts(
            path=path,
            kind="python",
            language="python",
            size=len(data),
            sha256=sha256,
            parsed=False,
            problems=(Problem(0, _short(f"could not decode: {_describe(exc)}"), "error"),),
            python=PythonFacts(),
        )
    text = decoded.text
    try:
        with warnings.catch_warnings():
            # invalid escapes in string literals warn on every parse; they are not ours to report
            warnings.simplefilter("ignore")
            python, problems = _scan_text(text)
    except Exception as exc:  # RecursionError on absurd nesting, or a scanner bug
        python = None
        problems = (Problem(0, _short(f"python scanner failed: {_describe(exc)}"), "error"),)
    return FileFacts(
        path=path,
        kind="python",
        language="python",
        size=len(data),
        sha256=sha256,
        line_count=_line_count(text),
        encoding=decoded.encoding,
        parsed=python is not None,
        problems=_sorted_problems((*decoded.problems, *problems)),
        python=python if python is not None else PythonFacts(),
    )


def _scan_text(text: str) -> tuple[PythonFacts | None, tuple[Problem, ...]]:
    """Facts of decoded source, or None with an error when libcst cannot parse it."""
    # The ast pass runs first and its tree is dropped before libcst parses: fewer
    # live objects make the garbage collector's passes during the libcst parse cheaper.
    twin, ast_error = _ast_pass(text)
    if ast_error is not None and _too_deep(ast_error):
        # libcst's native parser crashes or hangs on nesting CPython refuses; don't feed it.
        line = (ast_error.lineno or 0) if isinstance(ast_error, SyntaxError) else 0
        message = f"too deeply nested to parse: {_describe(ast_error)}"
        return None, (Problem(line, _short(message), "error"),)
    try:
        module = cst.parse_module(text)
    except Exception as exc:  # ParserSyntaxError, or the native parser failing on odd input
        return None, (_parse_problem(exc, ast_error),)
    problems: tuple[Problem, ...] = ()
    if ast_error is not None:
        line = (ast_error.lineno or 0) if isinstance(ast_error, SyntaxError) else 0
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        message = (
            f"code references not collected: Python {version} cannot parse this file: "
            f"{_describe(ast_error)}"
        )
        problems = (Problem(line, _short(message), "warning"),)

    source = _Source(text)
    found = _walk_cst(module)
    if twin is not None and twin.keys == tuple(_cst_key(item.node) for item in found):
        spans: Sequence[_Span] = twin.spans
    else:
        spans = _cst_spans(module, found)
    definitions: list[Definition] = []
    imports: list[Import] = []
    for item, span in zip(found, spans, strict=True):
        if isinstance(item.node, (cst.Import, cst.ImportFrom)):
            imports.extend(_imports(item.node, item.context, span.line))
        else:
            definitions.append(_definition(module, source, item, span))

    refs = twin.refs if twin is not None else _Refs()
    facts = PythonFacts(
        module_docstring=twin.docstring if twin is not None else module.get_docstring(clean=True),
        definitions=tuple(definitions),
        imports=tuple(imports),
        code_refs=refs.code_refs,
        string_args=refs.string_args,
        main_guard_calls=refs.main_guard_calls,
        dunder_all=_dunder_all(module),
    )
    return facts, problems


def _ast_pass(text: str) -> tuple[_AstFacts | None, Exception | None]:
    """Lines, docstrings and code references from Python's own parser, or why not."""
    try:
        tree = _parse_ast(text)
    except Exception as exc:  # SyntaxError for newer syntax, ValueError for NUL bytes, ...
        return None, exc
    statements = _ast_walk_statements(tree)
    facts = _AstFacts(
        keys=tuple(_ast_key(node) for node in statements),
        spans=tuple(_ast_span(node) for node in statements),
        docstring=ast.get_docstring(tree, clean=True),
        refs=_refs(tree),
    )
    return facts, None


def _too_deep(error: Exception) -> bool:
    """CPython's parser gave up on nesting depth (it raises MemoryError for its own stack)."""
    if isinstance(error, (RecursionError, MemoryError)):
        return True
    return isinstance(error, SyntaxError) and "too many nested parentheses" in str(error.msg)


def _parse_problem(exc: Exception, ast_error: Exception | None) -> Problem:
    """Why the file could not be parsed: CPython's words and line when it failed too.

    libcst's messages list every token it expected and often point past the real
    mistake; CPython's ("Missing parentheses in call to 'print'") read better.
    """
    if isinstance(ast_error, SyntaxError) and ast_error.msg:
        return Problem(ast_error.lineno or 0, _short(f"syntax error: {ast_error.msg}"), "error")
    if isinstance(exc, cst.ParserSyntaxError):
        lines = exc.message.strip().splitlines()
        message = lines[0] if lines else "syntax error"
        return Problem(max(exc.raw_line, 0), _short(message), "error")
    return Problem(0, _short(f"could not parse: {_describe(exc)}"), "error")


def _parse_ast(text: str) -> ast.Module:
    """Python's own parse of the same text (a seam for tests of the fallback path)."""
    return ast.parse(text)


# --- the libcst statement walk ------------------------------------------------


def _walk_cst(module: cst.Module) -> list[_Found]:
    """Definitions and imports in source order, descending only into statement bodies.

    Iterative so that deeply nested blocks cannot exhaust the interpreter stack.
    """
    found: list[_Found] = []
    stack: list[_Task] = [(stmt, (), None, False) for stmt in reversed(module.body)]
    while stack:
        node, ctx, parent, in_class = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in node.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    found.append(_Found(small, ctx, parent, in_class))
            continue
        children: list[_Task] = []
        if isinstance(node, cst.IndentedBlock):
            children = [(stmt, ctx, parent, in_class) for stmt in node.body]
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            found.append(_Found(node, ctx, parent, in_class))
            qualname = f"{parent}.{node.name.value}" if parent else node.name.value
            is_class = isinstance(node, cst.ClassDef)
            block = "class" if is_class else "function"
            children = [(node.body, (*ctx, block), qualname, is_class)]
        elif isinstance(node, cst.If):
            block = "TYPE_CHECKING" if _is_type_checking(node.test) else "if"
            children = [(node.body, (*ctx, block), parent, in_class)]
            if isinstance(node.orelse, cst.If):  # elif: a branch of the same statement
                children.append((node.orelse, ctx, parent, in_class))
            elif isinstance(node.orelse, cst.Else):  # runs at run time even under TYPE_CHECKING
                children.append((node.orelse.body, (*ctx, "if"), parent, in_class))
        elif isinstance(node, (cst.For, cst.While)):
            inner = (*ctx, "loop")
            children = [(node.body, inner, parent, in_class)]
            if node.orelse is not None:
                children.append((node.orelse.body, inner, parent, in_class))
        elif isinstance(node, (cst.Try, cst.TryStar)):
            inner = (*ctx, "try")
            children = [(node.body, inner, parent, in_class)]
            children += [(handler.body, inner, parent, in_class) for handler in node.handlers]
            if node.orelse is not None:
                children.append((node.orelse.body, inner, parent, in_class))
            if node.finalbody is not None:
                children.append((node.finalbody.body, inner, parent, in_class))
        elif isinstance(node, cst.With):
            children = [(node.body, (*ctx, "with"), parent, in_class)]
        elif isinstance(node, cst.Match):
            inner = (*ctx, "match")
            children = [(case.body, inner, parent, in_class) for case in node.cases]
        stack.extend(reversed(children))
    return found


def _is_type_checking(test: cst.BaseExpression) -> bool:
    """`TYPE_CHECKING`, `typing.TYPE_CHECKING` or the same through another module name."""
    if isinstance(test, cst.Name):
        return test.value == "TYPE_CHECKING"
    return (
        isinstance(test, cst.Attribute)
        and test.attr.value == "TYPE_CHECKING"
        and isinstance(test.value, cst.Name)
    )


def _dotted(node: cst.BaseExpression) -> str:
    """`a.b.c` of a Name/Attribute chain, without any whitespace as written."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
    return ".".join(reversed(parts))


# --- positions ----------------------------------------------------------------


def _ast_walk_statements(tree: ast.Module) -> list[_AstFound]:
    """The `ast` twin of `_walk_cst`: same pre-order over statement bodies."""
    found: list[_AstFound] = []
    stack: list[ast.AST] = list(reversed(tree.body))
    blocks = _AST_BLOCKS
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(node)
        fields = blocks.get(type(node))
        if fields is None:
            continue
        children: list[ast.AST] = []
        for field in fields:
            children.extend(getattr(node, field, ()))
        stack.extend(reversed(children))
    return found


def _cst_key(node: _CstFound) -> tuple[object, ...]:
    if isinstance(node, cst.FunctionDef):
        return ("def", node.name.value)
    if isinstance(node, cst.ClassDef):
        return ("class", node.name.value)
    if isinstance(node, cst.Import):
        return ("import", tuple(_dotted(alias.name) for alias in node.names))
    module = _dotted(node.module) if node.module is not None else None
    return ("from", len(node.relative), module)


def _ast_key(node: _AstFound) -> tuple[object, ...]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return ("def", node.name)
    if isinstance(node, ast.ClassDef):
        return ("class", node.name)
    if isinstance(node, ast.Import):
        return ("import", tuple(alias.name for alias in node.names))
    return ("from", node.level or 0, node.module)


def _cst_spans(module: cst.Module, found: list[_Found]) -> list[_Span]:
    """Lines and docstrings from libcst: several parses' cost, for when ast cannot help."""
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    spans: list[_Span] = []
    for item in found:
        code_range = positions[item.node]
        node = item.node
        docstring = (
            node.get_docstring(clean=True)
            if isinstance(node, (cst.FunctionDef, cst.ClassDef))
            else None
        )
        spans.append(_Span(code_range.start.line, code_range.end.line, docstring))
    return spans


def _ast_span(node: _AstFound) -> _Span:
    docstring = None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        docstring = ast.get_docstring(node, clean=True)
    return _Span(node.lineno, node.end_lineno or node.lineno, docstring, node.col_offset)


# --- facts from libcst nodes --------------------------------------------------


def _definition(module: cst.Module, source: _Source, item: _Found, span: _Span) -> Definition:
    node = item.node
    assert isinstance(node, (cst.FunctionDef, cst.ClassDef))
    name = node.name.value
    qualname = f"{item.parent}.{name}" if item.parent else name
    decorators = tuple(module.code_for_node(dec.decorator) for dec in node.decorators)
    if isinstance(node, cst.ClassDef):
        return Definition(
            kind="class",
            name=name,
            qualname=qualname,
            line=span.line,
            end_line=span.end_line,
            decorators=decorators,
            bases=tuple(_arg_code(module, arg) for arg in (*node.bases, *node.keywords)),
            docstring=span.docstring,
            parent=item.parent,
        )
    return Definition(
        kind="method" if item.in_class else "function",
        name=name,
        qualname=qualname,
        line=span.line,
        end_line=span.end_line,
        decorators=decorators,
        signature=_signature(module, source, node, span),
        docstring=span.docstring,
        is_async=node.asynchronous is not None,
        parent=item.parent,
    )


def _signature(module: cst.Module, source: _Source, node: cst.FunctionDef, span: _Span) -> str:
    """`(params) -> returns` as written."""
    returns = ""
    if node.returns is not None:
        returns = module.code_for_node(node.returns.annotation)
    params = None
    if span.column is not None:
        params = _params_slice(module, source, node, span.line, span.column, returns)
    if params is None:
        params = module.code_for_node(node.params)
    return f"({params}) -> {returns}" if node.returns is not None else f"({params})"


def _params_slice(
    module: cst.Module,
    source: _Source,
    node: cst.FunctionDef,
    line: int,
    column: int,
    returns: str,
) -> str | None:
    """The parameter text cut from the source, or None when it cannot be proven right.

    Generating the parameters' code from the tree is most of the cost of a
    definition; the text between the parentheses is the same string.  The cut
    is trusted only when the header before it and after it, rebuilt from the
    tree's small whitespace nodes, matches the source exactly.  libcst writes a
    node's continuation lines without the indentation of its block, so a header
    that spans lines inside an indented block is left to libcst.
    """
    start = source.offset(line, column)
    if start is None:
        return None
    head = [
        "def",
        _ws(module, node.whitespace_after_def),
        node.name.value,
        _ws(module, node.whitespace_after_name),
    ]
    if node.asynchronous is not None:
        head[:0] = ["async", _ws(module, node.asynchronous.whitespace_after)]
    if node.type_parameters is not None:
        head.append(module.code_for_node(node.type_parameters))
    head += [
        _ws(module, node.whitespace_after_type_parameters),
        "(",
        _ws(module, node.whitespace_before_params),
    ]
    prefix = "".join(head)
    text = source.text
    indented = start > 0 and text[start - 1] != "\n"
    if (indented and "\n" in prefix) or not text.startswith(prefix, start):
        return None
    params_start = start + len(prefix)
    end = _closing_paren(text, params_start)
    if end is None or (indented and "\n" in text[params_start:end]):
        return None
    tail = [")"]
    annotation = node.returns
    if annotation is not None:
        before, after = (
            annotation.whitespace_before_indicator,
            annotation.whitespace_after_indicator,
        )
        if not isinstance(before, cst.BaseParenthesizableWhitespace):
            return None
        tail += [_ws(module, before), "->", _ws(module, after), returns]
    tail += [_ws(module, node.whitespace_before_colon), ":"]
    body = node.body
    if isinstance(body, cst.IndentedBlock):
        header = body.header
        newline = header.newline.value
        tail += [
            header.whitespace.value,
            header.comment.value if header.comment is not None else "",
            newline if newline is not None else module.default_newline,
        ]
    elif isinstance(body, cst.SimpleStatementSuite):
        tail.append(_ws(module, body.leading_whitespace))
    else:
        return None
    closing = "".join(tail)
    if (indented and "\n" in closing.rstrip("\n")) or not text.startswith(closing, end):
        return None
    return text[params_start:end]


def _ws(module: cst.Module, node: cst.BaseParenthesizableWhitespace) -> str:
    if isinstance(node, cst.SimpleWhitespace):
        return node.value
    return module.code_for_node(node)


def _closing_paren(text: str, pos: int) -> int | None:
    """Offset of the `)` closing a parenthesis opened just before `pos`, or None.

    Skips strings and comments the way the tokenizer does; any surprise (a
    mismatched bracket, an unterminated string) gives None, never a guess.
    """
    depth = 1
    while True:
        found = _SPECIAL.search(text, pos)
        if found is None:
            return None
        char, at = found.group(), found.start()
        if char in "([{":
            depth += 1
            pos = at + 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return at if char == ")" else None
            pos = at + 1
        elif char == "#":
            pos = text.find("\n", at)
            if pos < 0:
                return None
        else:
            quote = char * 3 if text.startswith(char * 3, at) else char
            closed = _STRING_END[quote].match(text, at + len(quote))
            if closed is None:
                return None
            pos = closed.end()


class _Source:
    """The decoded text with line offsets, computed on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    def offset(self, line: int, byte_column: int) -> int | None:
        """Text offset of an ast position (1-based line, UTF-8 byte column)."""
        starts = self._starts
        if starts is None:
            starts = self._starts = _line_starts(self.text)
        if not 1 <= line <= len(starts):
            return None
        begin = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        row = self.text[begin:end]
        if row.isascii():
            return begin + byte_column if byte_column <= len(row) else None
        try:
            return begin + len(row.encode("utf-8")[:byte_column].decode("utf-8"))
        except UnicodeError:  # a column inside a character: not a position ast gives
            return None


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    at = find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = find("\n", at + 1)
    return starts


def _arg_code(module: cst.Module, arg: cst.Arg) -> str:
    """A class base or keyword as written, without its trailing comma."""
    value = module.code_for_node(arg.value)
    if arg.keyword is not None:
        equal = module.code_for_node(arg.equal) if isinstance(arg.equal, cst.AssignEqual) else "="
        return f"{arg.keyword.value}{equal}{value}"
    return f"{arg.star}{value}"


def _imports(
    node: cst.Import | cst.ImportFrom, context: tuple[str, ...], line: int
) -> list[Import]:
    """One Import per module of `import a, b`; one per statement for `from` imports."""
    if isinstance(node, cst.Import):
        result = []
        for alias in node.names:
            module = _dotted(alias.name)
            if alias.asname is not None:
                bound = _dotted(alias.asname.name)
                aliases = ((bound, module),)
            else:
                top = module.split(".", 1)[0]
                aliases = ((top, top),)
            result.append(Import(line=line, module=module, aliases=aliases, context=context))
        return result
    level = len(node.relative)
    written = _dotted(node.module) if node.module is not None else ""
    prefix = "." * level + written
    joiner = "" if prefix.endswith(".") else "."
    if isinstance(node.names, cst.ImportStar):
        names: tuple[str, ...] = ()
        bindings: tuple[tuple[str, str], ...] = ()
    else:
        names = tuple(_dotted(alias.name) for alias in node.names)
        bindings = tuple(
            (
                _dotted(alias.asname.name) if alias.asname else name,
                prefix + joiner + name,
            )
            for alias, name in zip(node.names, names, strict=True)
        )
    return [
        Import(
            line=line,
            module=prefix if written else None,
            names=names,
            aliases=bindings,
            level=level,
            is_from=True,
            star=isinstance(node.names, cst.ImportStar),
            context=context,
        )
    ]


def _dunder_all(module: cst.Module) -> tuple[str, ...] | None:
    """`__all__` when the top level spells it out with string literals, else None."""
    names: list[str] | None = None
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign):
                if any(_is_all(target.target) for target in small.targets):
                    names = _literal_strings(small.value)
            elif isinstance(small, cst.AnnAssign):
                if _is_all(small.target) and small.value is not None:
                    names = _literal_strings(small.value)
            elif isinstance(small, cst.AugAssign):
                if _is_all(small.target):
                    extra = _literal_strings(small.value)
                    plus = isinstance(small.operator, cst.AddAssign)
                    names = (
                        names + extra if names is not None and extra is not None and plus else None
                    )
            elif isinstance(small, cst.Expr):
                names = _all_method_call(small.value, names)
    return tuple(names) if names is not None else None


def _all_method_call(value: cst.BaseExpression, names: list[str] | None) -> list[str] | None:
    """Follow `__all__.extend([...])` / `__all__.append("x")`; any other method loses track."""
    if not (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and _is_all(value.func.value)
    ):
        return names
    if names is None or len(value.args) != 1 or value.args[0].keyword or value.args[0].star:
        return None
    method = value.func.attr.value
    argument = value.args[0].value
    if method == "extend":
        extra = _literal_strings(argument)
        return names + extra if extra is not None else None
    if method == "append":
        single = _literal_string(argument)
        return [*names, single] if single is not None else None
    return None


def _is_all(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "__all__"


def _literal_strings(node: cst.BaseExpression) -> list[str] | None:
    if not isinstance(node, (cst.List, cst.Tuple)):
        return None
    strings: list[str] = []
    for element in node.elements:
        value = _literal_string(element.value) if isinstance(element, cst.Element) else None
        if value is None:
            return None
        strings.append(value)
    return strings


def _literal_string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


# --- code references from the ast tree ----------------------------------------


def _refs(tree: ast.Module) -> _Refs:
    """Dotted names, short string arguments and main-guard calls, from code only."""
    attributes, calls = _attributes_and_calls(tree)
    # The walk is pre-order, so an inner chain comes after its outer chain:
    # naming in reverse order finds every inner name already computed.
    names: dict[int, str] = {}
    for attribute in reversed(attributes):
        value = attribute.value
        if isinstance(value, ast.Attribute):
            base = names.get(id(value)) or _chain_name(value, names)
        elif isinstance(value, ast.Name):
            base = value.id
        else:
            base = ""
        names[id(attribute)] = f"{base}.{attribute.attr}"

    called = {id(call.func) for call in calls}
    lines: dict[tuple[str, bool], set[int]] = {}
    for attribute in attributes:
        key = (names[id(attribute)], id(attribute) in called)
        line = attribute.end_lineno or attribute.lineno  # the attribute's own line
        found = lines.get(key)
        if found is None:
            lines[key] = {line}
        else:
            found.add(line)
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name):
            lines.setdefault((func.id, True), set()).add(func.lineno)

    return _Refs(
        code_refs=_merged(lines),
        string_args=_string_args(calls, names),
        main_guard_calls=_main_guard_calls(tree, names),
    )


def _attributes_and_calls(tree: ast.AST) -> tuple[list[ast.Attribute], list[ast.Call]]:
    """Every Attribute and Call node, parents before children.

    What `ast.walk` finds, at under half its cost: no generators, and no visits to
    fields that cannot hold an expression.
    """
    attributes: list[ast.Attribute] = []
    calls: list[ast.Call] = []
    stack: list[object] = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    child_fields = _CHILD_FIELDS
    while stack:
        node = pop()
        if isinstance(node, ast.Attribute):
            attributes.append(node)
        elif isinstance(node, ast.Call):
            calls.append(node)
        fields = child_fields.get(type(node))
        if fields is None:  # None in Dict.keys, or a node class this table does not know
            fields = getattr(node, "_fields", None) or ()
        for field in fields:
            value = getattr(node, field, None)
            if type(value) is list:
                extend(value)
            elif value is not None:
                push(value)
    return attributes, calls


def _chain_name(attribute: ast.Attribute, names: dict[int, str]) -> str:
    value = attribute.value
    if isinstance(value, ast.Attribute):
        base = names.get(id(value))
        if base is None:
            base = _chain_name(value, names)
    elif isinstance(value, ast.Name):
        base = value.id
    else:
        base = ""
    return f"{base}.{attribute.attr}"


def _ref_line(node: ast.expr) -> int:
    """The line of an attribute's name (a chain may span lines), else the start."""
    if isinstance(node, ast.Attribute):
        return node.end_lineno or node.lineno
    return node.lineno


def _callee(func: ast.expr, names: dict[int, str]) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return names.get(id(func))
    return None


def _merged(lines: dict[tuple[str, bool], set[int]]) -> tuple[CodeRef, ...]:
    return tuple(
        CodeRef(name, tuple(sorted(line_set)), call)
        for (name, call), line_set in sorted(lines.items())
    )


def _string_args(calls: Iterable[ast.Call], names: dict[int, str]) -> tuple[StringArg, ...]:
    found: set[tuple[str, str, str, int]] = set()  # keyword "" sorts positional first
    for call in calls:
        callee = _callee(call.func, names)
        if callee is None:
            continue
        for arg in call.args:
            value = _short_string(arg)
            if value is not None:
                found.add((callee, "", value, arg.lineno))
        for keyword in call.keywords:
            value = _short_string(keyword.value)
            if value is not None and keyword.arg is not None:
                found.add((callee, keyword.arg, value, keyword.value.lineno))
    return tuple(
        StringArg(callee, keyword or None, value, line)
        for callee, keyword, value, line in sorted(found)
    )


def _short_string(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
        if len(value) <= MAX_STRING_ARG and _STRING_ARG.fullmatch(value):
            return value
    return None


def _main_guard_calls(tree: ast.Module, names: dict[int, str]) -> tuple[CodeRef, ...]:
    lines: dict[tuple[str, bool], set[int]] = {}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.If) and _is_main_test(stmt.test)):
            continue
        for inner in stmt.body:
            for call in _attributes_and_calls(inner)[1]:
                callee = _callee(call.func, names)
                if callee is not None:
                    lines.setdefault((callee, True), set()).add(_ref_line(call.func))
    return _merged(lines)


def _is_main_test(test: ast.expr) -> bool:
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = (test.left, test.comparators[0])
    has_name = any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides)
    has_main = any(isinstance(side, ast.Constant) and side.value == "__main__" for side in sides)
    return has_name and has_main


# --- small helpers ------------------------------------------------------------


def _line_count(text: str) -> int:
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError) and exc.msg:
        return f"{type(exc).__name__}: {exc.msg}"
    detail = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {detail[0]}" if detail else type(exc).__name__


def _short(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _sorted_problems(problems: Sequence[Problem]) -> tuple[Problem, ...]:
    return tuple(sorted(problems, key=lambda p: (p.line, p.severity, p.message)))
