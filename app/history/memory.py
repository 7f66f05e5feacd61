"""The history in memory: used when the configuration's database cannot be opened (its
`problem` says why), and in tests.

Records are kept as the same JSON the LMDB store writes, not as the models themselves: every
read returns fresh objects, so a caller that changes a message it was given (or one it added)
cannot change the history behind its back, exactly as with the database. A lock keeps the
record reads, which may come from any thread, apart from the core thread's writes.
"""

from __future__ import annotations

import threading

from app.history.base import (
    AROUND_AFTER,
    AROUND_BEFORE,
    PAGE,
    HistoryClosed,
    RecordPage,
    RecordWindow,
    StoredChannel,
)
from app.history.change_records import (
    ChangeTexts,
    decode_change,
    decode_texts,
    encode_change,
    encode_texts,
)
from app.history.problems import ProblemListener, ProblemReport
from app.history.records import (
    decode_commands,
    decode_messages,
    encode_commands,
    encode_message,
)
from app.models.changes import FileChange
from app.models.conversation import Command, Message


class _ChannelMessages:
    """One channel's records in the order they were kept, and where each id stands."""

    def __init__(self) -> None:
        self.records: list[bytes] = []
        self.positions: dict[str, int] = {}

    def add(self, message_id: str, record: bytes) -> None:
        at = self.positions.get(message_id)
        if at is None:
            self.positions[message_id] = len(self.records)
            self.records.append(record)
        else:
            self.records[at] = record  # same id: replaced where it stands, as in the database


class MemoryHistory:
    """`History` kept in memory until the app closes."""

    def __init__(self, problem: str = "") -> None:
        self._report = ProblemReport(problem)
        self._lock = threading.Lock()
        self._closed = False
        self._channels: dict[str, bytes] = {}
        self._messages: dict[str, _ChannelMessages] = {}
        self._commands: dict[str, bytes] = {}
        self._values: dict[str, bytes] = {}
        # channel id -> change id -> (record, compressed texts), as the database keeps them
        self._changes: dict[str, dict[str, tuple[bytes, bytes]]] = {}
        self._checkpoints: dict[str, dict[str, bytes]] = {}

    @property
    def problem(self) -> str:
        return self._report.problem

    def on_problem(self, listener: ProblemListener) -> None:
        """Records are this process's own encodings: no damage appears later."""
        self._report.on_problem(listener)

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
            self._changes.pop(channel_id, None)
            self._checkpoints.pop(channel_id, None)

    def add_message(self, message: Message) -> None:
        record = encode_message(message)
        with self._lock:
            found = self._messages.setdefault(message.channel, _ChannelMessages())
            found.add(message.id, record)

    def add_messages(self, messages: list[Message]) -> None:
        records = [(m, encode_message(m)) for m in messages]
        with self._lock:
            for message, record in records:
                found = self._messages.setdefault(message.channel, _ChannelMessages())
                found.add(message.id, record)

    def last_messages(self, channel_id: str, limit: int = PAGE) -> tuple[list[Message], bool]:
        return self.last_records(channel_id, limit).decoded()

    def messages_before(
        self, channel_id: str, before_id: str, limit: int = PAGE
    ) -> tuple[list[Message], bool]:
        return self.records_before(channel_id, before_id, limit).decoded()

    def last_records(self, channel_id: str, limit: int = PAGE) -> RecordPage:
        with self._lock:
            self._check_open()
            found = self._messages.get(channel_id)
            return self._page(found, len(found.records) if found else 0, limit)

    def records_before(self, channel_id: str, before_id: str, limit: int = PAGE) -> RecordPage:
        with self._lock:
            self._check_open()
            found = self._messages.get(channel_id)
            at = found.positions.get(before_id) if found else None
            return self._page(found, at, limit)

    def records_around(
        self,
        channel_id: str,
        message_id: str,
        before: int = AROUND_BEFORE,
        after: int = AROUND_AFTER,
    ) -> RecordWindow | None:
        with self._lock:
            self._check_open()
            found = self._messages.get(channel_id)
            at = found.positions.get(message_id) if found else None
            if found is None or at is None:
                return None
            start, end = max(at - max(before, 0), 0), at + 1 + max(after, 0)
            return RecordWindow(found.records[start:end], start > 0, end < len(found.records))

    def records_after(
        self, channel_id: str, after_id: str, limit: int = PAGE
    ) -> RecordWindow | None:
        with self._lock:
            self._check_open()
            found = self._messages.get(channel_id)
            at = found.positions.get(after_id) if found else None
            if found is None or at is None:
                return None
            end = at + 1 + max(limit, 0)
            return RecordWindow(found.records[at + 1 : end], True, end < len(found.records))

    def messages_after(self, channel_id: str, after_id: str, limit: int) -> list[Message]:
        with self._lock:
            found = self._messages.get(channel_id)
            if found is None or limit <= 0:
                return []
            seen = found.positions.get(after_id)
            start = max(0 if seen is None else seen + 1, len(found.records) - limit)
            records = found.records[start:]
        return decode_messages(records)

    def commands(self, agent: str) -> list[Command]:
        with self._lock:
            value = self._commands.get(agent)
        return decode_commands(value)

    def put_commands(self, agent: str, commands: list[Command]) -> None:
        record = encode_commands(commands)
        with self._lock:
            self._commands[agent] = record

    def value(self, key: str) -> bytes | None:
        with self._lock:
            return self._values.get(key)

    def put_value(self, key: str, value: bytes) -> None:
        with self._lock:
            self._values[key] = value

    def add_change(self, change: FileChange, texts: ChangeTexts) -> None:
        kept = (encode_change(change), encode_texts(texts))
        with self._lock:
            self._changes.setdefault(change.channel, {})[change.id] = kept

    def put_change(self, change: FileChange) -> None:
        record = encode_change(change)
        with self._lock:
            found = self._changes.get(change.channel, {}).get(change.id)
            if found is not None:
                self._changes[change.channel][change.id] = (record, found[1])

    def delete_change(self, channel_id: str, change_id: str) -> None:
        with self._lock:
            self._changes.get(channel_id, {}).pop(change_id, None)

    def put_checkpoint(self, channel_id: str, answer_id: str, record: bytes) -> None:
        with self._lock:
            self._checkpoints.setdefault(channel_id, {})[answer_id] = record

    def checkpoint_records(self, channel_id: str) -> list[tuple[str, bytes]]:
        with self._lock:
            found = self._checkpoints.get(channel_id, {})
            return [(answer_id, found[answer_id]) for answer_id in sorted(found)]

    def changes(self, channel_id: str) -> list[FileChange]:
        with self._lock:
            found = self._changes.get(channel_id, {})
            records = [found[change_id][0] for change_id in sorted(found)]
        return [decode_change(record) for record in records]

    def change_texts(self, channel_id: str, change_id: str) -> ChangeTexts | None:
        with self._lock:
            found = self._changes.get(channel_id, {}).get(change_id)
        return decode_texts(found[1]) if found is not None else None

    def close(self) -> None:
        """Nothing to release (what is in memory goes with the app), but a page still reading
        this history learns it was replaced, as with the database."""
        with self._lock:
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise HistoryClosed("the history in memory was closed")

    @staticmethod
    def _page(found: _ChannelMessages | None, end: int | None, limit: int) -> RecordPage:
        """The `limit` records before index `end` (None: no such message), and whether older
        ones exist."""
        if found is None or end is None:
            return RecordPage([], False)
        start = max(end - max(limit, 0), 0)
        return RecordPage(found.records[start:end], start > 0)
