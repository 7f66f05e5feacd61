"""The layout of the history database, its format number, and converting older formats.

Format 2 (the current one): six named sub-databases at most; values of `timeline` are the
messages' compact wire JSON (what the page receives, byte for byte):

  channels   channel id                          -> StoredChannel
  timeline   channel id + position (8 bytes BE)  -> Message
  positions  channel id + message id             -> the message's position
  commands   agent name (UTF-8)                  -> [Command]
  meta       b"format"                           -> b"2"

A channel's messages are in the order they entered its history (positions 1, 2, 3…): a
message that waited in the queue stands where it was sent, not where it was typed; an answer
where it finished. That is the order the page showed them in live, and the order agents are
given what they have not seen. Ids alone cannot give it: a message typed while an answer was
still to start has an older id than that answer, yet follows it.

Format 1 (no `meta`; `messages`: channel id + message id -> Message, in id order) is converted
when opened, in the one transaction that opens the sub-databases: a crash meanwhile leaves
format 1 as it was. A format newer than this code is refused, never rewritten.
"""

from __future__ import annotations

import lmdb

from app.i18n import _

FORMAT = 2
CHANNELS_DB = b"channels"
TIMELINE_DB = b"timeline"
POSITIONS_DB = b"positions"
COMMANDS_DB = b"commands"
META_DB = b"meta"
FORMAT_1_MESSAGES_DB = b"messages"
SUB_DATABASES = (CHANNELS_DB, TIMELINE_DB, POSITIONS_DB, COMMANDS_DB, META_DB)
MAX_DBS = len(SUB_DATABASES) + 1  # + format 1's messages, while it is converted
FORMAT_KEY = b"format"
ID_WIDTH = 26  # app.core.ids.new_id(): fixed width, so a channel id is a fixed-width key prefix


class HistoryFormatError(Exception):
    """The database was written by a newer Sidekicks, in a format this one does not know."""

    def __init__(self, found: bytes) -> None:
        super().__init__(
            _("it was written by a newer version of Sidekicks (format {found})").format(
                found=found.decode(errors="replace")
            )
        )


def position_bytes(position: int) -> bytes:
    return position.to_bytes(8, "big")


def next_position(txn: lmdb.Transaction[bytes], timeline: lmdb._Database, prefix: bytes) -> bytes:
    """The position after the channel's last one (1 for an empty channel)."""
    cursor = txn.cursor(db=timeline)
    # Positions start with a zero byte (they stay below 2**56): b"\xff" sorts after them all.
    positioned = cursor.prev() if cursor.set_range(prefix + b"\xff") else cursor.last()
    key = cursor.key() if positioned else b""
    if len(key) == ID_WIDTH + 8 and key.startswith(prefix):
        return position_bytes(int.from_bytes(key[ID_WIDTH:], "big") + 1)
    return position_bytes(1)


def prepare(
    env: lmdb.Environment,
    txn: lmdb.Transaction[bytes],
    timeline: lmdb._Database,
    positions: lmdb._Database,
    meta: lmdb._Database,
) -> None:
    """Checks the format inside the opening transaction: a new database gets the current
    format, a format 1 database is converted, a newer format is refused."""
    found = txn.get(FORMAT_KEY, db=meta)
    if found == str(FORMAT).encode():
        return
    if found is not None:
        raise HistoryFormatError(found)
    _convert_format_1(env, txn, timeline, positions)
    txn.put(FORMAT_KEY, str(FORMAT).encode(), db=meta)


def _convert_format_1(
    env: lmdb.Environment,
    txn: lmdb.Transaction[bytes],
    timeline: lmdb._Database,
    positions: lmdb._Database,
) -> None:
    """Moves format 1's messages (in id order, the order it showed them in) to the timeline,
    channel by channel, then drops the old sub-database. A new database has none."""
    if txn.get(FORMAT_1_MESSAGES_DB) is None:  # named sub-databases are keys of the main one
        return
    messages = env.open_db(FORMAT_1_MESSAGES_DB, txn=txn, create=False)
    channel, position = b"", 0
    # Old keys (channel id + message id) come in order, so the new ones do too: appended.
    for key, value in txn.cursor(db=messages).iternext():
        prefix = key[:ID_WIDTH]
        position = position + 1 if prefix == channel else 1
        channel = prefix
        txn.put(prefix + position_bytes(position), value, db=timeline, append=True)
        txn.put(key, position_bytes(position), db=positions, append=True)
    txn.drop(messages, delete=True)
