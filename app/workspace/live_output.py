"""A command's output on its way to the page (`terminal:output`), bounded whatever it prints.

- At most one event per terminal every INTERVAL (50 ms): output that arrives meanwhile waits
  and goes out together. The first output after a quiet spell goes out at once.
- At most MAX_EVENT_BYTES (64 KiB) of output per event. When the command prints faster than
  that (~1.3 MB/s), what waits is cut to its last 64 KiB — at a character boundary — and the
  event starts with a note saying how much was skipped. The page stays responsive under 50 MB
  of output, and the memory held here stays at 64 KiB per terminal. Nothing is lost for the
  agent nor for history: they read the command's own output buffer (output_tail.py).
- Decoding is incremental UTF-8: a character split across reads arrives whole.
"""

from __future__ import annotations

import asyncio
import codecs
from collections.abc import Callable

from app.i18n import _

INTERVAL = 0.05
MAX_EVENT_BYTES = 64 * 1024


class LiveOutput:
    def __init__(self, emit: Callable[[str], None]) -> None:
        self._emit = emit
        self._loop = asyncio.get_running_loop()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = bytearray()
        self._skipped = 0
        self._last = -INTERVAL  # when the last event went out (loop time)
        self._timer: asyncio.TimerHandle | None = None

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        excess = len(self._pending) - MAX_EVENT_BYTES
        if excess > 0:
            del self._pending[:excess]
            while self._pending and self._pending[0] & 0xC0 == 0x80:  # a character's rest
                del self._pending[0]
                excess += 1
            self._skipped += excess
            self._decoder.reset()  # a character it held is cut off from its end
        if self._timer is None:
            delay = max(0.0, self._last + INTERVAL - self._loop.time())
            self._timer = self._loop.call_later(delay, self.flush)

    def flush(self, final: bool = False) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._last = self._loop.time()
        data, self._pending = bytes(self._pending), bytearray()
        text = self._decoder.decode(data, final=final)
        if self._skipped:
            note = _("{size} of output not shown here").format(size=_size(self._skipped))
            # Reset colours first: the cut may have left a colour on.
            text = f"\x1b[0m\r\n\x1b[2m[… {note} …]\x1b[0m\r\n{text}"
            self._skipped = 0
        if text:
            self._emit(text)

    def close(self) -> None:
        """The command ended: what waits goes out now, and nothing after."""
        self.flush(final=True)
        self._emit = lambda text: None


def _size(count: int) -> str:
    if count >= 1024 * 1024:
        return _("{n} MiB").format(n=f"{count / (1024 * 1024):.1f}")
    if count >= 1024:
        return _("{n} KiB").format(n=count // 1024)
    return _("{n} bytes").format(n=count)
