"""File change records in both histories: kept with their texts, listed oldest first,
updated, and deleted with their channel."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history.base import History
from app.history.change_records import ChangeTexts
from app.history.lmdb_store import LmdbHistory
from app.history.memory import MemoryHistory
from app.models.changes import FileChange


@pytest.fixture(params=["lmdb", "memory"])
def history(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[History]:
    opened: History = LmdbHistory(tmp_path / "db") if request.param == "lmdb" else MemoryHistory()
    yield opened
    opened.close()


def change(channel: str, path: str = "/w/a.txt") -> FileChange:
    return FileChange(
        id=new_id(), channel=channel, message_id=new_id(), agent="a", path=path, created_at="t"
    )


def test_changes_are_listed_oldest_first_per_channel_with_their_texts(history: History) -> None:
    room, other = new_id(), new_id()
    first, second, elsewhere = change(room), change(room, "/w/b.txt"), change(other)
    history.add_change(first, ChangeTexts(None, "new"))
    history.add_change(elsewhere, ChangeTexts("x", "y"))
    big = "é" * 3_000_000
    history.add_change(second, ChangeTexts(big, big + "!"))
    assert [c.id for c in history.changes(room)] == [first.id, second.id]
    assert history.change_texts(room, first.id) == ChangeTexts(None, "new")
    assert history.change_texts(room, second.id) == ChangeTexts(big, big + "!")
    assert history.change_texts(room, "nope") is None


def test_a_change_is_marked_reverted_in_place(history: History) -> None:
    room = new_id()
    kept = change(room)
    history.add_change(kept, ChangeTexts("a", "b"))
    kept.reverted = True
    history.put_change(kept)
    assert history.changes(room)[0].reverted
    assert history.change_texts(room, kept.id) == ChangeTexts("a", "b")


def test_changes_go_with_their_channel(history: History) -> None:
    room, other = new_id(), new_id()
    gone, stays = change(room), change(other)
    history.add_change(gone, ChangeTexts("a", "b"))
    history.add_change(stays, ChangeTexts("c", "d"))
    history.delete_channel(room)
    assert history.changes(room) == []
    assert history.change_texts(room, gone.id) is None
    assert [c.id for c in history.changes(other)] == [stays.id]
