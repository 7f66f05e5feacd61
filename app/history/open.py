"""Opens a configuration file's history: on disk when possible, else in memory with a reason."""

from __future__ import annotations

import logging
from pathlib import Path

from app.history.base import History
from app.history.failures import describe
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
    ).format(folder=folder, reason=describe(error, folder))
    return _in_memory(problem, error)


def _in_memory(problem: str, error: BaseException | None = None) -> MemoryHistory:
    log.warning("%s", problem, exc_info=error)
    return MemoryHistory(problem=problem)
