"""One Sidekicks per history: an exclusive, non-blocking lock on a file in the history's folder.

LMDB itself lets several processes share a database; the SPEC wants a single owner, so the
first Sidekicks to open a configuration's history takes this lock and the next one runs on
memory. The lock belongs to an open file, not to a pid written in a file: the operating
system releases it when the file is closed or the process dies, however it dies (SIGKILL,
power loss), so a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

LOCK_FILE_NAME = "sidekicks.lock"


class LockHeld(Exception):
    """Another process (or another open in this process) holds the lock."""


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> None:
        # Locks one byte at offset 0; LK_NBLCK fails at once instead of retrying for 10 s.
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as error:
            raise LockHeld(str(error)) from error

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> None:
        # flock (not fcntl/lockf record locks): it belongs to this open file description, so
        # a second open of the same file, even in this process, is refused too, and closing
        # some other descriptor of the file (LMDB's own) does not drop it.
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as error:
            raise LockHeld(str(error)) from error

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class FolderLock:
    """The exclusive lock on `<folder>/sidekicks.lock`, held until `release()`."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def take(cls, folder: Path) -> FolderLock:
        """Takes the lock without waiting. Raises `LockHeld` if someone else has it, and
        `OSError` if the lock file cannot be created or opened."""
        path = folder / LOCK_FILE_NAME
        # os.open makes non-inheritable descriptors (PEP 446): agents we spawn never hold
        # the lock after we die.
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            _try_lock(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Releases the lock; calling it again does nothing."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            _unlock(fd)
        finally:
            os.close(fd)  # closing releases it anyway; the explicit unlock is for clarity
