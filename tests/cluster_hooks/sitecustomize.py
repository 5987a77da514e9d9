"""Faults for the scan processes of Dask workers, put on PYTHONPATH by tests/test_cluster.py.

With DOCGEN_TEST_HOOKS=1 in the environment, scanning a file named `crash_here.py`
kills the scanning process with SIGSEGV, as a parser crash does; with
DOCGEN_TEST_STALL=MARKER as well, the first scan of `stall_here.py` writes
"WORKER_PID SCAN_PID" to MARKER and sleeps, so that the test can kill the Dask
worker in the middle of that batch.
"""

from __future__ import annotations

import os


def _install() -> None:
    import signal
    import time

    from docgen.scan import workers

    original = workers.scan_data

    def scan_data(path, data, settings=workers.DEFAULT_SETTINGS):  # type: ignore[no-untyped-def]
        name = path.rsplit("/", 1)[-1]
        if name == "crash_here.py":
            os.kill(os.getpid(), signal.SIGSEGV)
        marker = os.environ.get("DOCGEN_TEST_STALL", "")
        if name == "stall_here.py" and marker and not os.path.exists(marker):
            with open(marker + ".part", "w", encoding="ascii") as handle:
                handle.write(f"{os.getppid()} {os.getpid()}")
            os.replace(marker + ".part", marker)
            time.sleep(120)
        return original(path, data, settings)

    workers.scan_data = scan_data


if os.environ.get("DOCGEN_TEST_HOOKS") == "1":
    _install()
