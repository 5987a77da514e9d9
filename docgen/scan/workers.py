"""Scanning in worker processes, where a crash costs one file and not the build.

libcst's native parser can die with a segfault on valid but pathological input,
so parsing never happens in the build's own process.  Each worker scans one
file at a time, with the next one already queued; when a worker dies, the file
it was scanning is documented without parsing, the queued ones go to a fresh
worker that takes its place.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from docgen.analyze.sites import preload_sites, sites_of
from docgen.analyze.summary import summary_text
from docgen.analyze.tags import analyzed
from docgen.discover.readfile import READ_LIMIT, read_source
from docgen.model.facts import TIMEOUT_WORDS, ScannedFile
from docgen.model.languages import language_for
from docgen.model.serialize import dumps
from docgen.model.sites import DefinitionSite
from docgen.model.sources import SourceFile
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings
from docgen.scan.decode import decode_python, decode_text
from docgen.scan.table import preload_scanners, prepare_loaded_for_many, scan_file
from docgen.scan.unparsed import crashed_facts, oversized_facts, unreadable_facts
from docgen.system.interrupts import unblock_interrupts
from docgen.system.processes import StartedProcess, start_process

Progress = Callable[[int], None]


class EarlyWorker(Protocol):
    """A scan worker forked before the build knew what changed (`docgen.scan.warm`):
    `scan_files` takes it as its first worker."""

    def take(self) -> StartedProcess | None: ...

    def close(self) -> None: ...


#: Larger files are not parsed nor read whole (see `docgen.discover.readfile.READ_LIMIT`).
MAX_PARSE_BYTES = READ_LIMIT


def scan_one(source: SourceFile, settings: ScanSettings = DEFAULT_SETTINGS) -> ScannedFile:
    """Read, scan and analyze one file (runs inside a worker)."""
    try:
        if source.size > MAX_PARSE_BYTES:
            return ScannedFile(oversized_facts(source, MAX_PARSE_BYTES))
        data = read_source(source)
    except OSError as exc:
        return ScannedFile(unreadable_facts(source, exc))
    return scan_data(source.path, data, settings)


def scan_data(path: str, data: bytes, settings: ScanSettings = DEFAULT_SETTINGS) -> ScannedFile:
    """Scan and analyze one file's bytes, wherever they were read."""
    facts = scan_file(path, data, settings)
    text: str | None = None
    if facts.kind == "python":
        text = decode_python(data).text
    elif facts.kind == "cfamily":
        text = decode_text(data).text
    return analyzed(facts, text)


def describe_exit(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"process died of {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"process died of signal {-exitcode}"
    return f"process exited with status {exitcode}"


def serve_scans(conn: Connection, parent: int, warm: bool) -> None:
    """Worker loop: receive its `WorkerSetup`, then (index, SourceFile) jobs; send
    (index, ScannedFile, its JSON, its keyword sites or None, its summary) for each.  A
    `warm` worker loads the Python scanner first, while its parent finds what changed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    unblock_interrupts()  # blocked by the parent around the fork (see `_start`)
    faulthandler.disable()  # a crash is reported once, by the parent, as a warning
    if warm:
        preload_scanners(("python",))
    # Parse trees are freed by reference counting; the cycle collector's passes over
    # libcst's many young objects cost several percent of a parse, so it runs only
    # every few files here.
    gc.disable()
    # What the worker inherited from its parent is never garbage: frozen, the cycle
    # collector neither walks it nor copies its memory pages by touching them.
    gc.freeze()
    setup = _receive(conn, parent)
    if setup is None:
        return
    assert isinstance(setup, WorkerSetup)
    if setup.many:
        prepare_loaded_for_many()
    settings, with_sites = setup.settings, setup.with_sites
    done = 0
    while (job := _receive(conn, parent)) is not None:
        index, source = job
        scanned = scan_one(source, settings)
        # The facts' JSON and keyword sites are made here, on every core, not in the
        # build's own process.
        found = sites_of(scanned) if with_sites and scanned.facts.kind != "binary" else None
        conn.send((index, scanned, dumps(scanned), found, summary_text(scanned)))
        done += 1
        if done % GC_EVERY == 0:
            gc.collect()


def _receive(conn: Connection, parent: int) -> Any:
    """The parent's next message; None when it is done or gone."""
    try:
        # Other workers hold copies of this pipe's far end, so a parent that dies
        # without closing it is noticed by its process id instead.
        while not conn.poll(PARENT_CHECK_SECONDS):
            if os.getppid() != parent:
                return None
        return conn.recv()
    except EOFError:
        return None


#: Files a worker scans between two runs of the cycle collector.
GC_EVERY = 64

#: Seconds one file may take before its worker is stopped and the file shown unparsed.
DEFAULT_FILE_TIMEOUT = 120.0


#: Files sent to a worker ahead of the one it is scanning: it starts the next one
#: while this process takes the last one's result, and is never idle waiting.
QUEUED_PER_WORKER = 2


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker is told before its first file."""

    settings: ScanSettings
    with_sites: bool  # whether it sends each file's keyword sites
    many: bool  # whether many files follow: its scanners prepare for them first


@dataclass
class _Worker:
    """A scan worker and the files it has been sent, so that a crash costs only its file."""

    process: BaseProcess
    conn: Connection
    #: Files sent and not yet answered, in the order the worker takes them: the first
    #: is the one it is scanning (the one a crash or a timeout costs).
    jobs: deque[tuple[int, SourceFile]] = field(default_factory=deque)
    started: float = 0.0  # when the worker began the first of `jobs`


def _context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _start(ctx: BaseContext, setup: WorkerSetup) -> _Worker:
    """A new worker, told its setup."""
    process, conn = start_process(ctx, serve_scans, False)
    worker = _Worker(process, conn)
    _configure(worker, setup)
    return worker


def _configure(worker: _Worker, setup: WorkerSetup) -> None:
    worker.conn.send(setup)


#: Seconds between a waiting worker's checks that its parent is still alive.
PARENT_CHECK_SECONDS = 1.0


#: From this many files on, the scanners load before the workers fork (once, shared);
#: for fewer, each worker loads what it needs while the parent does other work.
PRELOAD_FROM = 8


def scan_files(
    sources: Sequence[SourceFile],
    jobs: int,
    progress: Progress | None = None,
    file_timeout: float = DEFAULT_FILE_TIMEOUT,
    meanwhile: Callable[[], None] | None = None,
    settings: ScanSettings = DEFAULT_SETTINGS,
    texts: dict[str, str] | None = None,
    sites: dict[str, list[DefinitionSite]] | None = None,
    warm: EarlyWorker | None = None,
    summaries: dict[str, str] | None = None,
) -> list[ScannedFile]:
    """Scan every file in worker processes; results in the order of `sources`.

    `meanwhile` runs in this process once the workers have their first files.
    `texts`, when given, receives each result's JSON (as `serialize.dumps` makes it)
    by path, made in the workers, and `summaries` its summary's (`summary_text`).
    `sites`, when given, receives the keyword sites of each file (`keywords.sites_of`)
    where the workers made them: when there are many files, so that loading what sites
    need is paid once, before the workers fork.
    `warm`, a worker started earlier, becomes the first worker (or is stopped when
    there is nothing to scan).
    """
    results: list[ScannedFile | None] = [None] * len(sources)
    if not sources:
        if warm is not None:
            warm.close()
        if meanwhile is not None:
            meanwhile()
        return []
    many = len(sources) >= PRELOAD_FROM
    setup = WorkerSetup(settings, with_sites=sites is not None and many, many=many)
    ctx = _context()
    # Largest files first, so that no worker is left with a big one at the end;
    # results still come back in the order of `sources`.
    pending = sorted(enumerate(sources), key=lambda job: (job[1].size, -job[0]))
    workers: list[_Worker] = []
    try:
        wanted = max(1, min(jobs, len(sources)))
        started = warm.take() if warm is not None else None
        early = _Worker(*started) if started is not None else None
        if early is not None:  # it parses while the scanners load here for the others
            workers.append(early)
            try:
                _configure(early, setup)
                _assign(early, pending)
            except OSError:  # it died before its first file: it costs none
                pending.extend(reversed(early.jobs))
                _stop(workers.pop())
        if len(workers) < wanted:  # loaded once here, shared by the workers forked next
            if many:
                preload_scanners({language_for(source.path) for source in sources}, many=True)
            if setup.with_sites:
                preload_sites()
        while len(workers) < wanted:
            workers.append(_start(ctx, setup))
        for worker in workers:
            _assign(worker, pending)
        if meanwhile is not None:
            meanwhile()
        while any(w.jobs for w in workers):
            busy = [w for w in workers if w.jobs]
            deadline = min(w.started for w in busy) + file_timeout
            ready = wait(
                [w.conn for w in busy] + [w.process.sentinel for w in busy],
                timeout=max(0.0, deadline - time.monotonic()),
            )
            for i, worker in enumerate(workers):
                if not worker.jobs:
                    continue
                if worker.conn in ready or worker.conn.poll():
                    try:
                        index, scanned, text, found, summary = worker.conn.recv()
                    except (EOFError, OSError):
                        workers[i] = _replace_dead(ctx, worker, results, setup, pending)
                        _assign(workers[i], pending)
                        tick(progress)
                        continue
                    results[index] = scanned
                    if texts is not None:
                        texts[scanned.facts.path] = text
                    if summaries is not None:
                        summaries[scanned.facts.path] = summary
                    if sites is not None and found is not None:
                        sites[scanned.facts.path] = found
                    worker.jobs.popleft()
                    worker.started = time.monotonic()
                    _assign(worker, pending)
                    tick(progress)
                elif worker.process.sentinel in ready:
                    workers[i] = _replace_dead(ctx, worker, results, setup, pending)
                    _assign(workers[i], pending)
                    tick(progress)
                elif time.monotonic() - worker.started > file_timeout:
                    worker.process.kill()
                    workers[i] = _replace_dead(
                        ctx, worker, results, setup, pending, timed_out=file_timeout
                    )
                    _assign(workers[i], pending)
                    tick(progress)
    finally:
        for worker in workers:
            _stop(worker)
    return [r for r in results if r is not None]


def tick(progress: Progress | None) -> None:
    """One more file done, for a progress display when there is one."""
    if progress is not None:
        progress(1)


def _assign(worker: _Worker, pending: list[tuple[int, SourceFile]]) -> None:
    """Top the worker's queue up to `QUEUED_PER_WORKER` files."""
    while pending and len(worker.jobs) < QUEUED_PER_WORKER:
        if not worker.jobs:
            worker.started = time.monotonic()
        job = pending.pop()
        worker.jobs.append(job)
        worker.conn.send(job)


def _replace_dead(
    ctx: BaseContext,
    worker: _Worker,
    results: list[ScannedFile | None],
    setup: WorkerSetup,
    pending: list[tuple[int, SourceFile]],
    timed_out: float | None = None,
) -> _Worker:
    """A fresh worker for a dead one: the file it was scanning is shown unparsed, the
    files queued behind it go back to `pending` (taken next, by the fresh worker)."""
    worker.process.join(timeout=5)
    index, source = worker.jobs.popleft()
    pending.extend(reversed(worker.jobs))
    how = (
        f"{TIMEOUT_WORDS} {timed_out:g} s"
        if timed_out is not None
        else describe_exit(worker.process.exitcode)
    )
    results[index] = crashed_facts(source, how)
    worker.conn.close()
    return _start(ctx, setup)


def _stop(worker: _Worker) -> None:
    with contextlib.suppress(OSError, ValueError):
        worker.conn.send(None)
    worker.process.join(timeout=2)
    if worker.process.is_alive():
        worker.process.kill()
        worker.process.join()
    worker.conn.close()
