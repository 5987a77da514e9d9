"""`docgen facts export|import`: the facts of a build carried between output folders."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import click

from docgen.cli.shared import out_option
from docgen.model.errors import UsageError
from docgen.model.options import DEFAULT_OUT
from docgen.state import STATE_DIR, missing_state, read_state
from docgen.write.lock import output_lock


@click.group(name="facts")
def facts_group() -> None:
    """Move the facts of a build between output folders (CI caches, sharded builds)."""


FACTS_OUT_OPTION = out_option(
    "The output folder whose facts are exported or imported.", str(DEFAULT_OUT)
)


@facts_group.command(name="export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@FACTS_OUT_OPTION
def facts_export(file: Path, out: str) -> None:
    """Write the facts cached in OUT to FILE: a versioned JSON archive (gzip)."""
    with read_state(Path(out)) as state:
        if state is None:
            raise UsageError(f"{missing_state(Path(out))}: nothing to export")
        count = state.export_facts(file)
    click.echo(f"docgen: {count} files' facts -> {file}", err=True)


@facts_group.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@FACTS_OUT_OPTION
def facts_import(files: tuple[Path, ...], out: str) -> None:
    """Merge the facts of archives into OUT, so that a build there parses none of those
    files again.  An archive that is not docgen's, is damaged or comes from another
    version is refused in one line (exit status 1); the others are imported."""
    from docgen.state import open_state
    from docgen.state.archive import ArchiveRefused, FactsRow, read_archive

    rows: list[FactsRow] = []
    refused = outside = 0
    for file in files:
        try:
            found = read_archive(file)
        except (ArchiveRefused, OSError) as exc:
            click.echo(f"docgen: refused {exc}", err=True)
            refused += 1
            continue
        rows.extend(found.rows)
        outside += found.outside
    out_path = Path(out)
    out_path.mkdir(parents=True, exist_ok=True)
    waiting = partial(click.echo, err=True)
    with (
        output_lock(out_path / STATE_DIR, lambda m: waiting(f"docgen: {m}")),
        open_state(out_path) as state,
    ):
        changed = state.import_facts(rows)  # never while a build reads the facts
    refused_rows = f"; {outside} rows refused: their paths leave the repository" if outside else ""
    click.echo(
        f"docgen: {len(files) - refused} archives, {len(rows)} rows, {changed} new to {out}"
        f"{refused_rows}",
        err=True,
    )
    if refused:
        sys.exit(1)
