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
threads, use their own connection under `_read_lock` (WAL: readers do not wait for a writer).
In memory (a history in memory) one connection serves both, under one lock.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import deque

from app.core.errors import UserError
from app.history.base import History
from app.history.failures import HistoryUnreadable
from app.i18n import _
from app.models.conversation import Message
from app.models.finding import SearchHit, SearchResults
from app.search import store
from app.search.catch_up import Cancelled, catch_up, stored_last
from app.search.checkpoints import Checkpoints
from app.search.opening import history_token, index_path, open_file
from app.search.query import parse
from app.search.rows import message_row
from app.search.snippets import snippet
from app.search.store import Hit, Row

log = logging.getLogger(__name__)

TOKEN_KEY = "search-index"  # the history keeps which index file is its own
DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class SearchIndex:
    def __init__(self, history: History, names: dict[str, str]) -> None:
        """Opens the index of `history` (its channels' names by id), on the core loop."""
        self.history = history
        self._names = dict(names)
        self._write_lock = threading.RLock()
        self._read_lock = self._write_lock
        self._conn: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._path = index_path(history)
        self._checkpoints = Checkpoints(self._path)
        self._token = "memory"
        self._unavailable = False
        self._unsettled = set(self._names)  # being caught up: `indexing`
        self._behind = set(self._names)  # not known to be in step: their progress stays
        self._pending = deque(sorted(self._names, reverse=True))  # newest channels first
        self._deleted: set[str] = set()  # this run: a catch-up of theirs stops
        self._gone: set[str] = set()  # deleted, rows still in the file: hidden from searches
        self._rebuild = False  # the file is damaged: make it anew, then catch everything up
        self._closing = threading.Event()
        self._worker: threading.Thread | None = None
        self._open()
        self._wake()

    # ---- the loop's writes ----------------------------------------------------------------

    def add(self, message: Message) -> None:
        """Indexes a message just stored (or replaces it, same id); never raises."""
        if self._unavailable:
            return
        row = message_row(message)
        last = stored_last(self.history, message.channel)
        with self._write_lock:
            if self._conn is None:
                return
            try:
                with self._conn:
                    store.put(self._conn, [row])
                    if message.channel not in self._behind and last is not None:
                        store.set_progress(self._conn, message.channel, last)
            except sqlite3.Error as error:
                self._failed(message.channel, error)
            else:
                self._checkpoints.committed()

    def delete_channel(self, channel_id: str) -> None:
        """Forgets the channel (deleted from the history): unseen at once, its rows removed a
        page at a time by the catch-up thread (a large channel takes a minute); never
        raises."""
        # Replaced, never changed in place: other threads read them without a lock.
        self._names = {k: v for k, v in self._names.items() if k != channel_id}
        with self._write_lock:
            self._deleted.add(channel_id)
            self._unsettled.discard(channel_id)
            self._behind.discard(channel_id)
            self._gone = self._gone | {channel_id}
            if self._conn is None or self._unavailable:
                return
            try:
                with self._conn:
                    store.mark_gone(self._conn, channel_id)
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
        return not self._unavailable and (bool(self._unsettled) or self._rebuild)

    def search(self, text: str, channel: str = "", limit: int = DEFAULT_LIMIT) -> SearchResults:
        if self._unavailable:
            raise _not_available()
        query = parse(text)
        limit = min(max(limit, 1), MAX_LIMIT)
        if query.empty:
            return SearchResults(results=[], more=False, indexing=self.indexing)
        try:
            with self._read_lock:
                if self._reader is None:
                    return SearchResults(results=[], more=False)  # closed: another history's
                hits = store.find(self._reader, query.fts(), channel, limit + 1, self._gone)
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
            self._rebuild = True
            self._wake()
        return SearchResults(results=[], more=False, indexing=True)

    # ---- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        """Stops the catch-up and closes the file (another history opens); on the loop."""
        self._closing.set()
        worker = self._worker
        if worker is not None:
            worker.join(timeout=60)
        self._checkpoints.close()
        with self._write_lock, self._read_lock:
            self._disconnect()

    def _open(self) -> None:
        """The file beside the history; in memory (rebuilt at each start) when it cannot be
        used or the history cannot keep its token: search works either way."""
        try:
            if self._path is not None:
                self._token = history_token(self.history, TOKEN_KEY)
            self._connect(fresh=False)
        except store.Unavailable:
            log.warning("search is not available: SQLite has no FTS5")
            self._unavailable = True
        except Exception as error:
            log.warning("search index %s cannot be used, kept in memory: %s", self._path, error)
            self._path = None
            self._checkpoints = Checkpoints(None)
            self._connect(fresh=True)

    def _disconnect(self) -> None:
        _closing_all(self._conn, self._reader)
        self._conn = self._reader = None

    def _connect(self, fresh: bool) -> None:
        """Opens the file (made anew if `fresh`, damaged, or not this history's index)."""
        self._conn = open_file(self._path, self._token, fresh)
        self._reader = self._conn if self._path is None else store.connect(self._path)
        self._read_lock = self._write_lock if self._path is None else threading.RLock()

    def _failed(self, channel_id: str, error: sqlite3.Error) -> None:
        """A write failed (under the write lock): the channel is caught up again, now if the
        catch-up can, else at the next start (its progress no longer claims to be complete)."""
        log.warning("search index write failed for channel %s: %s", channel_id, error)
        if store.is_damage(error):
            self._rebuild = True
        else:
            self._unsettled.add(channel_id)
            self._behind.add(channel_id)
            self._pending.append(channel_id)
            if self._conn is not None:
                try:
                    with self._conn:
                        store.forget_progress(self._conn, channel_id)
                except sqlite3.Error:
                    pass  # its progress stays behind the history: caught up at the next start
        self._wake()

    # ---- the catch-up thread ----------------------------------------------------------------

    def _wake(self) -> None:
        with self._write_lock:
            if self._worker is not None or self._closing.is_set() or self._unavailable:
                return
            if not self._pending and not self._rebuild and not self._gone:
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
                        self._rebuild = True
                    tried.clear()
                    continue
                log.warning("search index catch-up stopped: %s", error)
                break
            except Exception:
                log.exception("search index catch-up stopped")
                break
        with self._write_lock:
            self._worker = None
            self._unsettled.clear()  # what is left stays behind, caught up at the next start

    def _catch_up_all(self, tried: set[str]) -> None:
        self._forget_deleted_channels()
        while not self._closing.is_set():
            with self._write_lock:
                if self._rebuild:
                    self._make_anew()
                gone = sorted(self._gone)  # deletions first: they free the loop's writes
                channel = None if gone else self._next(tried)
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
                self._unsettled.discard(channel)

    def _next(self, tried: set[str]) -> str | None:
        while self._pending:
            channel = self._pending.popleft()
            if channel in tried:  # failed once in this run: behind until the next start
                self._unsettled.discard(channel)
            elif channel not in self._deleted:
                return channel
        return None

    def _make_anew(self) -> None:
        """The file was found damaged while running: a new one, and everything again."""
        self._unsettled = set(self._names)  # before `_rebuild` goes: `indexing` stays true
        self._behind = set(self._names)
        self._pending = deque(sorted(self._names, reverse=True))
        self._rebuild = False
        with self._read_lock:
            self._disconnect()
            self._connect(fresh=True)

    def _forget_deleted_channels(self) -> None:
        """Channels the history no longer has (deleted while the app could not write here)
        are marked gone, like those whose removal a restart interrupted."""
        with self._write_lock:
            if self._conn is None:
                return
            kept = store.indexed_channels(self._conn) - set(self._names)
            with self._conn:
                for channel in kept:
                    store.mark_gone(self._conn, channel)
            self._gone = self._gone | store.gone(self._conn)

    def _delete_some(self, channel: str) -> bool:
        with self._write_lock:
            if self._closing.is_set() or self._conn is None:
                raise Cancelled
            with self._conn:
                more = store.delete_some(self._conn, channel)
            self._checkpoints.committed()
            if not more:
                self._gone = self._gone - {channel}
            return more

    # ---- what the catch-up calls (app/search/catch_up.py) -------------------------------------

    def progress(self, channel_id: str) -> str | None:
        with self._write_lock:
            self._check_going(channel_id)
            assert self._conn is not None
            return store.progress(self._conn, channel_id)

    def write(self, channel_id: str, rows: list[Row]) -> None:
        with self._write_lock:
            self._check_going(channel_id)
            assert self._conn is not None
            with self._conn:
                store.put(self._conn, rows)
            self._checkpoints.committed()

    def settle(self, channel_id: str, last: str | None) -> None:
        """The channel is in step up to `last` (its last stored message at the start)."""
        with self._write_lock:
            self._check_going(channel_id)
            assert self._conn is not None
            if last is not None:
                with self._conn:
                    store.set_progress(self._conn, channel_id, last)
            self._unsettled.discard(channel_id)
            self._behind.discard(channel_id)

    def _check_going(self, channel_id: str) -> None:
        if self._closing.is_set() or self._conn is None or channel_id in self._deleted:
            raise Cancelled


def _not_available() -> UserError:
    return UserError(
        _("Search is not available: this Python's SQLite has no full-text search (FTS5).")
    )


def _closing_all(*connections: sqlite3.Connection | None) -> None:
    for conn in {id(c): c for c in connections if c is not None}.values():  # one in memory
        conn.close()


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
