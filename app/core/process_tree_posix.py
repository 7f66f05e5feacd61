"""POSIX: an agent's tree is the process group it leads (started with start_new_session), whose
id is the agent's pid (see process_tree.py for the operations)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

from app.core.process_group import group_alive

assert sys.platform != "win32"  # imported on POSIX only (process_tree.py); type-checked as such


class ProcessGroup:
    """POSIX: the agent's process group, whose id is the agent's pid."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def signal_soft(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def alive(self) -> bool:
        return group_alive(self.pid)

    def close(self) -> None:
        pass

    def _signal(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)
