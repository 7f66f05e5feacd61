"""The output an agent's command keeps: the last `limit` bytes, cut at a character boundary.

ACP's `outputByteLimit` keeps the TAIL: when the output outgrows the limit, bytes are dropped
from the front, then the continuation bytes of a character whose start was dropped, so the text
always starts on a whole character. `truncated` stays true once anything was dropped. Without a
limit the command still keeps at most DEFAULT_LIMIT (1 MiB): a runaway command (`yes`, a build
log of gigabytes) cannot eat the app's memory; the agent sees `truncated` as with its own limit.

Bytes are kept undecoded; `text()` decodes them. While the command runs, a character split
across two reads is not decoded yet (its last bytes are on their way), so U+FFFD only ever
stands for bytes that are not UTF-8 at all.
"""

from __future__ import annotations

DEFAULT_LIMIT = 1024 * 1024


class OutputTail:
    def __init__(self, limit: int | None = None) -> None:
        self.limit = DEFAULT_LIMIT if limit is None else max(0, limit)
        self.truncated = False
        self._data = bytearray()  # deleting from its front is cheap (CPython keeps an offset)

    @property
    def size(self) -> int:
        return len(self._data)

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if len(chunk) >= self.limit:
            self.truncated = self.truncated or len(chunk) > self.limit or bool(self._data)
            self._data = bytearray(chunk[len(chunk) - self.limit :])
        else:
            self._data += chunk
            excess = len(self._data) - self.limit
            if excess <= 0:
                return
            self.truncated = True
            del self._data[:excess]
        if self.truncated:
            _align_start(self._data)

    def text(self, final: bool = False) -> str:
        """The kept output as text; `final` once the command ended (a character still cut at
        the end then becomes U+FFFD: its last bytes never came)."""
        data = bytes(self._data)
        if not final:
            data = data[: len(data) - incomplete_tail(data)]
        text = data.decode("utf-8", "replace")
        if "\ufffd" in text and len(text.encode("utf-8")) > self.limit:
            # Each invalid byte became three (U+FFFD): cut again so the text fits the limit.
            encoded = bytearray(text.encode("utf-8")[-self.limit :] if self.limit else b"")
            _align_start(encoded)
            text = encoded.decode("utf-8", "replace")
        return text


def _align_start(data: bytearray) -> None:
    """Drops the continuation bytes at the front: the rest of a character whose start is gone."""
    cut = 0
    while cut < min(3, len(data)) and data[cut] & 0xC0 == 0x80:
        cut += 1
    del data[:cut]


def incomplete_tail(data: bytes) -> int:
    """How many bytes at the end of `data` are the start of a character still incomplete."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 == 0x80:
            continue  # a continuation byte: its lead is further back
        return back if _length(byte) > back else 0
    return 0


def _length(lead: int) -> int:
    """The length of the UTF-8 sequence a lead byte starts (1 for ASCII or an invalid byte)."""
    if lead & 0xE0 == 0xC0:
        return 2
    if lead & 0xF0 == 0xE0:
        return 3
    if lead & 0xF8 == 0xF0:
        return 4
    return 1
