"""The `docgen` commands that read an output folder and write nothing: `check`,
`find` and `check-links`."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, get_args

import click

from docgen.cli.shared import CONFIG_OPTION, out_option, say
from docgen.model.errors import UsageError
from docgen.model.kinds import BindingKind, CKind, RegisteredKind, StubKind, YamlKind
from docgen.model.options import DEFAULT_OUT
from docgen.model.sites import MatchMode
from docgen.state import StateDamaged, missing_state, read_state

if TYPE_CHECKING:
    from docgen.index.trace_line import TraceLine
    from docgen.model.facts import FileFacts
    from docgen.model.sites import DefinitionSite
    from docgen.model.yaml_facts import OperatorEntry
    from docgen.state import State
    from docgen.state.stored_operators import StoredOperators


@click.command(name="check")
@click.argument("repo", type=click.Path(path_type=str))
@out_option("Output folder of the build to check (default: REPO/docs/generated).")
@click.option("-j", "--jobs", type=int, default=None, help="Worker processes for changed files.")
@click.option("--templates", type=click.Path(path_type=str), multiple=True, help="As for build.")
@CONFIG_OPTION
@click.option("-q", "--quiet", is_flag=True, help="Print nothing; only the exit status tells.")
def check_command(
    repo: str,
    out: str | None,
    jobs: int | None,
    templates: tuple[str, ...],
    config_file: str | None,
    quiet: bool,
) -> None:
    """Exit 0 when the pages in the output folder are up to date, 1 when any is stale,
    missing or extra (each listed with the source that makes it so). Writes nothing."""
    from docgen.cli.build_options import resolve_options
    from docgen.cli.check import check

    options = resolve_options(repo, out, jobs, templates, config_file)
    report = check(options, on_wait=None if quiet else say)
    if not quiet:
        for difference in report.differences:
            click.echo(str(difference))
        for stale in report.site:
            click.echo(f"stale: site {stale}")
        state = f"{len(report.differences)} to rebuild" if report.differences else "up to date"
        site = f", site: {len(report.site)} files to publish again" if report.site else ""
        click.echo(f"docgen: {report.pages} pages, {state}{site}; {report.seconds:.1f}s", err=True)
    if report.differences or report.site:
        sys.exit(1)


#: every kind an entry of the keyword index can have (C-family namespaces are not in it;
#: an `import` is a name an import binds of its own, such as `FSDP`)
FIND_KINDS = tuple(
    kind
    for kind in dict.fromkeys(
        (
            "class",
            "function",
            "method",
            "attribute",
            "import",
            *get_args(CKind),
            *get_args(YamlKind),
            *get_args(RegisteredKind),
            *get_args(StubKind),
            *get_args(BindingKind),
        )
    )
    if kind != "namespace"
)


FIND_EXAMPLES = """
\b
Examples:
  docgen find DeviceMesh                   every definition of that name
  docgen find 'all_*' --kind function      a glob
  docgen find init_ --prefix --out site    names that start with init_
  docgen find 'at::native::*'              qualified C++ names
  docgen find Dispatcher --kind class      one kind only
  docgen find torch.add --trace            Python name -> operator -> kernels
  docgen find all_reduce --uses            every Python use of that definition
"""


@click.command(name="find", epilog=FIND_EXAMPLES)
@click.argument("name")
@out_option("The output folder of an earlier `docgen build`.", str(DEFAULT_OUT))
@click.option(
    "--kind",
    type=click.Choice(FIND_KINDS),
    help="Only this kind (C-family kinds too: struct, kernel, macro, ...).",
)
@click.option("--prefix", is_flag=True, help="Match names that start with NAME.")
@click.option(
    "--trace",
    is_flag=True,
    help="Print the chain from NAME (torch.add, Tensor.add_, aten::add.Tensor) to the "
    "C++ kernels that run it, one `path:line: what` line per hop.",
)
@click.option(
    "--uses",
    is_flag=True,
    help="Print every use of the definitions named NAME (or the one a dotted NAME leads "
    "to, or a qualified C++ NAME spells) in the tree's Python and C-family code, as "
    "`path:line: import|use WRITTEN (NAME)`.",
)
def find(name: str, out: str, kind: str | None, prefix: bool, trace: bool, uses: bool) -> None:
    """Print every definition of NAME as `path:line: kind qualified.name`, and every
    import that binds NAME of its own as `path:line: import target as NAME`.

    NAME is matched exactly, as a glob when it holds * ? or [, or as a prefix with
    --prefix. Exit status 1 when nothing matches.
    """
    mode: MatchMode = "prefix" if prefix else "glob" if any(c in name for c in "*?[") else "exact"
    for flag, given in (("--trace", trace), ("--uses", uses)):
        if given and (prefix or kind or mode != "exact"):
            raise UsageError(f"{flag} takes one exact NAME, without --prefix, --kind or a glob")
    if trace and uses:
        raise UsageError("--trace and --uses are two questions: ask one at a time")
    with read_state(Path(out)) as state:
        if state is None:
            raise UsageError(
                f"{missing_state(Path(out))}; run `docgen build` first (or pass --out)"
            )
        try:
            lines: list[TraceLine] | list[DefinitionSite] = (
                _traced(state, name)
                if trace
                else _uses(state, name)
                if uses
                else state.find_sites(name, mode, kind)
            )
        except StateDamaged as exc:
            raise UsageError(
                f"the docgen index in {out} cannot be read ({exc}); rebuild it"
            ) from exc
    for line in lines:
        click.echo(str(line))
    if not lines:
        sys.exit(1)


def _traced(state: State, name: str) -> list[TraceLine]:
    """The chain of `name` (see `docgen.index.operator_trace`), from the stored index
    and the stored facts of the operator files it passes through."""
    from docgen.cli.stored import StoredFacts
    from docgen.index.attached_rows import ATTACHED_DOCS
    from docgen.index.operator_trace import trace

    stored = StoredFacts(state)

    def facts_of(path: str) -> FileFacts | None:
        scanned = stored.get(path)
        return scanned.facts if scanned is not None else None

    operators: dict[str, StoredOperators] = {}

    def operator_at(path: str, line: int) -> OperatorEntry | None:
        if path not in operators:
            operators[path] = state.stored_operators(path)
        return operators[path].at(line)

    attached_of = partial(ATTACHED_DOCS.kept_of, state.kept_stamps(ATTACHED_DOCS.name))
    return trace(name, state.find_sites, facts_of, operator_at, attached_of)


def _uses(state: State, name: str) -> list[TraceLine]:
    """The uses of `name` (see `docgen.index.python_uses`), from the stored index, the
    kept rows of the files' dotted reads and the stored summaries of the modules their
    names lead through."""
    from docgen.cli.stored import StoredSummaries, stored_visibility
    from docgen.index.cfamily_use_rows import CFAMILY_USES
    from docgen.index.cfamily_uses import use_lines as c_use_lines
    from docgen.index.native_calls import NATIVE_CALLS
    from docgen.index.python_uses import MODULES_META, DefinitionFinder, read_modules, use_lines

    finder = DefinitionFinder(read_modules(state.meta(MODULES_META)), StoredSummaries(state).get)
    kept_of = partial(NATIVE_CALLS.kept_of, state.kept_stamps(NATIVE_CALLS.name))
    # a C++ qualified name (`c10::DeviceGuard`) names no Python definition
    python = use_lines(name, state.find_sites, kept_of, finder) if "::" not in name else []
    c_kept_of = partial(CFAMILY_USES.kept_of, state.kept_stamps(CFAMILY_USES.name))
    c_family = c_use_lines(name, state.find_sites, c_kept_of, partial(stored_visibility, state))
    return sorted([*python, *c_family], key=lambda t: (t.path, t.line, t.what))


@click.command(name="check-links")
@click.argument("out", type=click.Path(exists=True, file_okay=False, path_type=str))
@click.option(
    "--repo",
    type=click.Path(exists=True, file_okay=False, path_type=str),
    default=None,
    help="The repository the pages link to (default: the one the build recorded).",
)
def check_links_command(out: str, repo: str | None) -> None:
    """Report every relative link or anchor in OUT's pages that does not resolve.

    One line per broken link, `page:line: target (why)`; exit status 1 if any.
    """
    from docgen.site.linkcheck import check_links, format_broken

    out_path = Path(out)
    repo_path = Path(repo) if repo else recorded_repo(out_path)
    broken = check_links(out_path, repo_path)
    for link in broken:
        click.echo(format_broken(link))
    click.echo(f"docgen: {len(broken)} broken links in {out}", err=True)
    if broken:
        sys.exit(1)


def recorded_repo(out: Path) -> Path | None:
    with read_state(out) as state:
        root = state.meta("source_root") if state is not None else None
    return (out / root).resolve() if root else None
