"""The vocabulary the Markdown scanner reads code with: words that are never names
(keywords, shell commands, English filler), the languages of fenced blocks, and the
patterns of names, imports, comments, addresses and directives."""

from __future__ import annotations

import re
from types import MappingProxyType


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Fixed rather than taken from `keyword`, whose soft keywords vary by Python version.
PYTHON_KEYWORDS = _words(
    "False None True and as assert async await break class continue def del elif else "
    "except finally for from global if import in is lambda nonlocal not or pass raise "
    "return try while with yield _ case match type"
)
SHELL_WORDS = _words(
    "awk bash cat cd chmod chown cp done echo env esac eval exec exit export false fi "
    "grep head ln local ls mkdir mv pip pip3 printf pwd python python3 read rm rmdir "
    "sed set sh shift source sudo tail then touch true unset wait xargs zsh"
)
# Dropped only when found inside code, see the module docstring; `self`/`cls` join them.
PYTHON_BUILTINS = _words(
    "__import__ abs all any ascii bin bool breakpoint bytearray bytes callable chr "
    "classmethod compile complex delattr dict dir divmod enumerate eval exec filter "
    "float format frozenset getattr globals hasattr hash help hex id input int "
    "isinstance issubclass iter len list locals map max memoryview min next object oct "
    "open ord pow print property range repr reversed round set setattr slice sorted "
    "staticmethod str sum super tuple type vars zip self cls"
)
# Compared case-insensitively; a code span holding only one of these is prose in backticks.
ENGLISH_FILLER = _words(
    "a an and are args be example examples for if in is it its note of on or raises "
    "returns see that the these this those to todo warning with yields"
)
NEVER = PYTHON_KEYWORDS | SHELL_WORDS

HASH_COMMENT_LANGUAGES = _words(
    "bash cfg cmake conf console dockerfile ini ipython ipython3 make makefile perl py "
    "py3 pycon python python3 r ruby sh shell shell-session toml yaml yml zsh"
)
SLASH_COMMENT_LANGUAGES = _words(
    "c c++ cc cpp cu cuda cxx go h hpp java javascript js jsonc kotlin objc proto rs "
    "rust scala swift ts typescript"
)

# Quoted Markdown is prose: only its backticked spans are read, as inline code.  reST
# (and every MyST directive but the code ones) is read by `rst_identifiers`.  Math is
# never code.
PROSE_LANGUAGES = _words("markdown md myst")
RST_LANGUAGES = _words("rst restructuredtext {eval-rst}")
MATH_LANGUAGES = _words("katex latex math tex")
CODE_DIRECTIVES = _words("{code-block} {code} {code-cell} {sourcecode}")
MODULE_DIRECTIVES = _words("currentmodule module py:currentmodule py:module")
PANDOC_CLASS = re.compile(r"\{\.([A-Za-z0-9_+-]+)")
MYST_DIRECTIVE = re.compile(r"\{([A-Za-z][\w:.+-]*)\}")
# Sphinx/MyST roles whose backticked text is a document, label or formula, not code.
PROSE_ROLES = _words("abbr cite doc download eq math numref ref sub sup term")
MYST_ROLE = re.compile(r"\{([\w:.+-]+)\}$")
BACKTICKED = re.compile(r"(?::([\w:.+-]{1,40}):)?(`+)([^`\n]+)\2")
RST_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+([A-Za-z][\w:.+-]*)::(.*)")

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
QUALIFIED = rf"{NAME}(?:(?:\.|::){NAME})*"
DOTTED = rf"{NAME}(?:\.{NAME})*"

WHOLE_SPAN = re.compile(rf"\.?({QUALIFIED})(?:\(\))?")  # `.item()` names the method item
API_NAME = re.compile(rf"~?({DOTTED})")
# A backslash before a name is an escape (`\n`) or LaTeX (`\frac`), not code; a hyphen
# after a letter makes it part of a longer word (`package-lock.json`), see `_candidates`.
CANDIDATE = re.compile(rf"(?<![A-Za-z0-9_\\])(?<![A-Za-z0-9]-)({QUALIFIED})(\()?")
# Bounded repeats and a start only at a word's start keep these linear on long runs.
URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]{0,31}://\S*|\bwww\.\S+")
EMAIL = re.compile(
    r"(?<![A-Za-z0-9_.+-])[A-Za-z0-9_.+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+"
)
HASH_COMMENT = re.compile(r"(?:^|(?<=\s))#.*$", re.MULTILINE)
SLASH_COMMENT = re.compile(r"(?:^|(?<=\s))//.*$", re.MULTILINE)
BLOCK_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)", re.DOTALL)  # unterminated: to the end
CAMEL = re.compile(r"[a-z][A-Z]")

PROMPT = r"^[ \t]*(?:(?:>>>|\.\.\.)[ \t]+)?"
ALIASED = rf"{DOTTED}(?:[ \t]+as[ \t]+{NAME})?"
ALIAS_LIST = rf"{ALIASED}(?:[ \t]*,[ \t]*{ALIASED})*"
DEF_OR_CLASS = re.compile(
    PROMPT + rf"(?:(?:async[ \t]+)?def[ \t]+({NAME})[ \t]*\(|class[ \t]+({NAME})[ \t]*[(:])",
    re.MULTILINE,
)
FROM_IMPORT = re.compile(
    PROMPT + rf"from[ \t]+\.*({DOTTED})?[ \t]+import[ \t]+\(?[ \t]*({ALIAS_LIST})",
    re.MULTILINE,
)
IMPORT = re.compile(PROMPT + rf"import[ \t]+({ALIAS_LIST})", re.MULTILINE)

FRONT_MATTER_FENCES = MappingProxyType({"---": ("---", "..."), "+++": ("+++",)})
