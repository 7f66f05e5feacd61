"""Bringing one channel of the index in step with the history, on the catch-up thread.

The index says how far it is known complete (`progress`: the channel's last stored message
then). Equal to the history's last message: nothing to do (one read). Otherwise, the messages
after that point are read forward and indexed; without a point the history still has (a new
index, a failed write), the whole channel is read, newest first, so recent messages are found
first. Reads are the history's any-thread record reads, a page at a time; each page is one
index transaction, so the loop's own writes wait at most one page.
"""

from __future__ import annotations

from typing import Protocol

from app.history.base import History
from app.search.rows import record_row
from app.search.store import Row

BATCH = 500  # records read, and indexed in one transaction


class Cancelled(Exception):
    """The index closed, or the channel was deleted, during its catch-up."""


class Target(Protocol):
    history: History

    def progress(self, channel_id: str) -> str | None: ...

    def write(self, channel_id: str, rows: list[Row]) -> None: ...

    def settle(self, channel_id: str, last: str | None) -> None: ...


def catch_up(index: Target, channel_id: str) -> None:
    history = index.history
    newest = history.last_records(channel_id, 1).records
    last = record_id(newest[-1]) if newest else None
    known = index.progress(channel_id)
    if known == last:
        index.settle(channel_id, last)
        return
    window = history.records_after(channel_id, known, BATCH) if known else None
    if window is None:
        _whole_channel(index, channel_id)
    else:
        reached = known
        while True:
            index.write(channel_id, _rows(window.records))
            if window.records:
                reached = record_id(window.records[-1])
            if not window.more_after:
                break
            window = history.records_after(channel_id, reached or "", BATCH)
            if window is None:  # not expected: the history only deletes whole channels
                _whole_channel(index, channel_id)
                return
        index.settle(channel_id, reached)


def stored_last(history: History, channel_id: str) -> str | None:
    """The channel's last stored message id: the index holds everything up to it once it has
    indexed the message just stored."""
    try:
        records = history.last_records(channel_id, 1).records
    except Exception:
        return None  # unreadable: the channel's progress is not advanced
    return record_id(records[0]) if records else None


def _whole_channel(index: Target, channel_id: str) -> None:
    history = index.history
    page = history.last_records(channel_id, BATCH)
    last = record_id(page.records[-1]) if page.records else None
    while page.records:
        index.write(channel_id, _rows(page.records))
        if not page.more:
            break
        page = history.records_before(channel_id, record_id(page.records[0]), BATCH)
    index.settle(channel_id, last)


def _rows(records: list[bytes]) -> list[Row]:
    return [row for row in map(record_row, records) if row is not None]


def record_id(record: bytes) -> str:
    """A stored record's id, read without decoding (it begins with it)."""
    start = len(b'{"id":"')
    return record[start : record.index(b'"', start)].decode()
