"""A process that scans files for a task on a Dask worker, and the task's handle on it.

A Dask worker runs tasks in threads of its own process, and its processes are
daemonic, which Python's `multiprocessing` forbids to have children; so each
task's files are parsed in a plain child process (`python -m
docgen.scan.cluster.scan_process`), one file at a time.  When the parser kills or
hangs that process, the file is shown unparsed with the same words a local build
uses, and a fresh process takes the rest of the batch.

Both ends of the pipe are docgen on one machine, so frames are pickles, as
`multiprocessing`'s own pipes are; what leaves the machine is JSON (see `task`).
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import IO

from docgen.model.facts import TIMEOUT_WORDS
from docgen.scan.cfamily.settings import DEFAULT_SETTINGS, ScanSettings

_LENGTH = struct.Struct("!Q")

#: Seconds a fresh scan process may take to load its parsers and say it is ready.
START_SECONDS = 120.0


class ProcessLost(Exception):
    """The scan process died or stopped answering; `how` says which, as a build reports it."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


class ProcessGone(Exception):
    """The scan process had died before it was sent the file: the file is not to blame."""


def write_frame(stream: IO[bytes], message: object) -> None:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(payload)) + payload)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def read_frame(stream: IO[bytes]) -> object | None:
    """The next message, or None at the end of the stream."""
    head = _read_exactly(stream, _LENGTH.size)
    if head is None:
        return None
    body = _read_exactly(stream, _LENGTH.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _die_with(parent: int) -> None:
    """End this process when the task's worker dies: a thread watches the parent's id.

    (Not the kernel's parent-death signal: it follows the thread that started the
    process, and the worker's threads come and go while its processes stay.)
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def main() -> None:
    """The scan process: ready, then one answer per file, until its input closes."""
    _die_with(int(sys.argv[1]))
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever a library prints goes to stderr, never into a frame
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the task decides when to stop
    faulthandler.disable()  # a crash is reported once, by the build
    from docgen.analyze.sites import preload_sites, sites_of
    from docgen.model.serialize import dumps
    from docgen.scan import workers
    from docgen.scan.keys import facts_key
    from docgen.scan.table import preload_scanners

    preload_scanners(many=True)  # a cluster worker scans batches of files
    preload_sites()
    gc.disable()  # as in a local worker: the cycle collector runs every few files
    gc.freeze()
    write_frame(out, ("ready", facts_key()))
    settings = DEFAULT_SETTINGS
    done = 0
    while (message := read_frame(sys.stdin.buffer)) is not None:
        assert isinstance(message, tuple)
        if message[0] == "settings":
            settings = message[1]
            continue
        _, path, data = message
        scanned = workers.scan_data(path, data, settings)
        sites = None if scanned.facts.kind == "binary" else dumps(sites_of(scanned))
        write_frame(out, ("done", dumps(scanned), sites))
        done += 1
        if done % workers.GC_EVERY == 0:
            gc.collect()


class ScanProcess:
    """The task's end: send a file, wait for its facts at most `timeout` seconds."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "docgen.scan.cluster.scan_process", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._pending = bytearray()
        self.settings: ScanSettings | None = None
        self.key = ""

    def alive(self) -> bool:
        return self.process.poll() is None

    def ready(self) -> str:
        """docgen's facts key in the process (it must equal the build's)."""
        if not self.key:
            message = self._receive(START_SECONDS)
            if not (isinstance(message, tuple) and message[0] == "ready"):
                raise ProcessLost("sent no greeting")
            self.key = str(message[1])
        return self.key

    def scan(
        self, path: str, data: bytes, settings: ScanSettings, timeout: float
    ) -> tuple[str, str | None]:
        """The file's facts and keyword sites, as JSON; ProcessLost when the process died
        on the file or took longer than `timeout` (it is then stopped), ProcessGone when
        it was dead before the file was sent."""
        self.ready()
        assert self.process.stdin is not None
        try:
            if settings != self.settings:
                write_frame(self.process.stdin, ("settings", settings))
                self.settings = settings
            write_frame(self.process.stdin, ("file", path, data))
        except OSError:  # it died before this file reached it (while idle, say)
            self.close()
            raise ProcessGone from None
        message = self._receive(timeout)
        if not (isinstance(message, tuple) and message[0] == "done"):
            raise ProcessLost("answered out of turn")
        return str(message[1]), None if message[2] is None else str(message[2])

    def _receive(self, timeout: float) -> object:
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while True:
            if len(self._pending) >= _LENGTH.size:
                size = _LENGTH.unpack_from(self._pending)[0]
                if len(self._pending) >= _LENGTH.size + size:
                    body = bytes(self._pending[_LENGTH.size : _LENGTH.size + size])
                    del self._pending[: _LENGTH.size + size]
                    return pickle.loads(body)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.close()
                raise ProcessLost(f"{TIMEOUT_WORDS} {timeout:g} s")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise ProcessLost(self._death())
            self._pending += chunk

    def _death(self) -> str:
        from docgen.scan.workers import describe_exit

        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.close()
            code = self.process.returncode
        return describe_exit(code)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


if __name__ == "__main__":
    main()
