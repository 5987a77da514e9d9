"""Publishing a build's pages as a static HTML site.

Every Markdown page the build wrote becomes an HTML page at the same path, and
every documented source file a highlighted source view under `_source/`.  A
file is made again only when what it is made from changed (see `plan`), put in
place through the staging folder of `files` (so a kill at any moment leaves
records the next publish finishes from), and removed with its Markdown page.
Pages are rendered on every core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import jinja2

from docgen.model.errors import DocgenError
from docgen.render.parallel import render_all
from docgen.site import FULLTEXT_FOLDER, SITE_INPUTS, fulltext
from docgen.site.files import STAGING, SiteFiles, Staged, sha_of, staged_files
from docgen.site.plan import (
    FULLTEXT_MARK,
    FULLTEXT_META,
    SitePlan,
    fulltext_file,
    needs_making,
    plan_site,
)
from docgen.state import SiteRecord, open_state, read_state
from docgen.system.nofollow import Tree

#: meta key: "1" while files in docgen's folders of the site are taken as docgen's
ADOPTING = "site_adopting"


@dataclass
class SiteReport:
    """What publishing the site did, for the command's summary line."""

    pages: int = 0
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pruned: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # the user's files docgen left alone


def publish_site(
    out: Path, site: Path, templates: Sequence[Path] = (), jobs: int = 1
) -> SiteReport:
    """Bring `site` in line with the pages of the build in `out`.  The caller holds the
    output folder's lock (see `docgen.build.build`), so no build changes the pages and
    no `clean` removes the records meanwhile."""
    with read_state(out) as state:
        records = {} if state is None else state.site_files()
    plan = plan_site(out, site, records, templates)
    with open_state(out) as state:
        state.set_meta(SITE_INPUTS, "")  # until this publish has finished
        # Files in docgen's folders are taken as docgen's only while no publish into
        # this site has finished since its records began (a state started afresh).
        adopting = not records or state.meta(ADOPTING) == "1"
        state.set_meta(ADOPTING, "1" if adopting else "")
    files = SiteFiles(site, records, adopting)
    try:
        files.check_folders()
        files.sweep()
        report = _publish_files(out, plan, files, jobs)
        whole = _publish_fulltext(out, plan, files, report)
        files.sweep()
    finally:
        files.close()
    with open_state(out) as state:
        if whole:  # a full-text index that failed leaves the site to be published again
            state.set_meta(SITE_INPUTS, state.meta("inputs") or "")
            state.set_meta(ADOPTING, "")
    report.kept = sorted(set(files.kept))
    report.warnings = plan.warnings + report.warnings
    return report


def stale_site(out: Path, site: Path, templates: Sequence[Path] = ()) -> list[str]:
    """The files of the site published from `out` that a publish would make again or
    remove (a full-text index not made from the pages in place counts as one)."""
    with read_state(out) as state:
        if state is None:
            return []
        records = state.site_files()
        indexed_from = state.meta(FULLTEXT_META) or ""
    plan = plan_site(out, site, records, templates)
    with Tree(site, create=False) as tree:
        stale = [
            target for target in sorted(plan.made_from) if needs_making(target, plan, records, tree)
        ]
    stale.extend(
        sorted(p for p in records if p not in plan.made_from and not fulltext_file(records[p]))
    )
    if plan.fulltext and indexed_from != plan.fulltext:
        stale.append(f"{FULLTEXT_FOLDER}/ (the full-text index)")
    return stale


def _publish_files(out: Path, plan: SitePlan, files: SiteFiles, jobs: int) -> SiteReport:
    """Every file but the full-text index: made where its inputs changed or it is gone,
    staged, recorded as on its way, moved into place, then recorded as made."""
    records = files.records
    report = SiteReport(pages=len(plan.made_from))
    todo = [t for t in sorted(plan.made_from) if needs_making(t, plan, records, files.tree)]
    jobs_ = [partial(_stage, files, n, t, plan.work[t]) for n, t in enumerate(todo)]
    try:
        results = render_all(jobs_, jobs)
    except jinja2.TemplateError as exc:
        raise DocgenError(f"template error: {exc}") from exc
    made = list(zip(todo, results, strict=True))
    staged = [(n, t, r) for n, (t, r) in enumerate(made) if r.status == "staged"]
    files.kept.extend(t for t, r in made if r.status == "kept")
    gone = sorted(p for p, r in records.items() if p not in plan.made_from and not fulltext_file(r))
    with open_state(out) as state:
        state.record_site_files(
            SiteRecord(t, plan.made_from[t], r.sha256) for t, r in made if r.status == "unchanged"
        )
        state.set_meta("site", str(files.site))  # for `docgen clean`
    moves = [
        (f"{STAGING}/{n}", SiteRecord(t, "", r.sha256, r.before), plan.made_from[t])
        for n, t, r in staged
    ]
    report.pruned = _put_in_place(out, files, moves, gone)
    report.written = [t for _, t, _ in staged]
    report.unchanged = report.pages - len(report.written)
    return report


def _put_in_place(
    out: Path, files: SiteFiles, moves: Sequence[tuple[str, SiteRecord, str]], gone: Sequence[str]
) -> list[str]:
    """The one way staged files go in: each (staged file, its record as on its way, what
    it is made from) recorded first, so that a kill leaves them docgen's; then moved into
    place, the `gone` files removed, and only then all recorded as made.  The files
    removed."""
    with open_state(out) as state:
        state.record_site_files(pending for _, pending, _ in moves)
    for staged, pending, _ in moves:
        files.place(staged, pending.path)
    removed = files.remove(gone)
    with open_state(out) as state:
        state.record_site_files(
            SiteRecord(pending.path, made_from, pending.sha256) for _, pending, made_from in moves
        )
        state.forget_site_files(gone)
    return removed


def _stage(files: SiteFiles, number: int, target: str, make: Callable[[], str]) -> Staged:
    return files.stage(number, target, make().encode("utf-8"))


def _publish_fulltext(out: Path, plan: SitePlan, files: SiteFiles, report: SiteReport) -> bool:
    """The full-text index, made again when the pages it reads changed (or it is gone):
    Pagefind writes it into the staging folder, and its files go in as the others do.
    Whether the index in place is now the one the pages need."""
    records = files.records
    with read_state(out) as state:
        indexed_from = "" if state is None else state.meta(FULLTEXT_META) or ""
    old = sorted(p for p, r in records.items() if fulltext_file(r))
    entry = f"{FULLTEXT_FOLDER}/pagefind.js"
    if plan.fulltext and indexed_from == plan.fulltext and files.tree.lstat(entry) is not None:
        return True
    with open_state(out) as state:
        state.set_meta(FULLTEXT_META, "")  # until the new index is in place
    made: list[str] = []
    if plan.fulltext:
        failed = fulltext.index_pages(files, plan.indexed)
        if failed:
            report.warnings.append(failed)
            return False
        made = staged_files(files, fulltext.STAGED_INDEX)
    moves = []
    for rel in made:
        target = f"{FULLTEXT_FOLDER}/{rel}"
        before = files.owner_digest(target)
        if before is None:
            files.kept.append(target)
            continue
        staged = f"{STAGING}/{fulltext.STAGED_INDEX}/{rel}"
        pending = SiteRecord(target, FULLTEXT_MARK, sha_of(files.tree, staged), before)
        moves.append((staged, pending, FULLTEXT_MARK + plan.fulltext))
    wanted = {pending.path for _, pending, _ in moves}
    _put_in_place(out, files, moves, [p for p in old if p not in wanted])
    with open_state(out) as state:
        state.set_meta(FULLTEXT_META, plan.fulltext)
    return True
