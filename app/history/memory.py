"""The history in memory: used when the configuration's database cannot be opened (its
`problem` says why), and in tests.

Records are kept as the same JSON the LMDB store writes, not as the models themselves: every
read returns fresh objects, so a caller that changes a message it was given (or one it added)
cannot change the history behind its back, exactly as with the database. A lock keeps the
record reads, which may come from any thread, apart from the core thread's writes.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right

from pydantic import TypeAdapter

from app.channels.models import Command, Message
from app.history.base import PAGE, HistoryClosed, RecordPage, StoredChannel

_messages_adapter = TypeAdapter(list[Message])
_commands_adapter = TypeAdapter(list[Command])


class _ChannelMessages:
    """One channel's messages: ids sorted, and their records at the same indexes."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.records: list[bytes] = []

    def add(self, message_id: str, record: bytes) -> None:
        if not self.ids or message_id > self.ids[-1]:  # the usual case: the newest message
            self.ids.append(message_id)
            self.records.append(record)
            return
        index = bisect_left(self.ids, message_id)
        if index < len(self.ids) and self.ids[index] == message_id:
            self.records[index] = record  # same id: replaced, as a database put would
        else:
            self.ids.insert(index, message_id)
            self.records.insert(index, record)


class MemoryHistory:
    """`History` kept in memory until the app closes."""

    def __init__(self, problem: str = "") -> None:
        self._problem = problem
        self._lock = threading.Lock()
        self._closed = False
        self._channels: dict[str, bytes] = {}
        self._messages: dict[str, _ChannelMessages] = {}
        self._commands: dict[str, bytes] = {}

    @property
    def problem(self) -> str:
        return self._problem

    def channels(self) -> list[StoredChannel]:
        with self._lock:
            records = [self._channels[channel_id] for channel_id in sorted(self._channels)]
        return [StoredChannel.model_validate_json(record) for record in records]

    def put_channel(self, stored: StoredChannel) -> None:
        record = stored.model_dump_json(by_alias=True).encode()
        with self._lock:
            self._channels[stored.channel.id] = record

    def delete_channel(self, channel_id: str) -> None:
        with self._lock:
            self._channels.pop(channel_id, None)
            self._messages.pop(channel_id, None)

    def add_message(self, message: Message) -> None:
        record = message.model_dump_json(by_alias=True).encode()
        with self._lock:
            found = self._messages.setdefault(message.channel, _ChannelMessages())
            found.add(message.id, record)

    def last_messages(self, channel_id: str, limit: int = PAGE) -> tuple[list[Message], bool]:
        page = self.last_records(channel_id, limit)
        return _decode(page.records), page.more

    def messages_before(
        self, channel_id: str, before_id: str, limit: int = PAGE
    ) -> tuple[list[Message], bool]:
        page = self.records_before(channel_id, before_id, limit)
        return _decode(page.records), page.more

    def last_records(self, channel_id: str, limit: int = PAGE) -> RecordPage:
        with self._lock:
            self._check_open()
            found = self._messages.get(channel_id)
            return self._page(found, len(found.ids) if found else 0, limit)

    def records_before(self, channel_id: str, before_id: str, limit: int = PAGE) -> RecordPage:
        with self._lock:
            self._check_open()
            found = self._messages.get(channel_id)
            return self._page(found, bisect_left(found.ids, before_id) if found else 0, limit)

    def messages_after(self, channel_id: str, after_id: str, limit: int) -> list[Message]:
        with self._lock:
            found = self._messages.get(channel_id)
            if found is None or limit <= 0:
                return []
            start = max(bisect_right(found.ids, after_id), len(found.ids) - limit)
            records = found.records[start:]
        return _decode(records)

    def commands(self, agent: str) -> list[Command]:
        with self._lock:
            value = self._commands.get(agent)
        return [] if value is None else _commands_adapter.validate_json(value)

    def put_commands(self, agent: str, commands: list[Command]) -> None:
        record = _commands_adapter.dump_json(commands, by_alias=True)
        with self._lock:
            self._commands[agent] = record

    def close(self) -> None:
        """Nothing to release (what is in memory goes with the app), but a page still reading
        this history learns it was replaced, as with the database."""
        with self._lock:
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise HistoryClosed("the history in memory was closed")

    @staticmethod
    def _page(found: _ChannelMessages | None, end: int, limit: int) -> RecordPage:
        """The `limit` records before index `end`, and whether older ones exist."""
        if found is None:
            return RecordPage([], [], False)
        start = max(end - max(limit, 0), 0)
        keys = [message_id.encode() for message_id in found.ids[start:end]]
        return RecordPage(keys, found.records[start:end], start > 0)


def _decode(records: list[bytes]) -> list[Message]:
    if not records:
        return []
    return _messages_adapter.validate_json(b"[" + b",".join(records) + b"]")
