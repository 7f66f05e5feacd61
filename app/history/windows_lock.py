"""The history's lock on Windows: LockFileEx on the lock file's first byte (app/history/lock.py).

LockFileEx(LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY) is the Windows counterpart of
flock(LOCK_EX | LOCK_NB): exclusive, refused at once when taken, owned by the file handle and
released by Windows when the handle closes or the process dies, however it dies. A second
handle on the file, even in the same process, is refused, as with flock.

Not msvcrt.locking: under the CRT it is the older LockFile, the same lock, but it locks from the
descriptor's current position (a seek first), and it reports every failure as errno EACCES, so
a lock another process holds and a real failure (a bad handle, a network drive that does not
lock) look alike. Here GetLastError tells them apart: ERROR_LOCK_VIOLATION is "held", anything
else is an OSError.

The API is reached through `WindowsApi`: the real kernel32 is loaded on first use (this module
imports on every system), and tests pass a simulated one.
"""

from __future__ import annotations

import ctypes
from typing import Protocol

LOCKFILE_FAIL_IMMEDIATELY = 0x1
LOCKFILE_EXCLUSIVE_LOCK = 0x2
ERROR_LOCK_VIOLATION = 33
ERROR_NOT_LOCKED = 158
# One byte at offset 0; Windows allows locking past the end of the (empty) file.
LOCKED_BYTES = 1


class LockHeld(Exception):
    """Another process (or another open in this process) holds the lock."""


class Overlapped(ctypes.Structure):
    """OVERLAPPED: where the locked range starts (Offset, OffsetHigh); the rest stays zero.
    Same layout as Windows' on 32 and 64 bits (the union's Pointer overlays the offsets)."""

    _fields_ = [
        ("Internal", ctypes.c_size_t),
        ("InternalHigh", ctypes.c_size_t),
        ("Offset", ctypes.c_uint32),
        ("OffsetHigh", ctypes.c_uint32),
        ("hEvent", ctypes.c_void_p),
    ]


class WindowsApi(Protocol):
    """The calls the lock makes, as kernel32 and the CRT offer them."""

    def handle_of(self, fd: int) -> int: ...

    def lock_file_ex(
        self, handle: int, flags: int, low: int, high: int, overlapped: Overlapped
    ) -> bool: ...

    def unlock_file_ex(self, handle: int, low: int, high: int, overlapped: Overlapped) -> bool: ...

    def last_error(self) -> int: ...

    def error(self, code: int) -> OSError: ...


class Kernel32:  # pragma: no cover - runs on Windows only
    """The real `WindowsApi`."""

    def __init__(self) -> None:
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined,unused-ignore]
        handle, dword = ctypes.c_void_p, ctypes.c_uint32
        self._lock = kernel32.LockFileEx
        self._lock.argtypes = [handle, dword, dword, dword, dword, ctypes.POINTER(Overlapped)]
        self._lock.restype = ctypes.c_int
        self._unlock = kernel32.UnlockFileEx
        self._unlock.argtypes = [handle, dword, dword, dword, ctypes.POINTER(Overlapped)]
        self._unlock.restype = ctypes.c_int

    def handle_of(self, fd: int) -> int:
        import msvcrt

        return int(msvcrt.get_osfhandle(fd))  # type: ignore[attr-defined,unused-ignore]

    def lock_file_ex(
        self, handle: int, flags: int, low: int, high: int, overlapped: Overlapped
    ) -> bool:
        return bool(self._lock(handle, flags, 0, low, high, ctypes.byref(overlapped)))

    def unlock_file_ex(self, handle: int, low: int, high: int, overlapped: Overlapped) -> bool:
        return bool(self._unlock(handle, 0, low, high, ctypes.byref(overlapped)))

    def last_error(self) -> int:
        return int(ctypes.get_last_error())  # type: ignore[attr-defined,unused-ignore]

    def error(self, code: int) -> OSError:
        return ctypes.WinError(code)  # type: ignore[attr-defined,no-any-return,unused-ignore]


_kernel32: WindowsApi | None = None


def windows_api() -> WindowsApi:
    """kernel32, loaded once, at the first lock."""
    global _kernel32
    if _kernel32 is None:
        _kernel32 = Kernel32()
    return _kernel32


class WindowsLocking:
    """Takes and releases the lock on a descriptor's file with LockFileEx/UnlockFileEx."""

    def __init__(self, api: WindowsApi | None = None) -> None:
        self._api = api

    def try_lock(self, fd: int) -> None:
        """Raises `LockHeld` when another handle holds the lock, `OSError` on any other
        refusal."""
        api = self._api or windows_api()
        flags = LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY
        if api.lock_file_ex(api.handle_of(fd), flags, LOCKED_BYTES, 0, Overlapped()):
            return
        code = api.last_error()
        if code == ERROR_LOCK_VIOLATION:
            raise LockHeld(f"the lock file is locked by another handle (Windows error {code})")
        raise api.error(code)

    def unlock(self, fd: int) -> None:
        api = self._api or windows_api()
        if api.unlock_file_ex(api.handle_of(fd), LOCKED_BYTES, 0, Overlapped()):
            return
        code = api.last_error()
        if code != ERROR_NOT_LOCKED:  # already released: closing the handle finishes the job
            raise api.error(code)
