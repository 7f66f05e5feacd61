"""Cursor walks over a channel's key range in the timeline (LmdbHistory's reads): a page
before a key, records after one. Never a scan, whatever the channel's size."""

from __future__ import annotations

from bisect import bisect_left
from itertools import islice

import lmdb

from app.history.lmdb_format import ID_WIDTH

END = b"\xff"  # sorts after every position (they start with a zero byte): the range's end


def prefix_of(channel_id: str) -> bytes | None:
    """The channel's key prefix; None for an id of another width, which cannot have messages
    (and must not: "" would be the prefix of every message of every channel)."""
    prefix = channel_id.encode()
    return prefix if len(prefix) == ID_WIDTH else None


def required_prefix(channel_id: str) -> bytes:
    prefix = prefix_of(channel_id)
    if prefix is None:
        raise ValueError(f"a channel id has {ID_WIDTH} ASCII characters, not {channel_id!r}")
    return prefix


def page(
    txn: lmdb.Transaction[bytes], prefix: bytes, end: bytes, limit: int
) -> tuple[list[tuple[bytes, bytes]], bool]:
    """The `limit` records just before key `end` in the channel's range (newest first), and
    whether older ones exist: reads one record more than asked, to know without counting."""
    limit = max(limit, 0)
    items = walk_back(txn, end, prefix, limit + 1)
    more = len(items) > limit
    del items[limit:]
    return items, more


def walk_forward(
    txn: lmdb.Transaction[bytes], start: bytes, end: bytes, limit: int
) -> list[tuple[bytes, bytes]]:
    """At most `limit` records from key `start` (included) up to key `end`, oldest first."""
    cursor = txn.cursor()
    if not cursor.set_range(start):
        return []
    items = list(islice(cursor.iternext(), limit))
    if items and items[-1][0] >= end:
        del items[bisect_left(items, True, key=lambda item: item[0] >= end) :]
    return items


def walk_back(
    txn: lmdb.Transaction[bytes], start: bytes, floor: bytes, limit: int
) -> list[tuple[bytes, bytes]]:
    """At most `limit` records of the keys below `start` and above `floor`, newest first. Both
    bounds are inside one channel's range (its fixed-width prefix, then anything), so the
    walk never leaves the channel: the previous channel's keys are all below the floor."""
    cursor = txn.cursor()
    # set_range finds the first key >= start; the walk begins just before it (or at the
    # database's last key when no key is >= start).
    positioned = cursor.prev() if cursor.set_range(start) else cursor.last()
    if not positioned:
        return []
    # Read in one go by the C iterator, then cut: the keys descend, so those at or below the
    # floor (an older channel's, or already seen) are a tail of the list. Reading up to
    # `limit` records past a small channel costs less than testing every key in Python.
    items = list(islice(cursor.iterprev(), limit))
    if items and items[-1][0] <= floor:
        del items[bisect_left(items, True, key=lambda item: item[0] <= floor) :]
    return items
