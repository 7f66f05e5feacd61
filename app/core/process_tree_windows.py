"""Windows: an agent's tree is its console process group plus a kill-on-close Job Object of its
own (see process_tree.py for the operations, winjob.py for the job).

- Started with CREATE_NEW_PROCESS_GROUP, the agent leads a group; os.kill(pid,
  CTRL_BREAK_EVENT) asks that group to end (GenerateConsoleCtrlEvent). Console events reach only
  processes on the caller's console: an app with a console shares it with its agents; an app
  without one (the packaged, windowed app) starts them with CREATE_NO_WINDOW — no console window
  pops up per agent — and the soft step fails quietly: stdin's end was the polite request there,
  and the job ends them after the grace.
- The job is made and the agent assigned right after the spawn (asyncio cannot create a process
  suspended): a child the agent starts in that instant escapes the job. Everything started
  later joins it by itself, so TerminateJobObject ends the agent and all it started, with no pid
  looked up (none can have been reused); its active process count says whether any is left.
- The app holds the job's only handle: when the app ends, however it ends (a crash, Task
  Manager), Windows closes the handle and, KILL_ON_JOB_CLOSE, ends everything in the job.
- Without a job (Windows refused one), kill ends the agent alone (TerminateProcess).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
from collections.abc import Callable

from app.core.winjob import KILLED_EXIT_CODE, Job, Kernel32, kernel32

log = logging.getLogger(__name__)

CTRL_BREAK_EVENT = int(getattr(signal, "CTRL_BREAK_EVENT", 1))
CREATE_NEW_PROCESS_GROUP = 0x00000200
CREATE_NO_WINDOW = 0x08000000

SendSignal = Callable[[int, int], None]


def creation_flags(api: Kernel32 | None = None) -> int:
    """A group of its own; and no console window of its own when the app shows none."""
    api = api or kernel32()
    flags = CREATE_NEW_PROCESS_GROUP
    if not api.GetConsoleWindow():
        flags |= CREATE_NO_WINDOW
    return flags


class JobTree:
    def __init__(
        self, pid: int, job: Job | None, exited: Callable[[], bool], send_signal: SendSignal
    ) -> None:
        self.pid, self.job = pid, job
        self._exited, self._send_signal = exited, send_signal

    @classmethod
    def adopt(
        cls,
        pid: int,
        exited: Callable[[], bool],
        api: Kernel32 | None = None,
        send_signal: SendSignal = os.kill,
    ) -> JobTree:
        job = Job.create(api)
        if job is not None and not job.assign(pid):
            job.close()
            job = None
        if job is None:
            log.warning("agent %d has no job: what it starts may outlive it or the app", pid)
        return cls(pid, job, exited, send_signal)

    def signal_soft(self) -> None:
        try:
            self._send_signal(self.pid, CTRL_BREAK_EVENT)
        except OSError as err:  # no shared console, or the group is gone
            log.debug("CTRL_BREAK to group %d not delivered: %s", self.pid, err)

    def kill(self) -> None:
        if self.job is not None and self.job.terminate(KILLED_EXIT_CODE):
            return
        with contextlib.suppress(OSError):  # os.kill on Windows: TerminateProcess
            self._send_signal(self.pid, KILLED_EXIT_CODE)

    def alive(self) -> bool:
        if self.job is not None:
            count = self.job.active_processes()
            if count is not None:
                return count > 0
        return not self._exited()

    def close(self) -> None:
        if self.job is not None:
            self.job.close()
