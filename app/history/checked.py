"""Which stored messages this process has already checked: per channel, ranges of positions.

A stored message is checked in full (decoded and validated as a `Message` of its channel) the
first time this process reads it; reading it again costs nothing more, so a page the user goes
back to stays at the cost of the raw read (bench/history.py). A record only changes through
this process's own writes (one Sidekicks per history: app/history/lock.py), which encode valid
messages, so what was checked stays checked.

Pages are runs of consecutive positions and writes land at the channel's end, so the checked
positions are a few ranges per channel, usually one: sorted, disjoint `(first, last)` pairs,
whatever the number of messages. Reads come from any thread: a channel's ranges are a tuple
replaced whole under a lock, and read without it.
"""

from __future__ import annotations

import threading
from bisect import bisect_right

_BEYOND = 1 << 64  # above every position (they stay below 2**56: app/history/lmdb_format.py)


class CheckedPositions:
    def __init__(self) -> None:
        self._ranges: dict[bytes, tuple[tuple[int, int], ...]] = {}
        self._lock = threading.Lock()

    def covers(self, channel: bytes, first: int, last: int) -> bool:
        """Whether every position from `first` to `last` was checked."""
        ranges = self._ranges.get(channel, ())
        at = bisect_right(ranges, (first, _BEYOND)) - 1  # the last range starting at or before
        return at >= 0 and ranges[at][1] >= last

    def add(self, channel: bytes, first: int, last: int) -> None:
        """Remembers positions `first` to `last` as checked (merged with touching ranges)."""
        with self._lock:
            merged = []
            for low, high in self._ranges.get(channel, ()):
                if high + 1 < first or low > last + 1:
                    merged.append((low, high))
                else:
                    first, last = min(first, low), max(last, high)
            merged.append((first, last))
            self._ranges[channel] = tuple(sorted(merged))

    def forget(self, channel: bytes) -> None:
        with self._lock:
            self._ranges.pop(channel, None)
