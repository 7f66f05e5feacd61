"""The index file beside an LMDB history: kept across restarts, and rebuilt from the history
when it is missing, damaged, another history's, or behind it."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history.lmdb_store import LmdbHistory
from app.search.index import SearchIndex
from app.search.store import FILE_NAME
from tests.unit.search.indexing import found, keep, said, settled
from tests.waiting import wait_for

TEAM, OTHER = new_id(), new_id()
NAMES = {TEAM: "team", OTHER: "other"}


class Opened:
    """A history on disk and its index, opened as the registry opens them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.history = LmdbHistory(folder)
        self.index = SearchIndex(self.history, NAMES)

    def close(self) -> None:
        self.index.close()
        self.history.close()


@pytest.fixture
def app_folder(tmp_path: Path) -> Iterator[list[Opened]]:
    opened: list[Opened] = []
    yield opened
    for each in opened:
        each.close()


def start(opened: list[Opened], folder: Path) -> Opened:
    if opened:
        opened.pop().close()
    opened.append(Opened(folder))
    return opened[-1]


def test_the_index_file_lives_beside_the_history_and_is_found_again_after_a_restart(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    message = keep(run.history, run.index, said(TEAM, "remember this"))
    assert (tmp_path / "history" / FILE_NAME).is_file()
    run = start(app_folder, tmp_path / "history")
    assert found(run.index, "remember") == [message.id]  # before any catch-up: kept on disk
    assert not settled(run.index).indexing


def test_messages_stored_but_not_indexed_before_a_crash_are_caught_up_at_the_next_start(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    indexed = keep(run.history, run.index, said(TEAM, "crash before"))
    lost = [said(TEAM, f"crash lost {n}") for n in range(3)]
    for message in lost:
        run.history.add_message(message)  # the app died before the index write
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    assert found(run.index, "crash") == [m.id for m in reversed(lost)] + [indexed.id]


def test_a_deleted_index_file_is_rebuilt_from_the_history_in_the_background(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    added = [keep(run.history, run.index, said(TEAM, f"alpha {n}")) for n in range(520)]
    keep(run.history, run.index, said(OTHER, "alpha other"))
    run.close()
    app_folder.clear()
    (tmp_path / "history" / FILE_NAME).unlink()
    run = start(app_folder, tmp_path / "history")
    assert run.index.indexing  # the window is not kept waiting: searches say it
    settled(run.index)
    results = run.index.search("alpha", TEAM, limit=200)
    assert [h.message_id for h in results.results] == [m.id for m in added[::-1][:200]]
    assert found(run.index, "519 ") == [added[-1].id]
    assert found(run.index, "0 ") == [added[0].id]  # the oldest, read last
    assert found(run.index, "other") != []


@pytest.mark.parametrize("where", ["start", "middle"])
def test_a_damaged_index_file_is_made_anew_and_rebuilt(
    tmp_path: Path, app_folder: list[Opened], where: str
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    messages = [keep(run.history, run.index, said(TEAM, f"sturdy {n} " * 40)) for n in range(300)]
    run.close()
    app_folder.clear()
    path = tmp_path / "history" / FILE_NAME
    with path.open("r+b") as file:
        file.seek(0 if where == "start" else path.stat().st_size // 2)
        file.write(b"\xde\xad\xbe\xef garbage " * 400)
    run = start(app_folder, tmp_path / "history")
    # A page damaged in the middle shows at the first read that meets it: that search says
    # the index is being rebuilt (and finds nothing), the next ones find everything.
    newest = [m.id for m in messages[::-1][:200]]
    wait_for(lambda: found(run.index, "sturdy", limit=200) == newest, timeout=20, what="rebuilt")
    settled(run.index)
    assert found(run.index, "299 ") == [messages[-1].id]
    conn = sqlite3.connect(path)  # made anew on disk, not kept in memory
    assert conn.execute("SELECT count(*) FROM found").fetchone() == (300,)
    conn.close()


def test_an_index_file_of_another_history_is_not_trusted(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "one")
    settled(run.index)
    keep(run.history, run.index, said(TEAM, "from the first history"))
    run = start(app_folder, tmp_path / "two")
    settled(run.index)
    mine = keep(run.history, run.index, said(TEAM, "second only"))
    run.close()
    app_folder.clear()
    shutil.copy(tmp_path / "one" / FILE_NAME, tmp_path / "two" / FILE_NAME)
    run = start(app_folder, tmp_path / "two")
    settled(run.index)
    assert found(run.index, "first") == []
    assert found(run.index, "second") == [mine.id]


def test_a_failed_index_write_loses_nothing_and_the_next_start_catches_up(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    before = keep(run.history, run.index, said(TEAM, "steady before"))
    # The index's file refuses writes (as a full or read-only disk would): SQLite's own error.
    assert run.index._file.conn is not None
    run.index._file.conn.execute("PRAGMA query_only = ON")
    refused = keep(run.history, run.index, said(TEAM, "steady refused"))
    after = keep(run.history, run.index, said(TEAM, "steady after"))
    assert run.history.last_messages(TEAM)[0][-2:] == [refused, after]  # the history has them
    assert found(run.index, "steady") == [before.id]  # searches answer with what is indexed
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    assert found(run.index, "steady") == [after.id, refused.id, before.id]


def test_a_channel_deleted_while_its_index_rows_could_not_be_is_removed_at_the_next_start(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    keep(run.history, run.index, said(OTHER, "orphan words"))
    run.history.delete_channel(OTHER)  # the index never heard of it (the app died)
    run.close()
    app_folder.clear()
    names_left = {TEAM: "team"}
    history = LmdbHistory(tmp_path / "history")
    index = SearchIndex(history, names_left)
    try:
        settled(index)
        assert found(index, "orphan") == []
        conn = sqlite3.connect(tmp_path / "history" / FILE_NAME)
        assert conn.execute("SELECT count(*) FROM found").fetchone() == (0,)
        conn.close()
    finally:
        index.close()
        history.close()


def test_when_the_index_file_cannot_be_made_search_works_from_memory(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    message = keep(run.history, run.index, said(TEAM, "still findable"))
    run.close()
    app_folder.clear()
    for leftover in (tmp_path / "history").glob(FILE_NAME + "*"):
        leftover.unlink()
    (tmp_path / "history" / FILE_NAME).mkdir()  # a folder where the file should be
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    assert found(run.index, "findable") == [message.id]
    later = keep(run.history, run.index, said(TEAM, "findable later"))
    assert found(run.index, "findable") == [later.id, message.id]


def test_a_deleted_channel_is_unseen_at_once_and_its_rows_leave_the_file_in_the_background(
    tmp_path: Path, app_folder: list[Opened]
) -> None:
    run = start(app_folder, tmp_path / "history")
    settled(run.index)
    for n in range(30):
        keep(run.history, run.index, said(TEAM, f"bulky words {n}"))
    kept = keep(run.history, run.index, said(OTHER, "bulky but kept"))
    run.history.delete_channel(TEAM)
    run.index.delete_channel(TEAM)
    assert found(run.index, "bulky") == [kept.id]

    def rows_left() -> int:
        conn = sqlite3.connect(tmp_path / "history" / FILE_NAME)
        try:
            query = "SELECT count(*) FROM found WHERE channel = ?"
            return int(conn.execute(query, (TEAM,)).fetchone()[0])
        finally:
            conn.close()

    wait_for(lambda: rows_left() == 0, timeout=20, what="the channel's rows removed")
    assert found(run.index, "bulky") == [kept.id]
