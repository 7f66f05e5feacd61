"""Pages opened at a message (a search result) and read onwards, in the history database
(mixed into LmdbHistory): two cursor walks from the message's position."""

from __future__ import annotations

import lmdb

from app.history.base import AROUND_AFTER, AROUND_BEFORE, PAGE, RecordWindow
from app.history.lmdb_env import GuardedEnvironment
from app.history.lmdb_walks import END, page, prefix_of, walk_forward
from app.history.record_checks import RecordChecks


class LmdbWindows:
    """`records_around` and `records_after` of `History`, on LmdbHistory's timeline."""

    _lmdb: GuardedEnvironment
    _timeline: lmdb._Database
    _checks: RecordChecks

    def _position(
        self, txn: lmdb.Transaction[bytes], prefix: bytes, message_id: str
    ) -> bytes | None:
        raise NotImplementedError  # LmdbHistory's

    def records_around(
        self,
        channel_id: str,
        message_id: str,
        before: int = AROUND_BEFORE,
        after: int = AROUND_AFTER,
    ) -> RecordWindow | None:
        return self._window(channel_id, message_id, before, after, include=True)

    def records_after(
        self, channel_id: str, after_id: str, limit: int = PAGE
    ) -> RecordWindow | None:
        return self._window(channel_id, after_id, 0, limit, include=False)

    def _window(
        self, channel_id: str, message_id: str, before: int, after: int, include: bool
    ) -> RecordWindow | None:
        """Two cursor walks from the message's position: back for the older ones (as `Older`
        does), forward for it and the newer ones. Never a scan, whatever the channel's size."""
        prefix = prefix_of(channel_id)
        if prefix is None:
            return None
        with self._lmdb.reading(self._timeline) as txn:
            position = self._position(txn, prefix, message_id)
            if position is None:
                return None
            older, more = page(txn, prefix, prefix + position, before) if include else ([], True)
            # The message itself (kept only when asked for), then `after` more, and one to
            # know whether newer ones exist.
            newer = walk_forward(txn, prefix + position, prefix + END, after + 2)
        if not newer or newer[0][0] != prefix + position:
            return None  # its position was kept but not its record: not in the history
        more_after = len(newer) > after + 1
        del newer[after + 1 :]
        if not include:
            del newer[0]
            more = True
        items = newer[::-1] + older  # newest first, one run of positions, as checks want
        return RecordWindow(self._checks.records(prefix, items), more, more_after)
