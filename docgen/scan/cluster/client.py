"""The build's side of scanning on a Dask cluster: batches out, JSON facts back.

Files are read here (workers need not see the repository) and sent in batches
big enough that Dask's few milliseconds per task stay a small share of the scan,
and small enough that each task thread gets several, so the slowest batch does
not hold the build up.  A few batches are in flight at a time: the client never
holds the whole repository in memory.  Results are applied as they finish, by
each file's position, so the facts are the same in any order of completion.

What comes back is JSON, decoded against the facts' own types and checked to be
the files that were sent.  A batch whose task failed, after Dask's retries and
reschedules, is scanned by the local process pool, as is everything still to do
when the scheduler goes away.
"""

from __future__ import annotations

import json
import queue
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from hashlib import sha256
from typing import TYPE_CHECKING, Any

from docgen.discover.readfile import read_source
from docgen.model.errors import DocgenError, UsageError
from docgen.model.facts import ScannedFile
from docgen.model.serialize import dumps, from_data, loads
from docgen.model.sites import DefinitionSite
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.cluster.task import MISMATCH, Batch, batch_lines, scan_batch
from docgen.scan.keys import facts_key
from docgen.scan.unparsed import unreadable_facts
from docgen.scan.workers import MAX_PARSE_BYTES, Progress, scan_files, scan_one, tick

if TYPE_CHECKING:
    from distributed import Client

    from docgen.model.sources import SourceFile

#: Seconds to reach the scheduler and to wait for its first worker.
CONNECT_SECONDS = 10.0

#: Times Dask runs a batch again after its task raised (a lost worker is rescheduled
#: by the scheduler itself, up to its `allowed-failures`).
RETRIES = 2

#: Batches each task thread gets, about: more balance the load, fewer cost less.
BATCHES_PER_THREAD = 4

#: Bounds of a batch's size: about 0.5 s to 8 s of parsing at libcst's speed.  A
#: batch stays under twice the upper bound (a file as large is a batch of its own),
#: below the size at which Dask warns about a large task.
MIN_BATCH_BYTES = 256 * 1024
MAX_BATCH_BYTES = 4 * 1024 * 1024

#: Seconds between checks, while no batch finishes, that the cluster still has workers.
WAIT_SECONDS = 2.0

#: Batches in flight per task thread: one running, one waiting on the worker.
IN_FLIGHT_PER_THREAD = 2


class VersionMismatch(DocgenError):
    """A worker's docgen makes other facts than the build's: the build stops."""


@dataclass
class ClusterScan:
    """Where a cluster scan puts its results, and what it tells the user."""

    results: list[ScannedFile | None]
    texts: dict[str, str] | None
    sites: dict[str, list[DefinitionSite]] | None
    notices: list[str] = field(default_factory=list)


def plan_batches(sources: Sequence[SourceFile], threads: int) -> list[list[int]]:
    """Positions of `sources` in batches: the largest files first, each batch filled up to
    the target size (a file larger than it is a batch of its own)."""
    total = sum(s.size for s in sources)
    target = total // max(1, threads * BATCHES_PER_THREAD)
    target = min(MAX_BATCH_BYTES, max(MIN_BATCH_BYTES, target))
    order = sorted(range(len(sources)), key=lambda i: (-sources[i].size, sources[i].path))
    batches: list[list[int]] = []
    size = target
    for i in order:
        if size >= target:
            batches.append([])
            size = 0
        batches[-1].append(i)
        size += sources[i].size
    return batches


def scan_on_cluster(
    address: str,
    sources: Sequence[SourceFile],
    jobs: int,
    progress: Progress | None,
    file_timeout: float,
    meanwhile: Callable[[], None] | None,
    settings: ScanSettings,
    texts: dict[str, str] | None,
    sites: dict[str, list[DefinitionSite]] | None,
) -> tuple[list[ScannedFile], list[str]]:
    """Scan `sources` on the cluster at `address`; results in their order, and notices."""
    scan = ClusterScan([None] * len(sources), texts, sites)
    client = _connect(address)
    try:
        key = facts_key()
        _check_versions(client, key)
        _run_batches(client, scan, sources, jobs, progress, file_timeout, settings, key, meanwhile)
    finally:
        client.close()
    return [r for r in scan.results if r is not None], scan.notices


def _connect(address: str) -> Client:
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "the dask executor needs Dask's distributed package: pip install 'docgen[dask]'"
        ) from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception as exc:  # refused, timed out, TLS not configured, ...
        raise DocgenError(f"could not reach the Dask scheduler at {address}: {_why(exc)}") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except Exception:
        client.close()
        raise DocgenError(
            f"the Dask scheduler at {address} has no workers after {CONNECT_SECONDS:g} s"
        ) from None
    return client


def _worker_key() -> str:
    return facts_key()


def _has_plugin(dask_worker: Any) -> bool:
    from docgen.scan.cluster.task import PLUGIN_NAME

    return PLUGIN_NAME in dask_worker.plugins


def _mismatch() -> VersionMismatch:
    return VersionMismatch(
        "a Dask worker runs another docgen (or another libcst) than this build; "
        "install the same version on the workers"
    )


def _check_versions(client: Client, key: str) -> None:
    """Stop before sending anything when a worker's docgen makes other facts."""
    try:
        keys: dict[str, Any] = client.run(_worker_key)
    except Exception as exc:
        raise DocgenError(
            f"the Dask workers could not run this docgen (is docgen[dask] installed there?): "
            f"{_why(exc)}"
        ) from None
    if any(worker_key != key for worker_key in keys.values()):
        raise _mismatch()


def _prepare(client: Client) -> int:
    """The cluster's task threads, once every worker has the scan processes' plugin."""
    from docgen.scan.cluster.task import ScanProcesses

    try:
        threads: int = max(1, sum(client.nthreads().values()))
        # Workers keep their scan processes from one build to the next (the scheduler
        # gives the plugin to workers that join later).
        if not all(client.run(_has_plugin).values()):
            client.register_plugin(ScanProcesses())
    except Exception as exc:
        raise DocgenError(f"the Dask cluster could not be prepared: {_why(exc)}") from None
    return threads


@dataclass(frozen=True)
class _Sent:
    """What one task was given: positions of its files and the hash of each."""

    positions: list[int]
    hashes: list[str]


def _run_batches(
    client: Client,
    scan: ClusterScan,
    sources: Sequence[SourceFile],
    jobs: int,
    progress: Progress | None,
    file_timeout: float,
    settings: ScanSettings,
    key: str,
    meanwhile: Callable[[], None] | None,
) -> None:
    threads = _prepare(client)
    remote = [i for i, s in enumerate(sources) if s.size <= MAX_PARSE_BYTES]
    local = [i for i, s in enumerate(sources) if s.size > MAX_PARSE_BYTES]
    batches = [[remote[i] for i in b] for b in plan_batches([sources[i] for i in remote], threads)]
    batches.reverse()  # popped from the end: the largest first
    running: dict[Any, _Sent] = {}
    finished: queue.Queue[Any] = queue.Queue()
    failed: list[tuple[list[int], str]] = []

    def give_up(why: str) -> None:
        """Everything not answered yet is scanned here."""
        failed.append(([i for sent in running.values() for i in sent.positions], why))
        failed.append(([i for b in batches for i in b], why))
        running.clear()
        batches.clear()

    def submit() -> None:
        while batches and len(running) < threads * IN_FLIGHT_PER_THREAD:
            batch = batches.pop()
            files = _read(batch, sources, scan, progress)
            if not files:
                continue
            task = Batch(key, settings, file_timeout, tuple(files))
            try:
                with warnings.catch_warnings():  # the files' bytes are the task, on purpose
                    warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
                    future = client.submit(scan_batch, task, retries=RETRIES, pure=False)
            except Exception as exc:
                batches.append(batch)
                give_up(f"the scheduler went away ({_why(exc)})")
                return
            positions = [i for i in batch if scan.results[i] is None]
            running[future] = _Sent(positions, [sha256(data).hexdigest() for _, data in files])
            future.add_done_callback(finished.put)  # called on Dask's own thread

    submit()
    if meanwhile is not None:
        meanwhile()
    for i in local:  # too large to send: streamed and hashed here, as a local build does
        scan.results[i] = scan_one(sources[i])
        tick(progress)
    idle_since = time.monotonic()
    while running:
        try:
            future = finished.get(timeout=WAIT_SECONDS)
        except queue.Empty:
            if _workers(client):
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > CONNECT_SECONDS:
                give_up(f"no Dask worker for {CONNECT_SECONDS:g} s")
            continue
        sent = running.pop(future, None)
        if sent is None:  # given up on already
            continue
        try:
            answer = future.result()
            if answer == MISMATCH:
                raise _mismatch()
            _apply(answer, sent, sources, scan, progress)
        except VersionMismatch:
            raise
        except Exception as exc:  # a lost worker after the retries, a bad answer, ...
            failed.append((sent.positions, _why(exc)))
        submit()
    _scan_locally(failed, sources, scan, jobs, progress, settings, file_timeout)


def _workers(client: Client) -> int:
    try:
        return len(client.nthreads())
    except Exception:
        return 0


def _why(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _read(
    batch: list[int], sources: Sequence[SourceFile], scan: ClusterScan, progress: Progress | None
) -> list[tuple[str, bytes]]:
    files: list[tuple[str, bytes]] = []
    for i in batch:
        try:
            files.append((sources[i].path, read_source(sources[i])))
        except OSError as exc:
            scan.results[i] = ScannedFile(unreadable_facts(sources[i], exc))
            tick(progress)
    return files


def _apply(
    answer: object,
    sent: _Sent,
    sources: Sequence[SourceFile],
    scan: ClusterScan,
    progress: Progress | None,
) -> None:
    """Check and keep one batch's answer: facts of the files sent, in order, made from
    their bytes, with keyword sites in those files only."""
    if not isinstance(answer, str):
        raise ValueError(f"a batch answered {type(answer).__name__}, not JSON text")
    pairs = list(batch_lines(answer))
    if len(pairs) != len(sent.positions):
        raise ValueError(f"{len(pairs)} answers for {len(sent.positions)} files")
    decoded: list[tuple[ScannedFile, list[DefinitionSite] | None]] = []
    for i, digest, (facts_json, sites_json) in zip(sent.positions, sent.hashes, pairs, strict=True):
        scanned = loads(ScannedFile, facts_json)
        path = sources[i].path
        if (scanned.facts.path, scanned.facts.sha256) != (path, digest):
            raise ValueError(f"the answer for {path!r} is not of the file sent")
        found = None
        if sites_json != "null":
            found = list(from_data(tuple[DefinitionSite, ...], json.loads(sites_json)))
            if any(site.path != path for site in found):
                raise ValueError(f"the answer for {path!r} has sites in other files")
        decoded.append((scanned, found))
    for i, (scanned, found) in zip(sent.positions, decoded, strict=True):
        scan.results[i] = scanned
        if scan.texts is not None:
            scan.texts[scanned.facts.path] = dumps(scanned)  # docgen's own form, as cached
        if scan.sites is not None and found is not None:
            scan.sites[scanned.facts.path] = found
        tick(progress)


def _scan_locally(
    failed: list[tuple[list[int], str]],
    sources: Sequence[SourceFile],
    scan: ClusterScan,
    jobs: int,
    progress: Progress | None,
    settings: ScanSettings,
    file_timeout: float,
) -> None:
    """Scan the files of the batches the cluster failed with the local process pool."""
    todo = sorted({i for batch, _ in failed for i in batch if scan.results[i] is None})
    if not todo:
        return
    scan.notices.append(
        f"{len(todo)} files of {len(failed)} batches were scanned here after the "
        f"cluster failed them ({failed[0][1]})"
    )
    done = scan_files(
        [sources[i] for i in todo],
        jobs,
        progress,
        file_timeout,
        settings=settings,
        texts=scan.texts,
        sites=scan.sites,
    )
    for i, scanned in zip(todo, done, strict=True):
        scan.results[i] = scanned
