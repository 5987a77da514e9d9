"""A Python import as the pages write it: the statement rebuilt from its facts, the
module as written, and the part that binds one name."""

from __future__ import annotations

from docgen.model.facts import Import


def module_as_written(imp: Import) -> str:
    """`a.b`, `.x`, or `.` / `..` for `from . import y`."""
    module = imp.module or ""
    if imp.level and not module.startswith("."):
        module = "." * imp.level + module
    return module or "." * max(imp.level, 1)


def import_names(imp: Import) -> tuple[str, ...]:
    """Names an import binds from its module, never `*`."""
    return tuple(n for n in imp.names if n != "*")


def _bound_names(imp: Import) -> list[str]:
    """For each imported name, the name it is bound to (itself unless `as` renamed it).

    The scanner lists one binding per name, in order, as (bound, qualified
    target); when the counts differ, a binding is matched by the target's last part.
    """
    if len(imp.aliases) == len(imp.names):
        return [bound for bound, _ in imp.aliases]
    bound_to = {target.rsplit(".", 1)[-1]: bound for bound, target in imp.aliases}
    return [bound_to.get(name, name) for name in imp.names]


def import_statement(imp: Import) -> str:
    """The statement rebuilt from the facts, aliases included."""
    module = module_as_written(imp)
    if not imp.is_from:
        alias = next((b for b, t in imp.aliases if t == module and b != module), "")
        return f"import {module}" + (f" as {alias}" if alias else "")
    if imp.star:
        return f"from {module} import *"
    parts = [
        name if bound == name else f"{name} as {bound}"
        for name, bound in zip(imp.names, _bound_names(imp), strict=True)
    ]
    return f"from {module} import {', '.join(parts)}"


#: names of a `from` import shown in a keyword label before "N more"
LABEL_NAMES = 3


def import_label(imp: Import, key: str) -> str:
    """The part of an import statement that binds `key` (a keyword page's label): the one
    name of a long `from ... import a, b, c`, or the statement cut after a few names."""
    module = module_as_written(imp)
    if not imp.is_from or imp.star:
        return import_statement(imp)
    pairs = list(zip(imp.names, _bound_names(imp), strict=True))
    chosen = [(n, b) for n, b in pairs if key in (n, b)]
    if not chosen:  # the module itself
        if len(pairs) <= LABEL_NAMES:
            return import_statement(imp)
        shown = ", ".join(n if n == b else f"{n} as {b}" for n, b in pairs[:LABEL_NAMES])
        return f"from {module} import {shown}, ... ({len(pairs)} names)"
    return f"from {module} import " + ", ".join(n if n == b else f"{n} as {b}" for n, b in chosen)
