"""A terminal's output on its way to the page: decoded, batched, and a runaway producer slowed.

- Decoding is incremental UTF-8 (a character split across two reads is kept whole); invalid
  bytes become U+FFFD.
- Reads that arrive within BATCH_SECONDS go out as one event, and no event carries more than
  MAX_EVENT_BYTES of the program's output (64 KiB).
- Past RATE_BYTES (1 MiB) in one second, reading pauses until the second is over: the pty's
  buffer fills and the program's writes block, as in any terminal that cannot keep up. Nothing
  is dropped, so no note is needed; the page gets at most ~1 MiB/s.
"""

from __future__ import annotations

import asyncio
import codecs
from collections.abc import Callable

MAX_EVENT_BYTES = 64 * 1024
RATE_BYTES = 1024 * 1024
BATCH_SECONDS = 0.016


class OutputBatcher:
    def __init__(
        self, emit: Callable[[str], None], pause: Callable[[], None], resume: Callable[[], None]
    ) -> None:
        self._emit, self._pause, self._resume = emit, pause, resume
        self._loop = asyncio.get_running_loop()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending: list[str] = []
        self._pending_bytes = 0
        self._window_start = self._loop.time()
        self._window_bytes = 0
        self._flush_handle: asyncio.TimerHandle | None = None
        self._resume_handle: asyncio.TimerHandle | None = None

    def feed(self, data: bytes) -> None:
        if self._pending_bytes + len(data) > MAX_EVENT_BYTES:
            self.flush()
        self._pending.append(self._decoder.decode(data))
        self._pending_bytes += len(data)
        if self._pending_bytes >= MAX_EVENT_BYTES:
            self.flush()
        elif self._flush_handle is None:
            self._flush_handle = self._loop.call_later(BATCH_SECONDS, self.flush)
        self._count(len(data))

    def _count(self, size: int) -> None:
        now = self._loop.time()
        if now - self._window_start >= 1.0:
            self._window_start, self._window_bytes = now, 0
        self._window_bytes += size
        if self._window_bytes >= RATE_BYTES and self._resume_handle is None:
            self._pause()
            self._resume_handle = self._loop.call_at(self._window_start + 1.0, self._resumed)

    def _resumed(self) -> None:
        self._resume_handle = None
        self._window_start, self._window_bytes = self._loop.time(), 0
        self._resume()

    def flush(self, final: bool = False) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if final:
            self._pending.append(self._decoder.decode(b"", final=True))
            if self._resume_handle is not None:
                self._resume_handle.cancel()
                self._resume_handle = None
        text = "".join(self._pending)
        self._pending, self._pending_bytes = [], 0
        if text:
            self._emit(text)
