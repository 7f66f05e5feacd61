"""Where each channel of the search index stands against the history.

- unsettled: being caught up (searches say `indexing` meanwhile);
- behind: not known to be in step (its recorded progress is not moved by new messages);
- pending: waiting for the catch-up thread, newest channels first;
- deleted: deleted in this run (a catch-up of theirs stops);
- gone: deleted, their rows still in the file (hidden from searches until removed);
- rebuild: the file was found damaged (made anew, then everything is caught up again).

Changed under the index's write lock. `gone` and the sets `indexing` reads are replaced, never
changed in place where a search reads them: searches run on other threads without the lock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable


class Standing:
    def __init__(self, channels: Iterable[str]) -> None:
        self.deleted: set[str] = set()
        self.gone: set[str] = set()
        self.start_over(channels)

    def start_over(self, channels: Iterable[str]) -> None:
        """Every channel to catch up again (a new file); the rebuild is then under way."""
        names = set(channels)
        self.unsettled = set(names)  # before `rebuild` goes: `indexing` stays true
        self.behind = set(names)
        self.pending = deque(sorted(names, reverse=True))
        self.rebuild = False

    @property
    def indexing(self) -> bool:
        return bool(self.unsettled) or self.rebuild

    @property
    def work_waiting(self) -> bool:
        return bool(self.pending) or self.rebuild or bool(self.gone)

    def delete(self, channel: str) -> None:
        self.deleted.add(channel)
        self.unsettled.discard(channel)
        self.behind.discard(channel)
        self.gone = self.gone | {channel}

    def removed(self, channel: str) -> None:
        """Its last rows are out of the file."""
        self.gone = self.gone - {channel}

    def write_failed(self, channel: str) -> None:
        """Caught up again: now if the catch-up can, else at the next start."""
        self.unsettled.add(channel)
        self.behind.add(channel)
        self.pending.append(channel)

    def settled(self, channel: str) -> None:
        """In step with the history."""
        self.unsettled.discard(channel)
        self.behind.discard(channel)

    def next(self, tried: set[str]) -> str | None:
        """The next channel to catch up; one that failed in this run stays behind."""
        while self.pending:
            channel = self.pending.popleft()
            if channel in tried:  # failed once in this run: behind until the next start
                self.unsettled.discard(channel)
            elif channel not in self.deleted:
                return channel
        return None
