"""File change records in the history database (mixed into LmdbHistory).

Sub-database `changes` (added beside format 2's; an older Sidekicks ignores it):

  channel id + change id + b"r"  -> the FileChange's wire JSON
  channel id + change id + b"t"  -> the texts before and after, zlib-compressed JSON
  channel id + answer id + b"c"  -> the answer's checkpoint record (app/workspace/checkpointing.py)

Change ids sort by creation time, so a channel's changes are one key range, oldest first, and
deleting the channel's range deletes them with it (LmdbHistory.delete_channel).
"""

from __future__ import annotations

from collections.abc import Iterator

import lmdb

from app.history.change_records import (
    ChangeTexts,
    decode_change,
    decode_texts,
    encode_change,
    encode_texts,
)
from app.history.lmdb_env import GuardedEnvironment
from app.history.lmdb_format import ID_WIDTH
from app.models.changes import FileChange

CHANGES_DB = b"changes"
_RECORD, _TEXTS, _CHECKPOINT = b"r", b"t", b"c"


def _key(channel_id: str, change_id: str, kind: bytes) -> bytes | None:
    channel, change = channel_id.encode(), change_id.encode()
    if len(channel) != ID_WIDTH or len(change) != ID_WIDTH:
        return None  # no change is kept under another width (and "" would match every key)
    return channel + change + kind


class LmdbChanges:
    """The change methods of `History`, on LmdbHistory's environment."""

    _lmdb: GuardedEnvironment
    _changes: lmdb._Database

    def add_change(self, change: FileChange, texts: ChangeTexts) -> None:
        record_key = _key(change.channel, change.id, _RECORD)
        texts_key = _key(change.channel, change.id, _TEXTS)
        if record_key is None or texts_key is None:
            raise ValueError(f"not a change id: {change.channel}/{change.id}")
        record, packed = encode_change(change), encode_texts(texts)

        def add(txn: lmdb.Transaction[bytes]) -> None:
            txn.put(record_key, record, db=self._changes)
            txn.put(texts_key, packed, db=self._changes)

        self._lmdb.write(add)

    def put_change(self, change: FileChange) -> None:
        key = _key(change.channel, change.id, _RECORD)
        if key is None:
            return
        record = encode_change(change)

        def put(txn: lmdb.Transaction[bytes]) -> None:
            if txn.get(key, db=self._changes) is not None:
                txn.put(key, record, db=self._changes)

        self._lmdb.write(put)

    def delete_change(self, channel_id: str, change_id: str) -> None:
        keys = [_key(channel_id, change_id, kind) for kind in (_RECORD, _TEXTS)]

        def delete(txn: lmdb.Transaction[bytes]) -> None:
            for key in keys:
                if key is not None:
                    txn.delete(key, db=self._changes)

        self._lmdb.write(delete)

    def put_checkpoint(self, channel_id: str, answer_id: str, record: bytes) -> None:
        key = _key(channel_id, answer_id, _CHECKPOINT)
        if key is None:
            raise ValueError(f"not an answer id: {channel_id}/{answer_id}")
        self._lmdb.write(lambda txn: txn.put(key, record, db=self._changes))

    def checkpoint_records(self, channel_id: str) -> list[tuple[str, bytes]]:
        prefix = channel_id.encode()
        if len(prefix) != ID_WIDTH:
            return []
        with self._lmdb.reading(self._changes) as txn:
            cursor = txn.cursor(db=self._changes)
            found = cursor.set_range(prefix)
            records = []
            while found:
                key = cursor.key()
                if not key.startswith(prefix):
                    break
                if key.endswith(_CHECKPOINT):
                    answer = key[ID_WIDTH : 2 * ID_WIDTH].decode()
                    records.append((answer, bytes(cursor.value())))
                found = cursor.next()
            return records

    def changes(self, channel_id: str) -> list[FileChange]:
        prefix = channel_id.encode()
        if len(prefix) != ID_WIDTH:
            return []
        with self._lmdb.reading(self._changes) as txn:
            records = list(_records(txn.cursor(db=self._changes), prefix))
        return [decode_change(record) for record in records]

    def change_texts(self, channel_id: str, change_id: str) -> ChangeTexts | None:
        key = _key(channel_id, change_id, _TEXTS)
        if key is None:
            return None
        with self._lmdb.reading(self._changes) as txn:
            packed = txn.get(key)
        return decode_texts(packed) if packed is not None else None


def _records(cursor: lmdb.Cursor[bytes], prefix: bytes, kind: bytes = _RECORD) -> Iterator[bytes]:
    found = cursor.set_range(prefix)
    while found:
        key = cursor.key()
        if not key.startswith(prefix):
            return
        if key.endswith(_RECORD):
            yield bytes(cursor.value())
        found = cursor.next()
