"""Finds processes a test started, however deep, by a marker in their environment.

Every agent inherits the app's full environment, and so do the processes it launches; a
grandchild that outlives its agent is reparented to init but keeps the marker.

Linux only: it reads /proc/<pid>/environ, which macOS and Windows lack (the autouse
`no_process_left_behind` fixture in tests/conftest.py does nothing there, and says so).
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from tests.waiting import wait_for

MARKER = "SIDEKICKS_TEST_PROCESS_MARK"


def marked_processes(mark: str) -> list[int]:
    needle = f"{MARKER}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":  # a zombie is already dead, waiting to be reaped
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def left_running(mark: str, what: str, timeout: float = 3) -> list[int]:
    """The marked processes still running once `timeout` has passed for them to end (killed
    now); [] when they all ended. `what` names them in the wait's message."""
    try:
        wait_for(lambda: not marked_processes(mark), timeout=timeout, what=what)
    except AssertionError:
        left = marked_processes(mark)
        kill_all(left)
        return left
    return []
