"""A write the history cannot make raises one sentence that says why, keeps nothing of it, and
leaves the history usable: a real full disk (a tiny tmpfs) and a map at its largest size."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history import lmdb_map, lmdb_store
from app.history.failures import HistoryWriteError
from app.history.lmdb_store import LmdbHistory
from tests.integration.channels.full_disk import TinyDisk, tiny_disk_on
from tests.unit.history.samples import add_messages, stored_channel, text_message


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[TinyDisk]:
    folder = tmp_path / "disk"
    folder.mkdir()
    yield from tiny_disk_on(folder)


def test_a_write_on_a_full_disk_says_so_and_works_again_once_space_is_freed(
    tiny_disk: TinyDisk,
) -> None:
    folder = tiny_disk.folder / "history"
    history = LmdbHistory(folder)
    try:
        stored = stored_channel()
        history.put_channel(stored)
        kept = add_messages(history, stored.channel.id, 3)
        tiny_disk.fill()
        with pytest.raises(HistoryWriteError) as refused:
            # Large: LMDB reuses the pages it freed, so a small write may still fit a full disk.
            history.add_message(text_message(stored.channel.id, "lost " * 60_000))
        assert str(refused.value) == f"the disk is full (the history is in {folder})"
        assert history.last_messages(stored.channel.id) == (kept, False)
        assert history.problem == ""  # freeing space cures it: not the history's problem

        tiny_disk.free()
        later = text_message(stored.channel.id, "kept after all")
        history.add_message(later)
        assert history.last_messages(stored.channel.id) == ([*kept, later], False)
    finally:
        history.close()


def test_a_write_too_big_for_the_largest_map_says_so_and_the_history_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 256 * 1024)
    monkeypatch.setattr(lmdb_map, "MAX_MAP_SIZE", 1024 * 1024)
    history = LmdbHistory(tmp_path / "history")
    try:
        channel_id = new_id()
        kept = add_messages(history, channel_id, 2)
        with pytest.raises(HistoryWriteError) as refused:
            history.add_message(text_message(channel_id, "x" * 3_000_000))
        assert str(refused.value) == "the history reached the largest size it may grow to"
        assert history._lmdb.env.info()["map_size"] == 1024 * 1024  # it grew as far as allowed
        small = text_message(channel_id, "small")
        history.add_message(small)
        assert history.last_messages(channel_id) == ([*kept, small], False)
    finally:
        history.close()
