"""Reading a conversation for an export (app/channels/export/reading.py): every stored message,
oldest first, a page at a time; one message found by id wherever it is."""

from __future__ import annotations

import pytest

from app.channels.export.reading import find_message, stored_messages
from app.channels.reading import ChannelView, ConversationHead
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import History
from app.models.conversation import Channel, Message
from tests.unit.history.samples import add_messages, text_message


def view_of(history: History, channel_id: str, answer: Message | None = None) -> ChannelView:
    head = ConversationHead(
        channel=Channel(id=channel_id, name="general"), busy=False, queued=0, answering=""
    )
    return ChannelView.of(head, history, answer, [])


@pytest.mark.parametrize("count", [0, 1, 100, 101, 250, 300])
def test_every_stored_message_is_read_oldest_first(history: History, count: int) -> None:
    channel_id = new_id()
    stored = add_messages(history, channel_id, count)
    add_messages(history, new_id(), 3)  # another channel's are not read
    assert [m.id for m in stored_messages(history, channel_id)] == [m.id for m in stored]


def test_messages_kept_during_an_export_are_left_out_not_repeated(history: History) -> None:
    channel_id = new_id()
    stored = add_messages(history, channel_id, 230)
    read = stored_messages(history, channel_id)
    first = next(read)
    add_messages(history, channel_id, 50)
    assert [first.id, *(m.id for m in read)] == [m.id for m in stored]


def test_an_old_message_is_found_past_the_first_pages(history: History) -> None:
    channel_id = new_id()
    stored = add_messages(history, channel_id, 350)
    found = find_message(view_of(history, channel_id), stored[5].id)
    assert found == stored[5]


def test_the_live_answer_is_found_before_it_is_stored(history: History) -> None:
    channel_id = new_id()
    live = text_message(channel_id, "streaming")
    assert find_message(view_of(history, channel_id, live), live.id) == live


def test_a_message_not_in_the_conversation_is_a_clear_error(history: History) -> None:
    channel_id = new_id()
    add_messages(history, channel_id, 3)
    other = add_messages(history, new_id(), 1)[0]
    with pytest.raises(UserError, match=r"there is no message .* in this conversation"):
        find_message(view_of(history, channel_id), other.id)
