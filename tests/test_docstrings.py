"""Docstrings of the three styles split into summary, text, field tables and examples."""

from __future__ import annotations

import inspect

from hypothesis import given
from hypothesis import strategies as st

from docgen.render.docstrings import DocField, ParsedDocstring, parse_docstring


def parse(text: str) -> ParsedDocstring:
    """Parse text written indented inside a triple-quoted string, as `ast` would clean it."""
    return parse_docstring(inspect.cleandoc(text))


# --- Google -----------------------------------------------------------------------------


def test_google_params_returns_raises_and_text() -> None:
    doc = parse(
        """
        Add two numbers,
        carefully.

        Longer explanation.

        Args:
            x (int): The first.
            y (Dict[str, int], optional): A mapping,
                wrapped over two lines.

                A second paragraph.
            *args: Extra positional.
            **kwargs (Any): Extra keyword.

        Returns:
            Tuple[int, str]: The sum and
                its name.

        Raises:
            ValueError: If x is negative.
            TypeError: If y is not a mapping.

        Text after the sections.
        """
    )
    assert doc.style == "google"
    assert doc.summary == "Add two numbers, carefully."
    assert doc.description == "Longer explanation.\n\nText after the sections."
    assert doc.params == (
        DocField("x", "int", "The first."),
        DocField(
            "y",
            "Dict[str, int], optional",
            "A mapping, wrapped over two lines.\nA second paragraph.",
        ),
        DocField("*args", "", "Extra positional."),
        DocField("**kwargs", "Any", "Extra keyword."),
    )
    assert doc.returns == (DocField("", "Tuple[int, str]", "The sum and its name."),)
    assert doc.raises == (
        DocField("ValueError", "", "If x is negative."),
        DocField("TypeError", "", "If y is not a mapping."),
    )
    assert doc.yields == ()
    assert doc.other_sections == ()


def test_google_types_with_roles_colons_and_unbalanced_brackets() -> None:
    doc = parse(
        """
        Args:
            dtype (:class:`torch.dtype`, optional): the type. Default: ``None``.
            fn (Callable[[int], str]): see :func:`f`: it maps.
            root (Union[nn.Module, Dict[str, Any]): a typo in the type.
        """
    )
    assert doc.params == (
        DocField("dtype", ":class:`torch.dtype`, optional", "the type. Default: ``None``."),
        DocField("fn", "Callable[[int], str]", "see :func:`f`: it maps."),
        DocField("root", "Union[nn.Module, Dict[str, Any]", "a typo in the type."),
    )


def test_google_yields_keyword_args_and_other_sections() -> None:
    doc = parse(
        """
        Walk the tree.

        Args:
            root: Where to start.

        Keyword Args:
            depth (int): How far.

        Yields:
            Node: Each node in turn.

        Note:
            Order is depth first.

                indented detail

        Attributes:
            seen (set): Nodes visited.
        """
    )
    assert doc.style == "google"
    assert [p.name for p in doc.params] == ["root", "depth"]
    assert doc.yields == (DocField("", "Node", "Each node in turn."),)
    assert doc.other_sections == (("Note", "Order is depth first.\n\n    indented detail"),)
    assert doc.attributes == (DocField("seen", "set", "Nodes visited."),)


def test_numpy_attributes_section_is_a_table_of_fields() -> None:
    doc = parse(
        """
        A grid.

        Parameters
        ----------
        n : int
            Cells per side.

        Attributes
        ----------
        cells : list of Cell
            Every cell, row by row.
        """
    )
    assert doc.style == "numpy"
    assert doc.attributes == (DocField("cells", "list of Cell", "Every cell, row by row."),)


def test_google_free_text_returns_is_one_unnamed_field() -> None:
    doc = parse(
        """
        Args:
            x: a value.

        Returns:
            A tuple containing: the value
            and its square.
        """
    )
    assert doc.returns == (DocField("", "", "A tuple containing: the value and its square."),)


def test_google_section_that_does_not_parse_goes_to_other_sections() -> None:
    doc = parse(
        """
        Args:
            The arguments are forwarded to the parent.

        Raises:
            an error if anything fails.
        """
    )
    assert doc.style == "google"
    assert doc.params == ()
    assert doc.raises == ()
    assert doc.other_sections == (
        ("Args", "The arguments are forwarded to the parent."),
        ("Raises", "an error if anything fails."),
    )


def test_google_field_list_tolerates_common_deviations() -> None:
    doc = parse(
        """
        Args:
            - `model` (nn.Module): the model.
            * ``config``: the config,
              continued.
            filename - where to write.
            device (torch.device, optional) selected device.
            \\*\\*extra: escaped stars.
            Default: ``None`` (a remark, not a parameter).
        """
    )
    assert doc.params == (
        DocField("model", "nn.Module", "the model."),
        DocField("config", "", "the config, continued."),
        DocField("filename", "", "where to write."),
        DocField("device", "torch.device, optional", "selected device."),
        DocField("**extra", "", "escaped stars. Default: ``None`` (a remark, not a parameter)."),
    )


def test_lists_and_literal_blocks_keep_their_lines_in_a_field() -> None:
    doc = parse(
        """
        Args:
            mode (str): one of
                - ``'a'``: first
                - ``'b'``: second
            fn: a function like::

                    def f(x):
                        return x
        """
    )
    assert doc.params[0].description == "one of\n- ``'a'``: first\n- ``'b'``: second"
    assert doc.params[1].description == "a function like::\ndef f(x):\n    return x"


def test_prose_mentioning_args_is_not_google() -> None:
    text = "Parse the command line.\n\nArgs:\nare read from sys.argv when not given."
    doc = parse_docstring(text)
    assert doc.style == "plain"
    assert doc.summary == "Parse the command line."
    assert doc.description == "Args:\nare read from sys.argv when not given."
    assert doc.params == ()


def test_title_with_text_on_its_line_is_prose() -> None:
    doc = parse_docstring("Note: this is prose.\n    indented more.")
    assert doc.style == "plain"
    assert doc.other_sections == ()


# --- NumPy ------------------------------------------------------------------------------


def test_numpy_sections() -> None:
    doc = parse(
        """
        Compute the thing.

        Parameters
        ----------
        x : array_like
            Input values,
            over two lines.
        a, b : Dict[str, int], optional
            Two at once.
        *args
            Extra.

        Returns
        -------
        out : ndarray
            The result.
        int
            A count.

        Yields
        ------
        str
            Each name.

        Raises
        ------
        ValueError
            If x is empty.

        See Also
        --------
        other : Does other things.
        """
    )
    assert doc.style == "numpy"
    assert doc.summary == "Compute the thing."
    assert doc.description == ""
    assert doc.params == (
        DocField("x", "array_like", "Input values, over two lines."),
        DocField("a, b", "Dict[str, int], optional", "Two at once."),
        DocField("*args", "", "Extra."),
    )
    assert doc.returns == (
        DocField("out", "ndarray", "The result."),
        DocField("", "int", "A count."),
    )
    assert doc.yields == (DocField("", "str", "Each name."),)
    assert doc.raises == (DocField("ValueError", "", "If x is empty."),)
    assert doc.other_sections == (("See Also", "other : Does other things."),)


def test_numpy_free_text_returns_and_unknown_heading() -> None:
    doc = parse(
        """
        Summary.

        Parameters
        ----------
        x : int

        Returns
        -------
        The sum of the inputs.

        Shape
        -----
        Anything at all.
        """
    )
    assert doc.params == (DocField("x", "int", ""),)
    assert doc.returns == (DocField("", "", "The sum of the inputs."),)
    assert doc.description == "Shape\n-----\nAnything at all."


def test_numpy_underline_far_shorter_than_title_is_no_section() -> None:
    doc = parse_docstring("Summary.\n\nParameters\n---\nx : int")
    assert doc.style == "plain"
    assert doc.params == ()


# --- reST -------------------------------------------------------------------------------


def test_rest_fields() -> None:
    doc = parse(
        """
        Open the file.

        See :class:`Reader` for the details.

        :param path: Where it is,
            continued here.
        :param int mode: How to open.
        :param Dict[str, int] table: A table.
        :type path: str or Path
        :param \\*\\*kwargs: Passed on.
        :returns: The handle.
        :rtype: IO[bytes]
        :raises ValueError: If mode is bad.
        :raise: On any other failure.
        """
    )
    assert doc.style == "rest"
    assert doc.summary == "Open the file."
    assert doc.description == "See :class:`Reader` for the details."
    assert doc.params == (
        DocField("path", "str or Path", "Where it is, continued here."),
        DocField("mode", "int", "How to open."),
        DocField("table", "Dict[str, int]", "A table."),
        DocField("**kwargs", "", "Passed on."),
    )
    assert doc.returns == (DocField("", "IO[bytes]", "The handle."),)
    assert doc.raises == (
        DocField("ValueError", "", "If mode is bad."),
        DocField("", "", "On any other failure."),
    )


def test_rest_yields_and_type_only_fields() -> None:
    doc = parse_docstring(":yields: Each row.\n:ytype: tuple\n:type n: int\n:rtype: None")
    assert doc.style == "rest"
    assert doc.yields == (DocField("", "tuple", "Each row."),)
    assert doc.params == (DocField("n", "int", ""),)
    assert doc.returns == (DocField("", "None", ""),)


def test_a_role_at_line_start_is_not_a_field() -> None:
    doc = parse_docstring("Summary.\n\n:class:`Foo` does the work:\n    and more.")
    assert doc.style == "plain"
    assert doc.description == ":class:`Foo` does the work:\n    and more."


# --- style choice -----------------------------------------------------------------------


def test_the_style_with_most_sections_wins() -> None:
    doc = parse(
        """
        Summary.

        :param x: one reST field.

        Args:
            y: a Google field.

        Returns:
            int: a Google return.
        """
    )
    assert doc.style == "google"
    assert doc.params == (DocField("y", "", "a Google field."),)
    assert doc.description == ":param x: one reST field."


def test_rest_wins_with_more_kinds_of_field() -> None:
    doc = parse_docstring("S.\n\n:param x: a.\n:returns: b.\n:raises E: c.\n\nArgs:\n    y: d.")
    assert doc.style == "rest"
    assert [p.name for p in doc.params] == ["x"]
    assert doc.description == "Args:\n    y: d."


# --- examples ---------------------------------------------------------------------------


def test_examples_are_taken_from_anywhere_and_out_of_the_text() -> None:
    doc = parse(
        """
        Square a number.

        >>> square(2)
        4

        Example::

            >>> square(3)
            9
            >>> for i in range(2):
            ...     square(i)
            0
            1

        Args:
            x (int): the number, e.g.

                >>> square(x)

        Examples:
            Negative numbers work too.

            >>> square(-2)
            4
        """
    )
    assert doc.style == "google"
    assert doc.examples == (
        ">>> square(2)\n4",
        ">>> square(3)\n9\n>>> for i in range(2):\n...     square(i)\n0\n1",
        ">>> square(x)",
        ">>> square(-2)\n4",
    )
    assert doc.description == ""
    assert doc.params == (DocField("x", "int", "the number, e.g."),)
    assert doc.other_sections == (("Examples", "Negative numbers work too."),)


def test_examples_section_of_only_doctests_leaves_no_section_behind() -> None:
    doc = parse("Summary.\n\nExamples:\n    >>> f()\n    1")
    assert doc.style == "google"
    assert doc.examples == (">>> f()\n1",)
    assert doc.other_sections == ()
    assert doc.description == ""


def test_doctest_output_continues_past_a_blank_line_when_indented() -> None:
    doc = parse_docstring(">>> t\ntensor([[1],\n\n        [2]])\n\nAfter.\n>>> u")
    assert doc.examples == (">>> t\ntensor([[1],\n\n        [2]])", ">>> u")
    assert doc.summary == "After."
    assert doc.style == "plain"


def test_code_after_example_label_stays_in_the_text() -> None:
    doc = parse_docstring("Summary.\n\nExample::\n\n    x = f()\n")
    assert doc.examples == ()
    assert doc.description == "Example::\n\n    x = f()"


# --- plain and degenerate input ---------------------------------------------------------


def test_plain_docstring() -> None:
    doc = parse_docstring("One line\nand its tail.\n\nMore.\n\n\n\n  Indented.")
    assert doc == ParsedDocstring("plain", "One line and its tail.", "More.\n\n  Indented.")


def test_empty_and_blank_text() -> None:
    for text in ("", "   ", "\n\n"):
        assert parse_docstring(text) == ParsedDocstring("plain", "", "")


def test_docstring_that_starts_with_a_section() -> None:
    doc = parse_docstring("Args:\n    x: the x.\n\nThen a sentence.")
    assert doc.style == "google"
    assert doc.summary == "Then a sentence."
    assert doc.params == (DocField("x", "", "the x."),)


# --- properties -------------------------------------------------------------------------

LINES = st.sampled_from(
    [
        "Args:",
        "Returns:",
        "Raises:",
        "Examples:",
        "Example::",
        "Parameters",
        "----------",
        "-------",
        "    x (int): a value",
        "    y: text",
        "    Tensor: out",
        "    ValueError: bad",
        "        continued",
        "x : int",
        "    described",
        ":param x: a",
        ":type x: int",
        ":returns:",
        ":rtype: int",
        ":raises ValueError:",
        ">>> f()",
        "... more",
        "    >>> g()",
        "1",
        "",
        "   ",
        "Plain words: here.",
        "- item",
        "    `x` (int) - d",
        "\\*args",
        "(((",
        "``",
        ":",
    ]
)
DOCSTRINGS = st.one_of(
    st.text(),
    st.lists(st.one_of(LINES, st.text(max_size=12)), max_size=30).map("\n".join),
)


@given(DOCSTRINGS)
def test_never_raises_and_summary_is_one_line(text: str) -> None:
    doc = parse_docstring(text)
    assert "\n" not in doc.summary
    assert len(doc.summary.splitlines()) <= 1
    assert doc.style in ("google", "numpy", "rest", "plain")
    assert all(example.lstrip().startswith(">>>") for example in doc.examples)
    if doc.style == "plain":
        assert doc.params == doc.returns == doc.yields == doc.raises == ()
        assert doc.other_sections == ()
