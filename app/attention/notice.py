"""What a notification says, and the rule that keeps a burst of them to one per conversation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

COALESCE_SECONDS = 1.0


@dataclass(frozen=True)
class Notice:
    """One notification: shown with `title` and `body`; a click opens `channel` at `message_id`."""

    channel: str
    message_id: str
    title: str
    body: str


class Notifier(Protocol):
    """Where notices go (the desktop's notifications; tests record them). Both calls come from
    the core loop and must return at once."""

    def notify(self, notice: Notice) -> None: ...

    def badge(self, total: int) -> None: ...


class Coalescer:
    """A conversation's first notice goes at once; those that follow within `window` seconds
    are held, and only the newest of them goes when the window ends (then a new window opens)."""

    def __init__(self, window: float = COALESCE_SECONDS) -> None:
        self._window = window
        self._opened: dict[str, float] = {}  # channel → when its window opened
        self._held: dict[str, Notice] = {}

    def offer(self, notice: Notice, now: float) -> Notice | None:
        """The notice to show now, or None when it is held (replacing one held before)."""
        if len(self._opened) > 256:  # conversations quiet for a while need no window
            self._opened = {
                c: t for c, t in self._opened.items() if c in self._held or now - t < self._window
            }
        opened = self._opened.get(notice.channel)
        if opened is None or now - opened >= self._window:
            self._opened[notice.channel] = now
            self._held.pop(notice.channel, None)
            return notice
        self._held[notice.channel] = notice
        return None

    def due(self, now: float) -> list[Notice]:
        """Held notices whose window has ended (each opens the next window)."""
        ready = [n for c, n in self._held.items() if now - self._opened[c] >= self._window]
        for notice in ready:
            del self._held[notice.channel]
            self._opened[notice.channel] = now
        return ready

    def next_due(self) -> float | None:
        """When the earliest held notice is due (None when none is held)."""
        times = [self._opened[c] + self._window for c in self._held]
        return min(times) if times else None
