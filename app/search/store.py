"""The index's SQLite database: its schema, opening it (or making it anew), its rows.

  words     FTS5: the message's text (app/search/words.py `indexed_text`) and its channel id
            (indexed too, so a search in one conversation is an index lookup, not a filter)
  found     the message's id, channel, author, role and time, by the same rowid: results need
            no history read
  progress  per channel, the last message the index holds in step with the history
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

SCHEMA_VERSION = "1"
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
    " tokenize='unicode61 remove_diacritics 2', prefix='2 3')",
    "CREATE TABLE IF NOT EXISTS progress(channel TEXT PRIMARY KEY, last TEXT NOT NULL)",
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
    return getattr(error, "sqlite_errorcode", None) in DAMAGE_CODES


def connect(path: Path | None) -> sqlite3.Connection:
    """A connection (in memory when `path` is None), used from the threads its owner's
    locks let in; autocommit off (`with conn:` is one transaction)."""
    target = ":memory:" if path is None else str(path)
    conn = sqlite3.connect(target, check_same_thread=False, timeout=10.0)
    if path is not None:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
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


def put(conn: sqlite3.Connection, rows: Iterable[Row]) -> None:
    """Adds the messages, or replaces those already kept (same id) where they stand; one with
    no text leaves the index. The caller holds the transaction."""
    for row in rows:
        kept = conn.execute("SELECT id FROM found WHERE message = ?", (row.message,)).fetchone()
        if kept is not None:
            if row.text:
                conn.execute("UPDATE words SET text = ? WHERE rowid = ?", (row.text, kept[0]))
            else:
                conn.execute("DELETE FROM words WHERE rowid = ?", (kept[0],))
                conn.execute("DELETE FROM found WHERE id = ?", (kept[0],))
            continue
        if not row.text:
            continue
        rowid = _new_rowid(conn, row.created_at)
        conn.execute(
            "INSERT INTO found(id, message, channel, agent, role, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (rowid, row.message, row.channel, row.agent, row.role, row.created_at),
        )
        conn.execute(
            "INSERT INTO words(rowid, text, channel) VALUES (?, ?, ?)",
            (rowid, row.text, row.channel),
        )


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
    rows = conn.execute("SELECT channel FROM progress UNION SELECT DISTINCT channel FROM found")
    return {str(channel) for (channel,) in rows}


def delete_channel(conn: sqlite3.Connection, channel: str) -> None:
    conn.execute(
        "DELETE FROM words WHERE rowid IN (SELECT id FROM found WHERE channel = ?)", (channel,)
    )
    conn.execute("DELETE FROM found WHERE channel = ?", (channel,))
    conn.execute("DELETE FROM progress WHERE channel = ?", (channel,))


def find(conn: sqlite3.Connection, expression: str, channel: str, limit: int) -> list[Hit]:
    """The newest `limit` messages matching `expression` (app/search/query.py), only
    `channel`'s if given."""
    if channel:
        expression += ' AND channel : "' + channel.replace('"', '""') + '"'
    ids = conn.execute(
        "SELECT rowid, text FROM words WHERE words MATCH ? ORDER BY rowid DESC LIMIT ?",
        (expression, limit),
    ).fetchall()
    return _with_rows(conn, ids)


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


def _new_rowid(conn: sqlite3.Connection, created_at: str) -> int:
    base = _milliseconds(created_at) << _COUNTER_BITS
    (last,) = conn.execute(
        "SELECT max(id) FROM found WHERE id BETWEEN ? AND ?", (base, base | _COUNTER_MASK)
    ).fetchone()
    if last is None:
        return base
    if last < base | _COUNTER_MASK:
        return int(last) + 1
    # A million messages in one millisecond (not a person's conversation): after all others.
    (highest,) = conn.execute("SELECT max(id) FROM found").fetchone()
    return int(highest) + 1


def _milliseconds(created_at: str) -> int:
    try:
        moment = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return 0  # a time we cannot read sorts oldest
    return max(int(moment.timestamp() * 1000), 0)
