"""What went wrong reading or scanning a file, as its pages list it."""

from __future__ import annotations

from docgen.model.facts import FileFacts
from docgen.render.context import Linker
from docgen.render.views import ProblemView


def problem_views(facts: FileFacts, linker: Linker) -> tuple[ProblemView, ...]:
    return tuple(
        ProblemView(linker.line(facts.path, p.line, facts.line_count), p.message, p.severity)
        for p in sorted(facts.problems, key=lambda p: (p.line, p.message))
    )
