"""A damaged history is reported, never passed on: a real LMDB history is damaged on disk (a
record's bytes replaced, a page zeroed, the data file emptied) and every read path is checked:
opening, the page's reads (`last_records`, `records_before`), the typed reads, the agents'
context (`messages_after`), the channel list and the commands."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lmdb
import pytest

from app.core.ids import new_id
from app.history.data_file import DATA_FILE
from app.history.failures import HistoryUnreadable
from app.history.lmdb_store import LmdbHistory
from app.history.lock import FolderLock
from app.history.memory import MemoryHistory
from app.history.open import open_history
from app.models.conversation import Command, Message
from app.paths import data_dir
from tests.integration.history.damage import (
    BAD_RECORDS,
    another_channels_message,
    damage_channel_record,
    damage_commands,
    damage_record,
    read_record,
    zero_pages_holding,
)
from tests.unit.history.samples import add_messages, stored_channel

MESSAGES = 250
DAMAGED = 200  # the damaged record's position: in the last page (151 to 250)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "history"


@pytest.fixture
def channel(folder: Path) -> tuple[str, list[Message]]:
    """A closed history with one channel of 250 messages ("message 0" … "message 249")."""
    history = LmdbHistory(folder)
    stored = stored_channel(name="kept")
    history.put_channel(stored)
    added = add_messages(history, stored.channel.id, MESSAGES)
    history.put_commands("alpha", [Command(name="review")])
    history.close()
    return stored.channel.id, added


@pytest.fixture
def reopened(folder: Path) -> Iterator[LmdbHistory]:
    history = LmdbHistory(folder)
    yield history
    history.close()


def bad_values(folder: Path, channel_id: str) -> dict[str, bytes]:
    elsewhere = another_channels_message(read_record(folder, channel_id, DAMAGED), new_id())
    spaced = b" " + read_record(folder, channel_id, DAMAGED)  # valid JSON, not the stored form
    return {**BAD_RECORDS, "another-channel": elsewhere, "not-stored-form": spaced}


def as_page(records: list[bytes]) -> list[dict]:
    """The records as the page parses them (one JSON list, as app/channels/reading.py sends)."""
    return json.loads(b"[" + b",".join(records) + b"]")


@pytest.mark.parametrize(
    "kind",
    [*BAD_RECORDS, "another-channel", "not-stored-form"],
)
def test_a_damaged_record_is_replaced_by_a_note_on_every_read_and_reported(
    folder: Path, channel: tuple[str, list[Message]], kind: str
) -> None:
    channel_id, added = channel
    damage_record(folder, channel_id, DAMAGED, bad_values(folder, channel_id)[kind])
    history = LmdbHistory(folder)
    heard: list[str] = []
    history.on_problem(heard.append)
    try:
        last = as_page(history.last_records(channel_id).records)
        assert len(last) == 100
        note = last[DAMAGED - (MESSAGES - 100) - 1]
        assert (note["id"], note["role"], note["channel"]) == (
            f"damaged-{DAMAGED}",
            "system",
            channel_id,
        )
        assert note["error"].startswith(
            "A message could not be read here: this conversation's history is damaged "
            f"(record {DAMAGED}: it "
        )
        others = [m for m in last if m is not note]
        assert others == [m.wire() for m in added[-100:] if m.id != added[DAMAGED - 1].id]
        assert heard == [history.problem]
        assert f"The history in {folder} is damaged (record {DAMAGED} of channel" in heard[0]

        # Read again (its neighbours are remembered as checked): still the note, never the bytes.
        again = as_page(history.last_records(channel_id).records)
        assert again == last
        typed, more = history.last_messages(channel_id)
        assert more and [m.wire() for m in typed] == last

        # Older pages around it: before a later message, and before the note itself.
        around = as_page(history.records_before(channel_id, added[DAMAGED + 20].id).records)
        assert note in around
        before_note = history.records_before(channel_id, note["id"])
        assert as_page(before_note.records) == [
            m.wire() for m in added[DAMAGED - 101 : DAMAGED - 1]
        ]
        assert before_note.more

        # The agents' context leaves it out.
        context = history.messages_after(channel_id, "", 1000)
        assert context == [m for m in added if m.id != added[DAMAGED - 1].id]
        assert heard == [history.problem]  # said once, whatever the number of reads
    finally:
        history.close()


def test_records_read_once_are_not_checked_again_but_new_damage_elsewhere_is_found(
    folder: Path, channel: tuple[str, list[Message]]
) -> None:
    channel_id, added = channel
    history = LmdbHistory(folder)
    assert len(history.last_records(channel_id).records) == 100
    assert history.problem == ""
    history.close()
    damage_record(folder, channel_id, 20, BAD_RECORDS["invalid-json"])
    history = LmdbHistory(folder)  # another run of the app: nothing is remembered as checked
    try:
        page = as_page(history.records_before(channel_id, added[99].id).records)
        assert page[19]["id"] == "damaged-20"
        assert "record 20 of channel" in history.problem
    finally:
        history.close()


def test_a_zeroed_page_makes_the_reads_that_need_it_fail_with_a_clear_error(
    folder: Path, channel: tuple[str, list[Message]]
) -> None:
    channel_id, added = channel
    assert zero_pages_holding(folder, b'"message 60"') >= 1
    history = LmdbHistory(folder)
    heard: list[str] = []
    history.on_problem(heard.append)
    try:
        assert len(history.last_records(channel_id).records) == 100  # other pages still read
        with pytest.raises(HistoryUnreadable) as refused:
            history.records_before(channel_id, added[80].id)
        assert str(refused.value).startswith(
            "this conversation's history is damaged and cannot be read ("
        )
        assert history.messages_after(channel_id, "", 1000) == []  # the agent gets nothing
        assert heard and heard[0].startswith(f"The history in {folder} is damaged (")
    finally:
        history.close()


def test_a_damaged_channel_record_is_left_out_of_the_list_and_reported(
    folder: Path, channel: tuple[str, list[Message]]
) -> None:
    channel_id, _added = channel
    broken = new_id()
    damage_channel_record(folder, broken, b'{"channel":{"id":"' + broken.encode() + b'"')
    history = LmdbHistory(folder)
    try:
        assert [s.channel.id for s in history.channels()] == [channel_id]
        assert f"the record of channel {broken}: it is not valid JSON" in history.problem
    finally:
        history.close()


def test_damaged_commands_read_as_none_and_are_reported(
    folder: Path, channel: tuple[str, list[Message]]
) -> None:
    damage_commands(folder, "alpha", b'[{"name":')
    history = LmdbHistory(folder)
    try:
        assert history.commands("alpha") == []
        assert "the commands of alpha: it is not valid JSON" in history.problem
    finally:
        history.close()


def test_an_emptied_data_file_is_refused_as_damaged_and_left_as_it_is(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    history = open_history(config)
    history.put_channel(stored_channel())
    history.close()
    data = data_dir(config) / "data.mdb"
    data.write_bytes(b"")  # what a failed copy or sync leaves
    history = open_history(config)
    try:
        assert isinstance(history, MemoryHistory)
        assert history.problem == (
            f"The history in {data.parent} cannot be opened: its data file ({data}) is empty: "
            "what it held was lost. It is left as it is; move the folder away to start a new "
            "history. History is kept in memory until the app closes."
        )
    finally:
        history.close()
    assert data.stat().st_size == 0
    FolderLock.take(data.parent).release()  # the failed open let the lock go


def test_an_empty_data_file_left_by_a_first_start_opens_as_a_new_history(
    folder: Path,
) -> None:
    # A first start on a full disk creates data.mdb but cannot write its first pages.
    folder.mkdir()
    (folder / "data.mdb").write_bytes(b"")
    history = LmdbHistory(folder)
    try:
        assert history.channels() == [] and history.problem == ""
        assert (folder / "data.mdb").stat().st_size > 0
    finally:
        history.close()


def test_damage_found_at_open_gives_memory_and_says_where_the_file_is(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    history = open_history(config)
    channel_id = new_id()
    history.put_channel(stored_channel(channel_id))
    add_messages(history, channel_id, 150)
    history.close()
    # The first page of messages: opening reads each sub-database's ends, so it shows there.
    assert zero_pages_holding(data_dir(config), b'"message 1"') >= 1
    history = open_history(config)
    try:
        assert isinstance(history, MemoryHistory)
        assert history.problem == (
            f"The history in {data_dir(config)} cannot be opened: the history file is damaged. "
            "History is kept in memory until the app closes."
        )
    finally:
        history.close()
    FolderLock.take(data_dir(config)).release()


@pytest.fixture
def mapped_as_on_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """LMDB 0.9 on Windows sets the data file to the map's size when it maps it (zeros past
    the old end); simulated elsewhere: every open lengthens the file so."""
    if sys.platform == "win32":
        return  # the real thing
    open_env = lmdb.open

    def open_lengthening(path: str, **options: Any) -> lmdb.Environment:
        env = open_env(path, **options)
        data = Path(path) / DATA_FILE
        os.truncate(data, max(data.stat().st_size, env.info()["map_size"]))
        return env

    monkeypatch.setattr(lmdb, "open", open_lengthening)


@pytest.mark.usefixtures("mapped_as_on_windows")
def test_a_cut_short_file_is_refused_where_mapping_lengthens_it_and_keeps_its_length(
    folder: Path, channel: tuple[str, list[Message]]
) -> None:
    data = folder / DATA_FILE
    os.truncate(data, 8192)  # the two meta pages survive; the tree they point to is gone
    with pytest.raises(lmdb.CorruptedError, match="cut short"):
        LmdbHistory(folder)  # refused on the length it had, not the one mapping gave it
    assert data.stat().st_size == 8192  # left as it was found


@pytest.mark.usefixtures("mapped_as_on_windows")
def test_a_whole_file_lengthened_by_mapping_opens_with_everything_in_it(
    folder: Path, channel: tuple[str, list[Message]]
) -> None:
    channel_id, added = channel
    history = LmdbHistory(folder)
    try:
        assert history.messages_after(channel_id, "", 1000) == added
        assert (folder / DATA_FILE).stat().st_size == history._lmdb.env.info()["map_size"]
    finally:
        history.close()
