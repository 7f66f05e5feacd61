"""The history in memory: used when the configuration's database cannot be opened (its
`problem` says why), and in tests.

Records are kept as the same JSON the LMDB store writes, not as the models themselves: every
read returns fresh objects, so a caller that changes a message it was given (or one it added)
cannot change the history behind its back, exactly as with the database.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from pydantic import TypeAdapter

from app.channels.models import Command, Message
from app.history.base import PAGE, StoredChannel

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
        self._channels: dict[str, bytes] = {}
        self._messages: dict[str, _ChannelMessages] = {}
        self._commands: dict[str, bytes] = {}

    @property
    def problem(self) -> str:
        return self._problem

    def channels(self) -> list[StoredChannel]:
        return [
            StoredChannel.model_validate_json(self._channels[channel_id])
            for channel_id in sorted(self._channels)
        ]

    def put_channel(self, stored: StoredChannel) -> None:
        self._channels[stored.channel.id] = stored.model_dump_json(by_alias=True).encode()

    def delete_channel(self, channel_id: str) -> None:
        self._channels.pop(channel_id, None)
        self._messages.pop(channel_id, None)

    def add_message(self, message: Message) -> None:
        record = message.model_dump_json(by_alias=True).encode()
        self._messages.setdefault(message.channel, _ChannelMessages()).add(message.id, record)

    def last_messages(self, channel_id: str, limit: int = PAGE) -> tuple[list[Message], bool]:
        found = self._messages.get(channel_id)
        return self._page(found, len(found.ids) if found else 0, limit)

    def messages_before(
        self, channel_id: str, before_id: str, limit: int = PAGE
    ) -> tuple[list[Message], bool]:
        found = self._messages.get(channel_id)
        return self._page(found, bisect_left(found.ids, before_id) if found else 0, limit)

    def messages_after(self, channel_id: str, after_id: str, limit: int) -> list[Message]:
        found = self._messages.get(channel_id)
        if found is None or limit <= 0:
            return []
        start = max(bisect_right(found.ids, after_id), len(found.ids) - limit)
        return _decode(found.records[start:])

    def commands(self, agent: str) -> list[Command]:
        value = self._commands.get(agent)
        return [] if value is None else _commands_adapter.validate_json(value)

    def put_commands(self, agent: str, commands: list[Command]) -> None:
        self._commands[agent] = _commands_adapter.dump_json(commands, by_alias=True)

    def close(self) -> None:
        """Nothing to release: what is in memory goes with the app."""

    @staticmethod
    def _page(found: _ChannelMessages | None, end: int, limit: int) -> tuple[list[Message], bool]:
        """The `limit` messages before index `end`, and whether older ones exist."""
        if found is None:
            return [], False
        start = max(end - max(limit, 0), 0)
        return _decode(found.records[start:end]), start > 0


def _decode(records: list[bytes]) -> list[Message]:
    if not records:
        return []
    return _messages_adapter.validate_json(b"[" + b",".join(records) + b"]")
