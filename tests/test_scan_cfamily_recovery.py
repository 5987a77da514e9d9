"""C-family names the grammar alone would lose: comments inside macro bodies, pragma
macros, and heads left in a stretch it could not parse (cases from NCCL's sources)."""

from __future__ import annotations

from test_scan_cfamily import facts, inventory

from docgen.scan.cpp_blanking import directive_comments_blanked
from docgen.scan.cpp_macros import attribute_macros, macro_defs

CHECKS = """\
#define NEQCHECK(statement, value) \\
  do { \\
    if ((statement) != value) { \\
      /* Print the back trace*/ \\
      return 1; \\
    } \\
  } while (0)

#define NEQCHECKGOTO(statement, value, label) \\
  do { \\
    if ((statement) != value) { \\
      goto label; \\
    } \\
  } while (0)

int after() { return 0; }
"""


def test_a_comment_inside_a_continued_define_keeps_the_macros_after_it() -> None:
    c = facts(CHECKS, "checks.h")
    assert inventory(c) == {
        ("macro", "NEQCHECK", 1),
        ("macro", "NEQCHECKGOTO", 9),
        ("function", "after", 16),
    }
    assert c.error_lines == ()


def test_only_comments_within_a_continued_define_are_blanked() -> None:
    source = (
        b"/* licence */\n"
        b"#define ONE 1 /* one line: left */\n"
        b"#define TWO(x) \\\n  (x) /* inside */ \\\n  + 2\n"
        b"#define OPEN(x) \\\n  (x) /* runs past the directive\n  */\n"
        b"int x; /* after */\n"
        b"  # define SPACED(x) \\\n  /* too */ (x)\n"
        b"y = 1; #define NOT_A_DIRECTIVE \\\n /* kept */\n"
    )
    blanked = directive_comments_blanked(source)
    assert len(blanked) == len(source)
    assert blanked.count(b"\n") == source.count(b"\n")
    for kept in (b"/* licence */", b"/* one line: left */", b"/* runs past", b"/* after */"):
        assert kept in blanked
    assert b"/* kept */" in blanked
    for gone in (b"/* inside */", b"/* too */"):
        assert gone not in blanked
        assert blanked[source.index(gone) : source.index(gone) + len(gone)] == b" " * len(gone)
    assert directive_comments_blanked(b"int x; /* no define */") == b"int x; /* no define */"


def test_a_pragma_macro_is_blanked_where_it_is_used() -> None:
    header = (
        b"#define DO_PRAGMA(x) _Pragma(#x)\n"
        b"#define UNROLL(n) DO_PRAGMA(unroll n)\n"
        b"#define MS_WARNINGS __pragma(warning(push))\n"
        b'#define PRAGMA_AND_CODE _Pragma("once") int x;\n'
    )
    learned = attribute_macros(macro_defs(header))
    assert learned == {"DO_PRAGMA()", "UNROLL()", "MS_WARNINGS"}
    source = (
        "template <int N> __device__ void load(int* p) {\n"
        "  UNROLL(N)\n"
        "  for (int i = 0; i < N; i++) { p[i] = 0; }\n"
        "}\n"
        "__device__ void after() {}\n"
    )
    c = facts(source, "x.cuh", learned)
    assert c.error_lines == ()
    assert inventory(c) == {("function", "load", 1), ("function", "after", 5)}


# `typename T = void*` among template parameters is beyond tree-sitter-cpp: the whole
# namespace around it becomes one ERROR node with the struct swallowing its `}`.
SWALLOWED = """\
namespace nccl_ep {

namespace inner {
int helper(int x) { return x; }
}

struct Layout {
    template <typename out_t = void*, typename in_t = void*>
    static out_t advance(const in_t& p, int n) { return reinterpret_cast<out_t>(p); }
};

} // namespace nccl_ep
"""


def test_a_namespace_head_in_an_error_still_scopes_what_follows() -> None:
    c = facts(SWALLOWED, "common.hpp")
    assert c.error_lines  # the grammar's failure is still reported
    found = inventory(c)
    assert ("namespace", "nccl_ep", 1) in found
    assert ("namespace", "nccl_ep::inner", 3) in found
    assert ("function", "nccl_ep::inner::helper", 4) in found
    assert ("struct", "nccl_ep::Layout", 7) in found
    (ns,) = [d for d in c.definitions if d.qualname == "nccl_ep"]
    assert ns.declaration == "namespace nccl_ep"
    assert ns.end_line == 12  # the end of the stretch that swallowed its `}`


def test_heads_in_other_branches_are_not_nested() -> None:
    # as ATen's TopKImpl.h: the first branches are read, not both heads as one nest
    source = (
        "#pragma once\nnamespace at::native {\n\n#ifdef CPU_CAPABILITY\n"
        "inline namespace CPU_CAPABILITY {\n#else\ninline namespace DEFAULT {\n#endif\n\n"
        "template <typename T>\nvoid loop(const T k) {\n}\n\n}\n}\n"
    )
    c = facts(source, "TopKImpl.h")
    assert c.error_lines == ()
    assert ("function", "at::native::CPU_CAPABILITY::loop", 11) in inventory(c)
    assert not any("DEFAULT" in d.qualname for d in c.definitions)


def test_a_function_head_in_an_error_is_read_to_its_closing_brace() -> None:
    # the stray `)` makes an ERROR of the run; the head before it still opens a function
    source = (
        "typedef int T;\n"
        "T first(int a) {\n  return a;\n}\n"
        "static T broken(const T& cfg) {\n  Foo bar(x));\n  return cfg;\n}\n"
        "T last() { return 0; }\n"
    )
    c = facts(source, "x.cu")
    found = inventory(c)
    assert ("function", "broken", 5) in found
    (broken,) = [d for d in c.definitions if d.name == "broken"]
    assert broken.is_definition and broken.file_local
    assert broken.declaration == "static T broken(const T& cfg)"
    assert broken.end_line == 8
    assert not any(d.name == "bar" for d in c.definitions)  # a statement, never a name
