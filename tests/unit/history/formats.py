"""History databases in other formats (app/history/lmdb_format.py): format 1 written as the
first versions of Sidekicks did (messages keyed by channel id + message id, no `meta`), and
the format number read or set directly."""

from __future__ import annotations

from pathlib import Path

import lmdb

from app.history.base import StoredChannel
from app.history.lmdb_format import (
    CHANNELS_DB,
    FORMAT_1_MESSAGES_DB,
    FORMAT_KEY,
    MAX_DBS,
    META_DB,
)
from app.history.records import encode_message
from app.models.conversation import Message


def write_format_1(
    folder: Path, messages: list[Message], channels: list[StoredChannel] | None = None
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    env = lmdb.open(str(folder), map_size=256 << 20, max_dbs=3)
    try:
        with env.begin(write=True) as txn:
            stored = env.open_db(CHANNELS_DB, txn=txn)
            for channel in channels or []:
                value = channel.model_dump_json(by_alias=True).encode()
                txn.put(channel.channel.id.encode(), value, db=stored)
            db = env.open_db(FORMAT_1_MESSAGES_DB, txn=txn)
            for message in messages:
                key = (message.channel + message.id).encode()
                txn.put(key, encode_message(message), db=db)
    finally:
        env.close()


def read_format(folder: Path) -> bytes | None:
    env = lmdb.open(str(folder), max_dbs=MAX_DBS, readonly=True)
    try:
        with env.begin() as txn:
            return txn.get(FORMAT_KEY, db=env.open_db(META_DB, txn=txn, create=False))
    finally:
        env.close()


def set_format(folder: Path, value: bytes) -> None:
    env = lmdb.open(str(folder), max_dbs=MAX_DBS)
    try:
        with env.begin(write=True) as txn:
            txn.put(FORMAT_KEY, value, db=env.open_db(META_DB, txn=txn))
    finally:
        env.close()
