"""The Markdown scanner: headings, links, code blocks and code identifiers."""

from __future__ import annotations

import hashlib
from textwrap import dedent

import pytest

import docgen.scan.markdown.scanner as markdown
from docgen.model.facts import CodeBlock, Heading, Link, MarkdownFacts


def md(source: str) -> MarkdownFacts:
    facts = markdown.scan("doc/page.md", dedent(source).lstrip("\n").encode())
    assert facts.markdown is not None
    return facts.markdown


# --- file facts ---------------------------------------------------------------


def test_file_facts() -> None:
    data = b"# Title\n\nText.\n"
    facts = markdown.scan("docs/README.md", data)
    assert facts.path == "docs/README.md"
    assert facts.kind == "markdown"
    assert facts.language == "markdown"
    assert facts.size == len(data)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()
    assert facts.line_count == 3
    assert facts.parsed
    assert facts.problems == ()


def test_empty_file() -> None:
    facts = markdown.scan("empty.md", b"")
    assert facts.line_count == 0
    assert facts.parsed
    assert facts.markdown == MarkdownFacts()


def test_bom_is_ignored() -> None:
    data = b"\xef\xbb\xbf# Title\n"
    facts = markdown.scan("a.md", data)
    assert facts.markdown is not None
    assert facts.markdown.headings == (Heading(1, "Title", 1),)
    assert facts.sha256 == hashlib.sha256(data).hexdigest()


def test_crlf_line_ends_keep_lines() -> None:
    data = b"# One\r\n\r\nSee [x](y.md).\r\n\r\n## Two\r\n"
    facts = markdown.scan("a.md", data)
    assert facts.line_count == 5
    assert facts.markdown is not None
    assert facts.markdown.headings == (Heading(1, "One", 1), Heading(2, "Two", 5))
    assert facts.markdown.links == (Link("y.md", 3, "x"),)


def test_invalid_utf8_is_a_problem_and_the_rest_still_scans() -> None:
    facts = markdown.scan("a.md", b"# Caf\xe9\n\n## Next\n")
    assert facts.parsed  # the replaced text parses; the bad byte is a problem of its own
    assert [problem.line for problem in facts.problems] == [1]
    assert facts.markdown is not None
    assert facts.markdown.headings == (Heading(1, "Caf\ufffd", 1), Heading(2, "Next", 3))


def test_front_matter_only_file_has_no_headings() -> None:
    facts = markdown.scan("post.md", b"---\ntitle: Hello\nauthor: me\n---\n")
    assert facts.line_count == 4
    assert facts.markdown == MarkdownFacts()


def test_front_matter_does_not_shift_lines() -> None:
    facts = md(
        """
        ---
        title: Hello
        ---
        # Real title
        """
    )
    assert facts.headings == (Heading(1, "Real title", 4),)


def test_dashes_after_the_first_line_are_not_front_matter() -> None:
    # `---` not on the first line is a thematic break, and "Text\n---" a heading.
    facts = md(
        """
        Intro

        ---
        Text
        ---
        """
    )
    assert facts.headings == (Heading(2, "Text", 4),)


def test_parser_failure_becomes_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(tokens: object) -> MarkdownFacts:
        raise RecursionError("too deep")

    monkeypatch.setattr(markdown, "markdown_facts", broken)
    facts = markdown.scan("a.md", b"# x\n")
    assert not facts.parsed
    assert facts.markdown == MarkdownFacts()
    assert "RecursionError" in facts.problems[-1].message
    assert facts.line_count == 1


# --- headings -----------------------------------------------------------------


def test_atx_headings_with_levels_and_lines() -> None:
    facts = md(
        """
        # One

        ## Two ##

        ###### Six
        ####### not a heading
        """
    )
    assert facts.headings == (Heading(1, "One", 1), Heading(2, "Two", 3), Heading(6, "Six", 5))


def test_setext_headings() -> None:
    facts = md(
        """
        Big
        ===

        Small
        -----
        """
    )
    assert facts.headings == (Heading(1, "Big", 1), Heading(2, "Small", 4))


def test_multi_line_setext_heading_is_joined() -> None:
    assert md("Two\nlines\n===\n").headings == (Heading(1, "Two lines", 1),)


def test_heading_text_is_plain() -> None:
    facts = md("## The `torch.compile` *fast* [path](x.md) ![logo](l.png)\n")
    assert facts.headings == (Heading(2, "The torch.compile fast path logo", 1),)


def test_headings_inside_containers() -> None:
    facts = md(
        """
        > # Quoted

        - ## In a list
        """
    )
    assert facts.headings == (Heading(1, "Quoted", 1), Heading(2, "In a list", 3))


def test_empty_heading() -> None:
    assert md("#\n").headings == (Heading(1, "", 1),)


# --- links --------------------------------------------------------------------


def test_links_images_autolinks_and_references() -> None:
    facts = md(
        """
        See [the guide](guide.md#setup) and ![a diagram](img/d.png "title").

        Mail <https://pytorch.org> or use [the ref][r].

        [r]: ../other.md
        [unused]: nowhere.md
        """
    )
    assert facts.links == (
        Link("guide.md#setup", 1, "the guide"),
        Link("img/d.png", 1, "a diagram"),
        Link("../other.md", 3, "the ref"),
        Link("https://pytorch.org", 3, "https://pytorch.org"),
    )


def test_link_lines_inside_a_paragraph() -> None:
    facts = md(
        """
        First line
        second [a](a.md) line
        third ![b](b.png)
        and [c](c.md)
        """
    )
    assert [(link.target, link.line) for link in facts.links] == [
        ("a.md", 2),
        ("b.png", 3),
        ("c.md", 4),
    ]


def test_link_text_spanning_lines_counts_its_break() -> None:
    facts = md("[one\ntwo](x.md) and [y](y.md)\n")
    assert facts.links == (Link("x.md", 1, "one two"), Link("y.md", 2, "y"))


def test_links_in_tables() -> None:
    facts = md(
        """
        | name | where |
        |------|-------|
        | a    | [A](a.md) |
        | b    | [B](b.md) |
        """
    )
    assert facts.links == (Link("a.md", 3, "A"), Link("b.md", 4, "B"))


def test_link_targets_are_markdown_it_normalised() -> None:
    facts = md("[x](<a b.md>) [y](caf\u00e9.md)\n")
    assert [link.target for link in facts.links] == ["a%20b.md", "caf%C3%A9.md"]


def test_links_are_sorted_by_line_then_target() -> None:
    facts = md("[z](z.md) [a](a.md)\n\n[m](m.md)\n")
    assert [(link.line, link.target) for link in facts.links] == [
        (1, "a.md"),
        (1, "z.md"),
        (3, "m.md"),
    ]


def test_links_inside_code_are_not_links() -> None:
    assert md("`[x](y.md)`\n\n    [a](b.md)\n").links == ()


# --- code blocks ----------------------------------------------------------------


def test_fenced_python_block() -> None:
    facts = md(
        """
        Intro.

        ```python title="x"
        import os, sys as system
        from torch.distributed import fully_shard, DTensor
        from . import sibling

        class MyModel(nn.Module):
            def forward(self, x):
                print(len(x))  # call do_this() from the class Foo
                return self.linear(x)
        ```
        """
    )
    assert facts.code_blocks == (
        CodeBlock(
            "python",
            3,
            (
                "DTensor",
                "MyModel",
                "forward",
                "fully_shard",
                "nn.Module",
                "os",
                "self.linear",
                "sibling",
                "sys",
                "torch.distributed",
            ),
        ),
    )


def test_pycon_prompts() -> None:
    facts = md(
        """
        ```pycon
        >>> import torch
        >>> x = torch.ones(2)
        >>> x.cuda()
        tensor([1., 1.], device='cuda:0')
        ```
        """
    )
    assert facts.code_blocks[0].identifiers == ("tensor", "torch", "torch.ones", "x.cuda")


def test_bash_block() -> None:
    facts = md(
        """
        ```bash
        # Install the package from source
        pip install -e . --no-build-isolation
        export CUDA_HOME=/usr/local/cuda
        cd build && python setup.py develop
        torchrun --nproc_per_node=8 train.py
        curl -O https://download.pytorch.org/whl/torch_stable.html
        ```
        """
    )
    assert facts.code_blocks == (
        CodeBlock("bash", 1, ("CUDA_HOME", "nproc_per_node", "setup.py", "train.py")),
    )


def test_block_without_language_and_indented_block() -> None:
    facts = md(
        """
        ```
        result = compute_loss(batch)
        ```

        Text.

            value = other_thing.attribute
        """
    )
    assert facts.code_blocks == (
        CodeBlock("", 1, ("compute_loss",)),
        CodeBlock("", 7, ("other_thing.attribute",)),
    )


def test_c_like_block_drops_comments() -> None:
    facts = md(
        """
        ```cpp
        // Call the_helper() from here
        /* also see other_helper() */
        at::Tensor out = at::native::add_out(self, other);
        ```
        """
    )
    assert facts.code_blocks[0].identifiers == ("at::Tensor", "at::native::add_out")


def test_math_block_gives_nothing() -> None:
    facts = md("```math\nx_i = \\frac{a_b}{c}\n```\n")
    assert facts.code_blocks == (CodeBlock("math", 1, ()),)
    assert facts.code_identifiers == ()


def test_myst_code_directive_reports_its_language() -> None:
    facts = md("```{code-block} python\nimport torch_thing\n```\n")
    assert facts.code_blocks == (CodeBlock("python", 1, ("torch_thing",)),)


def test_myst_rst_autosummary_is_qualified_by_current_module() -> None:
    facts = md(
        """
        ```{eval-rst}
        .. currentmodule:: torch.cuda
        ```

        ```{eval-rst}
        .. autosummary::
            :toctree: generated
            :nosignatures:

            current_device
            comm.broadcast
            torch.cuda.nccl.version
        ```

        ```{autofunction} synchronize
        ```

        ```{note}
        Read :doc:`notes/cuda` and use :func:`torch.cuda.memory_stats`.
        ```
        """
    )
    assert [block.identifiers for block in facts.code_blocks] == [
        ("torch.cuda",),
        ("torch.cuda.comm.broadcast", "torch.cuda.current_device", "torch.cuda.nccl.version"),
        ("torch.cuda.synchronize",),
        ("torch.cuda.memory_stats",),
    ]


# --- identifiers ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("torch.compile", ["torch.compile"]),
        ("fully_shard", ["fully_shard"]),
        ("DTensor", ["DTensor"]),
        ("__init__", ["__init__"]),
        ("fully_shard()", ["fully_shard"]),
        (".item()", ["item"]),
        ("torch::jit::script", ["torch::jit::script"]),
        ("  padded_name  ", ["padded_name"]),
        ("len", ["len"]),  # a builtin named on purpose is kept
        ("x", []),
        ("A", []),
        ("The", []),
        ("Args", []),
        ("None", []),
        ("import", []),
        ("pip", []),
        ("42", []),
        ("e.g.", []),
        ("pip install torch", []),
        ("model = torch.compile(model)", ["torch.compile"]),
        ("x.to(device)", ["x.to"]),
        ("e.g. x.y", []),
        ("fn(torch.ones(3))", ["fn", "torch.ones"]),
        ("useCamelCase thing", ["useCamelCase"]),
        ("--max_autotune flag", ["max_autotune"]),
        ("see https://pytorch.org/a_b.html", []),
        ("package-lock.json", []),
        ("print(x)", []),
    ],
)
def test_inline_code_identifiers(span: str, expected: list[str]) -> None:
    assert markdown.inline_code_identifiers(span) == expected


def test_code_identifiers_come_from_spans_and_blocks_sorted_unique() -> None:
    facts = md(
        """
        Use `torch.compile` or `fully_shard`, and `torch.compile` again.

        ```python
        y = torch.compile(model)
        out = run_step(x)
        ```
        """
    )
    assert facts.code_identifiers == ("fully_shard", "run_step", "torch.compile")


def test_prose_gives_no_identifiers() -> None:
    facts = md(
        """
        # The Args of This Module

        A quick guide. This explains the Args and Returns of the API, e.g. how a
        model (see below) is compiled: torch.compile is fast, fully_shard is not
        mentioned as code here, and DTensor neither. The end.

        > Args: something. Returns: other_thing().
        """
    )
    assert facts.code_identifiers == ()
    assert facts.code_blocks == ()


def test_myst_prose_roles_are_not_identifiers() -> None:
    facts = md("See {doc}`notes.cuda_guide` and {class}`~torch.cuda.Stream`.\n")
    assert facts.code_identifiers == ("torch.cuda.Stream",)


def test_identifiers_have_no_whitespace_keywords_or_single_letters() -> None:
    facts = md(
        """
        `a b` `if` `_` `__` `class Foo_Bar:` `x.y`

        ```
        for i in range(10): a = f(i)
        ```
        """
    )
    assert facts.code_identifiers == ("Foo_Bar",)


def test_scan_is_deterministic() -> None:
    source = b"# T\n\n`b_b` `a_a`\n\n```py\nz_z = y_y(x_x)\n```\n[l](x) [k](x)\n"
    assert markdown.scan("a.md", source) == markdown.scan("a.md", source)
    facts = markdown.scan("a.md", source).markdown
    assert facts is not None
    assert facts.code_identifiers == ("a_a", "b_b", "x_x", "y_y", "z_z")
