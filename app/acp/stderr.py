"""Drains an agent's stderr so it can never block on a full pipe, keeping the last 200 lines.

Every line goes to a ring buffer (for `Logs` and error messages) and to a callback
(`agent:log`). A flood is rate-limited on the callback side only: past a budget per second the
extra lines are counted; at the end of that second one summary line and the latest few lines are
sent, so 100 MiB of stderr cannot swamp the UI and the last words still show.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

LOG_LINES = 200
MAX_LINE = 4000  # characters kept of one line
LINES_PER_SECOND = 500
TAIL_AFTER_FLOOD = 20
READ_SIZE = 1 << 16


class StderrTail:
    def __init__(self, on_line: Callable[[str], None], ring: deque[str] | None = None) -> None:
        # The ring may be the caller's, so that it outlives one process of the agent.
        self.lines: deque[str] = ring if ring is not None else deque(maxlen=LOG_LINES)
        self._on_line = on_line
        self._window_start = 0.0
        self._sent_in_window = 0
        self._skipped = 0
        self._flush_handle: asyncio.TimerHandle | None = None
        # This process's own lines, for error messages: the ring may also hold an earlier
        # process's lines, and Sidekicks' notes about this one (app/acp/notices.py).
        self._own: deque[str] = deque(maxlen=LOG_LINES)

    def add(self, line: str) -> None:
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE] + " …"
        self.lines.append(line)
        self._own.append(line)
        now = time.monotonic()
        if now - self._window_start >= 1.0:
            self._flush_skipped()
            self._window_start, self._sent_in_window = now, 0
        if self._sent_in_window < LINES_PER_SECOND:
            self._sent_in_window += 1
            self._on_line(line)
            return
        self._skipped += 1
        if self._flush_handle is None:
            delay = max(0.0, self._window_start + 1.0 - now)
            self._flush_handle = asyncio.get_running_loop().call_later(delay, self._flush_skipped)

    def _flush_skipped(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not self._skipped:
            return
        skipped, self._skipped = self._skipped, 0
        latest = list(self.lines)[-min(skipped, TAIL_AFTER_FLOOD) :]
        self._on_line(f"[sidekicks] {skipped - len(latest)} more stderr lines were not shown")
        for line in latest:
            self._on_line(line)
        self._window_start, self._sent_in_window = time.monotonic(), len(latest) + 1

    def finish(self) -> None:
        self._flush_skipped()

    def tail(self, count: int) -> list[str]:
        """The last `count` lines this process wrote on stderr (never an earlier run's)."""
        return list(self._own)[-count:] if count > 0 else []

    async def drain(self, stream: asyncio.StreamReader) -> None:
        """Reads until EOF, in chunks (never `readline`, which fails on an endless line)."""
        pending = b""
        while True:
            data = await stream.read(READ_SIZE)
            if not data:
                break
            pending += data
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                self.add(raw.decode("utf-8", errors="replace").rstrip("\r"))
            if len(pending) > MAX_LINE * 4:  # an endless line: keep its start, drop the rest
                self.add(pending[:MAX_LINE].decode("utf-8", errors="replace"))
                pending = b""
        if pending:
            self.add(pending.decode("utf-8", errors="replace"))
        self.finish()
