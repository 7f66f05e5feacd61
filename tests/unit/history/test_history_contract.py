"""The `History` contract, run against both implementations: in memory and LMDB."""

from __future__ import annotations

import pytest

from app.core.ids import new_id
from app.history.base import History, MemberSession
from app.models.conversation import Command, Usage
from tests.unit.history.samples import (
    add_messages,
    adjacent_ids,
    ids,
    rich_message,
    stored_channel,
    text_message,
)

COUNTS = [0, 1, 99, 100, 101, 250]


# Channels


def test_a_new_history_has_no_channels_messages_or_commands(history: History) -> None:
    assert history.problem == ""
    assert history.channels() == []
    assert history.last_messages(new_id()) == ([], False)
    assert history.commands("alpha") == []


def test_channels_are_listed_oldest_first_whatever_order_they_were_written_in(
    history: History,
) -> None:
    channels = [stored_channel(name=f"c{index}") for index in range(5)]
    for index in (3, 0, 4, 1, 2):
        history.put_channel(channels[index])
    assert history.channels() == channels


def test_putting_a_channel_again_replaces_its_record(history: History) -> None:
    first = stored_channel(name="first")
    history.put_channel(first)
    changed = first.model_copy(deep=True)
    changed.channel.name = "renamed"
    changed.channel.members = ["beta"]
    changed.last_responder = "beta"
    changed.sessions = {
        "beta": MemberSession(session_id="s-1", last_seen=new_id(), usage=Usage(used=5, size=9))
    }
    history.put_channel(changed)
    assert history.channels() == [changed]


def test_a_channel_keeps_its_members_sessions_and_last_responder(history: History) -> None:
    stored = stored_channel(
        name="team",
        last_responder="alpha",
        sessions={
            "alpha": MemberSession(session_id="abc", last_seen=new_id()),
            "beta": MemberSession(usage=Usage(used=1200, size=200000)),
        },
    )
    history.put_channel(stored)
    assert history.channels() == [stored]


# Reading pages of messages


@pytest.mark.parametrize("count", COUNTS)
def test_last_messages_are_the_newest_hundred_oldest_first_and_say_if_older_exist(
    history: History, count: int
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, count)
    messages, more = history.last_messages(channel_id)
    assert messages == added[-100:]
    assert more is (count > 100)


@pytest.mark.parametrize("count", COUNTS)
def test_paging_back_with_messages_before_visits_every_message_once(
    history: History, count: int
) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, count)
    seen, more = history.last_messages(channel_id)
    while more:
        older, more = history.messages_before(channel_id, seen[0].id)
        assert older, "more=True promised older messages"
        seen = older + seen
    assert seen == added


@pytest.mark.parametrize("count", COUNTS)
def test_messages_before_the_newest_are_the_hundred_before_it(history: History, count: int) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, count)
    if not added:
        assert history.messages_before(channel_id, new_id()) == ([], False)
        return
    messages, more = history.messages_before(channel_id, added[-1].id)
    assert messages == added[-101:-1]
    assert more is (count - 1 > 100)


def test_there_is_nothing_before_the_first_message(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 5)
    assert history.messages_before(channel_id, added[0].id) == ([], False)
    assert history.messages_before(channel_id, "") == ([], False)


def test_messages_before_the_second_message_are_only_the_first(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 5)
    assert history.messages_before(channel_id, added[1].id) == ([added[0]], False)


def test_nothing_is_before_an_id_that_is_not_kept(history: History) -> None:
    channel_id = new_id()
    first, second, third = adjacent_ids(3)
    history.add_message(text_message(channel_id, "a", first))
    history.add_message(text_message(channel_id, "c", third))
    assert history.messages_before(channel_id, second) == ([], False)
    assert history.messages_before(channel_id, "0" * 26) == ([], False)
    assert history.messages_before(channel_id, "x" * 10_000) == ([], False)


def test_a_smaller_limit_gives_a_smaller_page(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 10)
    assert history.last_messages(channel_id, 1) == ([added[-1]], True)
    assert history.last_messages(channel_id, 10) == (added, False)
    assert history.messages_before(channel_id, added[5].id, 2) == (added[3:5], True)
    assert history.messages_before(channel_id, added[2].id, 2) == (added[0:2], False)


def test_a_zero_limit_returns_nothing_but_still_says_whether_messages_exist(
    history: History,
) -> None:
    channel_id = new_id()
    assert history.last_messages(channel_id, 0) == ([], False)
    added = add_messages(history, channel_id, 3)
    assert history.last_messages(channel_id, 0) == ([], True)
    assert history.messages_before(channel_id, added[1].id, 0) == ([], True)
    assert history.messages_before(channel_id, added[0].id, 0) == ([], False)
    assert history.messages_after(channel_id, "", 0) == []


def test_an_unknown_channel_has_no_messages(history: History) -> None:
    add_messages(history, new_id(), 3)
    unknown = new_id()
    assert history.last_messages(unknown) == ([], False)
    assert history.messages_before(unknown, new_id()) == ([], False)
    assert history.messages_after(unknown, "", 100) == []


def test_messages_come_back_in_the_order_they_were_kept_not_their_ids_order(
    history: History,
) -> None:
    # A message typed while an answer was still to start has an older id than the answer,
    # yet is sent (and kept) after it: the page showed it there.
    channel_id = new_id()
    messages = [text_message(channel_id, str(index)) for index in range(6)]
    order = (2, 0, 5, 1, 4, 3)
    for index in order:
        history.add_message(messages[index])
    kept = [messages[index] for index in order]
    assert history.last_messages(channel_id) == (kept, False)
    assert history.messages_before(channel_id, messages[1].id) == (kept[:3], False)
    assert history.messages_after(channel_id, messages[1].id, 10) == kept[4:]


def test_a_message_kept_again_keeps_its_place(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 4)
    added[1].parts[0].text = "edited"
    history.add_message(added[1])
    assert history.last_messages(channel_id) == (added, False)


# What an agent has not seen yet


def test_messages_after_nothing_are_the_channels_last_ones(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 30)
    assert history.messages_after(channel_id, "", 20) == added[-20:]
    assert history.messages_after(channel_id, "", 100) == added


def test_messages_after_an_id_are_only_the_newer_ones_at_most_limit(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 30)
    assert history.messages_after(channel_id, added[24].id, 20) == added[25:]
    assert history.messages_after(channel_id, added[4].id, 20) == added[10:]
    assert history.messages_after(channel_id, added[4].id, 1) == added[-1:]


def test_messages_after_the_newest_are_none(history: History) -> None:
    channel_id = new_id()
    added = add_messages(history, channel_id, 3)
    assert history.messages_after(channel_id, added[-1].id, 20) == []


def test_messages_after_an_id_that_is_not_kept_are_the_latest_ones(history: History) -> None:
    # An agent whose last seen message is gone is given the latest messages, not nothing.
    channel_id = new_id()
    added = add_messages(history, channel_id, 30)
    assert history.messages_after(channel_id, new_id(), 20) == added[-20:]
    assert history.messages_after(channel_id, "x" * 10_000, 5) == added[-5:]


# Deleting


def test_deleting_a_channel_removes_its_record_and_only_its_messages(history: History) -> None:
    # Adjacent channel ids: the deleted range has neighbours on both sides, key for key.
    before, doomed, after = (stored_channel(channel_id) for channel_id in adjacent_ids(3))
    kept: dict[str, list[str]] = {before.channel.id: [], after.channel.id: []}
    for stored in (before, doomed, after):
        history.put_channel(stored)
    for round_index in range(150):
        for stored in (before, doomed, after):
            message = text_message(stored.channel.id, f"{round_index}")
            history.add_message(message)
            kept.get(stored.channel.id, []).append(message.id)

    history.delete_channel(doomed.channel.id)

    assert history.channels() == [before, after]
    assert history.last_messages(doomed.channel.id) == ([], False)
    for channel_id, expected in kept.items():
        assert ids(history.messages_after(channel_id, "", 1000)) == expected


def test_deleting_an_unknown_channel_changes_nothing(history: History) -> None:
    stored = stored_channel()
    history.put_channel(stored)
    added = add_messages(history, stored.channel.id, 3)
    history.delete_channel(new_id())
    history.delete_channel("")
    assert history.channels() == [stored]
    assert history.last_messages(stored.channel.id) == (added, False)


def test_a_deleted_channel_can_be_created_again_empty(history: History) -> None:
    stored = stored_channel()
    history.put_channel(stored)
    add_messages(history, stored.channel.id, 3)
    history.delete_channel(stored.channel.id)
    history.put_channel(stored)
    assert history.channels() == [stored]
    assert history.last_messages(stored.channel.id) == ([], False)


# Messages and commands as values


def test_a_message_keeps_every_field_and_part_kind(history: History) -> None:
    channel_id = new_id()
    message = rich_message(channel_id)
    history.add_message(message)
    assert history.last_messages(channel_id) == ([message], False)
    assert history.messages_after(channel_id, "", 5) == [message]


def test_changing_a_message_after_adding_or_reading_it_does_not_change_the_history(
    history: History,
) -> None:
    channel_id = new_id()
    message = text_message(channel_id, "original")
    history.add_message(message)
    message.parts[0].text = "changed after adding"
    read, _ = history.last_messages(channel_id)
    read[0].parts[0].text = "changed after reading"
    again, _ = history.last_messages(channel_id)
    assert again[0].parts[0].text == "original"


def test_commands_are_kept_per_agent_and_replaced_by_the_next_announcement(
    history: History,
) -> None:
    first = [Command(name="review", description="Review the diff", hint="path"), Command(name="x")]
    history.put_commands("alpha", first)
    history.put_commands("beta", [Command(name="other")])
    assert history.commands("alpha") == first
    history.put_commands("alpha", [Command(name="plan")])
    assert history.commands("alpha") == [Command(name="plan")]
    history.put_commands("alpha", [])
    assert history.commands("alpha") == []
    assert history.commands("beta") == [Command(name="other")]
    assert history.commands("gamma") == []


# Values the app keeps with the history (issue 17: rules, the conversation last on screen)


def test_a_kept_value_is_read_back_and_replaced_by_the_next(history: History) -> None:
    assert history.value("last-viewed") is None
    history.put_value("last-viewed", b"channel-1")
    history.put_value("rules", b"[]")
    assert history.value("last-viewed") == b"channel-1"
    history.put_value("last-viewed", b"channel-2")
    assert (history.value("last-viewed"), history.value("rules")) == (b"channel-2", b"[]")
