"""One Sidekicks per history: an exclusive, non-blocking lock on a file in the history's folder.

LMDB itself lets several processes share a database; the SPEC wants a single owner, so the
first Sidekicks to open a configuration's history takes this lock and the next one runs on
memory. The lock belongs to an open file, not to a pid written in a file: the operating
system releases it when the file is closed or the process dies, however it dies (SIGKILL,
power loss), so a crash never leaves a stale lock behind.

POSIX (Linux, macOS): flock. Windows has no flock: the lock is LockFileEx on the file's first
byte (app/history/windows_lock.py), which Windows also drops when the handle is closed or the
process ends. The system is looked up when a lock is taken, not at import, so tests can run
the Windows path here with its API simulated.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from app.history.windows_lock import LockHeld, WindowsLocking

LOCK_FILE_NAME = "sidekicks.lock"

__all__ = ["LOCK_FILE_NAME", "FolderLock", "LockHeld"]


class _PosixLocking:
    # flock (not fcntl/lockf record locks): it belongs to this open file description, so a
    # second open of the same file, even in this process, is refused too, and closing some
    # other descriptor of the file (LMDB's own) does not drop it. (The platform checks let
    # mypy --platform win32, where fcntl has no flock, pass over it.)
    def try_lock(self, fd: int) -> None:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as error:
                raise LockHeld(str(error)) from error
        else:
            raise OSError("flock does not exist on Windows: WindowsLocking takes the lock there")

    def unlock(self, fd: int) -> None:
        if sys.platform != "win32":
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_UN)


def _locking() -> _PosixLocking | WindowsLocking:
    return WindowsLocking() if sys.platform == "win32" else _PosixLocking()


class FolderLock:
    """The exclusive lock on `<folder>/sidekicks.lock`, held until `release()`."""

    def __init__(self, path: Path, fd: int, locking: _PosixLocking | WindowsLocking) -> None:
        self.path = path
        self._fd: int | None = fd
        self._locking = locking

    @classmethod
    def take(cls, folder: Path) -> FolderLock:
        """Takes the lock without waiting. Raises `LockHeld` if someone else has it, and
        `OSError` if the lock file cannot be created or opened."""
        path = folder / LOCK_FILE_NAME
        locking = _locking()
        # os.open makes non-inheritable descriptors (PEP 446): agents we spawn never hold
        # the lock after we die.
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            locking.try_lock(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, locking)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Releases the lock; calling it again does nothing."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            self._locking.unlock(fd)
        finally:
            os.close(fd)  # closing releases it anyway; the explicit unlock is for clarity
