"""The YAML scanner: top-level keys, list entries, operators and derivative formulas
with their lines; a file PyYAML cannot read keeps what came before and says where."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.scan.table import scan_file
from docgen.scan.yaml.scanner import scan


def test_top_level_keys_of_every_document() -> None:
    facts = scan("ci.yml", b"name: CI\non:\n  push: {}\njobs:\n  - a\n---\nother: 1\n")
    assert facts.kind == "yaml" and facts.parsed and facts.yaml is not None
    assert facts.yaml.documents == 2
    assert [(k.name, k.line, k.holds) for k in facts.yaml.keys] == [
        ("name", 1, "value"),
        ("on", 2, "mapping"),
        ("jobs", 4, "list"),
        ("other", 7, "value"),
    ]
    assert facts.yaml.operators == () and facts.yaml.namespace == ""


def test_list_entries_are_named_by_their_first_key_and_keep_the_rest() -> None:
    facts = scan("tags.yaml", b"- tag: core\n  desc: |\n    The core.\n- tag: view\n")
    assert facts.yaml is not None
    entries = [(e.key, e.value, e.line, e.fields) for e in facts.yaml.entries]
    assert entries == [("tag", "core", 1, (("desc", "The core.\n"),)), ("tag", "view", 4, ())]


OPS = b"""# ops
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  structured_delegate: add.out
  variants: function, method
  dispatch:
    SparseCPU, SparseCUDA: add_sparse
  tags: [core, pointwise]

# a comment between entries
- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU, CUDA: add_out
"""


def test_operators_with_their_schema_keys_and_dispatch_table() -> None:
    facts = scan("native_functions.yaml", OPS)
    yaml = facts.yaml
    assert yaml is not None and yaml.namespace == "aten"
    add, out = yaml.operators
    assert (add.name, add.line, add.end_line) == ("add.Tensor", 2, 7)
    assert add.schema.startswith("add.Tensor(Tensor self") and add.schema.endswith("-> Tensor")
    assert add.fields == (
        ("structured_delegate", "add.out"),
        ("variants", "function, method"),
        ("tags", "core, pointwise"),
    )
    assert [(d.keys, d.kernel, d.line) for d in add.dispatch] == [
        (("SparseCPU", "SparseCUDA"), "add_sparse", 6)
    ]
    assert (out.name, out.line, out.end_line) == ("add.out", 10, 13)
    assert out.fields == (("structured", "True"),)


def test_derivative_formulas_nested_blocks_joined() -> None:
    text = (
        b"- name: chunk(Tensor self, int chunks) -> Tensor[]\n"
        b"  dispatch:\n    Default:\n      self: not_implemented('chunk')\n"
        b"- name: abs(Tensor self) -> Tensor\n  self: grad * self.sgn()\n"
        b"- name: not a schema\n"
    )
    yaml = scan("derivatives.yaml", text).yaml
    assert yaml is not None and yaml.namespace == "aten"
    assert [(d.name, d.line) for d in yaml.derivatives] == [("chunk", 1), ("abs", 5)]
    assert [(f.key, f.formula, f.line) for f in yaml.derivatives[0].formulas] == [
        ("dispatch / Default / self", "not_implemented('chunk')", 4)
    ]
    assert [(e.key, e.value) for e in yaml.entries] == [("name", "not a schema")]


def test_the_same_entries_elsewhere_are_not_derivatives() -> None:
    yaml = scan("deprecated.yaml", b"- name: add(Tensor self) -> Tensor\n  aten: add(self)\n").yaml
    assert yaml is not None and yaml.derivatives == ()
    assert [(e.key, e.value, e.fields) for e in yaml.entries] == [
        ("name", "add(Tensor self) -> Tensor", (("aten", "add(self)"),))
    ]


def test_an_error_is_a_problem_at_its_line_and_what_came_before_is_kept() -> None:
    facts = scan("bad.yaml", b"a: 1\n---\nb: [1, 2\nc: 3\n")
    assert not facts.parsed and facts.yaml is not None
    assert [k.name for k in facts.yaml.keys] == ["a"]
    assert len(facts.problems) == 1 and facts.problems[0].message.startswith("YAML: ")
    assert facts.problems[0].line == 4


def test_an_anchor_used_inside_itself_ends() -> None:
    facts = scan("loop.yaml", b"- &a\n  tag: x\n  more: [*a]\n")
    assert facts.yaml is not None
    (entry,) = facts.yaml.entries
    assert entry.value == "x" and "nested deeper" in entry.fields[0][1]


def test_tags_build_no_objects() -> None:
    facts = scan("x.yaml", b"a: !!python/object/apply:os.system ['echo hi']\n")
    assert facts.parsed and facts.yaml is not None
    assert [k.name for k in facts.yaml.keys] == ["a"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab:-[]{}&*!|>#'\" \n\t,?%@`")), max_size=80))
def test_the_scanner_never_raises_and_lines_stay_in_the_file(text: str) -> None:
    facts = scan_file("any.yaml", text.encode())
    assert facts.kind == "yaml"
    assert facts.yaml is not None or not facts.parsed
    if facts.yaml is not None:
        lines = [k.line for k in facts.yaml.keys] + [e.line for e in facts.yaml.entries]
        assert all(1 <= line <= max(facts.line_count, 1) for line in lines)
