"""Windows Job Objects through ctypes: a job that ends every process in it when its last handle
closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE), counted and ended as a whole.

Importable everywhere (ctypes.wintypes loads on Linux and macOS): kernel32 itself is loaded
lazily, on Windows, and any object with the same functions can stand in for it — the tests
drive this module with a fake kernel32. The structures spell Windows' types by their sizes
(DWORD is 32 bits, SIZE_T and ULONG_PTR pointer-sized), not with wintypes.DWORD, which is a C
long: 64 bits on Linux. So on any 64-bit Python their layout is Windows x64's, and a test
checks it here (JOBOBJECT_EXTENDED_LIMIT_INFORMATION 144 bytes, BASIC_ACCOUNTING 48).

Nested jobs (a job's process in a job of its own) work since Windows 8: an agent may have its
job inside the one a CI runner or a terminal put the app in.
"""

from __future__ import annotations

import ctypes
import logging
import sys
from ctypes import wintypes
from typing import Any, Protocol, cast

log = logging.getLogger(__name__)

DWORD = ctypes.c_uint32
BOOL = ctypes.c_int32
HANDLE = wintypes.HANDLE

JOB_OBJECT_BASIC_ACCOUNTING_INFORMATION_CLASS = 1
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
PROCESS_SET_QUOTA = 0x0100
PROCESS_TERMINATE = 0x0001
# What a process ended by the job (or by os.kill on Windows: TerminateProcess) exits with.
KILLED_EXIT_CODE = 9


class BasicLimits(ctypes.Structure):  # JOBOBJECT_BASIC_LIMIT_INFORMATION
    _fields_ = [
        ("PerProcessUserTimeLimit", ctypes.c_int64),  # LARGE_INTEGER
        ("PerJobUserTimeLimit", ctypes.c_int64),
        ("LimitFlags", DWORD),
        ("MinimumWorkingSetSize", ctypes.c_size_t),
        ("MaximumWorkingSetSize", ctypes.c_size_t),
        ("ActiveProcessLimit", DWORD),
        ("Affinity", ctypes.c_size_t),  # ULONG_PTR
        ("PriorityClass", DWORD),
        ("SchedulingClass", DWORD),
    ]


class IoCounters(ctypes.Structure):  # IO_COUNTERS
    _fields_ = [
        (name, ctypes.c_uint64)
        for name in (
            "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
            "ReadTransferCount", "WriteTransferCount", "OtherTransferCount",
        )
    ]  # fmt: skip


class ExtendedLimits(ctypes.Structure):  # JOBOBJECT_EXTENDED_LIMIT_INFORMATION
    _fields_ = [
        ("BasicLimitInformation", BasicLimits),
        ("IoInfo", IoCounters),
        ("ProcessMemoryLimit", ctypes.c_size_t),
        ("JobMemoryLimit", ctypes.c_size_t),
        ("PeakProcessMemoryUsed", ctypes.c_size_t),
        ("PeakJobMemoryUsed", ctypes.c_size_t),
    ]


class BasicAccounting(ctypes.Structure):  # JOBOBJECT_BASIC_ACCOUNTING_INFORMATION
    _fields_ = [
        ("TotalUserTime", ctypes.c_int64),
        ("TotalKernelTime", ctypes.c_int64),
        ("ThisPeriodTotalUserTime", ctypes.c_int64),
        ("ThisPeriodTotalKernelTime", ctypes.c_int64),
        ("TotalPageFaultCount", DWORD),
        ("TotalProcesses", DWORD),
        ("ActiveProcesses", DWORD),
        ("TotalTerminatedProcesses", DWORD),
    ]


class Kernel32(Protocol):
    """The functions of kernel32 this module calls (ctypes' or a test's fake)."""

    def CreateJobObjectW(self, attributes: Any, name: Any) -> int | None: ...
    def SetInformationJobObject(self, job: int, klass: int, info: Any, size: int) -> int: ...
    def QueryInformationJobObject(
        self, job: int, klass: int, info: Any, size: int, returned: Any
    ) -> int: ...
    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int | None: ...
    def AssignProcessToJobObject(self, job: int, process: int) -> int: ...
    def TerminateJobObject(self, job: int, exit_code: int) -> int: ...
    def CloseHandle(self, handle: int) -> int: ...
    def GetConsoleWindow(self) -> int | None: ...


_SIGNATURES: dict[str, tuple[list[Any], Any]] = {
    "CreateJobObjectW": ([ctypes.c_void_p, wintypes.LPCWSTR], HANDLE),
    "SetInformationJobObject": ([HANDLE, ctypes.c_int, ctypes.c_void_p, DWORD], BOOL),
    "QueryInformationJobObject": (
        [HANDLE, ctypes.c_int, ctypes.c_void_p, DWORD, ctypes.POINTER(DWORD)],
        BOOL,
    ),
    "OpenProcess": ([DWORD, BOOL, DWORD], HANDLE),
    "AssignProcessToJobObject": ([HANDLE, HANDLE], BOOL),
    "TerminateJobObject": ([HANDLE, ctypes.c_uint], BOOL),
    "CloseHandle": ([HANDLE], BOOL),
    "GetConsoleWindow": ([], HANDLE),
}

_kernel32: Kernel32 | None = None


def kernel32() -> Kernel32:
    """The real kernel32, with its functions' signatures set (Windows only), loaded once."""
    global _kernel32
    if _kernel32 is None:
        if sys.platform != "win32":
            raise OSError("kernel32 exists on Windows only")
        dll = ctypes.WinDLL("kernel32", use_last_error=True)
        for name, (argtypes, restype) in _SIGNATURES.items():
            function = getattr(dll, name)
            function.argtypes, function.restype = argtypes, restype
        _kernel32 = cast(Kernel32, dll)
    return _kernel32


def last_error() -> int:
    getter = getattr(ctypes, "get_last_error", None)  # Windows only
    return int(getter()) if getter is not None else 0


class Job:
    """One kill-on-close job: the processes assigned to it and everything they start."""

    def __init__(self, api: Kernel32, handle: int) -> None:
        self._api, self.handle = api, handle

    @classmethod
    def create(cls, api: Kernel32 | None = None) -> Job | None:
        """A new job whose processes all end when it is closed; None (logged) if refused."""
        api = api or kernel32()
        handle = api.CreateJobObjectW(None, None)
        if not handle:
            log.warning("CreateJobObject failed (%d)", last_error())
            return None
        limits = ExtendedLimits()
        limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        if not api.SetInformationJobObject(
            handle, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS,
            ctypes.byref(limits), ctypes.sizeof(limits),
        ):  # fmt: skip
            log.warning("SetInformationJobObject failed (%d)", last_error())
            api.CloseHandle(handle)
            return None
        return cls(api, handle)

    def assign(self, pid: int) -> bool:
        """Puts a running process in the job; its later children join it by themselves."""
        process = self._api.OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, False, pid)
        if not process:
            log.warning("OpenProcess(%d) failed (%d)", pid, last_error())
            return False
        try:
            if not self._api.AssignProcessToJobObject(self.handle, process):
                log.warning("process %d could not join a job (%d)", pid, last_error())
                return False
            return True
        finally:
            self._api.CloseHandle(process)

    def active_processes(self) -> int | None:
        """How many processes of the job are running; None if Windows would not say."""
        if not self.handle:
            return 0
        info = BasicAccounting()
        if not self._api.QueryInformationJobObject(
            self.handle, JOB_OBJECT_BASIC_ACCOUNTING_INFORMATION_CLASS,
            ctypes.byref(info), ctypes.sizeof(info), None,
        ):  # fmt: skip
            return None
        return int(info.ActiveProcesses)

    def terminate(self, exit_code: int = KILLED_EXIT_CODE) -> bool:
        """Ends every process in the job at once (no pid is looked up: none can be reused)."""
        return bool(self.handle) and bool(self._api.TerminateJobObject(self.handle, exit_code))

    def close(self) -> None:
        """Closes our handle (idempotent). KILL_ON_JOB_CLOSE: whatever still runs in it ends."""
        handle, self.handle = self.handle, 0
        if handle:
            self._api.CloseHandle(handle)
