"""Findings on a docs page: code patterns, costly patterns and security risks, each
shown with the line that proves it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docgen.model.facts import FileFacts, Finding
from docgen.render.context import Linker
from docgen.render.view_refs import LineRef

#: Longest source line quoted next to a finding.

#: pattern kind -> title, in page order; kinds the scanner adds later show under their id.
PATTERN_TITLES: tuple[tuple[str, str], ...] = (
    ("nn-module", "`nn.Module` subclasses"),
    ("dataclass", "Dataclasses"),
    ("named-tuple", "Named tuples"),
    ("typed-dict", "Typed dicts"),
    ("enum", "Enums"),
    ("abc", "Abstract base classes"),
    ("protocol", "Protocols"),
    ("context-manager", "Context managers"),
    ("generator", "Generators"),
    ("async", "Async functions"),
    ("decorator-registry", "Registration decorators"),
    ("dispatch", "Single dispatch"),
    ("property", "Properties"),
    ("dunder-all", "`__all__`"),
)

#: What the security check looks for, said on every page it ran on, so "none" means something.
SECURITY_CHECKS = (
    "`eval`/`exec` of non-literal input, `pickle`/`marshal`/`dill` loads, "
    "`torch.load` without `weights_only=True`, `yaml.load` without a safe loader, "
    "`subprocess` with `shell=True`, `os.system`/`os.popen`, `tempfile.mktemp` "
    "and turned-off TLS verification"
)


@dataclass(frozen=True)
class FindingView:
    """One finding with its line, shown as evidence for the sentence about it."""

    line: LineRef
    code: str  # the source line, stripped and shortened; "" when the source is not at hand
    message: str  # docgen's sentence; names in it are in backticks (see the md_code filter)
    subject: str
    href: str  # "#anchor" of the subject's definition, "" when it has none


@dataclass(frozen=True)
class FindingGroup:
    """Findings of one kind under one title."""

    kind: str
    title: str  # Markdown written by docgen (may hold backticks)
    items: tuple[FindingView, ...]


@dataclass(frozen=True)
class PerformanceView:
    """The costly patterns of a file, said in a test file's terms when it is one."""

    findings: tuple[FindingView, ...]  # costly patterns, e.g. a sync inside a loop
    in_test: bool = False  # a test file: the cost is the test's run time, not a user's


@dataclass(frozen=True)
class SecurityView:
    """The security checks run on a file and what they found (nothing when not parsed)."""

    checked: bool  # False when the file could not be parsed
    checks: str
    findings: tuple[FindingView, ...]


def finding_views(
    facts: FileFacts,
    findings: Sequence[Finding],
    linker: Linker,
    source_lines: Sequence[str] | None,
    anchors: Mapping[str, str],
) -> tuple[FindingView, ...]:
    return tuple(
        FindingView(
            line=linker.line(facts.path, f.line, facts.line_count),
            code=_quoted(source_lines, f.line),
            message=_sentence(f.message),
            subject=f.subject,
            href=linker.here(anchors[f.subject]) if f.subject in anchors else "",
        )
        for f in findings
    )


def pattern_groups(
    facts: FileFacts,
    linker: Linker,
    source_lines: Sequence[str] | None,
    anchors: Mapping[str, str],
) -> tuple[FindingGroup, ...]:
    python = facts.python
    if python is None:
        return ()
    by_kind: dict[str, list[Finding]] = {}
    for finding in python.findings:
        if finding.category == "pattern":
            by_kind.setdefault(finding.kind, []).append(finding)
    titles = dict(PATTERN_TITLES)
    order = [k for k, _ in PATTERN_TITLES] + sorted(set(by_kind) - set(titles))
    return tuple(
        FindingGroup(
            kind,
            titles.get(kind, kind),
            finding_views(facts, by_kind[kind], linker, source_lines, anchors),
        )
        for kind in order
        if kind in by_kind
    )


def performance_view(
    facts: FileFacts,
    linker: Linker,
    source_lines: Sequence[str] | None,
    anchors: Mapping[str, str],
    in_test: bool = False,
) -> PerformanceView | None:
    costly = (
        [f for f in facts.python.findings if f.category == "performance"] if facts.python else []
    )
    if not costly:
        return None
    return PerformanceView(finding_views(facts, costly, linker, source_lines, anchors), in_test)


def security_view(
    facts: FileFacts,
    linker: Linker,
    source_lines: Sequence[str] | None,
    anchors: Mapping[str, str],
) -> SecurityView | None:
    """Python files only: other files are not checked, and their pages do not pretend.
    None, too, for a file checked with nothing found: one paragraph saying so on every
    page was filler (what is checked is in `docs/`); a file that could not be parsed
    says it was not checked."""
    if facts.kind != "python" or facts.python is None:
        return None
    risky = [f for f in facts.python.findings if f.category == "security"]
    if facts.parsed and not risky:
        return None
    return SecurityView(
        checked=facts.parsed,
        checks=SECURITY_CHECKS,
        findings=finding_views(facts, risky, linker, source_lines, anchors),
    )


def _quoted(lines: Sequence[str] | None, line: int) -> str:
    if lines is None or not 0 < line <= len(lines):
        return ""
    return lines[line - 1].strip()  # whole: a page never cuts source text


def _sentence(message: str) -> str:
    message = message.strip()
    return message if message.endswith((".", "!", "?")) else message + "."
