"""The memory of which stored positions were checked: ranges per channel, merged as they
touch, so a long conversation read page by page stays one range."""

from __future__ import annotations

from app.history.checked import CheckedPositions

CHANNEL = b"C" * 26
OTHER = b"O" * 26


def test_nothing_is_checked_at_first() -> None:
    assert not CheckedPositions().covers(CHANNEL, 1, 1)


def test_a_checked_range_covers_what_is_inside_it_and_nothing_beyond() -> None:
    checked = CheckedPositions()
    checked.add(CHANNEL, 101, 200)
    assert checked.covers(CHANNEL, 101, 200)
    assert checked.covers(CHANNEL, 150, 160)
    assert not checked.covers(CHANNEL, 100, 150)
    assert not checked.covers(CHANNEL, 150, 201)
    assert not checked.covers(OTHER, 150, 160)


def test_pages_read_backwards_and_messages_written_at_the_end_merge_into_one_range() -> None:
    checked = CheckedPositions()
    checked.add(CHANNEL, 901, 1000)
    for first in range(801, 0, -100):
        checked.add(CHANNEL, first, first + 99)
    for written in range(1001, 1011):
        checked.add(CHANNEL, written, written)
    assert checked._ranges[CHANNEL] == ((1, 1010),)


def test_a_gap_keeps_two_ranges_and_a_span_across_it_is_not_covered() -> None:
    checked = CheckedPositions()
    checked.add(CHANNEL, 1, 49)
    checked.add(CHANNEL, 51, 100)  # position 50 was damaged: checked again at every read
    assert checked.covers(CHANNEL, 1, 49) and checked.covers(CHANNEL, 51, 100)
    assert not checked.covers(CHANNEL, 40, 60)
    checked.add(CHANNEL, 50, 50)  # replaced by a write of this process
    assert checked.covers(CHANNEL, 1, 100)


def test_a_deleted_channel_is_forgotten() -> None:
    checked = CheckedPositions()
    checked.add(CHANNEL, 1, 10)
    checked.forget(CHANNEL)
    assert not checked.covers(CHANNEL, 1, 10)
