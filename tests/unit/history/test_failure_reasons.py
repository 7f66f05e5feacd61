"""What a person reads when the history cannot be opened, read or written: LMDB's errors, as
py-lmdb raises them, become a few sentences; a full disk is said to be full even when the
file system reports it as an input/output error."""

from __future__ import annotations

import errno
import shutil
from collections import namedtuple
from pathlib import Path

import lmdb
import pytest

from app.history import failures
from app.history.failures import (
    HistoryWriteError,
    describe,
    failure_reason,
    is_damage,
    is_lasting,
)

Usage = namedtuple("Usage", "total used free")
FOLDER = Path("/somewhere/sidekicks/data/0123456789abcdef")
DISK_FULL = f"the disk is full (the history is in {FOLDER})"


def lmdb_error(kind: type[lmdb.Error], text: str, code: int | None = None) -> lmdb.Error:
    """An error as py-lmdb's C extension raises it: one message, and the system's code."""
    error = kind(text)
    if code is not None:
        error.code = code  # type: ignore[attr-defined]
    return error


@pytest.fixture
def free_space(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    free = [10 << 30]
    monkeypatch.setattr(failures.shutil, "disk_usage", lambda path: Usage(100 << 30, 0, free[0]))
    return free


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (lmdb_error(lmdb.DiskError, "mdb_txn_commit: No space left on device", 28), DISK_FULL),
        (lmdb_error(lmdb.Error, "mdb_txn_commit: Disk quota exceeded", errno.EDQUOT), DISK_FULL),
        (OSError(errno.ENOSPC, "No space left on device"), DISK_FULL),
        (
            lmdb_error(lmdb.MapFullError, "the history reached 1099511627776 bytes"),
            "the history reached the largest size it may grow to",
        ),
        (lmdb_error(lmdb.ReadonlyError, "mdb_put: Permission denied", 13), "permission denied"),
        (OSError(errno.EROFS, "Read-only file system"), "the disk is read-only"),
        (
            lmdb_error(lmdb.CorruptedError, "mdb_get: MDB_CORRUPTED: Located page was wrong type"),
            "the history file is damaged",
        ),
        (
            lmdb_error(lmdb.PageNotFoundError, "mdb_get: MDB_PAGE_NOTFOUND"),
            "the history file is damaged",
        ),
        (
            lmdb_error(lmdb.InvalidError, "mdb_env_open: MDB_INVALID: File is not an LMDB file"),
            "the file is damaged or is not a Sidekicks history",
        ),
        (
            lmdb_error(lmdb.PanicError, "mdb_txn_begin: MDB_PANIC"),
            "an earlier failed write left the history unusable until Sidekicks restarts",
        ),
        (ImportError("lmdb"), "the database engine is missing from this installation"),
        (RuntimeError("something else"), "something else"),
    ],
)
def test_each_failure_reads_as_a_sentence(
    error: BaseException, reason: str, free_space: list[int]
) -> None:
    assert describe(error, FOLDER) == reason


def test_an_input_output_error_on_a_nearly_full_disk_is_a_full_disk(
    free_space: list[int],
) -> None:
    # The words py-lmdb gives when the code is not set: the system's, after the call's name.
    error = lmdb_error(lmdb.Error, "mdb_txn_commit: Input/output error")
    free_space[0] = 4096
    assert describe(error, FOLDER) == DISK_FULL
    free_space[0] = 50 << 30
    assert describe(error, FOLDER) == "the disk reported an input/output error"


def test_the_free_space_is_looked_up_in_the_history_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[Path] = []

    def usage(path: Path) -> Usage:
        asked.append(path)
        raise FileNotFoundError(path)  # unknown: not taken for a full disk

    monkeypatch.setattr(shutil, "disk_usage", usage)
    error = lmdb_error(lmdb.Error, "mdb_txn_commit: Input/output error", errno.EIO)
    assert describe(error, FOLDER) == "the disk reported an input/output error"
    assert asked == [FOLDER]


def test_damage_and_a_panic_last_a_full_disk_does_not() -> None:
    corrupted = lmdb_error(lmdb.CorruptedError, "MDB_CORRUPTED")
    panic = lmdb_error(lmdb.PanicError, "MDB_PANIC")
    full = lmdb_error(lmdb.DiskError, "No space left on device", 28)
    assert is_damage(corrupted) and is_lasting(corrupted)
    assert not is_damage(panic) and is_lasting(panic)
    assert not is_damage(full) and not is_lasting(full)


def test_a_history_failure_gives_its_sentence_anything_else_its_kind_too() -> None:
    assert failure_reason(HistoryWriteError(DISK_FULL)) == DISK_FULL
    assert failure_reason(ValueError("bad id")) == "ValueError: bad id"


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (112, DISK_FULL),  # ERROR_DISK_FULL: the map grown on a full disk
        (39, DISK_FULL),  # ERROR_HANDLE_DISK_FULL
        (5, "permission denied"),  # ERROR_ACCESS_DENIED, not errno 5 (EIO)
        (19, "the disk is read-only"),  # ERROR_WRITE_PROTECT
        (1117, "the disk reported an input/output error"),  # ERROR_IO_DEVICE
    ],
)
def test_on_windows_lmdb_system_errors_carry_windows_codes_and_read_as_sentences(
    monkeypatch: pytest.MonkeyPatch, free_space: list[int], code: int, reason: str
) -> None:
    monkeypatch.setattr(failures.sys, "platform", "win32")
    error = lmdb_error(lmdb.Error, "mdb_env_set_mapsize: (the system's words)", code)
    assert describe(error, FOLDER) == reason


def test_on_windows_an_unknown_windows_code_is_not_taken_for_an_errno(
    monkeypatch: pytest.MonkeyPatch, free_space: list[int]
) -> None:
    monkeypatch.setattr(failures.sys, "platform", "win32")
    # 28 is ERROR_OUT_OF_PAPER on Windows, ENOSPC on POSIX.
    error = lmdb_error(lmdb.Error, "mdb_txn_commit: The printer is out of paper.", 28)
    assert describe(error, FOLDER) == "mdb_txn_commit: The printer is out of paper."
    # An OSError's errno is the C library's on Windows too.
    assert describe(OSError(errno.ENOSPC, "No space left on device"), FOLDER) == DISK_FULL
