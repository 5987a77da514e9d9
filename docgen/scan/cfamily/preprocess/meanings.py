"""Each meaning of the macro table (`docgen.scan.cfamily.settings.MEANINGS`) with the
learner that finds its macros among a tree's `#define`s: one list, in the table's
order.  Attribute macros come first; the learners after them see which they are."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from docgen.scan.cfamily.preprocess.declaring_macros import (
    pointer_macros,
    type_macros,
    written_macros,
)
from docgen.scan.cfamily.preprocess.head_macros import head_macros
from docgen.scan.cfamily.preprocess.macro_def import Macro, MacroDef
from docgen.scan.cfamily.preprocess.macros import (
    access_macros,
    attribute_macros,
    name_macros,
    statement_macros,
    wrapper_macros,
)
from docgen.scan.cfamily.preprocess.namespace_macros import namespace_macros
from docgen.scan.cfamily.preprocess.string_macros import string_macros

Learned = tuple[str, ...] | tuple[tuple[str, str], ...] | tuple[tuple[str, int], ...]
#: meaning -> what finds its macros, given the `#define`s and the attribute macros
LEARNERS: dict[str, Callable[[Sequence[MacroDef], frozenset[str]], Learned]] = {
    "namespace": lambda defs, attributes: namespace_macros(defs),
    "wrapper": wrapper_macros,
    "statement": lambda defs, attributes: statement_macros(defs),
    "name": lambda defs, attributes: name_macros(defs),
    "access": lambda defs, attributes: access_macros(defs),
    "string": string_macros,
    "type": type_macros,
    "pointer": pointer_macros,
    "written": written_macros,
    "head": lambda defs, attributes: head_macros(((d.name, d.head) for d in defs), attributes),
}


def learned_table(defs: Sequence[MacroDef], configured: Iterable[str] = ()) -> tuple[Macro, ...]:
    """The macro table a tree's `#define`s make, with the configured attribute macros."""
    attributes = attribute_macros(defs) | frozenset(configured)
    table = [Macro(name, "attribute") for name in sorted(attributes)]
    for means, learn in LEARNERS.items():
        for item in learn(defs, attributes):
            if isinstance(item, str):
                table.append(Macro(item, means))
            else:
                table.append(Macro(item[0], means, str(item[1])))
    return tuple(table)
