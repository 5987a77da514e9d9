"""`docgen hook`: the pre-commit hook, an incremental build of what the commit holds."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from docgen.cli.shared import CONFIG_OPTION, out_option, say
from docgen.model.errors import UsageError

if TYPE_CHECKING:
    from docgen.model.report import BuildReport
    from docgen.system.processes import StartedProcess


HOOK_HELP = """Update the pages of changed files, for pre-commit.

Runs an incremental build of the repository in the current folder (settings
from its pyproject.toml [tool.docgen]) over the files git's index holds, what
the commit holds (untracked files and files removed with `git rm --cached` are
not documented): the pages of the changed FILES and the pages that depend on
them are brought up to date, nothing else.  Like a
formatter, it exits 1 when it wrote or removed pages, so pre-commit reports
"files were modified by this hook"; stage them and commit again.
"""


@click.command(name="hook", help=HOOK_HELP)
@click.argument("files", nargs=-1, type=click.Path(path_type=str))
@click.option(
    "--repo",
    type=click.Path(path_type=str),
    default=".",
    show_default=True,
    help="The repository (pre-commit runs hooks from its root).",
)
@out_option("As for build.")
@click.option("-j", "--jobs", type=int, default=None, help="As for build.")
@CONFIG_OPTION
@click.pass_obj
def hook_command(
    early: StartedProcess | None,
    files: tuple[str, ...],
    repo: str,
    out: str | None,
    jobs: int | None,
    config_file: str | None,
) -> BuildReport:
    from docgen.build import build
    from docgen.cli.build_options import resolve_options
    from docgen.discover.git_listing import in_work_tree

    options = resolve_options(repo, out, jobs, (), config_file)
    if not in_work_tree(str(options.repo)):
        raise UsageError(
            f"{options.repo} is not inside a git work tree: `docgen hook` documents what a "
            "commit holds; use `docgen build` for a plain folder"
        )
    options = dataclasses.replace(options, committed_only=True)
    report = build(options, on_wait=say, early=early)
    for notice in report.notices:
        say(f"warning: {notice}")
    changed = sorted(report.written) + sorted(report.pruned)
    given = {Path(f).as_posix().removeprefix("./") for f in files}
    for warning in report.warnings:
        if warning.path in given:
            click.echo(f"warning: {warning}", err=True)
    if not changed:
        return report  # see `main`
    shown = os.path.relpath(options.out)
    for page in report.written:
        click.echo(f"docgen: wrote {shown}/{page}", err=True)
    for page in report.pruned:
        click.echo(f"docgen: removed {shown}/{page}", err=True)
    click.echo(
        f"docgen: {len(report.written)} pages written, {len(report.pruned)} removed; "
        "stage them and commit again",
        err=True,
    )
    sys.exit(1)
