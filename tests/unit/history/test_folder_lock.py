"""The history folder's lock: one holder at a time, on this system for real (flock on POSIX,
LockFileEx on Windows), and the Windows calls checked here with a simulated kernel32."""

from __future__ import annotations

import ctypes
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.history import windows_lock
from app.history.lock import LOCK_FILE_NAME, FolderLock, LockHeld
from app.history.windows_lock import (
    ERROR_LOCK_VIOLATION,
    ERROR_NOT_LOCKED,
    LOCKFILE_EXCLUSIVE_LOCK,
    LOCKFILE_FAIL_IMMEDIATELY,
    Overlapped,
    WindowsLocking,
)

ERROR_INVALID_HANDLE = 6

# On this system, for real


def test_a_second_take_is_refused_until_the_first_is_released(tmp_path: Path) -> None:
    first = FolderLock.take(tmp_path)
    with pytest.raises(LockHeld):
        FolderLock.take(tmp_path)  # even from the same process
    first.release()
    assert not first.held
    FolderLock.take(tmp_path).release()


def test_closing_another_descriptor_of_the_lock_file_keeps_the_lock(tmp_path: Path) -> None:
    # LMDB and others may open and close files in the folder: only our own handle's close
    # may end the lock (flock and LockFileEx both belong to the handle, unlike fcntl locks).
    held = FolderLock.take(tmp_path)
    try:
        os.close(os.open(tmp_path / LOCK_FILE_NAME, os.O_RDWR))
        with pytest.raises(LockHeld):
            FolderLock.take(tmp_path)
    finally:
        held.release()


def test_releasing_twice_is_harmless(tmp_path: Path) -> None:
    held = FolderLock.take(tmp_path)
    held.release()
    held.release()
    FolderLock.take(tmp_path).release()


# Windows, simulated


@dataclass
class FakeKernel32:
    """Byte-range locks as Windows keeps them: per handle, refused with ERROR_LOCK_VIOLATION
    while another handle holds the range. Handles are descriptors + 1000."""

    calls: list[tuple[object, ...]] = field(default_factory=list)
    holder: dict[int, int] = field(default_factory=dict)  # offset -> handle
    fail_with: int = 0  # an error every lock call returns instead
    error_code: int = 0

    def handle_of(self, fd: int) -> int:
        os.fstat(fd)  # a real, open descriptor
        return fd + 1000

    def lock_file_ex(
        self, handle: int, flags: int, low: int, high: int, overlapped: Overlapped
    ) -> bool:
        offset = overlapped.Offset | overlapped.OffsetHigh << 32
        self.calls.append(("LockFileEx", handle, flags, low, high, offset))
        if self.fail_with:
            self.error_code = self.fail_with
            return False
        if offset in self.holder:
            self.error_code = ERROR_LOCK_VIOLATION
            return False
        self.holder[offset] = handle
        return True

    def unlock_file_ex(self, handle: int, low: int, high: int, overlapped: Overlapped) -> bool:
        offset = overlapped.Offset | overlapped.OffsetHigh << 32
        self.calls.append(("UnlockFileEx", handle, low, high, offset))
        if self.holder.get(offset) != handle:
            self.error_code = ERROR_NOT_LOCKED
            return False
        del self.holder[offset]
        return True

    def last_error(self) -> int:
        return self.error_code

    def error(self, code: int) -> OSError:
        return OSError(f"simulated Windows error {code}")


@pytest.fixture
def kernel32(monkeypatch: pytest.MonkeyPatch) -> FakeKernel32:
    """This process runs the Windows branch of FolderLock, with the simulated kernel32."""
    fake = FakeKernel32()
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(windows_lock, "windows_api", lambda: fake)
    return fake


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def test_on_windows_the_lock_is_lockfileex_exclusive_failing_at_once_on_the_first_byte(
    tmp_path: Path, kernel32: FakeKernel32
) -> None:
    held = FolderLock.take(tmp_path)
    flags = LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY
    ((name, handle, called_flags, low, high, offset),) = kernel32.calls
    assert (name, called_flags, low, high, offset) == ("LockFileEx", flags, 1, 0, 0)
    assert isinstance(handle, int) and is_open(handle - 1000)  # the lock file's, kept open
    held.release()


def test_on_windows_a_held_lock_is_lock_held_and_the_refused_descriptor_is_closed(
    tmp_path: Path, kernel32: FakeKernel32
) -> None:
    first = FolderLock.take(tmp_path)
    with pytest.raises(LockHeld, match="33"):
        FolderLock.take(tmp_path)
    refused = kernel32.calls[-1][1]
    assert isinstance(refused, int) and not is_open(refused - 1000)
    first.release()


def test_on_windows_release_unlocks_the_same_byte_then_another_take_succeeds(
    tmp_path: Path, kernel32: FakeKernel32
) -> None:
    first = FolderLock.take(tmp_path)
    handle = kernel32.calls[0][1]
    assert isinstance(handle, int)
    first.release()
    assert kernel32.calls[-1] == ("UnlockFileEx", handle, 1, 0, 0)
    assert not is_open(handle - 1000)  # and the descriptor closed
    FolderLock.take(tmp_path).release()
    assert kernel32.holder == {}


def test_on_windows_another_refusal_is_an_os_error_not_a_held_lock(
    tmp_path: Path, kernel32: FakeKernel32
) -> None:
    # A handle that cannot be locked (a network share without byte-range locks…) is a real
    # failure: open_history then says the folder cannot be used, not "another Sidekicks".
    kernel32.fail_with = ERROR_INVALID_HANDLE
    with pytest.raises(OSError, match="error 6") as raised:
        FolderLock.take(tmp_path)
    assert not isinstance(raised.value, LockHeld)
    refused = kernel32.calls[-1][1]
    assert isinstance(refused, int) and not is_open(refused - 1000)


def test_on_windows_an_unlock_of_a_lock_already_gone_is_not_an_error(tmp_path: Path) -> None:
    fake = FakeKernel32()
    locking = WindowsLocking(fake)
    fd = os.open(tmp_path / LOCK_FILE_NAME, os.O_RDWR | os.O_CREAT)
    try:
        locking.unlock(fd)  # ERROR_NOT_LOCKED: closing the handle would have ended it anyway
        assert fake.calls == [("UnlockFileEx", fd + 1000, 1, 0, 0)]
    finally:
        os.close(fd)


@pytest.mark.posix_only("the POSIX branch takes a real flock")
def test_posix_locks_never_load_kernel32(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> None:
        raise AssertionError("kernel32 loaded off Windows")

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(windows_lock, "windows_api", refuse)
    FolderLock.take(tmp_path).release()


def test_the_overlapped_structure_has_windows_layout() -> None:
    # sizeof(OVERLAPPED): 32 bytes on 64-bit Windows, 20 on 32-bit; the offsets at 16 (8).
    pointer = ctypes.sizeof(ctypes.c_void_p)
    assert ctypes.sizeof(Overlapped) == (32 if pointer == 8 else 20)
    assert Overlapped.Offset.offset == 2 * pointer
