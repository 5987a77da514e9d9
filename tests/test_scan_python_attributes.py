"""Module, class and instance attributes as the Python scanner reads them."""

from __future__ import annotations

import textwrap

from docgen.model.facts import MAX_ATTRIBUTE_VALUE, Attribute
from docgen.scan.python.scanner import scan


def attributes(source: str) -> tuple[Attribute, ...]:
    facts = scan("m.py", textwrap.dedent(source).encode("utf-8"))
    assert facts.python is not None
    return facts.python.attributes


def by_name(source: str) -> dict[str, Attribute]:
    return {a.qualname: a for a in attributes(source)}


def test_annotation_value_and_docstring_as_written() -> None:
    found = by_name(
        '''
        SIZE: dict[str,  int] = {"a": 1}  # spacing kept
        """How big."""
        '''
    )
    size = found["SIZE"]
    assert (size.scope, size.line, size.end_line) == ("module", 2, 2)
    assert size.annotation == "dict[str,  int]"
    assert size.value == '{"a": 1}'
    assert size.docstring == "How big."
    assert size.comment is None
    assert size.has_value


def test_values_after_non_ascii_text_are_cut_at_the_right_characters() -> None:
    found = by_name('NAME = "é" + "ü"\nπ: str = "ω"\n')
    assert found["NAME"].value == '"é" + "ü"'
    assert found["π"].annotation == "str"
    assert found["π"].value == '"ω"'


def test_a_bare_annotation_has_no_value() -> None:
    found = by_name("class C:\n    x: int\n")
    assert found["C.x"].value is None
    assert not found["C.x"].has_value


def test_a_long_value_is_told_by_its_lines_only() -> None:
    items = ", ".join(f"'item{n}'" for n in range(40))
    found = by_name(f"TABLE = [\n    {items},\n]\n")
    table = found["TABLE"]
    assert table.value is None and table.has_value
    assert (table.line, table.end_line) == (1, 3)
    assert len(items) > MAX_ATTRIBUTE_VALUE


def test_doc_comments_before_and_trailing_and_plain_comments_above() -> None:
    found = by_name(
        """
        #: First line.
        #: Second line.
        A = 1
        B = 2  #: Trailing.
        # Plain words above,
        # type: ignore
        #   indented on.
        C = 3

        # Not touching.

        D = 4
        """
    )
    assert found["A"].docstring == "First line.\nSecond line."
    assert found["B"].docstring == "Trailing."
    assert found["C"].docstring is None
    assert found["C"].comment == "Plain words above,\n  indented on."
    assert found["D"].comment is None and found["D"].docstring is None


def test_first_binding_through_blocks_and_names_bound_otherwise_left_out() -> None:
    found = by_name(
        """
        import os
        try:
            import yaml
        except ImportError:
            yaml = None
            FAST = False
        else:
            FAST = True
        if os.name == "nt":
            SEP = "\\\\"
        else:
            SEP = "/"
        def helper():
            LOCAL = 1
        helper = wrap(helper)
        a, (b, *c) = f()
        __all__ = ["a"]
        """
    )
    assert sorted(found) == ["FAST", "SEP", "a", "b", "c"]
    assert found["FAST"].value == "False"
    assert found["SEP"].line == 11
    assert found["b"].value is None and found["b"].has_value  # one of several targets


def test_class_and_instance_attributes_with_nested_qualnames() -> None:
    found = by_name(
        """
        class Outer:
            kind = "outer"

            class Inner:
                depth: int = 1

            def __init__(self, size):
                self.size = size
                self.kind = "instance"  # the class attribute tells it
                if size:
                    self.extra: list[int] = []
                def nested(other):
                    other.never = 1

            def method(self):
                self.later = 1

        def factory():
            class Local:
                flag = True
            return Local
        """
    )
    assert sorted(found) == [
        "Outer.Inner.depth",
        "Outer.extra",
        "Outer.kind",
        "Outer.size",
        "factory.Local.flag",
    ]
    assert found["Outer.kind"].scope == "class"
    assert found["Outer.size"].scope == "instance"
    assert found["Outer.extra"].annotation == "list[int]"
    assert found["Outer.Inner.depth"].parent == "Outer.Inner"
    assert found["factory.Local.flag"].parent == "factory.Local"


def test_attributes_come_in_source_order() -> None:
    found = attributes("B = 1\nclass C:\n    x = 1\nA = 2\n")
    assert [a.qualname for a in found] == ["B", "C.x", "A"]


def test_no_attributes_when_python_cannot_parse() -> None:
    assert attributes("x = (\n") == ()


def test_docstrings_of_bindings_inside_blocks_and_pragmas_only_left_out() -> None:
    found = by_name(
        '''
        try:
            HAS_FOO = True
            """Whether foo imports."""
        except ImportError:
            HAS_FOO = False
        class C:
            if True:
                y = 1
                """The y."""
        # type of cache to use
        # type: ignore
        CACHE = "disk"
        '''
    )
    assert found["HAS_FOO"].docstring == "Whether foo imports."
    assert found["C.y"].docstring == "The y."
    assert found["CACHE"].comment == "type of cache to use"


def test_two_classes_of_one_name_keep_their_own_attributes() -> None:
    found = attributes(
        "if PY311:\n    class Config:\n        a = 1\nelse:\n    class Config:\n        b = 2\n"
    )
    assert [(a.qualname, a.parent_line) for a in found] == [("Config.a", 2), ("Config.b", 5)]
