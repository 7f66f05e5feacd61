"""The search index of the open history, kept in step with it.

The registry (app/channels/registry.py) calls `add` right after each message is stored and
`delete_channel` with the channel's history: one small SQLite transaction each, on the core
loop thread. What the index holds in step with the history is recorded per channel (`progress`:
the channel's last stored message when the index was last known complete). At each start a
background thread compares it with the history (one read per channel) and catches up what is
missing: the messages after that point, or the whole channel when there is none (a new index
file, one deleted, damaged, of another history or version, or a write that failed). Searches
meanwhile answer with what is indexed and say `indexing`. A failed index write never fails the
message (the history has it): the channel is caught up again.

Threads: writes (the loop's and the catch-up's) take `_write_lock`; searches, from pywebview's
threads, read under the file's `read_lock` (app/search/index_file.py).
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from app.core.errors import UserError
from app.history.base import History
from app.history.failures import HistoryUnreadable
from app.i18n import _
from app.models.conversation import Message
from app.models.finding import SearchHit, SearchResults
from app.search import store
from app.search.catch_up import Cancelled, catch_up, stored_last
from app.search.index_file import IndexFile
from app.search.query import parse
from app.search.rows import message_row
from app.search.snippets import snippet
from app.search.standing import Standing
from app.search.store import Hit, Row

log = logging.getLogger(__name__)

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class SearchIndex:
    def __init__(self, history: History, names: dict[str, str]) -> None:
        """Opens the index of `history` (its channels' names by id), on the core loop."""
        self.history = history
        self._names = dict(names)
        self._write_lock = threading.RLock()
        self._file = IndexFile(history, self._write_lock)
        self._standing = Standing(self._names)  # under the write lock
        self._closing = threading.Event()
        self._worker: threading.Thread | None = None
        self._wake()

    # ---- the loop's writes ----------------------------------------------------------------

    def add(self, message: Message) -> None:
        """Indexes a message just stored (or replaces it, same id); never raises."""
        self.add_all(message.channel, [message])

    def add_all(self, channel_id: str, messages: list[Message]) -> None:
        """Indexes messages of one channel just stored (or replaces them, same ids), in one
        transaction; never raises."""
        if self._file.unavailable or not messages:
            return
        rows = [message_row(m) for m in messages]
        last = stored_last(self.history, channel_id)
        with self._write_lock:
            if self._file.conn is None:
                return
            try:
                with self._file.conn:
                    store.put(self._file.conn, rows)
                    if channel_id not in self._standing.behind and last is not None:
                        store.set_progress(self._file.conn, channel_id, last)
            except sqlite3.Error as error:
                self._failed(channel_id, error)
            else:
                self._file.checkpoints.committed()

    def delete_channel(self, channel_id: str) -> None:
        """Forgets the channel (deleted from the history): unseen at once, its rows removed a
        page at a time by the catch-up thread (a large channel takes a minute); never
        raises."""
        # Replaced, never changed in place: other threads read them without a lock.
        self._names = {k: v for k, v in self._names.items() if k != channel_id}
        with self._write_lock:
            self._standing.delete(channel_id)
            if self._file.conn is None or self._file.unavailable:
                return
            try:
                with self._file.conn:
                    store.mark_gone(self._file.conn, channel_id)
            except sqlite3.Error as error:
                # Hidden for now; the next start removes channels the history lacks.
                log.warning("search index: channel %s not marked deleted: %s", channel_id, error)
            self._wake()

    def set_name(self, channel_id: str, name: str) -> None:
        """The name results show for the channel (a direct conversation's: its agent's)."""
        self._names = {**self._names, channel_id: name}

    # ---- searching (any thread) -------------------------------------------------------------

    @property
    def indexing(self) -> bool:
        """Whether some messages may be missing yet (a catch-up is under way)."""
        return not self._file.unavailable and self._standing.indexing

    def search(self, text: str, channel: str = "", limit: int = DEFAULT_LIMIT) -> SearchResults:
        if self._file.unavailable:
            raise _not_available()
        query = parse(text)
        limit = min(max(limit, 1), MAX_LIMIT)
        if query.empty:
            return SearchResults(results=[], more=False, indexing=self.indexing)
        try:
            with self._file.read_lock:
                if self._file.reader is None:
                    return SearchResults(results=[], more=False)  # closed: another history's
                hits = store.find(
                    self._file.reader, query.fts(), channel, limit + 1, self._standing.gone
                )
        except sqlite3.Error as error:
            return self._search_failed(error)  # out of the read lock: it takes the write lock
        names = self._names
        results = [_result(hit, names, snippet(hit.text, query)) for hit in hits[:limit]]
        return SearchResults(results=results, more=len(hits) > limit, indexing=self.indexing)

    def _search_failed(self, error: sqlite3.Error) -> SearchResults:
        if not store.is_damage(error):
            raise UserError(_("the search failed: {reason}").format(reason=error)) from error
        log.warning("search index damaged, rebuilding it: %s", error)
        with self._write_lock:
            self._standing.rebuild = True
            self._wake()
        return SearchResults(results=[], more=False, indexing=True)

    # ---- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        """Stops the catch-up and closes the file (another history opens); on the loop."""
        self._closing.set()
        worker = self._worker
        if worker is not None:
            worker.join(timeout=60)
        self._file.close()

    def _failed(self, channel_id: str, error: sqlite3.Error) -> None:
        """A write failed (under the write lock): the channel is caught up again, now if the
        catch-up can, else at the next start (its progress no longer claims to be complete)."""
        log.warning("search index write failed for channel %s: %s", channel_id, error)
        if store.is_damage(error):
            self._standing.rebuild = True
        else:
            self._standing.write_failed(channel_id)
            if self._file.conn is not None:
                try:
                    with self._file.conn:
                        store.forget_progress(self._file.conn, channel_id)
                except sqlite3.Error:
                    pass  # its progress stays behind the history: caught up at the next start
        self._wake()

    # ---- the catch-up thread ----------------------------------------------------------------

    def _wake(self) -> None:
        with self._write_lock:
            if self._worker is not None or self._closing.is_set() or self._file.unavailable:
                return
            if not self._standing.work_waiting:
                return
            self._worker = threading.Thread(
                target=self._work, name="search-index-catch-up", daemon=True
            )
            self._worker.start()

    def _work(self) -> None:
        tried: set[str] = set()  # a channel whose catch-up failed waits for the next start
        for attempt in range(2):  # a second time when the file was found damaged meanwhile
            try:
                self._catch_up_all(tried)
                return
            except Cancelled:
                break
            except sqlite3.Error as error:
                if attempt == 0 and store.is_damage(error):
                    log.warning("search index damaged, rebuilding it: %s", error)
                    with self._write_lock:
                        self._standing.rebuild = True
                    tried.clear()
                    continue
                log.warning("search index catch-up stopped: %s", error)
                break
            except Exception:
                log.exception("search index catch-up stopped")
                break
        with self._write_lock:
            self._worker = None
            # What is left stays behind, caught up at the next start.
            self._standing.unsettled.clear()

    def _catch_up_all(self, tried: set[str]) -> None:
        self._forget_deleted_channels()
        while not self._closing.is_set():
            with self._write_lock:
                if self._standing.rebuild:
                    self._make_anew()
                gone = sorted(self._standing.gone)  # deletions first: they free the loop's writes
                channel = None if gone else self._standing.next(tried)
                if not gone and channel is None:
                    self._worker = None
                    return
            for each in gone:
                while self._delete_some(each):
                    pass
            if channel is not None:
                tried.add(channel)
                self._catch_up(channel)
        raise Cancelled

    def _catch_up(self, channel: str) -> None:
        try:
            catch_up(self, channel)
        except (HistoryUnreadable, ValueError) as error:
            # This channel's history cannot be read (its problem is said): the others go on,
            # and `indexing` ends; it stays behind, to be tried at the next start.
            log.warning("search index: channel %s not caught up: %s", channel, error)
            with self._write_lock:
                self._standing.unsettled.discard(channel)

    def _make_anew(self) -> None:
        """The file was found damaged while running: a new one, and everything again."""
        self._standing.start_over(self._names)
        self._file.make_anew()

    def _forget_deleted_channels(self) -> None:
        """Channels the history no longer has (deleted while the app could not write here)
        are marked gone, like those whose removal a restart interrupted."""
        with self._write_lock:
            if self._file.conn is None:
                return
            kept = store.indexed_channels(self._file.conn) - set(self._names)
            with self._file.conn:
                for channel in kept:
                    store.mark_gone(self._file.conn, channel)
            self._standing.gone = self._standing.gone | store.gone(self._file.conn)

    def _delete_some(self, channel: str) -> bool:
        with self._write_lock:
            if self._closing.is_set() or self._file.conn is None:
                raise Cancelled
            with self._file.conn:
                more = store.delete_some(self._file.conn, channel)
            self._file.checkpoints.committed()
            if not more:
                self._standing.removed(channel)
            return more

    # ---- what the catch-up calls (app/search/catch_up.py) -------------------------------------

    def progress(self, channel_id: str) -> str | None:
        with self._write_lock:
            self._check_going(channel_id)
            assert self._file.conn is not None
            return store.progress(self._file.conn, channel_id)

    def write(self, channel_id: str, rows: list[Row]) -> None:
        with self._write_lock:
            self._check_going(channel_id)
            assert self._file.conn is not None
            with self._file.conn:
                store.put(self._file.conn, rows)
            self._file.checkpoints.committed()

    def settle(self, channel_id: str, last: str | None) -> None:
        """The channel is in step up to `last` (its last stored message at the start)."""
        with self._write_lock:
            self._check_going(channel_id)
            assert self._file.conn is not None
            if last is not None:
                with self._file.conn:
                    store.set_progress(self._file.conn, channel_id, last)
            self._standing.settled(channel_id)

    def _check_going(self, channel_id: str) -> None:
        if (
            self._closing.is_set()
            or self._file.conn is None
            or channel_id in self._standing.deleted
        ):
            raise Cancelled


def _not_available() -> UserError:
    return UserError(
        _("Search is not available: this Python's SQLite has no full-text search (FTS5).")
    )


def _result(hit: Hit, names: dict[str, str], shown: tuple[str, list[list[int]]]) -> SearchHit:
    return SearchHit(
        channel=hit.channel,
        channel_name=names.get(hit.channel, ""),
        message_id=hit.message,
        agent=hit.agent,
        role=hit.role,  # written from a Message's role
        created_at=hit.created_at,
        snippet=shown[0],
        highlights=shown[1],
    )
