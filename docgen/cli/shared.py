"""Arguments and options that several `docgen` commands share."""

from __future__ import annotations

from collections.abc import Callable

import click
from click.decorators import FC

#: The options `build` and `site` share (the site is built from the same pages).
REPO_ARGUMENT = click.argument(
    "repo", type=click.Path(file_okay=True, dir_okay=True, path_type=str)
)


def out_option(help: str, default: str | None = None) -> Callable[[FC], FC]:
    """`--out`/`-o`, the output folder, as each command describes it; a default given
    here is shown in the help."""
    return click.option(
        "--out",
        "-o",
        type=click.Path(path_type=str),
        default=default,
        show_default=default is not None,
        help=help,
    )


OUT_OPTION = out_option(
    "Output folder (default: REPO/docs/generated). May be inside or outside REPO."
)
JOBS_OPTION = click.option(
    "-j",
    "--jobs",
    type=int,
    default=None,
    help="Worker processes for scanning and rendering (default: the number of CPUs).",
)
TEMPLATES_OPTION = click.option(
    "--templates",
    type=click.Path(path_type=str),
    multiple=True,
    help="A folder of templates that override the built-in ones by name (repeatable).",
)
SITE_OPTION = click.option(
    "--site",
    "site_dir",
    type=click.Path(path_type=str),
    default=None,
    help="Folder of the HTML site (default: OUT-site, beside OUT).",
)

CONFIG_OPTION = click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False, path_type=str),
    default=None,
    help="A TOML file with docgen's settings (default: REPO/pyproject.toml [tool.docgen]).",
)


def say(message: str) -> None:
    click.echo(f"docgen: {message}", err=True)
