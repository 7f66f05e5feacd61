"""The history database's format: a new one is format 2, format 1 is converted when opened
(order, content and paging kept), a newer format is refused and left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history.lmdb_format import HistoryFormatError
from app.history.lmdb_store import LmdbHistory
from tests.unit.history.formats import read_format, set_format, write_format_1
from tests.unit.history.samples import adjacent_ids, rich_message, stored_channel, text_message


def test_a_new_history_is_written_in_format_2(tmp_path: Path) -> None:
    LmdbHistory(tmp_path / "h").close()
    assert read_format(tmp_path / "h") == b"2"


def test_a_format_1_history_is_converted_with_its_messages_in_the_order_it_showed(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "h"
    first, second = adjacent_ids(2)  # neighbouring channels: each keeps only its own messages
    ones = [text_message(first, f"one {index}") for index in range(130)]
    twos = [rich_message(second), text_message(second, "two")]
    channels = [stored_channel(first, name="one"), stored_channel(second, name="two")]
    write_format_1(folder, ones + twos, channels)

    history = LmdbHistory(folder)
    try:
        assert history.channels() == channels
        assert history.last_messages(first) == (ones[-100:], True)
        assert history.messages_before(first, ones[-100].id) == (ones[:-100], False)
        assert history.last_messages(second) == (twos, False)
        assert history.messages_after(first, ones[127].id, 10) == ones[128:]
        later = text_message(first, "after the conversion")
        history.add_message(later)
        assert history.last_messages(first, 2) == ([ones[-1], later], True)
    finally:
        history.close()
    assert read_format(folder) == b"2"
    reopened = LmdbHistory(folder)  # converted once: opening again changes nothing
    try:
        assert reopened.last_messages(second) == (twos, False)
    finally:
        reopened.close()


def test_a_newer_format_is_refused_and_left_untouched(tmp_path: Path) -> None:
    folder = tmp_path / "h"
    history = LmdbHistory(folder)
    channel_id = new_id()
    history.add_message(text_message(channel_id, "kept"))
    history.close()
    set_format(folder, b"3")
    with pytest.raises(HistoryFormatError, match="newer version of Sidekicks"):
        LmdbHistory(folder)
    assert read_format(folder) == b"3"
    set_format(folder, b"2")
    again = LmdbHistory(folder)
    try:
        assert [m.parts[0].text for m in again.last_messages(channel_id)[0]] == ["kept"]
    finally:
        again.close()
