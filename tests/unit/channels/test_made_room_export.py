"""Issue 29: a `made-room` line reads in an export as on screen."""

from __future__ import annotations

from app.channels.export import markdown
from app.models.conversation import MadeRoom, Message


def made_room(limit: int) -> Message:
    return Message(
        id="m",
        channel="c",
        created_at="x",
        role="system",
        agent="demo",
        code="made-room",
        made_room=MadeRoom(for_agent="other", limit=limit),
    )


def test_the_line_names_both_agents_and_the_limit() -> None:
    assert markdown.message_markdown(made_room(3)) == (
        "*@demo was stopped to make room for @other (at most 3 agents run at once)*\n"
    )


def test_a_limit_of_one_is_said_in_words() -> None:
    assert markdown.message_markdown(made_room(1)) == (
        "*@demo was stopped to make room for @other (one agent runs at a time)*\n"
    )
