"""The LMDB environment under a history (app/history/lmdb_store.py opens it): guarded reads,
writes that grow the map, and the sentences for what LMDB refuses.

Threads: writes, growing the map and closing happen on the core loop thread; reads may come
from any thread (the page's history reads do not wait for the core loop). LMDB lets readers
and a writer work at once, but not a read beside `set_mapsize` or `close`: every read, the
growth and the close take `_guard`, a lock held for the few microseconds a read lasts.

A read or write that LMDB refuses raises a sentence (app/history/failures.py); damage, or a
failure that will last, becomes the history's problem.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import lmdb

from app.history.base import HistoryClosed
from app.history.failures import (
    HistoryUnreadable,
    HistoryWriteError,
    describe,
    is_damage,
    is_lasting,
)
from app.history.lmdb_map import grow_map
from app.history.problems import ProblemReport
from app.i18n import _

T = TypeVar("T")


class GuardedEnvironment:
    def __init__(self, env: lmdb.Environment, folder: Path, report: ProblemReport) -> None:
        self.env = env
        self._folder, self._report = folder, report
        self._guard = threading.Lock()
        self._closed = False

    def close(self) -> None:
        with self._guard:  # waits for a read in progress on another thread
            self._closed = True
            self.env.close()

    @contextmanager
    def reading(self, db: lmdb._Database) -> Iterator[lmdb.Transaction[bytes]]:
        """A read transaction on `db`, from any thread, guarded against close and growth."""
        with self._guard:
            if self._closed:
                raise HistoryClosed(f"{self._folder}: the history was closed")
            try:
                with self.env.begin(db=db) as txn:
                    yield txn
            except lmdb.Error as error:
                raise self._unreadable(error) from error

    def _unreadable(self, error: lmdb.Error) -> HistoryUnreadable:
        if is_damage(error):
            self._report.damaged(self._folder, str(error), error)
            return HistoryUnreadable(
                _("this conversation's history is damaged and cannot be read ({details})").format(
                    details=error
                )
            )
        return HistoryUnreadable(
            _("the history cannot be read: {reason}").format(reason=describe(error, self._folder))
        )

    def write(self, change: Callable[[lmdb.Transaction[bytes]], T]) -> T:
        """Runs `change` in one write transaction; raises `HistoryWriteError`, saying why in a
        sentence, when it cannot be done (nothing of it was written then)."""
        try:
            return self._commit(change)
        except lmdb.Error as error:
            reason = describe(error, self._folder)
            if is_damage(error):
                self._report.damaged(self._folder, str(error), error)
            elif is_lasting(error):
                self._report.report(
                    _("The history in {folder} cannot be used any more: {reason}.").format(
                        folder=self._folder, reason=reason
                    )
                )
            raise HistoryWriteError(reason) from error

    def _commit(self, change: Callable[[lmdb.Transaction[bytes]], T]) -> T:
        """When the map is full the transaction is aborted (nothing of it was written), the
        map doubles and the change runs again."""
        while True:
            try:
                with self.env.begin(write=True) as txn:
                    return change(txn)
            except lmdb.MapFullError:
                grow_map(self.env, self._guard)
