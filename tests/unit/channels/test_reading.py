"""Conversation and Older read on the caller's thread: a published view plus the stored records,
spliced into the JSON text the page receives (app/channels/reading.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.channels.reading import (
    ChannelView,
    Conversation,
    ConversationHead,
    Page,
    read_conversation,
    read_older,
)
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import History
from app.history.lmdb_store import LmdbHistory
from app.history.memory import MemoryHistory
from app.models.conversation import Channel, Message, Usage
from tests.unit.history.samples import add_messages, rich_message, text_message


class Views:
    """A view source like the engine: the latest view of each channel."""

    def __init__(self) -> None:
        self.views: dict[str, ChannelView] = {}
        self.asked = 0

    def view(self, channel_id: str) -> ChannelView | None:
        self.asked += 1
        return self.views.get(channel_id)


def publish(
    views: Views,
    history: History,
    channel_id: str,
    answer: Message | None = None,
    queued: list[Message] | None = None,
) -> None:
    head = ConversationHead(
        channel=Channel(id=channel_id, name="general", members=["alpha"]),
        busy=answer is not None,
        queued=len(queued or []),
        answering="alpha" if answer is not None else "",
        usage={"alpha": Usage(used=5, size=100)},
    )
    views.views[channel_id] = ChannelView.of(head, history, answer, queued or [])


def test_a_conversation_is_the_head_the_last_100_stored_then_live_and_queued_messages(
    history: History,
) -> None:
    channel_id, views = new_id(), Views()
    stored = add_messages(history, channel_id, 120)
    answer = rich_message(channel_id)
    answer.done = False
    queued = text_message(channel_id, "later")
    queued.queued = True
    publish(views, history, channel_id, answer, [queued])

    text = read_conversation(views, channel_id).text
    conversation = Conversation.model_validate_json(text)
    assert [m.id for m in conversation.messages] == [
        *(m.id for m in stored[-100:]),
        answer.id,
        queued.id,
    ]
    assert conversation.messages[-2] == answer
    assert conversation.more is True
    assert conversation.busy is True and conversation.queued == 1
    assert conversation.usage == {"alpha": Usage(used=5, size=100)}
    history.close()


def test_the_live_answer_is_read_as_it_is_at_the_moment_of_the_read(history: History) -> None:
    channel_id, views = new_id(), Views()
    answer = text_message(channel_id, "Hel")
    publish(views, history, channel_id, answer)
    answer.parts[0].text += "lo"  # a delta after the view was published
    messages = read_conversation(views, channel_id)["messages"]
    assert messages[-1]["parts"][0]["text"] == "Hello"
    history.close()


def test_a_live_or_queued_message_stored_since_the_view_was_published_appears_once(
    history: History,
) -> None:
    channel_id, views = new_id(), Views()
    answer = text_message(channel_id, "answer")
    queued = text_message(channel_id, "queued")
    publish(views, history, channel_id, answer, [queued])
    history.add_message(answer)  # both stored while the old view is still the latest
    history.add_message(queued)
    messages = read_conversation(views, channel_id)["messages"]
    assert [m["id"] for m in messages] == [answer.id, queued.id]
    history.close()


def test_a_read_that_meets_a_closed_history_uses_the_newer_view(tmp_path: Path) -> None:
    channel_id, views = new_id(), Views()
    old, new = LmdbHistory(tmp_path / "old"), LmdbHistory(tmp_path / "new")
    add_messages(old, channel_id, 1)
    kept = add_messages(new, channel_id, 2)
    publish(views, old, channel_id)
    old.close()  # another configuration was opened; its view is published just after

    class Reopened(Views):
        def view(self, channel_id: str) -> ChannelView | None:
            if self.asked:
                publish(self, new, channel_id)
            return super().view(channel_id)

    reopened = Reopened()
    reopened.views = views.views
    messages = read_conversation(reopened, channel_id)["messages"]
    assert [m["id"] for m in messages] == [m.id for m in kept]
    assert reopened.asked == 2
    new.close()


def test_a_closed_history_without_a_newer_view_is_an_unknown_channel(tmp_path: Path) -> None:
    channel_id, views = new_id(), Views()
    history = LmdbHistory(tmp_path / "h")
    publish(views, history, channel_id)
    history.close()
    with pytest.raises(UserError, match="no channel"):
        read_conversation(views, channel_id)


@pytest.mark.parametrize("channel_id", ["nope", "", None, 42])
def test_an_unknown_channel_is_a_clear_error(channel_id: object) -> None:
    with pytest.raises(UserError, match="no channel"):
        read_conversation(Views(), channel_id)
    with pytest.raises(UserError, match="no channel"):
        read_older(Views(), channel_id, new_id())


def test_older_pages_back_through_stored_messages_only(history: History) -> None:
    channel_id, views = new_id(), Views()
    stored = add_messages(history, channel_id, 150)
    publish(views, history, channel_id, text_message(channel_id, "live"))
    page = Page.model_validate_json(read_older(views, channel_id, stored[120].id).text)
    assert [m.id for m in page.messages] == [m.id for m in stored[20:120]]
    assert page.more is True
    first = read_older(views, channel_id, stored[20].id)
    assert [m["id"] for m in first["messages"]] == [m.id for m in stored[:20]]
    assert first["more"] is False
    history.close()


def test_older_needs_a_message_id() -> None:
    views = Views()
    channel_id = new_id()
    publish(views, MemoryHistory(), channel_id)
    with pytest.raises(UserError, match="beforeId"):
        read_older(views, channel_id, "")
