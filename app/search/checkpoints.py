"""WAL checkpoints off the core loop.

SQLite copies the write-ahead log back into the database file (a checkpoint, which waits for
the disk) every 1,000 pages by default, inside whichever commit crosses that mark: on the core
loop, a stored message would now and then wait tens of milliseconds. The writer connection has
automatic checkpoints turned off; after every `EVERY` commits one runs on a short-lived thread
with its own connection (PASSIVE: it never blocks the writer nor the readers).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

EVERY = 100  # commits (a message each, or a page of a catch-up)


class Checkpoints:
    def __init__(self, path: Path | None) -> None:
        self._path = path  # None: in memory, no log
        self._commits = 0
        self._thread: threading.Thread | None = None

    def committed(self) -> None:
        """Counts a commit; called under the index's write lock."""
        self._commits += 1
        if self._path is None or self._commits < EVERY:
            return
        if self._thread is not None and self._thread.is_alive():
            return
        self._commits = 0
        self._thread = threading.Thread(
            target=_checkpoint, args=(self._path,), name="search-index-checkpoint", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._thread.join(timeout=30)


def _checkpoint(path: Path) -> None:
    try:
        conn = sqlite3.connect(path, timeout=10.0)
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            conn.close()
    except sqlite3.Error as error:  # the next one, or closing the file, will do it
        log.info("search index checkpoint not done: %s", error)
