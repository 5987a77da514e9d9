"""C++ declarations and their out-of-line definitions, matched across files.

A header declares `void Foo::bar(int x) const;`, a source file defines
`void Foo::bar(int y) const { ... }`: the two match when their qualified names
and parameter types agree (parameter names and default values do not count).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from docgen.model.cfamily_facts import CDefinition
from docgen.model.facts import ScannedFile
from docgen.model.kinds import CALLABLE_KINDS
from docgen.scan.cfamily.reader_macros import split_commas

_BRACKET = re.compile(r"[(<\[{)>\]}]")
_BRACKET_OR_EQUALS = re.compile(r"[(<\[{)>\]}=]")
#: a type, then a parameter's name: the name follows a space or a symbol, never a letter
#: of the type itself (`int64_t` alone is a type, not `i` named `nt64_t`)
_TRAILING_NAME = re.compile(r"^(.*?(?:[>\]\*&).]|\w\s))\s*([A-Za-z_]\w*)$")
#: words that never make a type alone: `const Foo` is an unnamed `const Foo`
_QUALIFIERS = frozenset({"const", "volatile", "struct", "class", "enum", "union", "typename"})
#: kinds whose members can differ from one specialization of a template to the next
_RECORD_KINDS = frozenset({"class", "struct", "union"})
_TYPE_WORDS = frozenset(
    {
        "int",
        "long",
        "short",
        "char",
        "bool",
        "float",
        "double",
        "void",
        "unsigned",
        "signed",
        "const",
        "volatile",
        "auto",
    }
)


def _parameters(declaration: str, name: str) -> str | None:
    """The text between the parentheses that follow the name, or None."""
    at = declaration.find(name + "(")
    if at < 0:
        at = declaration.find(name)
        if at < 0:
            return None
    start = declaration.find("(", at + len(name))
    if start < 0:
        return None
    end = _closing(declaration, start)
    return declaration[start + 1 : end] if end is not None else None


def _closing(text: str, start: int) -> int | None:
    """Where the bracket opened at `start` closes (brackets of every kind counted), or
    None when it does not; steps from bracket to bracket, not through every character."""
    depth = 0
    for bracket in _BRACKET.finditer(text, start):
        depth += 1 if bracket.group() in "(<[{" else -1
        if depth == 0:
            return bracket.start()
    return None


def _parameter_type(parameter: str) -> str:
    """`const Foo& x = {}` -> `const Foo&`; `int` stays `int`."""
    return _written_type(parameter).replace(" ", "")


def _written_type(parameter: str) -> str:
    """A parameter without its name and default, spaces as written."""
    depth = 0
    for found in _BRACKET_OR_EQUALS.finditer(parameter):
        ch = found.group()
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif depth == 0:  # "=": a default value follows
            parameter = parameter[: found.start()].strip()
            break
    return without_name(parameter)


def signature_type(parameter: str) -> str:
    """A parameter's type as a signature matches it (`_parameter_type`): a by-value
    parameter's `const` is no part of its function's signature, and the namespaces a
    type is written with are left out (`at::Tensor` in the header, `Tensor` in the
    kernel of `at::native`, as lookup from the function's own namespace finds it)."""
    written = _written_type(parameter)
    if "&" not in written and "*" not in written:
        written = _TOP_CONST.sub("", written)
    return _NAMESPACE_QUALIFIER.sub("", written).replace(" ", "")


#: a by-value parameter's top-level `const` (`const int64_t`, `int64_t const`)
_TOP_CONST = re.compile(r"^\s*const\s+|\s+const\s*$")
#: a namespace a type is written with (`at::`, `c10::`, `::`), lower case as namespaces are
_NAMESPACE_QUALIFIER = re.compile(r"(?<![\w:])(?:::\s*)?(?:[a-z_][a-z0-9_]*\s*::\s*)+(?=[A-Za-z_])")


def without_name(parameter: str) -> str:
    """A parameter without its name: `const Foo& x` -> `const Foo&`; an unnamed one
    (`int64_t`, `const Foo`, `unsigned int`) stays whole."""
    match = _TRAILING_NAME.match(parameter)
    if (
        match
        and match.group(2) not in _TYPE_WORDS
        and not set(match.group(1).split()) <= _QUALIFIERS
    ):
        return match.group(1)
    return parameter


def signature_key(definition: CDefinition, specialization: str = "") -> str | None:
    """`qualname(types)`; None when the parameters cannot be read from the declaration.
    `specialization`: the template arguments of the class specialization whose body
    holds it, which members of other specializations of that class do not share."""
    params = _parameters(definition.declaration, definition.name)
    if params is None:
        return None
    return pair_key(definition.qualname, specialization, parameter_types(params))


def pair_key(qualname: str, specialization: str, types: str) -> str:
    """What a declaration and a definition pair on: `qualname<specialization>(types)`."""
    return f"{qualname}{specialization}({types})"


def parameter_types(params: str) -> str:
    """The types of a parameter list as written, without names and defaults (`void`
    alone is none), joined by commas."""
    types = [signature_type(p) for p in split_commas(params)]
    return "" if types == ["void"] else ",".join(types)


def specialization_arguments(record: CDefinition) -> str:
    """`<bool>` for `struct type_caster<bool>` (see `_normalized`); "" for a class that
    is not a specialization (its bases' arguments are not its own)."""
    text = record.declaration
    if "<" not in text:
        return ""
    at = text.find(record.name)
    while at >= 0:  # the class's own name comes first: what follows it is not its own
        end = at + len(record.name)
        if (at == 0 or not _word(text[at - 1])) and (end == len(text) or not _word(text[end])):
            after = len(text) - len(text[end:].lstrip())
            if text.startswith("<", after):
                return _normalized(_angle_brackets(text, after), record.template)
            return ""
        at = text.find(record.name, end)
    return ""


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def written_owner_arguments(definition: CDefinition, owner: str) -> str:
    """The `<...>` an out-of-line definition writes right before `::name`, after its
    class's name (`bool ns::Caster<bool>::load`), normalized; "" when there is none."""
    text = definition.declaration
    at = text.rfind("::" + definition.name)
    if at < 0 or "<" not in text:
        return ""
    close = len(text[:at].rstrip()) - 1
    if close < 0 or text[close] != ">":
        return ""
    depth = 0
    for i in range(close, -1, -1):
        depth += {">": 1, "<": -1}.get(text[i], 0)
        if depth == 0:
            before = text[:i].rstrip()
            if before.endswith(owner) and not before[: -len(owner)][-1:].isalnum():
                return _normalized(text[i : close + 1], definition.template)
            return ""
    return ""


#: a name's qualifiers (`c10::` of `c10::BFloat16`)
_QUALIFIER = re.compile(r"\b[A-Za-z_]\w*\s*::\s*")


def _normalized(args: str, template: str) -> str:
    """Template arguments as a key: spaces and qualifiers removed, the template's own
    parameters numbered (`<T*>` under `template <class T>` and `<U*>` under
    `template <class U>` are the same partial specialization)."""
    key = _QUALIFIER.sub("", args).replace(" ", "")
    for number, parameter in enumerate(_template_parameters(template)):
        key = re.sub(rf"(?<![\w#]){re.escape(parameter)}(?!\w)", f"#{number}", key)
    return key


def _template_parameters(template: str) -> list[str]:
    """The names `template <typename T, int N = 2, class... Ts>` introduces, in order."""
    start = template.find("<")
    if start < 0:
        return []
    names = []
    for parameter in split_commas(_angle_brackets(template, start)[1:-1]):
        found = re.search(r"([A-Za-z_]\w*)\s*$", parameter.partition("=")[0])
        if found and found.group(1) not in {"typename", "class"}:
            names.append(found.group(1))
    return names


def _angle_brackets(text: str, start: int) -> str:
    """`<...>` as written, from the `<` at `start` to the bracket that closes it; ""
    when it is not closed."""
    end = _closing(text, start)
    return text[start : end + 1] if end is not None else ""


def _deleted(definition: CDefinition) -> bool:
    """`= delete`: declared so that it is never defined."""
    if definition.is_definition or "delete" not in definition.declaration:
        return False
    text = definition.declaration.rstrip()  # the scanner keeps no comment in it
    return text.endswith("delete") and text[:-6].rstrip().endswith("=")


def owner_specialization(
    definition: CDefinition,
    enclosing: list[tuple[int, int, str, str]],
    specialized: frozenset[tuple[str, str]],
) -> str:
    """The template arguments of the class specialization `definition` is a member of:
    the one whose body (among `enclosing`, its file's) holds it, or the one its
    out-of-line name is written with (`Vectorized<BFloat16>::isnan`) where the
    repository has that specialization (`specialized`: qualified name, arguments);
    "" for a member of a primary template (`Dict<Key, Value>::insert`)."""
    owner = definition.qualname.rpartition("::")[0]
    if not owner:
        return ""
    for line, end_line, qualname, args in enclosing:
        if qualname == owner and line <= definition.line <= end_line:
            return args
    args = written_owner_arguments(definition, owner.rpartition("::")[2])
    return args if args and (owner, args) in specialized else ""


def _specialized(definitions: Iterable[CDefinition]) -> Iterator[tuple[CDefinition, str]]:
    """Each class specialization among a file's definitions, with its arguments."""
    for d in definitions:
        if d.kind in _RECORD_KINDS and d.is_definition and "<" in d.declaration:
            args = specialization_arguments(d)
            if args:
                yield d, args


def specializations(definitions: Iterable[CDefinition]) -> frozenset[tuple[str, str]]:
    """The class specializations among a file's definitions: (qualified name, arguments)."""
    return frozenset((d.qualname, args) for d, args in _specialized(definitions))


#: A declaration or definition a name can pair on: (qualified name, line, kind, 1 for a
#: definition, the arguments of the class specialization it is a member of, its
#: parameters as written): the rows of `docgen.index.cfamily_rows.DECLARATIONS`.  Two
#: rows pair when one is a definition and their names, specializations and parameter
#: types agree (`signature_key`): the types are read only for names both declared and
#: defined somewhere, which few are.
DeclarationRow = tuple[str, int, str, int, str, str]


def tree_specializations(scanned: ScannedFile) -> frozenset[tuple[str, str]]:
    """A file's class specializations (qualified name, arguments)."""
    c = scanned.facts.cfamily
    return specializations(c.definitions) if c is not None else frozenset()


def declaration_rows(
    scanned: ScannedFile, specialized: frozenset[tuple[str, str]]
) -> tuple[DeclarationRow, ...]:
    """Each function, method and the like a file declares or defines (but those
    `= delete`) whose parameters can be read (see `DeclarationRow`), and each static
    data member declared in a class or defined out of line.  `specialized`: the
    class specializations of the whole tree (see `owner_specialization`)."""
    c = scanned.facts.cfamily
    if c is None:
        return ()
    enclosing = [(d.line, d.end_line, d.qualname, a) for d, a in _specialized(c.definitions)]
    rows = []
    for d in c.definitions:
        if d.kind in CALLABLE_KINDS and not _deleted(d):
            params = _parameters(d.declaration, d.name)
            if params is not None:
                owner = owner_specialization(d, enclosing, specialized)
                rows.append((d.qualname, d.line, d.kind, int(d.is_definition), owner, params))
        elif d.kind == "field" and (not d.is_definition or _qualified_declarator(d)):
            # a static member: declared in its class, defined out of line
            owner = owner_specialization(d, enclosing, specialized)
            rows.append((d.qualname, d.line, d.kind, int(d.is_definition), owner, ""))
    return tuple(sorted(rows))


def _qualified_declarator(d: CDefinition) -> bool:
    """`bool Flags::_enabled = false`: a member defined outside its class (not
    `std::string name`, whose type alone is qualified)."""
    return re.search(rf"::\s*{re.escape(d.name)}\s*(?:=|\{{|\[|;|$)", d.declaration) is not None


@dataclass(frozen=True, slots=True)
class Site:
    """A place that declares or defines a C-family name, for links between the two."""

    path: str
    line: int
    kind: str
    qualname: str
    is_definition: bool


@dataclass(frozen=True)
class CppSymbols:
    """For every declaration its definitions and for every definition its declarations,
    by (path, line, qualified name); computed once per build.  `specialized`: every
    class specialization of the files read (qualified name, arguments)."""

    counterparts_of: Mapping[tuple[str, int, str], tuple[Site, ...]]
    specialized: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def of(
        cls, files: Iterable[ScannedFile], specialized: frozenset[tuple[str, str]] | None = None
    ) -> CppSymbols:
        """The pairs among `files`; `specialized`, when given, stands for the class
        specializations of a whole tree of which `files` are a part."""
        files = list(files)
        if specialized is None:
            specialized = frozenset(
                found for f in files if f.facts.cfamily for found in tree_specializations(f)
            )
        rows = {f.facts.path: declaration_rows(f, specialized) for f in files}
        return cls.from_rows(rows, specialized)

    @classmethod
    def from_rows(
        cls,
        rows: Mapping[str, Iterable[DeclarationRow]],
        specialized: frozenset[tuple[str, str]],
    ) -> CppSymbols:
        """The pairs among each file's declaration rows (see `declaration_rows`)."""
        forms: dict[str, int] = {}  # qualified name -> 1: declared, 2: defined, 3: both
        for held in rows.values():
            for row in held:
                forms[row[0]] = forms.get(row[0], 0) | (2 if row[3] else 1)
        types: dict[str, str] = {}  # parameters as written -> their types
        found: dict[str, list[Site]] = {}
        for path, held in rows.items():
            for qualname, line, kind, definition, owner, params in held:
                if forms[qualname] != 3:
                    continue
                written = types.get(params)
                if written is None:
                    written = types[params] = parameter_types(params)
                site = Site(path, line, kind, qualname, bool(definition))
                found.setdefault(pair_key(qualname, owner, written), []).append(site)
        counterparts: dict[tuple[str, int, str], tuple[Site, ...]] = {}
        for sites in found.values():
            if len(sites) < 2:
                continue
            ordered = sorted(sites, key=lambda s: (s.path, s.line))
            for site in ordered:
                others = tuple(
                    s
                    for s in ordered
                    if s.is_definition != site.is_definition
                    and not (s.path == site.path and s.line == site.line)
                )
                if others:
                    counterparts[(site.path, site.line, site.qualname)] = others
        return cls(MappingProxyType(dict(sorted(counterparts.items()))), specialized)

    def counterparts(self, path: str, definition: CDefinition) -> tuple[Site, ...]:
        """Where a declaration is defined, or a definition declared (never itself)."""
        return self.counterparts_of.get((path, definition.line, definition.qualname), ())
