"""The undecoded record reads the page uses (`last_records`, `records_before`): the same pages
as the typed reads, as the wire JSON the page receives, and safe from any thread."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history import lmdb_store
from app.history.base import History, HistoryClosed
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Message
from tests.unit.history.samples import (
    add_messages,
    ids,
    rich_message,
    text_message,
)


def decoded(records: list[bytes]) -> list[Message]:
    return [Message.model_validate_json(record) for record in records]


@pytest.mark.parametrize("count", [0, 1, 100, 101, 250])
def test_record_pages_are_the_typed_pages_undecoded(history: History, count: int) -> None:
    channel_id = new_id()
    neighbour = new_id()  # a newer channel right after: pages must not reach into it
    added = add_messages(history, channel_id, count)
    add_messages(history, neighbour, 3)
    page = history.last_records(channel_id)
    assert (decoded(page.records), page.more) == history.last_messages(channel_id)
    assert page.ids() == {m.id.encode() for m in added[-100:]}
    if added:
        before = history.records_before(channel_id, added[-1].id)
        assert (decoded(before.records), before.more) == history.messages_before(
            channel_id, added[-1].id
        )


def test_a_record_is_exactly_the_json_the_page_gets_for_the_message(history: History) -> None:
    channel_id = new_id()
    message = rich_message(channel_id)
    history.add_message(message)
    (record,) = history.last_records(channel_id).records
    assert json.loads(record) == message.wire()


def test_reading_a_closed_history_raises_history_closed(history: History) -> None:
    channel_id = new_id()
    add_messages(history, channel_id, 2)
    history.close()
    with pytest.raises(HistoryClosed):
        history.last_records(channel_id)
    with pytest.raises(HistoryClosed):
        history.records_before(channel_id, new_id())


def test_pages_read_from_another_thread_while_messages_are_written_are_always_whole(
    history: History, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A small map, so the writes grow it (set_mapsize) while the reader thread reads.
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 256 * 1024)
    if isinstance(history, LmdbHistory):
        history.close()
        history = LmdbHistory(history.folder.parent / "small")
    channel_id = new_id()
    written: list[str] = []
    problems: list[str] = []
    done = threading.Event()

    def read() -> None:
        pages = 0
        while not done.is_set() or pages == 0:
            known = len(written)  # every message written before this read must be in it
            page = history.last_records(channel_id, 50)
            got = ids(decoded(page.records))
            if got != sorted(got) or len(got) > 50:
                problems.append(f"page out of order or too long: {got}")
            if known and written[known - 1] not in got and len(got) < 50:
                problems.append(f"{written[known - 1]} missing")
            pages += 1
            time.sleep(0)  # lets the writer have the GIL: a tight loop would starve it

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for index in range(200):
            message = text_message(channel_id, f"{index} " + "x" * 3000)
            history.add_message(message)
            written.append(message.id)
    finally:
        done.set()
        reader.join(10)
    assert not reader.is_alive()
    assert problems == []
    assert ids(decoded(history.last_records(channel_id, 50).records)) == written[-50:]
    if isinstance(history, LmdbHistory):
        assert history._lmdb.env.info()["map_size"] > 256 * 1024  # it grew during the reads
    history.close()


def test_closing_while_another_thread_reads_ends_its_reads_cleanly(tmp_path: Path) -> None:
    history = LmdbHistory(tmp_path / "history")
    channel_id = new_id()
    add_messages(history, channel_id, 150)
    outcomes: list[str] = []
    reading = threading.Event()

    def read() -> None:
        try:
            while True:
                assert len(history.last_records(channel_id).records) == 100
                reading.set()
        except HistoryClosed:
            outcomes.append("closed")
        except Exception as err:  # the test fails on anything else
            outcomes.append(repr(err))

    reader = threading.Thread(target=read)
    reader.start()
    assert reading.wait(5)
    history.close()
    reader.join(5)
    assert outcomes == ["closed"]
