"""The agent's stdout as JSON-RPC messages for the SDK: only JSON objects get through.

The SDK's own stdio reader (NdjsonTransport) hands every parsed line to its receive loop, which
dies on one that is not an object (`[1,2,3]`: `message.get` fails) — and it accumulates a line
past any limit (a 1 GiB line without newline took 2 GB). This is our transport instead (the SDK
takes one, message-level, in `acp.connect_to_agent(client, transport)`): it reads stdout in
chunks, splits the lines itself, parses each once and gives the SDK only objects. Anything else
is skipped and noted in the agent's log (rate-limited, app/acp/notices.py); a line longer than
MAX_LINE is dropped as it streams — its pieces are let go the moment it passes the limit.

Text the agent prints for a person on stdout (gemini's sign-in address and its "Enter the
authorization code: " prompt, which has no newline) is handed to `on_text` while someone
listens (AgentConnection.authenticate): each line that is not JSON, and the unfinished line
that is not the start of an object. An object written right after such text on the same line
(a prompt the agent did not end) is still read: the text before it is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from app.acp.notices import Notices
from app.acp.stream_extensions import incoming, outgoing
from app.i18n import _

MB = 1024 * 1024
MAX_LINE = 64 * MB  # the longest line we parse (DESIGN §4: 64 MiB)
READ_SIZE = 256 * 1024
SAMPLE = 80  # bytes of a skipped line quoted in the log
# The SDK's receive loop calls `receive` again at once, without awaiting anything else, so
# messages already parsed from one read would be handed out back to back: a 256 KiB read of
# small updates is thousands of them, and a service call waiting for the core loop (List, a
# click's answer) waited behind them all (0.58 s p99 with 8 agents streaming). Every this many
# messages the loop is given a turn.
YIELD_EVERY = 32
PARTIAL_TEXT = 4096  # an unfinished line longer than this is not a prompt: not handed out

# Told the agent's text for a person: a line (True) or the unfinished line (False).
TextListener = Callable[[str, bool], None]


class JsonLines:
    """A `acp` Transport over a process's stdin (send) and stdout (receive)."""

    def __init__(
        self, stdout: asyncio.StreamReader, stdin: asyncio.StreamWriter, notices: Notices
    ) -> None:
        self._stdout, self._stdin, self._notices = stdout, stdin, notices
        self._ready: deque[dict[str, Any]] = deque()
        self._pieces: list[bytes] = []  # the current line so far (it has no newline yet)
        self._size = 0  # its length, counted on even when its pieces are dropped
        self._eof = False
        self._handed = 0  # messages handed out since the loop last had a turn
        self.on_text: TextListener | None = None

    async def send(self, message: dict[str, Any]) -> None:
        # As the SDK writes: compact JSON, one line. write() is synchronous, so concurrent
        # senders never interleave; drain() may be awaited by several at once (3.10+).
        message = outgoing(message)  # capabilities the SDK cannot say (stream_extensions.py)
        self._stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
        await self._stdin.drain()

    async def send_text(self, text: str) -> None:
        """`text` and a newline, between two messages: for an agent that reads its stdin for
        a person meanwhile (gemini's authorization code)."""
        self._stdin.write((text + "\n").encode())
        await self._stdin.drain()

    @contextlib.contextmanager
    def listening(self, on_text: TextListener | None) -> Iterator[None]:
        """`on_text` is told the text for a person while the block runs."""
        self.on_text = on_text
        try:
            yield
        finally:
            if self.on_text is on_text:
                self.on_text = None

    async def receive(self) -> dict[str, Any] | None:
        """The next JSON object the agent wrote; None once stdout is closed."""
        self._handed += 1
        if self._handed >= YIELD_EVERY and self._ready:
            self._handed = 0
            await asyncio.sleep(0)  # the loop's other callbacks run before the next message
        while not self._ready:
            if self._eof:
                return None
            data = await self._stdout.read(READ_SIZE)
            if data:
                self._feed(data)
            else:
                self._eof = True
                self._end_line(b"")  # a last line without its newline still counts
        return self._ready.popleft()

    async def close(self) -> None:
        """Nothing to release: the process owns the pipes (AgentProcess.stop closes them)."""

    def _feed(self, data: bytes) -> None:
        *complete, rest = data.split(b"\n")
        for piece in complete:
            self._end_line(piece)
        self._add(rest)
        if self.on_text is not None and self._pieces and self._size <= PARTIAL_TEXT:
            partial = b"".join(self._pieces)
            if not partial.lstrip().startswith(b"{"):
                self.on_text(_text(partial), False)

    def _add(self, piece: bytes) -> None:
        if not piece:
            return
        self._size += len(piece)
        if self._size <= MAX_LINE:
            self._pieces.append(piece)
        elif self._pieces:
            self._pieces = []  # past the limit: never kept, whatever its final length

    def _end_line(self, piece: bytes) -> None:
        self._add(piece)
        pieces, size = self._pieces, self._size
        self._pieces, self._size = [], 0
        if size > MAX_LINE:
            self._notices.report(
                "too-long",
                _("too long"),
                _("a line of {size} MB was dropped from stdout (the limit is {limit} MB)").format(
                    size=round(size / MB), limit=MAX_LINE // MB
                ),
            )
        elif pieces:
            self._parse(pieces[0] if len(pieces) == 1 else b"".join(pieces))
        elif self.on_text is not None and not self._eof:
            self.on_text("", True)  # a blank line ends what it follows (an address)

    def _parse(self, raw: bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:  # also invalid UTF-8 (UnicodeDecodeError is a ValueError)
            message = _after_text(raw)
            skipped = raw[: raw.find(b"{")] if message is not None else raw
            if self.on_text is not None:
                self.on_text(_text(skipped), True)
            if message is not None:
                self._ready.append(incoming(message))
            if skipped.strip():
                self._notices.report(
                    "not-json",
                    _("not JSON"),
                    _("a line on stdout that is not JSON was skipped: {start}").format(
                        start=_sample(skipped)
                    ),
                )
            return
        if isinstance(message, dict):
            self._ready.append(incoming(message))  # updates the SDK would drop, carried
            return
        self._notices.report(
            "not-object",
            _("not an object"),
            _("a line on stdout that is not a JSON object was skipped: {start}").format(
                start=_sample(raw)
            ),
        )


def _after_text(raw: bytes) -> dict[str, Any] | None:
    """The object that ends the line after some text ("Enter the code: {…}"), if there is one
    (only the first "{" is tried: a line of garbage costs one more parse at most)."""
    start = raw.find(b"{")
    if start <= 0:
        return None
    try:
        message = json.loads(raw[start:])
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").rstrip("\r")


def _sample(raw: bytes) -> str:
    text = raw[:SAMPLE].decode("utf-8", errors="replace").strip()
    return text + (" …" if len(raw) > SAMPLE else "")
