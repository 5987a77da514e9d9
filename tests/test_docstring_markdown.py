"""reST docstring text turned into inert Markdown: its markup converted, nothing lost,
nothing of the source able to open markup of its own."""

from __future__ import annotations

import inspect

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from docgen.render.docstring_markdown import blocks_markdown, inline_markdown
from docgen.render.docstring_views import docstring_view
from docgen.render.filters import FOLD_LINES

KNOWN = {"ReduceOp": "#class-reduceop", "torch.distributed.all_reduce": "#function-all_reduce"}


def resolve(target: str) -> str:
    return KNOWN.get(target, "")


def inline_tokens(markdown: str) -> list[tuple[str, str]]:
    """(type, content) of every inline token CommonMark with GitHub's tables reads."""
    found = []
    for block in MarkdownIt("commonmark").enable("table").parse(markdown):
        for child in block.children or ():
            found.append((child.type, child.content))
    return found


def test_inline_markup_becomes_markdown() -> None:
    text = (
        "Uses ``torch.distributed.ReduceOp`` and :class:`ReduceOp`, "
        ":func:`~torch.distributed.all_reduce`, :meth:`unknown.thing`, *this* and **that**; "
        "`x` is a parameter; see `the docs <https://pytorch.org/docs>`_."
    )
    assert inline_markdown(text, resolve) == (
        "Uses `torch.distributed.ReduceOp` and [`ReduceOp`](#class-reduceop), "
        "[`all_reduce`](#function-all_reduce), `unknown.thing`, *this* and **that**; "
        "`x` is a parameter; see the docs (`https://pytorch.org/docs`)."
    )


def test_stars_that_are_not_emphasis_stay_stars() -> None:
    assert inline_markdown("takes *args and **kwargs", resolve) == r"takes \*args and \*\*kwargs"
    assert inline_markdown("2 * 3 * 4", resolve) == r"2 \* 3 \* 4"


def test_roles_with_a_title_or_no_link() -> None:
    assert inline_markdown(":class:`the op <ReduceOp>`", resolve) == "[`the op`](#class-reduceop)"
    assert inline_markdown(":class:`!ReduceOp`", resolve) == "`ReduceOp`"
    assert inline_markdown(":math:`a^2`", resolve) == "`a^2`"
    assert inline_markdown(":ref:`distributed-basics`", resolve) == "distributed-basics"
    # shortened by `~` only where a link says where the name is
    assert inline_markdown(":class:`~torch.rpc.RRef`", resolve) == "`torch.rpc.RRef`"


def test_a_paragraph_that_starts_like_a_block_cannot_open_one() -> None:
    for text in ("- not a list", "1. not a list", "> not a quote", "# not a heading"):
        tokens = MarkdownIt("commonmark").parse(inline_markdown(text, resolve))
        assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]


def test_directives_lists_literal_blocks_and_doctests() -> None:
    text = """Gathers tensors.

.. note::
    Only the ``NCCL`` backend.

.. warning:: Blocks.

.. versionadded:: 2.1

Run it like this::

    dist.init_process_group()

- first
  item
- second

>>> dist.all_gather(out, t)
[1, 2]

.. autofunction:: something
"""
    assert blocks_markdown(text, resolve).split("\n\n") == [
        "Gathers tensors.",
        "> [!NOTE]\n> Only the `NCCL` backend.",
        "> [!WARNING]\n> Blocks.",
        "*Added in version 2.1*",
        "Run it like this:",
        "```text\ndist.init_process_group()\n```",
        "- first item\n- second",
        "```pycon\n>>> dist.all_gather(out, t)\n[1, 2]\n```",
        "`.. autofunction:: something`",
    ]


def test_a_long_example_is_folded_not_cut() -> None:
    code = "\n".join(f">>> x{i} = {i}" for i in range(FOLD_LINES + 5))
    shown = blocks_markdown(code, resolve)
    assert shown.startswith("<details>") and shown.endswith("</details>")
    assert all(f"x{i} = {i}" in shown for i in range(FOLD_LINES + 5))


def test_every_part_of_a_google_docstring_is_shown() -> None:
    doc = """Reduces the tensor data across all machines.

    After the call ``tensor`` is going to be bitwise identical in all processes.

    Complex tensors are supported.

    Args:
        tensor (Tensor): Input and output of the collective.
        op (optional): One of the values from
            ``torch.distributed.ReduceOp`` enum.

    Note:
        Only some backends.

    Examples:
        >>> dist.all_reduce(tensor)
    """
    view = docstring_view(inspect.cleandoc(doc), resolve)  # as the scanner keeps it
    assert view is not None
    assert view.text == (
        "Reduces the tensor data across all machines.\n\n"
        "After the call `tensor` is going to be bitwise identical in all processes.\n\n"
        "Complex tensors are supported."
    )
    (params,) = view.tables
    assert [r.description for r in params.rows] == [
        "Input and output of the collective.",
        "One of the values from `torch.distributed.ReduceOp` enum.",
    ]
    assert "> [!NOTE]\n> Only some backends." in view.sections
    assert "```pycon\n>>> dist.all_reduce(tensor)\n```" in view.sections


PLAIN = st.text(
    alphabet=st.characters(blacklist_characters="`*\\", blacklist_categories=("Cs", "Cc")),
    max_size=80,
)


@given(PLAIN)
def test_text_without_markup_renders_as_itself_and_nothing_else(text: str) -> None:
    shown = inline_markdown(text, resolve)
    tokens = [tok for tok in inline_tokens(shown) if tok[0] != "softbreak"]
    assert all(kind == "text" for kind, _ in tokens)
    assert "".join(content for _, content in tokens) == " ".join(text.split())
