"""The `docgen` command line."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click
from click._termui_impl import ProgressBar

if TYPE_CHECKING:
    from docgen.model.options import BuildOptions
    from docgen.model.report import BuildReport
    from docgen.scan.workers import Progress
    from docgen.system.processes import StartedProcess

from docgen import __version__
from docgen.cli.affected import affected_command
from docgen.cli.facts import facts_group
from docgen.cli.hook import hook_command
from docgen.cli.inspect import check_command, check_links_command, find
from docgen.cli.shared import (
    CONFIG_OPTION,
    JOBS_OPTION,
    OUT_OPTION,
    REPO_ARGUMENT,
    SITE_OPTION,
    TEMPLATES_OPTION,
    out_option,
    say,
)
from docgen.model.errors import DocgenError, UsageError
from docgen.system.interrupts import caused_by_interrupt

BUILD_EXAMPLES = """
\b
Examples:
  docgen build .                      pages into ./docs/generated
  docgen build path/to/repo --out site/docs
  docgen build . -j 1 -q              one worker, no output but errors
"""


class DocgenGroup(click.Group):
    """Turns docgen's own errors into one line and their exit code, for every caller."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except DocgenError as exc:
            click.echo(f"docgen: error: {exc}", err=True)
            ctx.exit(exc.exit_code)


MAIN_EXAMPLES = """
\b
Examples:
  docgen build .                      pages for this repository into ./docs/generated
  docgen find DeviceMesh              where a class or function is defined
  docgen check-links docs/generated   every relative link and anchor resolves
"""


@click.group(
    cls=DocgenGroup,
    epilog=MAIN_EXAMPLES,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="docgen")
def cli() -> None:
    """docgen: keyword index and documentation pages for every file of a repository."""


@cli.command(epilog=BUILD_EXAMPLES)
@REPO_ARGUMENT
@OUT_OPTION
@JOBS_OPTION
@TEMPLATES_OPTION
@CONFIG_OPTION
@click.option(
    "--report",
    "report_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write a JSON report (counts, problems with path and line, timings) to FILE.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when the build has any warning.")
@click.option("-q", "--quiet", is_flag=True, help="Print only errors.")
@click.option("-v", "--verbose", is_flag=True, help="Also list every page written.")
@click.option(
    "--html", is_flag=True, help="Also publish the pages as an HTML site (as `docgen site`)."
)
@SITE_OPTION
@click.option(
    "--shard",
    default=None,
    metavar="I/N",
    help="Scan only share I of N of the files (by size) and keep their facts; no pages.",
)
@click.option(
    "--executor",
    default=None,
    metavar="EXECUTOR",
    help="Where files are scanned: 'local' (the default) or dask://HOST:PORT, a Dask "
    "scheduler (also DOCGEN_EXECUTOR or the 'executor' key).",
)
@click.pass_obj
def build_command(
    early: StartedProcess | None,
    repo: str,
    out: str | None,
    jobs: int | None,
    templates: tuple[str, ...],
    config_file: str | None,
    report_file: Path | None,
    strict: bool,
    quiet: bool,
    verbose: bool,
    html: bool = False,
    site_dir: str | None = None,
    shard: str | None = None,
    executor: str | None = None,
) -> BuildReport:
    """Write _docs.md and _kw.md pages for every file of REPO, plus folder pages.

    Settings come from REPO's pyproject.toml [tool.docgen] (or --config); flags
    override them.  Exit status: 0 when the build completed (files that could not
    be parsed are warnings, listed at the end as path:line: message; with --strict
    any warning exits 1), 1 on a fatal error, 2 on a usage error.
    """
    # The build's modules (libcst, jinja2, ...) load only for commands that need them.
    from docgen.build import build
    from docgen.cli.build_options import resolve_options, resolve_site

    if report_file is not None and report_file.is_dir():
        raise UsageError(f"--report must name a file, not a folder: {report_file}")
    options = resolve_options(repo, out, jobs, templates, config_file, executor)
    if shard is not None:
        if html:
            raise UsageError("--shard writes facts only: it cannot be used with --html")
        options = dataclasses.replace(options, shard=parse_shard(shard))
    site = resolve_site(options.repo, options.out, site_dir) if html else None

    def reported(report: BuildReport) -> None:  # under the build's lock
        if report_file is not None:
            from docgen.cli.report import write_report

            write_report(report_file, report, options)
        print_report(report, options.out, quiet, verbose)
        if site is not None:
            publish(options, site, quiet)

    with progress_bar(quiet) as progress:
        report = build(options, progress, None if quiet else say, early, reported)
    if strict and report.warnings:
        if not quiet:
            click.echo(f"docgen: --strict: {len(report.warnings)} warnings", err=True)
        sys.exit(1)
    return report  # see `main`


cli.add_command(build_command, name="build")


@cli.command(name="site")
@REPO_ARGUMENT
@OUT_OPTION
@SITE_OPTION
@JOBS_OPTION
@TEMPLATES_OPTION
@CONFIG_OPTION
@click.option("-q", "--quiet", is_flag=True, help="Print only errors.")
@click.pass_obj
def site_command(
    early: StartedProcess | None,
    repo: str,
    out: str | None,
    site_dir: str | None,
    jobs: int | None,
    templates: tuple[str, ...],
    config_file: str | None,
    quiet: bool,
) -> BuildReport:
    """Build the pages of REPO, then publish them as a static HTML site.

    Every Markdown page becomes an HTML page at the same path (links and anchors
    kept), and every documented file a highlighted source view under `_source/`.
    Open SITE/index.html from disk or serve the folder; the site makes no request
    outside itself.
    """
    from docgen.build import build
    from docgen.cli.build_options import resolve_options, resolve_site

    options = resolve_options(repo, out, jobs, templates, config_file)
    site = resolve_site(options.repo, options.out, site_dir)

    def published(report: BuildReport) -> None:  # under the build's lock
        print_report(report, options.out, quiet, False)
        publish(options, site, quiet)

    with progress_bar(quiet) as progress:
        report = build(options, progress, None if quiet else say, early, published)
    return report  # see `main`


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` with 1 <= I <= N, or one clear UsageError."""
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        raise UsageError(f"--shard must be I/N with 1 <= I <= N, got {text!r}")
    return int(index), int(count)


def publish(options: BuildOptions, site: Path, quiet: bool) -> None:
    """Publish the pages of the build just made as the HTML site (under its lock)."""
    from docgen.site.publish import publish_site

    published = publish_site(options.out, site, options.templates, options.jobs)
    for warning in published.warnings:
        click.echo(f"warning: {warning}", err=True)
    for kept in published.kept:
        click.echo(f"kept {site / kept}: not a file docgen wrote", err=True)
    if not quiet:
        click.echo(
            f"docgen: site {site}: {published.pages} pages, {len(published.written)} written, "
            f"{published.unchanged} unchanged, {len(published.pruned)} removed"
        )


cli.add_command(facts_group)
cli.add_command(hook_command)
cli.add_command(check_command)
cli.add_command(find)
cli.add_command(affected_command)
cli.add_command(check_links_command)


@cli.command(name="clean")
@click.argument("repo", type=click.Path(path_type=str), default=".")
@out_option("Output folder to clean (default: from the configuration, else REPO/docs/generated).")
@CONFIG_OPTION
@click.option("-q", "--quiet", is_flag=True, help="Print nothing.")
def clean_command(repo: str, out: str | None, config_file: str | None, quiet: bool) -> None:
    """Remove the pages docgen wrote into the output folder, and its cache.

    Files docgen did not write stay, and so do folders that still hold them.
    """
    from docgen.cli.build_options import check_repo, resolve_out
    from docgen.cli.clean import clean
    from docgen.discover.config import load_config

    repo_path = check_repo(repo)
    config = load_config(repo_path, None if config_file is None else Path(config_file))
    out_path = resolve_out(repo_path, out, config)
    report = clean(out_path, None if quiet else say)
    if not quiet:
        for page in report.kept:
            click.echo(f"kept {page}: no longer the page docgen wrote", err=True)
        for page in report.strangers:
            click.echo(f"kept {page}: not a file docgen wrote", err=True)
        click.echo(
            f"docgen: removed {len(report.removed)} pages and the cache from {out_path}", err=True
        )


@contextmanager
def progress_bar(quiet: bool) -> Iterator[Callable[[int], Progress] | None]:
    """A progress bar on a terminal, nothing when piped or quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    with ExitStack() as stack:

        def start(total: int) -> Progress:
            bar: ProgressBar[int] = click.progressbar(
                length=total, label="scanning", file=sys.stderr
            )
            stack.enter_context(bar)
            return bar.update

        yield start


def print_report(report: BuildReport, out: object, quiet: bool, verbose: bool) -> None:
    """Pages written (with -v), then warnings, then one summary line, all on stderr."""
    if quiet:
        return
    for notice in report.notices:
        say(f"warning: {notice}")
    if verbose:
        for page in report.written:
            click.echo(f"wrote {page}", err=True)
        for page in report.pruned:
            click.echo(f"pruned {page}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(
        f"docgen: {report.files} files ({report.scanned} scanned, {report.reused} from cache), "
        f"{report.documented} documented; "
        f"pages: {len(report.written)} written, {report.unchanged} unchanged, "
        f"{len(report.pruned)} pruned; {len(report.warnings)} warnings; "
        f"{report.seconds:.1f}s -> {out}",
        err=True,
    )


def main(early: StartedProcess | None = None) -> object:
    """Entry point: docgen's own errors become one line and an exit code.  `early`: a
    scan worker forked as the command began, for the build (see `launch`).  Returns
    what the command returned (a build's report), for a caller that exits without
    freeing it."""
    try:
        result = cli.main(standalone_mode=False, prog_name="docgen", obj=early)
        if isinstance(result, int) and result:  # ctx.exit(code) returns it in this mode
            sys.exit(result)
        return result
    except (click.exceptions.Abort, KeyboardInterrupt):
        interrupted()
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except DocgenError as exc:
        click.echo(f"docgen: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except OSError as exc:
        click.echo(f"docgen: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(), err=True)
        sys.exit(1)
    except Exception as exc:
        if caused_by_interrupt(exc):
            interrupted()
        raise


def interrupted() -> NoReturn:
    """Ctrl-C: say so and exit 130 at once.

    Workers, locks and the state were released while the interrupt unwound the
    build; leaving through `os._exit` skips interpreter shutdown, where a late
    KeyboardInterrupt could turn exit 130 into death by SIGINT.
    """
    click.echo("docgen: interrupted", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)
