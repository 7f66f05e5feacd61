"""Pages opened at a message (`records_around`) and read onwards (`records_after`), on both
histories: what a search result opens."""

from __future__ import annotations

import pytest

from app.core.ids import new_id
from app.history.base import History, RecordWindow
from app.history.records import decode_messages
from tests.unit.history.samples import add_messages, text_message


def texts(window: RecordWindow | None) -> list[str]:
    assert window is not None
    return [m.parts[0].text for m in decode_messages(window.records)]


def numbered(start: int, stop: int) -> list[str]:
    return [f"message {index}" for index in range(start, stop)]


def test_a_page_around_a_message_in_the_middle_has_fifty_before_it_and_forty_nine_after(
    history: History,
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 300)
    window = history.records_around(channel_id, added[150].id)
    assert texts(window) == numbered(100, 200)
    assert window is not None and (window.more, window.more_after) == (True, True)


@pytest.mark.parametrize(("at", "expected", "more"), [(0, (0, 50), False), (50, (0, 100), False)])
def test_a_page_around_one_of_the_first_messages_starts_at_the_first_and_says_none_are_older(
    history: History, at: int, expected: tuple[int, int], more: bool
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 300)
    window = history.records_around(channel_id, added[at].id)
    assert texts(window) == numbered(*expected)
    assert window is not None and (window.more, window.more_after) == (more, True)


@pytest.mark.parametrize(("at", "start"), [(299, 249), (250, 200)])
def test_a_page_around_one_of_the_last_messages_ends_at_the_last_and_says_none_are_newer(
    history: History, at: int, start: int
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 300)
    window = history.records_around(channel_id, added[at].id)
    assert texts(window) == numbered(start, 300)
    assert window is not None and (window.more, window.more_after) == (True, False)


def test_a_page_around_the_only_message_holds_just_it(history: History) -> None:
    channel_id = new_id()
    (only,) = add_messages(history, channel_id, 1)
    window = history.records_around(channel_id, only.id)
    assert texts(window) == ["message 0"]
    assert window is not None and (window.more, window.more_after) == (False, False)


def test_the_page_around_a_message_stays_in_its_channel(history: History) -> None:
    older, channel_id, newer = new_id(), new_id(), new_id()
    add_messages(history, older, 20)
    added = add_messages(history, channel_id, 3)
    add_messages(history, newer, 20)
    window = history.records_around(channel_id, added[1].id)
    assert [m.id for m in decode_messages(window.records if window else [])] == [
        m.id for m in added
    ]


def test_a_message_that_is_not_kept_has_no_page_around_it(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 5)
    assert history.records_around(channel_id, new_id()) is None
    assert history.records_around(new_id(), added[0].id) is None  # another channel's id
    assert history.records_around("not-a-channel", added[0].id) is None
    assert history.records_after(channel_id, new_id()) is None
    assert history.records_after(channel_id, "") is None


def test_the_messages_after_one_are_the_next_hundred_and_say_whether_newer_exist(
    history: History,
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 250)
    window = history.records_after(channel_id, added[49].id)
    assert texts(window) == numbered(50, 150)
    assert window is not None and (window.more, window.more_after) == (True, True)
    window = history.records_after(channel_id, added[149].id)
    assert texts(window) == numbered(150, 250)
    assert window is not None and window.more_after is False


def test_nothing_comes_after_the_last_message(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 3)
    window = history.records_after(channel_id, added[-1].id)
    assert texts(window) == []
    assert window is not None and window.more_after is False


def test_a_message_replaced_where_it_stands_keeps_its_place_in_the_page_around_it(
    history: History,
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 5)
    history.add_message(text_message(channel_id, "changed", message_id=added[2].id))
    window = history.records_around(channel_id, added[2].id, before=1, after=1)
    assert texts(window) == ["message 1", "changed", "message 3"]
    assert window is not None and (window.more, window.more_after) == (True, True)
