"""Why the history could not be opened, read or written, in a sentence a person understands.

LMDB reports "mdb_txn_commit: No space left on device", "MDB_MAP_FULL" or "MDB_CORRUPTED";
the page shows "the disk is full (the history is in …)", "the history file is damaged". The
same words serve every place a history operation fails: opening (app/history/open.py), a
message or an answer that could not be kept (app/channels/turns.py), a service call's write.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

from app.core.errors import UserError
from app.i18n import _

# Some file systems (and an fsync after delayed allocation) report a full disk as an
# input/output error, not ENOSPC: below this much free space, EIO is taken for a full disk.
NEARLY_FULL = 16 * 1024 * 1024

# LMDB on Windows reports a failed system call with GetLastError's code, not an errno (its
# ErrCode()): the Windows codes that mean what the errno values below mean. Growing the map
# extends the file there (app/history/lmdb_store.py), so a full disk often shows up then.
_WINDOWS_CODES = {
    39: errno.ENOSPC,  # ERROR_HANDLE_DISK_FULL
    112: errno.ENOSPC,  # ERROR_DISK_FULL
    5: errno.EACCES,  # ERROR_ACCESS_DENIED
    19: errno.EROFS,  # ERROR_WRITE_PROTECT
    23: errno.EIO,  # ERROR_CRC
    1117: errno.EIO,  # ERROR_IO_DEVICE
}


class HistoryWriteError(UserError):
    """A write that did not happen (nothing of it was kept); its message says why, and is
    what the page gets when one of its calls needed that write."""


class HistoryUnreadable(UserError):
    """A read that LMDB refused (a damaged page of the file, not one record: records are
    stepped over, see app/history/record_checks.py); its message says why."""


def failure_reason(error: BaseException) -> str:
    """The reason to show for a history operation that raised `error`: the history's own
    sentence, or the exception's words for anything unforeseen."""
    if isinstance(error, HistoryWriteError | HistoryUnreadable):
        return str(error)
    return f"{type(error).__name__}: {error}"


def describe(error: BaseException, folder: Path) -> str:
    """The reason `error` gives for the history in `folder`, as a few words."""
    if isinstance(error, ImportError):
        return _("the database engine is missing from this installation")
    by_kind = _lmdb_reason(error, folder)
    if by_kind:
        return by_kind
    code = _error_code(error)
    if code in (errno.ENOSPC, errno.EDQUOT):
        return disk_full(folder)
    if code == errno.EIO:
        if _free_space(folder) < NEARLY_FULL:
            return disk_full(folder)
        return _("the disk reported an input/output error")
    if code == errno.EROFS:
        return _("the disk is read-only")
    if isinstance(error, PermissionError) or code in (errno.EACCES, errno.EPERM):
        return _("permission denied")
    if isinstance(error, FileExistsError | NotADirectoryError) or code == errno.ENOTDIR:
        return _("a file stands where its folder should be")
    return str(error) or type(error).__name__


def disk_full(folder: Path) -> str:
    return _("the disk is full (the history is in {folder})").format(folder=folder)


def damaged() -> str:
    return _("the history file is damaged")


def is_damage(error: BaseException) -> bool:
    """Whether `error` says the database file itself is damaged."""
    lmdb = _lmdb()
    return lmdb is not None and isinstance(error, _damage_kinds(lmdb))


def is_lasting(error: BaseException) -> bool:
    """Whether `error` will not go away by itself: the file is damaged, or LMDB gave up on it
    until the next start (not a full disk, which freeing space cures)."""
    lmdb = _lmdb()
    if lmdb is None:
        return False
    return isinstance(error, (*_damage_kinds(lmdb), lmdb.PanicError))


def _lmdb_reason(error: BaseException, folder: Path) -> str:
    lmdb = _lmdb()
    if lmdb is None or not isinstance(error, lmdb.Error):
        return ""
    if isinstance(error, lmdb.DiskError):
        return disk_full(folder)
    if isinstance(error, lmdb.MapFullError):  # only once the map cannot grow any more
        return _("the history reached the largest size it may grow to")
    if isinstance(error, lmdb.ReadonlyError):
        return _("permission denied")
    if isinstance(error, lmdb.PanicError):
        return _("an earlier failed write left the history unusable until Sidekicks restarts")
    if isinstance(error, lmdb.InvalidError | lmdb.VersionMismatchError | lmdb.IncompatibleError):
        return _("the file is damaged or is not a Sidekicks history")
    if isinstance(error, _damage_kinds(lmdb)):
        return damaged()
    return ""


def _damage_kinds(lmdb: ModuleType) -> tuple[type[BaseException], ...]:
    names = (
        "CorruptedError",
        "PageNotFoundError",
        "InvalidError",
        "VersionMismatchError",
        "IncompatibleError",
        "BadChecksumError",
        "ProblemError",
    )
    return tuple(getattr(lmdb, name) for name in names if hasattr(lmdb, name))


def _error_code(error: BaseException) -> int | None:
    """The system error number: OSError's `errno`; py-lmdb's `code` (set by its C extension;
    a Windows code on Windows, translated), or failing that the system's words at the end of
    its message."""
    code = getattr(error, "errno", None) or getattr(error, "code", None)
    if isinstance(code, int) and sys.platform == "win32" and not isinstance(error, OSError):
        return _WINDOWS_CODES.get(code)  # an unknown Windows code is no errno: its words say it
    if isinstance(code, int):
        return code
    text = str(error)
    for known in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EACCES):
        if text.endswith(os.strerror(known)):
            return known
    return None


def _free_space(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return NEARLY_FULL  # unknown: not taken for a full disk


def _lmdb() -> ModuleType | None:
    # Imported here: if the LMDB extension cannot load, describing that failure must not fail.
    try:
        import lmdb
    except ImportError:
        return None
    return lmdb
