"""The search index's SQLite file beside the history, and its connections.

The writer connection serves the loop's writes and the catch-up's (under the index's write
lock); searches, from pywebview's threads, use a reader connection under `read_lock` (WAL:
readers do not wait for a writer). In memory (a history in memory, or a file that cannot be
used) one connection serves both, under the write lock.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from app.history.base import History
from app.search import store
from app.search.checkpoints import Checkpoints
from app.search.opening import history_token, index_path, open_file

log = logging.getLogger(__name__)

TOKEN_KEY = "search-index"  # the history keeps which index file is its own


class IndexFile:
    def __init__(self, history: History, write_lock: threading.RLock) -> None:
        """Opens the index of `history`; `unavailable` when this SQLite has no FTS5."""
        self.path = index_path(history)
        self.checkpoints = Checkpoints(self.path)
        self.conn: sqlite3.Connection | None = None
        self.reader: sqlite3.Connection | None = None
        self.read_lock = write_lock
        self.unavailable = False
        self._write_lock = write_lock
        self._token = "memory"
        self._open(history)

    def _open(self, history: History) -> None:
        """The file beside the history; in memory (rebuilt at each start) when it cannot be
        used or the history cannot keep its token: search works either way."""
        try:
            if self.path is not None:
                self._token = history_token(history, TOKEN_KEY)
            self._connect(fresh=False)
        except store.Unavailable:
            log.warning("search is not available: SQLite has no FTS5")
            self.unavailable = True
        except Exception as error:
            log.warning("search index %s cannot be used, kept in memory: %s", self.path, error)
            self.path = None
            self.checkpoints = Checkpoints(None)
            self._connect(fresh=True)

    def make_anew(self) -> None:
        """The file was found damaged: a new, empty one (under the write lock)."""
        with self.read_lock:
            self._disconnect()
            self._connect(fresh=True)

    def close(self) -> None:
        self.checkpoints.close()
        with self._write_lock, self.read_lock:
            self._disconnect()

    def _disconnect(self) -> None:
        for conn in {id(c): c for c in (self.conn, self.reader) if c is not None}.values():
            conn.close()  # one connection in memory
        self.conn = self.reader = None

    def _connect(self, fresh: bool) -> None:
        """Opens the file (made anew if `fresh`, damaged, or not this history's index)."""
        self.conn = open_file(self.path, self._token, fresh)
        self.reader = self.conn if self.path is None else store.connect(self.path)
        self.read_lock = self._write_lock if self.path is None else threading.RLock()
