"""What only the LMDB history does: persistence, key layout, map growth, and refusing bad ids.
(Formats and their conversion: test_lmdb_format.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import lmdb
import pytest

from app.core.ids import new_id
from app.history import lmdb_store
from app.history.lmdb_format import POSITIONS_DB, TIMELINE_DB, position_bytes
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Command
from tests.unit.history.formats import write_format_1
from tests.unit.history.samples import add_messages, rich_message, stored_channel, text_message


def test_channels_messages_commands_and_values_survive_closing_and_reopening(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "history"
    history = LmdbHistory(folder)
    stored = stored_channel(name="team", last_responder="alpha")
    history.put_channel(stored)
    added = [*add_messages(history, stored.channel.id, 120), rich_message(stored.channel.id)]
    history.add_message(added[-1])
    history.put_commands("alpha", [Command(name="review", hint="path")])
    history.put_value("last-viewed", stored.channel.id.encode())
    history.close()

    reopened = LmdbHistory(folder)
    try:
        assert reopened.channels() == [stored]
        assert reopened.last_messages(stored.channel.id) == (added[-100:], True)
        assert reopened.messages_before(stored.channel.id, added[-100].id) == (added[:-100], False)
        assert reopened.commands("alpha") == [Command(name="review", hint="path")]
        assert reopened.value("last-viewed") == stored.channel.id.encode()
    finally:
        reopened.close()


def test_messages_are_keyed_by_channel_then_position_with_wire_json_values(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "history"
    history = LmdbHistory(folder)
    channel_id = new_id()
    first, second = rich_message(channel_id), text_message(channel_id, "second")
    history.add_message(first)
    history.add_message(second)
    history.close()

    env = lmdb.open(str(folder), max_dbs=6, readonly=True)
    try:
        with env.begin() as txn:
            timeline = list(txn.cursor(db=env.open_db(TIMELINE_DB, txn=txn, create=False)))
            positions = list(txn.cursor(db=env.open_db(POSITIONS_DB, txn=txn, create=False)))
    finally:
        env.close()
    prefix = channel_id.encode()
    assert [key for key, _ in timeline] == [prefix + position_bytes(1), prefix + position_bytes(2)]
    assert json.loads(timeline[0][1]) == first.wire()
    assert sorted(positions) == sorted(
        [
            (prefix + first.id.encode(), position_bytes(1)),
            (prefix + second.id.encode(), position_bytes(2)),
        ]
    )


def test_a_message_kept_again_is_replaced_where_it_stands(tmp_path: Path) -> None:
    history = LmdbHistory(tmp_path / "history")
    try:
        channel_id = new_id()
        added = add_messages(history, channel_id, 3)
        added[0].parts[0].text = "edited"
        history.add_message(added[0])
        assert history.last_messages(channel_id) == (added, False)
    finally:
        history.close()


def test_the_map_doubles_until_a_write_fits_and_everything_stays_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 256 * 1024)
    folder = tmp_path / "history"
    history = LmdbHistory(folder)
    channel_id = new_id()
    # Many small writes, then one message several times the whole map's first size.
    added = [text_message(channel_id, f"{index} " + "x" * 2000) for index in range(300)]
    added.append(text_message(channel_id, "big " + "y" * 3_000_000))
    for message in added:
        history.add_message(message)
    assert history._lmdb.env.info()["map_size"] >= 4 * 1024 * 1024
    history.close()

    reopened = LmdbHistory(folder)
    try:
        assert reopened.messages_after(channel_id, "", 1000) == added
    finally:
        reopened.close()


def test_a_channel_id_of_another_width_is_refused_and_never_matches_messages(
    tmp_path: Path,
) -> None:
    history = LmdbHistory(tmp_path / "history")
    try:
        stored = stored_channel()
        history.put_channel(stored)
        added = add_messages(history, stored.channel.id, 3)
        for bad in ("", "short", stored.channel.id + "X", stored.channel.id[:-1] + "é"):
            with pytest.raises(ValueError, match="26"):
                history.add_message(text_message(bad, "no"))
            with pytest.raises(ValueError, match="26"):
                history.put_channel(stored_channel(bad))
            assert history.last_messages(bad) == ([], False)
            assert history.messages_after(bad, "", 10) == []
            # "" must not be taken as the prefix of every key: nothing else may go.
            history.delete_channel(bad)
        assert history.channels() == [stored]
        assert history.last_messages(stored.channel.id) == (added, False)
    finally:
        history.close()


def test_closing_twice_is_harmless(tmp_path: Path) -> None:
    history = LmdbHistory(tmp_path / "history")
    history.close()
    history.close()


def test_a_folder_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "history"
    folder.mkdir()
    (folder / "data.mdb").write_bytes(b"not a database " * 1000)
    with pytest.raises(lmdb.InvalidError):
        LmdbHistory(folder)


def test_a_database_reopened_with_a_map_only_as_large_as_its_data_still_opens_and_grows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Written in one transaction by another program: no free page left, and LMDB reopens a
    # database bigger than the initial map with a map of exactly its data's size, so creating
    # the missing sub-databases, converting the format and the first write all need more room.
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 64 * 1024)
    folder = tmp_path / "history"
    channel_id = new_id()
    written = [text_message(channel_id, f"{index} " + "z" * 300) for index in range(3000)]
    write_format_1(folder, written)
    history = LmdbHistory(folder)
    try:
        history.put_channel(stored_channel(channel_id))
        history.add_message(text_message(channel_id, "one more"))
        messages, more = history.last_messages(channel_id, 1)
        assert (messages[0].parts[0].text, more) == ("one more", True)
        assert len(history.messages_after(channel_id, "", 10_000)) == 3001
    finally:
        history.close()
