"""What runs on a Dask worker: one task scans one batch of files and answers in JSON.

The worker keeps its scan processes between tasks in a worker plugin (one per
task thread at a time), so the parsers load once per worker and build, not once
per batch.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from distributed import WorkerPlugin, get_worker

from docgen.model.errors import DocgenError
from docgen.scan.cfamily.settings import ScanSettings
from docgen.scan.cluster.scan_process import ProcessGone, ProcessLost, ScanProcess

if TYPE_CHECKING:
    from collections.abc import Iterator

#: The name the build registers its plugin under on every worker.
PLUGIN_NAME = "docgen-scan-processes"


@dataclass(frozen=True)
class Batch:
    """Files to scan, with what the scan must agree on with the build."""

    facts_key: str  # the build's docgen code and parser versions
    settings: ScanSettings
    file_timeout: float
    files: tuple[tuple[str, bytes], ...]  # (path, content)


class ScanProcesses(WorkerPlugin):
    """A Dask worker plugin holding idle scan processes for the worker's task threads."""

    name = PLUGIN_NAME

    def __init__(self) -> None:
        self._idle: list[ScanProcess] = []
        self._lock = threading.Lock()
        self._closed = False

    def __getstate__(self) -> dict[str, Any]:
        return {}  # sent to each worker empty; its processes start there

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]

    def setup(self, worker: Any) -> None:
        """Start one scan process per task thread now, so parsers load while files arrive."""
        with self._lock:
            self._idle.extend(ScanProcess() for _ in range(max(1, int(worker.state.nthreads))))

    def teardown(self, worker: Any) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            self._closed = True  # processes still in tasks are closed when given back
        for process in idle:
            process.close()

    def take(self) -> ScanProcess:
        with self._lock:
            while self._idle:
                process = self._idle.pop()
                if process.alive():
                    return process
                process.close()
        return ScanProcess()

    def give(self, process: ScanProcess) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(process)
                return
        process.close()


def _plugin() -> ScanProcesses | None:
    try:
        plugin = get_worker().plugins.get(PLUGIN_NAME)
    except ValueError:  # not inside a worker
        return None
    return plugin if isinstance(plugin, ScanProcesses) else None


#: A task's whole answer when the worker's docgen is not the build's: an answer and
#: not an exception, so that Dask does not retry it elsewhere.
MISMATCH = "docgen: another version"


def scan_batch(batch: Batch) -> str:
    """Each file's facts and keyword sites as two lines of JSON ("null": no sites), in the
    batch's order; a file that killed or hung its scan process gets the facts a local
    build gives it."""
    return run_batch(batch, _plugin())


def run_batch(batch: Batch, plugin: ScanProcesses | None) -> str:
    """`scan_batch` with the worker's plugin (None: a scan process for this batch alone)."""
    process = plugin.take() if plugin is not None else ScanProcess()
    lines: list[str] = []
    try:
        for path, data in batch.files:
            for attempt in (1, 2):  # once more when the process had died while idle
                if not process.alive():
                    process.close()
                    process = ScanProcess()
                if _started(process) != batch.facts_key:
                    process.close()
                    return MISMATCH
                try:
                    facts, sites = process.scan(path, data, batch.settings, batch.file_timeout)
                    break
                except ProcessGone:
                    if attempt == 2:
                        facts, sites = _crashed(path, data, "could not be sent the file"), None
                except ProcessLost as lost:
                    process.close()
                    process = ScanProcess()
                    facts, sites = _crashed(path, data, lost.how), None
                    break
            lines += (facts, sites or "null")
    except BaseException:
        process.close()
        raise
    if plugin is not None:
        plugin.give(process)
    else:
        process.close()
    return "\n".join(lines)


def _started(process: ScanProcess) -> str:
    """The facts key of a process that has said it is ready."""
    try:
        return process.ready()
    except ProcessLost as lost:
        process.close()
        raise DocgenError(f"docgen's scan process did not start on a worker: {lost.how}") from None


def _crashed(path: str, data: bytes, how: str) -> str:
    from docgen.model.serialize import dumps
    from docgen.scan.unparsed import crashed_data

    return dumps(crashed_data(path, data, how))


def batch_lines(text: str) -> Iterator[tuple[str, str]]:
    """(facts JSON, sites JSON) pairs of a task's answer."""
    lines = text.split("\n") if text else []
    if len(lines) % 2:
        raise ValueError("an odd number of lines")
    for i in range(0, len(lines), 2):
        yield lines[i], lines[i + 1]
