"""The index's SQLite database: its schema, opening it (or making it anew), its rows.

  words     FTS5: the message's text (app/search/words.py `indexed_text`) and its channel id
            (indexed too, so a search in one conversation is an index lookup, not a filter)
  found     the message's id, channel, author, role and time, by the same rowid: results need
            no history read
  progress  per channel, the last message the index holds in step with the history
  gone      deleted channels whose rows are still being removed
  meta      which history this index is of (a token the history keeps, see `open_file`) and
            the schema's version

Rowids order results newest first: the message's creation time in milliseconds, shifted left
20 bits, plus a counter among messages of the same millisecond. A rebuild gives every message
its rowid again, whatever order channels are read in.

The file is WAL with synchronous=NORMAL: a commit does not wait for the disk (only the
checkpoint does). A power cut may lose the last commits, never corrupt the file; the index is
rebuilt from the history for what it lost (`progress` is written in the same transaction as
the rows, so it never claims more than the file holds).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

SCHEMA_VERSION = "2"
FILE_NAME = "search.sqlite3"
_SUFFIXES = ("", "-wal", "-shm", "-journal")
_COUNTER_BITS = 20
_COUNTER_MASK = (1 << _COUNTER_BITS) - 1
# SQLite's result codes for a file that is not (or no longer) a sound database.
DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS found(id INTEGER PRIMARY KEY, message TEXT NOT NULL UNIQUE,"
    " channel TEXT NOT NULL, agent TEXT NOT NULL, role TEXT NOT NULL,"
    " created_at TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS found_by_channel ON found(channel)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(text, channel,"
    " tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')",
    "CREATE TABLE IF NOT EXISTS progress(channel TEXT PRIMARY KEY, last TEXT NOT NULL)",
    # Channels deleted whose rows are still being removed (a page at a time, in the
    # background): never found meanwhile, and removed on after a restart.
    "CREATE TABLE IF NOT EXISTS gone(channel TEXT PRIMARY KEY)",
)


class Unavailable(Exception):
    """This Python's SQLite has no FTS5: there can be no index."""


@dataclass(frozen=True, slots=True)
class Row:
    """One message as the index keeps it."""

    message: str
    channel: str
    agent: str
    role: str
    created_at: str
    text: str


@dataclass(frozen=True, slots=True)
class Hit:
    rowid: int
    message: str
    channel: str
    agent: str
    role: str
    created_at: str
    text: str


def is_damage(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None and (code & 0xFF) in DAMAGE_CODES:  # extended codes too
        return True
    # Text that is not UTF-8 was never written by us: damage in a page SQLite cannot detect.
    return str(error).startswith("Could not decode to UTF-8")


def connect(path: Path | None) -> sqlite3.Connection:
    """A connection (in memory when `path` is None), used from the threads its owner's
    locks let in; autocommit off (`with conn:` is one transaction)."""
    target = ":memory:" if path is None else str(path)
    conn = sqlite3.connect(target, check_same_thread=False, timeout=10.0)
    if path is not None:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # app/search/checkpoints.py does them
        conn.execute("PRAGMA journal_size_limit=67108864")  # the log shrinks back to 64 MiB
    return conn


def prepare(conn: sqlite3.Connection, token: str) -> bool:
    """Creates the schema if missing; False when the file is another history's or another
    version's (the caller makes it anew). Raises sqlite3.DatabaseError for a damaged file,
    `Unavailable` without FTS5."""
    if not conn.execute("SELECT sqlite_compileoption_used('ENABLE_FTS5')").fetchone()[0]:
        raise Unavailable
    with conn:
        for statement in _SCHEMA:
            conn.execute(statement)
        kept = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if not kept:
            conn.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?)",
                [("history", token), ("version", SCHEMA_VERSION)],
            )
            return True
    return kept == {"history": token, "version": SCHEMA_VERSION}


def remove_files(path: Path) -> None:
    for suffix in _SUFFIXES:
        with contextlib.suppress(FileNotFoundError):
            path.with_name(path.name + suffix).unlink()


def put(conn: sqlite3.Connection, rows: Sequence[Row]) -> None:
    """Adds the messages, or replaces those already kept (same id) where they stand; one with
    no text leaves the index. The caller holds the transaction. A page of a catch-up is a few
    statements: which are kept already (one query), then the new ones inserted together."""
    kept = _kept_ids(conn, [row.message for row in rows])
    buckets: dict[int, int] = {}  # the last rowid given in each millisecond, in this batch
    found, words = [], []
    for row in rows:
        rowid = kept.get(row.message)
        if rowid is not None:
            _replace(conn, rowid, row.text)
        elif row.text:
            rowid = _new_rowid(conn, row.created_at, buckets)
            found.append((rowid, row.message, row.channel, row.agent, row.role, row.created_at))
            words.append((rowid, row.text, row.channel))
    conn.executemany(
        "INSERT INTO found(id, message, channel, agent, role, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        found,
    )
    conn.executemany("INSERT INTO words(rowid, text, channel) VALUES (?, ?, ?)", words)


def _kept_ids(conn: sqlite3.Connection, messages: list[str]) -> dict[str, int]:
    kept: dict[str, int] = {}
    for start in range(0, len(messages), 500):  # within SQLite's limit of bound values
        chunk = messages[start : start + 500]
        marks = ",".join("?" * len(chunk))
        query = f"SELECT message, id FROM found WHERE message IN ({marks})"
        kept.update((str(message), int(rowid)) for message, rowid in conn.execute(query, chunk))
    return kept


def _replace(conn: sqlite3.Connection, rowid: int, text: str) -> None:
    if text:
        conn.execute("UPDATE words SET text = ? WHERE rowid = ?", (text, rowid))
    else:
        conn.execute("DELETE FROM words WHERE rowid = ?", (rowid,))
        conn.execute("DELETE FROM found WHERE id = ?", (rowid,))


def set_progress(conn: sqlite3.Connection, channel: str, last: str) -> None:
    conn.execute(
        "INSERT INTO progress(channel, last) VALUES (?, ?)"
        " ON CONFLICT(channel) DO UPDATE SET last = excluded.last",
        (channel, last),
    )


def forget_progress(conn: sqlite3.Connection, channel: str) -> None:
    conn.execute("DELETE FROM progress WHERE channel = ?", (channel,))


def progress(conn: sqlite3.Connection, channel: str) -> str | None:
    found = conn.execute("SELECT last FROM progress WHERE channel = ?", (channel,)).fetchone()
    return None if found is None else str(found[0])


def indexed_channels(conn: sqlite3.Connection) -> set[str]:
    """Every channel with rows or progress: a skip-scan of the channel index (one lookup per
    channel, not one per row)."""
    rows = conn.execute(
        "WITH RECURSIVE c(channel) AS (SELECT min(channel) FROM found UNION ALL"
        " SELECT (SELECT min(channel) FROM found WHERE channel > c.channel) FROM c"
        " WHERE c.channel IS NOT NULL)"
        " SELECT channel FROM c WHERE channel IS NOT NULL UNION SELECT channel FROM progress"
    )
    return {str(channel) for (channel,) in rows}


def mark_gone(conn: sqlite3.Connection, channel: str) -> None:
    """The channel is deleted: its rows go later (`delete_some`), unseen from now on."""
    conn.execute("INSERT OR IGNORE INTO gone(channel) VALUES (?)", (channel,))
    conn.execute("DELETE FROM progress WHERE channel = ?", (channel,))


def gone(conn: sqlite3.Connection) -> set[str]:
    return {str(channel) for (channel,) in conn.execute("SELECT channel FROM gone")}


def delete_some(conn: sqlite3.Connection, channel: str, count: int = 2000) -> bool:
    """Removes up to `count` rows of a channel marked gone; False once none are left (it is
    then no longer marked). FTS5 reads each row's text to remove its words: a million rows
    take about a minute, so a deletion never holds the file for long at once."""
    ids = [
        rowid
        for (rowid,) in conn.execute(
            "SELECT id FROM found WHERE channel = ? LIMIT ?", (channel, count)
        )
    ]
    if not ids:
        conn.execute("DELETE FROM gone WHERE channel = ?", (channel,))
        return False
    marks = ",".join("?" * len(ids))
    conn.execute(f"DELETE FROM words WHERE rowid IN ({marks})", ids)
    conn.execute(f"DELETE FROM found WHERE id IN ({marks})", ids)
    return True


def find(
    conn: sqlite3.Connection, expression: str, channel: str, limit: int, hidden: Iterable[str]
) -> list[Hit]:
    """The newest `limit` messages matching `expression` (app/search/query.py), only
    `channel`'s if given, none of the `hidden` channels' (deleted, rows still there)."""
    if channel:
        expression += " AND channel : " + _quoted(channel)
    for each in hidden:
        expression += " NOT channel : " + _quoted(each)
    ids = conn.execute(
        "SELECT rowid, text FROM words WHERE words MATCH ? ORDER BY rowid DESC LIMIT ?",
        (expression, limit),
    ).fetchall()
    return _with_rows(conn, ids)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _with_rows(conn: sqlite3.Connection, ids: Sequence[tuple[int, str]]) -> list[Hit]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        f"SELECT id, message, channel, agent, role, created_at FROM found WHERE id IN ({marks})",
        [rowid for rowid, _ in ids],
    ).fetchall()
    by_id = {row[0]: row for row in rows}
    hits = []
    for rowid, text in ids:
        found = by_id.get(rowid)  # always there: both tables change in the same transactions
        if found is not None:
            _, message, channel, agent, role, created_at = found
            hits.append(Hit(rowid, message, channel, agent, role, created_at, text))
    return hits


def _new_rowid(conn: sqlite3.Connection, created_at: str, buckets: dict[int, int]) -> int:
    base = _milliseconds(created_at) << _COUNTER_BITS
    last = buckets.get(base)
    if last is None:
        (last,) = conn.execute(
            "SELECT max(id) FROM found WHERE id BETWEEN ? AND ?", (base, base | _COUNTER_MASK)
        ).fetchone()
    if last is None:
        rowid = base
    elif last < base | _COUNTER_MASK:
        rowid = int(last) + 1
    else:
        # A million messages in one millisecond (not a person's conversation): after all others.
        (highest,) = conn.execute("SELECT max(id) FROM found").fetchone()
        rowid = max(int(highest), max(buckets.values(), default=0)) + 1
    buckets[base] = rowid
    return rowid


def _milliseconds(created_at: str) -> int:
    try:
        moment = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return 0  # a time we cannot read sorts oldest
    return max(int(moment.timestamp() * 1000), 0)
