"""`--report FILE.json`: what a build did, for CI to keep as an artifact."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from docgen import __version__
from docgen.model.errors import UsageError

if TYPE_CHECKING:
    from docgen.model.options import BuildOptions
    from docgen.model.report import BuildReport

#: Bumped when a field changes meaning or disappears; new fields keep the version.
REPORT_FORMAT = 1


def report_data(report: BuildReport, options: BuildOptions) -> dict[str, object]:
    """Counts, every warning with its path, line and severity, and the phase timings."""
    return {
        "format": REPORT_FORMAT,
        "docgen": __version__,
        "repo": str(options.repo),
        "out": str(options.out),
        "files": report.files,
        "documented": report.documented,
        "scanned": report.scanned,
        "reused": report.reused,
        "pages": {
            "written": len(report.written),
            "unchanged": report.unchanged,
            "pruned": len(report.pruned),
        },
        "written": sorted(report.written),
        "pruned": sorted(report.pruned),
        "warnings": len(report.warnings),
        "errors": sum(1 for w in report.warnings if w.severity == "error"),
        "problems": [
            {"path": w.path, "line": w.line, "severity": w.severity, "message": w.message}
            for w in sorted(report.warnings)
        ],
        "notices": list(report.notices),
        "timings": dict(report.timings),
        "seconds": round(report.seconds, 3),
    }


def write_report(path: Path, report: BuildReport, options: BuildOptions) -> None:
    text = json.dumps(report_data(report, options), indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the report to {path}: {exc.strerror or exc}") from exc
