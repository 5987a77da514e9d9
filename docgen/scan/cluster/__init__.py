"""The scan phase on a Dask `distributed` cluster (`docgen build --executor dask://...`).

The build's own process reads the files, sends them to the cluster in batches and
takes back each file's facts as JSON; every file is still parsed in a process of
its own inside the task (`scan_process`), so a crash or a hang costs that file and
never the Dask worker.  Rendering stays in the build's process.
"""

from __future__ import annotations

#: The executors `--executor`, `DOCGEN_EXECUTOR` and `executor = ...` accept.
EXECUTOR_FORMS = "'local', dask://HOST:PORT, or dask+tls://HOST:PORT"

#: The environment variable that chooses the executor when the flag does not.
EXECUTOR_VARIABLE = "DOCGEN_EXECUTOR"
