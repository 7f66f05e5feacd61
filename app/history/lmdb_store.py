"""The history on disk: one LMDB environment per configuration file.

The layout and its format are in app/history/lmdb_format.py: a channel's messages are one
contiguous key range (its fixed-width id, then each message's position), in the order they
entered the history, so "the last 100" and "the 100 before X" are a cursor positioned with
`set_range` then walked backwards, never a scan, whatever the channel's size. Every write is
one transaction, durable when it returns (LMDB's default `sync`); LMDB's copy-on-write pages
mean a crash at any moment leaves the last committed state, never half a message.

Damage: the file is checked before LMDB maps it (app/history/data_file.py), every stored message
is checked the first time this process reads it (app/history/record_checks.py, remembered by
app/history/checked.py), a damaged record is never passed on (the page gets a note in its
place, agents nothing), and a read or write that LMDB refuses raises a sentence
(app/history/failures.py). Damage found while running becomes the history's `problem`.

Threads: reads from any thread, writes on the core loop's (app/history/lmdb_env.py).
"""

from __future__ import annotations

from pathlib import Path

import lmdb
from pydantic import ValidationError

from app.history import lmdb_format
from app.history.base import PAGE, RecordPage, StoredChannel
from app.history.data_file import (
    CutShort,
    data_length,
    mark_started,
    refuse_cut_short,
    refuse_emptied,
    restore_length,
)
from app.history.failures import HistoryUnreadable
from app.history.lmdb_changes import CHANGES_DB, LmdbChanges
from app.history.lmdb_env import GuardedEnvironment
from app.history.lmdb_format import (
    MAX_DBS,
    SUB_DATABASES,
    next_position,
    position_bytes,
)
from app.history.lmdb_map import INITIAL_MAP_SIZE
from app.history.lmdb_walks import END, page, prefix_of, required_prefix, walk_back
from app.history.lmdb_windows import LmdbWindows
from app.history.lock import FolderLock
from app.history.problems import ProblemListener, ProblemReport
from app.history.record_checks import (
    NOTE_OPENING,
    RecordChecks,
    invalid_reason,
    note_position,
)
from app.history.records import (
    decode_commands,
    decode_messages,
    encode_commands,
    encode_message,
)
from app.i18n import _
from app.models.conversation import Command, Message

# LMDB keys have at most 511 bytes: a longer "message id" from the page is no message's.
_MAX_ID_BYTES = 256


class LmdbHistory(LmdbChanges, LmdbWindows):
    """`History` in an LMDB environment in `folder` (created if missing). `lock`, if given, is
    released by `close()`: `open_history` hands over the folder's lock with the database (if
    the constructor raises, the lock stays the caller's to release)."""

    def __init__(self, folder: Path, lock: FolderLock | None = None) -> None:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.folder = folder
        self._lock = lock
        self._report = ProblemReport()
        self._checks = RecordChecks(folder, self._report)
        refuse_emptied(folder)
        length = data_length(folder)
        # sync/metasync on and writemap off (the defaults, spelled out): a commit is on disk
        # when put returns, and a stray write through the map cannot corrupt the file.
        env = lmdb.open(
            str(folder),
            map_size=INITIAL_MAP_SIZE,
            subdir=True,
            max_dbs=MAX_DBS + 1,  # + the file changes (app/history/lmdb_changes.py)
            sync=True,
            metasync=True,
            writemap=False,
            mode=0o600,  # conversations may hold secrets: the files are the user's alone
        )
        self._lmdb = GuardedEnvironment(env, folder, self._report)
        try:
            refuse_cut_short(env, folder, length)
            # Creating sub-databases and converting an older format are writes: they can meet
            # a full map too (a database reopened with a map just its size, see lmdb_map.grow_map).
            dbs = self._lmdb.write(lambda txn: _open_sub_databases(env, txn))
            self._channels, self._timeline, self._positions, self._commands, self._meta = dbs
            self._changes = self._lmdb.write(lambda txn: env.open_db(CHANGES_DB, txn=txn))
            self._check_ends()
            mark_started(folder)
        except CutShort:
            env.close()
            restore_length(folder, length)
            raise
        except BaseException:
            env.close()
            raise

    def _check_ends(self) -> None:
        """Reads the first and last record of each sub-database: a damaged tree usually
        shows here, at open (history then falls back to memory), not in the middle of a
        conversation. It costs a few page reads, whatever the size."""
        with self._lmdb.env.begin() as txn:
            for db in (self._channels, self._timeline, self._positions, self._commands):
                cursor = txn.cursor(db=db)
                if cursor.first():
                    cursor.item()
                    cursor.last()
                    cursor.item()

    @property
    def problem(self) -> str:
        return self._report.problem

    def on_problem(self, listener: ProblemListener) -> None:
        self._report.on_problem(listener)

    # Channels

    def channels(self) -> list[StoredChannel]:
        """Every readable channel; a damaged record is left out (and reported)."""
        try:
            with self._lmdb.reading(self._channels) as txn:
                items = list(txn.cursor().iternext())
        except HistoryUnreadable:
            return []  # the problem says why: the app runs, on an empty list
        stored = []
        for key, value in items:
            try:
                stored.append(StoredChannel.model_validate_json(value))
            except ValidationError as error:
                details = _("the record of channel {channel}: {reason}").format(
                    channel=key.decode(errors="replace"), reason=invalid_reason(error)
                )
                self._report.damaged(self.folder, details)
        return stored

    def put_channel(self, stored: StoredChannel) -> None:
        key = required_prefix(stored.channel.id)
        value = stored.model_dump_json(by_alias=True).encode()
        self._lmdb.write(lambda txn: txn.put(key, value, db=self._channels))

    def delete_channel(self, channel_id: str) -> None:
        prefix = prefix_of(channel_id)
        if prefix is None:
            return  # no record nor message can have such an id (see put_channel, add_message)

        def delete(txn: lmdb.Transaction[bytes]) -> None:
            txn.delete(prefix, db=self._channels)
            for db in (self._timeline, self._positions, self._changes):
                cursor = txn.cursor(db=db)
                found = cursor.set_range(prefix)
                # delete() moves the cursor to the next record: the loop walks the range once.
                while found and cursor.key().startswith(prefix):
                    found = cursor.delete()

        self._lmdb.write(delete)
        self._checks.forget(prefix)

    # Messages

    def add_message(self, message: Message) -> None:
        """Appends the message to its channel's timeline; a message already kept (same id)
        is replaced where it stands."""
        prefix = required_prefix(message.channel)
        id_key = prefix + message.id.encode()
        value = encode_message(message)

        def add(txn: lmdb.Transaction[bytes]) -> int:
            position = txn.get(id_key, db=self._positions)
            if position is None:
                position = next_position(txn, self._timeline, prefix)
                txn.put(id_key, position, db=self._positions)
            txn.put(prefix + position, value, db=self._timeline)
            return int.from_bytes(position, "big")

        position = self._lmdb.write(add)
        self._checks.written(prefix, position)

    def add_messages(self, messages: list[Message]) -> None:
        """Every message in one write transaction (a commit per message, with its sync, costs
        about 0.5 ms here: a fork of thousands would hold the loop for seconds)."""
        encoded = [(required_prefix(m.channel), m.id.encode(), encode_message(m)) for m in messages]

        def add(txn: lmdb.Transaction[bytes]) -> list[tuple[bytes, int]]:
            written = []
            for prefix, message_id, value in encoded:
                id_key = prefix + message_id
                position = txn.get(id_key, db=self._positions)
                if position is None:
                    position = next_position(txn, self._timeline, prefix)
                    txn.put(id_key, position, db=self._positions)
                txn.put(prefix + position, value, db=self._timeline)
                written.append((prefix, int.from_bytes(position, "big")))
            return written

        for prefix, position in self._lmdb.write(add):
            self._checks.written(prefix, position)

    def last_messages(self, channel_id: str, limit: int = PAGE) -> tuple[list[Message], bool]:
        return self.last_records(channel_id, limit).decoded()

    def messages_before(
        self, channel_id: str, before_id: str, limit: int = PAGE
    ) -> tuple[list[Message], bool]:
        return self.records_before(channel_id, before_id, limit).decoded()

    def last_records(self, channel_id: str, limit: int = PAGE) -> RecordPage:
        prefix = prefix_of(channel_id)
        if prefix is None:
            return RecordPage([], False)
        with self._lmdb.reading(self._timeline) as txn:
            items, more = page(txn, prefix, prefix + END, limit)
        return RecordPage(self._checks.records(prefix, items), more)

    def records_before(self, channel_id: str, before_id: str, limit: int = PAGE) -> RecordPage:
        prefix = prefix_of(channel_id)
        if prefix is None:
            return RecordPage([], False)
        with self._lmdb.reading(self._timeline) as txn:
            position = self._position(txn, prefix, before_id)
            if position is None:
                return RecordPage([], False)  # no such message: nothing is before it
            items, more = page(txn, prefix, prefix + position, limit)
        return RecordPage(self._checks.records(prefix, items), more)

    def messages_after(self, channel_id: str, after_id: str, limit: int) -> list[Message]:
        """An unknown `after_id` counts as "": an agent that saw a message no longer kept
        is given the latest messages. Damage is left out: an agent is given what could be
        read (the history's problem says the rest)."""
        prefix = prefix_of(channel_id)
        if prefix is None or limit <= 0:
            return []
        try:
            with self._lmdb.reading(self._timeline) as txn:
                position = self._position(txn, prefix, after_id)
                floor = prefix if position is None else prefix + position
                items = walk_back(txn, prefix + END, floor, limit)
        except HistoryUnreadable:
            return []
        records = self._checks.records(prefix, items)
        return decode_messages(
            [record for record in records if not record.startswith(NOTE_OPENING)]
        )

    def _position(
        self, txn: lmdb.Transaction[bytes], prefix: bytes, message_id: str
    ) -> bytes | None:
        noted = note_position(message_id)
        if noted is not None:  # a damaged record's note: its id names its position
            return position_bytes(noted)
        key = message_id.encode()
        if not key or len(key) > _MAX_ID_BYTES:
            return None
        position = txn.get(prefix + key, db=self._positions)
        if position is not None and len(position) != 8:
            details = _("the position of message {id}: it is not 8 bytes").format(id=message_id)
            self._report.damaged(self.folder, details)
            return None
        return position

    # Commands

    def commands(self, agent: str) -> list[Command]:
        if not agent:
            return []  # LMDB keys cannot be empty; no agent has an empty name
        try:
            with self._lmdb.reading(self._commands) as txn:
                value = txn.get(agent.encode())
            return decode_commands(value)
        except HistoryUnreadable:
            return []
        except ValidationError as error:
            details = _("the commands of {agent}: {reason}").format(
                agent=agent, reason=invalid_reason(error)
            )
            self._report.damaged(self.folder, details)
            return []  # announced again at its next session

    def put_commands(self, agent: str, commands: list[Command]) -> None:
        key = agent.encode()
        value = encode_commands(commands)
        self._lmdb.write(lambda txn: txn.put(key, value, db=self._commands))

    # Values the app keeps (next to the format's own key, in `meta`: theirs start with "app:")

    def value(self, key: str) -> bytes | None:
        try:
            with self._lmdb.reading(self._meta) as txn:
                return txn.get(_value_key(key))
        except HistoryUnreadable:
            return None

    def put_value(self, key: str, value: bytes) -> None:
        stored = _value_key(key)
        self._lmdb.write(lambda txn: txn.put(stored, value, db=self._meta))

    # Lifetime

    def close(self) -> None:
        try:
            self._lmdb.close()
        finally:
            if self._lock is not None:
                self._lock.release()


def _open_sub_databases(
    env: lmdb.Environment, txn: lmdb.Transaction[bytes]
) -> list[lmdb._Database]:
    dbs = [env.open_db(name, txn=txn) for name in SUB_DATABASES]
    _channels, timeline, positions, _commands, meta = dbs
    lmdb_format.prepare(env, txn, timeline, positions, meta)
    return dbs


def _value_key(key: str) -> bytes:
    if not key or len(key) > 200:
        raise ValueError(f"a kept value's key has 1 to 200 characters: {key[:40]!r}")
    return b"app:" + key.encode()
