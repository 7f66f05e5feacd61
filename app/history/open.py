"""Opens a configuration file's history: on disk when possible, else in memory with a reason."""

from __future__ import annotations

import errno
import logging
from pathlib import Path

from app.history.base import History
from app.history.lock import FolderLock, LockHeld
from app.history.memory import MemoryHistory
from app.i18n import _
from app.paths import data_dir

log = logging.getLogger(__name__)


def open_history(config_path: Path) -> History:
    """The history of `config_path`, in `<user config dir>/sidekicks/data/<fingerprint>/`.

    Never raises: when the folder cannot be locked or the database opened, the history lives
    in memory until the app closes and its `problem` says why, in words a person understands.
    `close()` releases the lock."""
    folder = data_dir(config_path)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock = FolderLock.take(folder)
    except LockHeld:
        return _in_memory(
            _(
                "Another Sidekicks is using this configuration's history ({folder}). "
                "History is kept in memory until the app closes."
            ).format(folder=folder)
        )
    except OSError as error:
        return _cannot_open(folder, error)
    try:
        return _open_lmdb(folder, lock)
    except Exception as error:
        # Whatever the database raises (damaged file, full disk, missing engine…), the app
        # still runs, on memory; the lock goes, as this process will not use the folder.
        lock.release()
        return _cannot_open(folder, error)


def _open_lmdb(folder: Path, lock: FolderLock) -> History:
    # Imported here: if the LMDB extension itself cannot load (a broken install or build),
    # that is one more reason to run on memory, not a crash at import time.
    from app.history.lmdb_store import LmdbHistory

    return LmdbHistory(folder, lock=lock)


def _cannot_open(folder: Path, error: BaseException) -> MemoryHistory:
    problem = _(
        "The history in {folder} cannot be opened: {reason}. "
        "History is kept in memory until the app closes."
    ).format(folder=folder, reason=_reason(error))
    return _in_memory(problem, error)


def _in_memory(problem: str, error: BaseException | None = None) -> MemoryHistory:
    log.warning("%s", problem, exc_info=error)
    return MemoryHistory(problem=problem)


def _reason(error: BaseException) -> str:
    """Why, in a few words: the common causes get a sentence, the rest the system's words."""
    if isinstance(error, ImportError):
        return _("the database engine is missing from this installation")
    code = getattr(error, "errno", None) or getattr(error, "code", None)
    if isinstance(error, PermissionError) or code in (errno.EACCES, errno.EPERM):
        return _("permission denied")
    if code == errno.ENOSPC:
        return _("the disk is full")
    if code == errno.EROFS:
        return _("the disk is read-only")
    if isinstance(error, FileExistsError | NotADirectoryError) or code == errno.ENOTDIR:
        return _("a file stands where its folder should be")
    if _is_damaged(error):
        return _("the file is damaged or is not a Sidekicks history")
    return str(error) or type(error).__name__


def _is_damaged(error: BaseException) -> bool:
    try:
        import lmdb
    except ImportError:
        return False
    damaged = (
        lmdb.InvalidError,
        lmdb.CorruptedError,
        lmdb.PageNotFoundError,
        lmdb.VersionMismatchError,
        lmdb.BadTxnError,
        lmdb.PanicError,
    )
    return isinstance(error, damaged)
