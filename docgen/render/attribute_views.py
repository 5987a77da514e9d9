"""Attributes on a Python docs page: the module's under their own heading, a class's
(and those its `__init__` sets on `self`) in its section, each as written with its
docstring whole."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from docgen.model.facts import Attribute, FileFacts
from docgen.render.context import Linker
from docgen.render.docstring_markdown import Resolve
from docgen.render.docstring_views import docstring_view
from docgen.render.python_views import one_line_code
from docgen.render.views import AttributeView

#: the longest `name: annotation = value` shown whole inline; a longer value is told
#: by the lines it spans, one click away
MAX_INLINE = 100


def attribute_code(attribute: Attribute) -> tuple[str, bool]:
    """`name: annotation = value` on one line, and whether the value was left to its
    lines (too long to read inline)."""
    code = attribute.name
    if attribute.annotation is not None:
        code += f": {one_line_code(attribute.annotation)}"
    if attribute.value is None:
        return code, attribute.has_value
    with_value = f"{code} = {one_line_code(attribute.value)}"
    if len(with_value) > MAX_INLINE:
        return code, True
    return with_value, False


def attribute_views(
    facts: FileFacts, linker: Linker, resolver: Callable[[str | None], Resolve]
) -> tuple[tuple[AttributeView, ...], dict[tuple[str, int], tuple[AttributeView, ...]]]:
    """The module's attributes, and each class's by its qualname and line (two classes of
    one name, in `if`/`else`, have their own; `resolver` gives the role links of a
    docstring spoken from a class, or from the module for None)."""
    python = facts.python
    if python is None:
        return (), {}
    by_owner: dict[tuple[str, int] | None, list[AttributeView]] = defaultdict(list)
    for attribute in python.attributes:
        code, elsewhere = attribute_code(attribute)
        owner = (attribute.parent, attribute.parent_line) if attribute.parent else None
        by_owner[owner].append(
            AttributeView(
                name=attribute.name,
                qualname=attribute.qualname,
                scope=attribute.scope,
                code=code,
                line=linker.line(facts.path, attribute.line, facts.line_count),
                end_line=attribute.end_line,
                value_elsewhere=elsewhere,
                docstring=docstring_view(attribute.docstring, resolver(attribute.parent)),
                comment=attribute.comment or "",
            )
        )
    module = tuple(by_owner.pop(None, ()))
    return module, {owner: tuple(views) for owner, views in by_owner.items() if owner}
