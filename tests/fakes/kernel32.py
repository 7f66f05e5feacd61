"""A simulated kernel32 for the Windows process code (app/core/winjob.py and its users), on any
system: jobs, processes, handles and console signals, with every call recorded.

Processes are pids in `running`; a job holds pids; `children[pid]` are started (and join the
agent's job) as soon as the agent is in one. What a process does on CTRL_BREAK_EVENT is in
`on_break[pid]`: "exit" (it and its children go), "leave-children" (it exits, they stay),
"ignore". `send_signal` stands in for os.kill.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.core.winjob import BasicAccounting, ExtendedLimits


@dataclass
class FakeJob:
    limits: int = 0
    pids: set[int] = field(default_factory=set)


class FakeKernel32:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.running: set[int] = set()
        self.children: dict[int, list[int]] = {}
        self.on_break: dict[int, str] = {}
        self.on_exit: Callable[[int, int], None] = lambda pid, code: None
        self.jobs: dict[int, FakeJob] = {}
        self.open_handles: dict[int, str] = {}
        self.console_window = 0
        self.refuse: set[str] = set()  # names of functions that fail
        self.no_console = False  # console events cannot be delivered (a windowed app)
        self._next = 0x100

    # ---- handles ------------------------------------------------------------------------------

    def _handle(self, kind: str) -> int:
        self._next += 4
        self.open_handles[self._next] = kind
        return self._next

    def CloseHandle(self, handle: int) -> int:
        self.calls.append(("CloseHandle", self.open_handles.get(handle, "?")))
        kind = self.open_handles.pop(handle, None)
        if kind == "job" and self.jobs[handle].limits & 0x2000:  # KILL_ON_JOB_CLOSE
            self._end(self.jobs.pop(handle).pids, 0)
        return 1 if kind else 0

    # ---- jobs ---------------------------------------------------------------------------------

    def CreateJobObjectW(self, attributes: Any, name: Any) -> int | None:
        self.calls.append(("CreateJobObjectW",))
        if "CreateJobObjectW" in self.refuse:
            return None
        handle = self._handle("job")
        self.jobs[handle] = FakeJob()
        return handle

    def SetInformationJobObject(self, job: int, klass: int, info: Any, size: int) -> int:
        limits = ctypes.cast(info, ctypes.POINTER(ExtendedLimits)).contents
        flags = limits.BasicLimitInformation.LimitFlags
        self.calls.append(("SetInformationJobObject", klass, size, flags))
        self.jobs[job].limits = flags
        return 1

    def QueryInformationJobObject(
        self, job: int, klass: int, info: Any, size: int, returned: Any
    ) -> int:
        assert (klass, size) == (1, ctypes.sizeof(BasicAccounting))
        accounting = ctypes.cast(info, ctypes.POINTER(BasicAccounting)).contents
        accounting.ActiveProcesses = len(self.jobs[job].pids & self.running)
        return 1

    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int | None:
        self.calls.append(("OpenProcess", access, inherit, pid))
        return self._handle(f"process {pid}") if pid in self.running else None

    def AssignProcessToJobObject(self, job: int, process: int) -> int:
        pid = int(self.open_handles[process].split()[1])
        self.calls.append(("AssignProcessToJobObject", pid))
        if "AssignProcessToJobObject" in self.refuse:
            return 0
        self.jobs[job].pids.add(pid)
        for child in self.children.get(pid, []):  # started after the assignment: they join
            self.running.add(child)
            self.jobs[job].pids.add(child)
        return 1

    def TerminateJobObject(self, job: int, exit_code: int) -> int:
        self.calls.append(("TerminateJobObject", exit_code))
        self._end(set(self.jobs[job].pids), exit_code)
        return 1

    def GetConsoleWindow(self) -> int | None:
        return self.console_window

    # ---- processes ----------------------------------------------------------------------------

    def _end(self, pids: set[int], code: int) -> None:
        for pid in sorted(pids & self.running):
            self.running.discard(pid)
            self.on_exit(pid, code)

    def send_signal(self, pid: int, sig: int) -> None:
        """os.kill on Windows: 1 is CTRL_BREAK_EVENT to a group, anything else TerminateProcess."""
        self.calls.append(("os.kill", pid, sig))
        if sig == 1:
            if self.no_console:
                raise OSError(6, "The handle is invalid")
            behaviour = self.on_break.get(pid, "exit")
            if behaviour == "exit":
                self._end({pid, *self.children.get(pid, [])}, 0xC000013A)
            elif behaviour == "leave-children":
                self._end({pid}, 0xC000013A)
            return
        self._end({pid}, sig)

    def active_jobs(self) -> list[int]:
        return [handle for handle, job in self.jobs.items() if job.pids & self.running]
