"""Checks on the database file before LMDB trusts it: cut short, or emptied.

LMDB maps `data.mdb`: a file shorter than its last committed page would kill the process with
SIGBUS on the first read past its end; and a 0-byte `data.mdb` is taken for a new database,
so a history whose file was emptied (a failed copy or sync, a full disk on some file systems)
would silently start again from nothing. Both are refused as damaged, and the file is left as
it is: the user's data is never deleted.

An empty file is also what a first start leaves when it cannot write the file's first pages
(a full disk): that one is harmless. The difference is a marker, `sidekicks.started`, written
next to the data file once a history was opened there: an empty data file without it is a
history that never held anything, and is opened as new.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import lmdb

from app.i18n import _

DATA_FILE = "data.mdb"
STARTED_MARKER = "sidekicks.started"


class EmptiedHistory(Exception):
    """The data file of a history that was opened before is empty."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            _(
                "its data file ({file}) is empty: what it held was lost. It is left as it is; "
                "move the folder away to start a new history"
            ).format(file=folder / DATA_FILE)
        )


def refuse_emptied(folder: Path) -> None:
    """Raises `EmptiedHistory` when a history was started in `folder` and its file is empty
    (a missing file is a history removed on purpose: LMDB starts a new one)."""
    data = folder / DATA_FILE
    if (folder / STARTED_MARKER).exists() and data.exists() and data.stat().st_size == 0:
        raise EmptiedHistory(folder)


def mark_started(folder: Path) -> None:
    """Notes that a history lives in `folder` (its data file now holds committed pages)."""
    marker = folder / STARTED_MARKER
    if not marker.exists():
        marker.touch(mode=0o600)


def data_length(folder: Path) -> int | None:
    """The data file's length now, before LMDB maps it (None: there is no file yet)."""
    try:
        return (folder / DATA_FILE).stat().st_size
    except FileNotFoundError:
        return None


class CutShort(lmdb.CorruptedError):
    """The data file ends before its last committed page."""


def refuse_cut_short(env: lmdb.Environment, folder: Path, length: int | None) -> None:
    """Refuses a data file shorter than its last committed page (a truncated copy, a full
    disk under some file systems), before anything reads past its end. `length` is the
    file's length before LMDB mapped it: on Windows, mapping sets the file to the map's
    size, zeros past the old end, which would hide the cut from a look at the file now."""
    if not length:
        return  # no file, or an empty one (refused before by refuse_emptied if it held data)
    needed = (env.info()["last_pgno"] + 1) * env.stat()["psize"]
    if length < needed:
        raise CutShort(f"{folder}: the data file is cut short")


def restore_length(folder: Path, length: int | None) -> None:
    """Gives a refused data file back the length it had (on Windows mapping lengthened it
    with zeros): it is left as it was found. Call it once LMDB has closed the file."""
    data = folder / DATA_FILE
    with contextlib.suppress(OSError):
        if length is not None and data.stat().st_size > length:
            os.truncate(data, length)
