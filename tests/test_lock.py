"""The output lock holds when `clean` removes the lock file under a run that waits on it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from docgen.write.lock import LOCK_FILE, output_lock


def test_a_run_waiting_on_a_removed_lock_file_locks_the_file_made_in_its_place(
    tmp_path: Path,
) -> None:
    state = tmp_path / "out" / ".docgen"
    waiting = threading.Event()
    entered = threading.Event()
    leave = threading.Event()

    def waiter() -> None:
        with output_lock(state, on_wait=lambda _message: waiting.set()):
            entered.set()
            leave.wait(10)

    with output_lock(state):  # the `clean` that removes the lock file last
        thread = threading.Thread(target=waiter)
        thread.start()
        assert waiting.wait(10)  # the waiter has opened the file and is about to wait on it
        time.sleep(0.2)
        (state / LOCK_FILE).unlink()
        later = output_lock(state)  # a run that came after the removal
        later.__enter__()
    try:
        # The waiter woke on the removed file; it must now wait for the later run.
        assert not entered.wait(0.5)
    finally:
        later.__exit__(None, None, None)
    assert entered.wait(10)
    leave.set()
    thread.join(10)
    assert not thread.is_alive()


def test_the_lock_file_is_made_with_its_folder(tmp_path: Path) -> None:
    state = tmp_path / "out" / ".docgen"
    with output_lock(state):
        assert (state / LOCK_FILE).is_file()
