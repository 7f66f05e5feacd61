"""A disk that fills up under a running app, for tests of what happens when writing fails.

Two ways, the same interface (`fill()`, `free()`):
- `TinyDisk`: a real 1 MiB tmpfs mounted on the user config dir (where the history lives), filled
  with a file until the kernel says ENOSPC: LMDB fails exactly as on a full disk. Mounting needs
  root (and a sandbox that allows it): where it cannot be mounted, the tests that need it skip;
  Linux only (TINY_DISK_MARK).
- `InjectedDisk`: the history's write transactions fail at commit with the error py-lmdb raises
  on a full disk (`lmdb.DiskError`, "mdb_txn_commit: No space left on device"); what the change
  wrote is aborted, as LMDB does. Runs everywhere.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import lmdb
import pytest

from app.history.lmdb_store import LmdbHistory

TINY_DISK_SIZE = "1m"
TINY_DISK_WHY = "a tmpfs mounted on the history's folder (mount -t tmpfs) is Linux's"
TINY_DISK_MARK = pytest.mark.linux_only(TINY_DISK_WHY)


class FullDisk(Protocol):
    def fill(self) -> None: ...

    def free(self) -> None: ...


def tiny_disk_on(folder: Path) -> Iterator[TinyDisk]:
    """A fixture's body: a TinyDisk mounted on `folder`, unmounted after; the test skips where
    a tmpfs cannot be mounted."""
    if not sys.platform.startswith("linux"):  # as the linux_only mark says it (TINY_DISK_MARK)
        pytest.skip(f"linux_only: {TINY_DISK_WHY}")
    disk = TinyDisk(folder)
    if not disk.mount():
        pytest.skip("a tmpfs cannot be mounted here (not root, or not allowed)")
    try:
        yield disk
    finally:
        disk.unmount()


class TinyDisk:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.filler = folder / "filler"
        self.mounted = False

    def mount(self) -> bool:
        command = ["mount", "-t", "tmpfs", "-o", f"size={TINY_DISK_SIZE},mode=0700", "tmpfs"]
        try:
            done = subprocess.run([*command, str(self.folder)], capture_output=True, timeout=10)
        except OSError:  # no mount program
            return False
        self.mounted = done.returncode == 0
        return self.mounted

    def unmount(self) -> None:
        if self.mounted:
            # Lazy: a descriptor some library still holds must not leave the mount behind.
            subprocess.run(["umount", "-l", str(self.folder)], capture_output=True, timeout=10)
            self.mounted = False

    def fill(self) -> None:
        """Writes until the kernel refuses: not one byte is left."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            block = b"\0" * 4096
            while True:
                try:
                    os.write(fd, block)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    if len(block) == 1:
                        return
                    block = block[: len(block) // 2]  # the last few bytes too
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


def disk_full_error() -> lmdb.Error:
    """What py-lmdb raises when a commit meets a full disk (see `TinyDisk`'s tests)."""
    error = lmdb.DiskError("mdb_txn_commit: No space left on device")
    error.code = errno.ENOSPC  # type: ignore[attr-defined]  # as the C extension sets it
    return error


class InjectedDisk:
    def __init__(self, history: LmdbHistory) -> None:
        self.full = False
        history._lmdb.env = _FailingEnvironment(history._lmdb.env, self)  # type: ignore[assignment]

    def fill(self) -> None:
        self.full = True

    def free(self) -> None:
        self.full = False


class _FailingEnvironment:
    """The history's environment, whose write transactions fail at commit while the disk is
    full; everything else goes to the real one."""

    def __init__(self, env: lmdb.Environment, disk: InjectedDisk) -> None:
        self._env = env
        self._disk = disk

    def begin(self, **options: Any) -> Any:
        txn = self._env.begin(**options)
        if options.get("write") and self._disk.full:
            return _FailingCommit(txn)
        return txn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


class _FailingCommit:
    def __init__(self, txn: lmdb.Transaction) -> None:
        self._txn = txn

    def __enter__(self) -> lmdb.Transaction:
        return self._txn

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self._txn.abort()  # nothing of it reaches the file
        if kind is None:
            raise disk_full_error()
