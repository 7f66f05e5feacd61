"""Damaging a real history on disk, the ways files get damaged: a record's bytes replaced, a
page of the file zeroed, the data file emptied."""

from __future__ import annotations

import json
from pathlib import Path

import lmdb

from app.history.lmdb_format import (
    CHANNELS_DB,
    COMMANDS_DB,
    MAX_DBS,
    TIMELINE_DB,
    position_bytes,
)

# Bad bytes a record may hold, each a way a stored message stops being one.
BAD_RECORDS = {
    "not-utf8": b'{"id":"\xff\xfe broken","channel":"x"}',
    "invalid-json": b'{"id":"01J0000000000000000000000A","channel":',
    "not-a-message": b'{"id":"01J0000000000000000000000A"}',
    "empty": b"",
}


def raw_put(folder: Path, db_name: bytes, key: bytes, value: bytes) -> None:
    """Writes `value` under `key` behind the history's back (the history must be closed)."""
    env = lmdb.open(str(folder), max_dbs=MAX_DBS)
    try:
        with env.begin(write=True) as txn:
            txn.put(key, value, db=env.open_db(db_name, txn=txn, create=False))
    finally:
        env.close()


def damage_record(folder: Path, channel_id: str, position: int, value: bytes) -> None:
    """Replaces the bytes of the channel's stored message at `position` (1 = the first)."""
    raw_put(folder, TIMELINE_DB, channel_id.encode() + position_bytes(position), value)


def another_channels_message(record: bytes, channel_id: str) -> bytes:
    """A valid stored message that names another channel than the one it is kept under."""
    message = json.loads(record)
    message["channel"] = channel_id
    return json.dumps(message, separators=(",", ":")).encode()


def read_record(folder: Path, channel_id: str, position: int) -> bytes:
    env = lmdb.open(str(folder), max_dbs=MAX_DBS, readonly=True)
    try:
        with env.begin() as txn:
            db = env.open_db(TIMELINE_DB, txn=txn, create=False)
            value = txn.get(channel_id.encode() + position_bytes(position), db=db)
    finally:
        env.close()
    assert value is not None
    return bytes(value)


def damage_channel_record(folder: Path, channel_id: str, value: bytes) -> None:
    raw_put(folder, CHANNELS_DB, channel_id.encode(), value)


def damage_commands(folder: Path, agent: str, value: bytes) -> None:
    raw_put(folder, COMMANDS_DB, agent.encode(), value)


def zero_pages_holding(folder: Path, text: bytes) -> int:
    """Zeroes every page of the data file that holds `text` (older copies of a page, freed
    by copy-on-write, may hold it too: the live one is among them). Returns how many."""
    env = lmdb.open(str(folder), max_dbs=MAX_DBS, readonly=True)
    page_size = env.stat()["psize"]
    env.close()
    data = folder / "data.mdb"
    content = bytearray(data.read_bytes())
    pages = {index // page_size for index in _find_all(bytes(content), text)}
    for page in pages:
        content[page * page_size : (page + 1) * page_size] = bytes(page_size)
    data.write_bytes(bytes(content))
    return len(pages)


def _find_all(content: bytes, text: bytes) -> list[int]:
    found, start = [], content.find(text)
    while start >= 0:
        found.append(start)
        start = content.find(text, start + 1)
    return found
