"""Opening the index file: where it is, whose it is, and making it anew when it cannot be
trusted (damaged, another history's, another schema's)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from app.core.ids import new_id
from app.history.base import History
from app.search import store

log = logging.getLogger(__name__)


def index_path(history: History) -> Path | None:
    """Beside the history, in its data folder; None for a history in memory (the index is
    in memory too)."""
    folder = getattr(history, "folder", None)  # LmdbHistory's
    return folder / store.FILE_NAME if isinstance(folder, Path) else None


def history_token(history: History, key: str) -> str:
    """Which history the index file belongs to: a token kept in the history itself, so a file
    left from another history (a copied folder) is never trusted."""
    kept = history.value(key)
    if kept is not None:
        return kept.decode()
    token = new_id()
    history.put_value(key, token.encode())
    return token


def open_file(path: Path | None, token: str, fresh: bool) -> sqlite3.Connection:
    """The writing connection to the index (made anew if `fresh`, or when the file is damaged
    or not this history's). Raises `store.Unavailable` without FTS5, sqlite3.Error or OSError
    when even a new file cannot be made."""
    if path is not None and fresh:
        store.remove_files(path)
    conn = None
    try:
        conn = store.connect(path)
        sound = store.prepare(conn, token)
    except sqlite3.DatabaseError as error:
        if conn is not None:
            conn.close()
        if path is None or fresh or not store.is_damage(error):
            raise
        log.warning("search index %s is damaged, made anew: %s", path, error)
        return open_file(path, token, fresh=True)
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    if not sound:
        conn.close()
        return open_file(path, token, fresh=True)
    return conn
