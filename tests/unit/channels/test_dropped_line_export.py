"""Issue 29: a Stop's `recipients-dropped` line reads in an export as on screen."""

from __future__ import annotations

from app.channels.export import markdown
from app.models.conversation import Message


def dropped(*names: str) -> Message:
    return Message(
        id="m",
        channel="c",
        created_at="x",
        role="system",
        code="recipients-dropped",
        dropped=list(names),
    )


def test_one_dropped_recipient_is_named_in_the_export() -> None:
    assert markdown.message_markdown(dropped("alice")) == (
        "*Stopped: @alice will not answer this message*\n"
    )


def test_several_dropped_recipients_are_listed_in_order() -> None:
    assert markdown.message_markdown(dropped("alice", "carol")) == (
        "*Stopped: @alice, @carol will not answer this message*\n"
    )
