"""What a resend finds in history (resending.find_kept), in memory and in a real LMDB file:
the message itself, and for an answer the nearest user message before it, pages away."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.channels.resending import find_kept
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import History
from app.models.conversation import Message, Part
from tests.unit.history.samples import KINDS, make_history, stored_channel, text_message


class Views:
    """The engine's side of find_kept: each channel's view gives the history it reads."""

    def __init__(self, history: History) -> None:
        self.history = history

    def view(self, channel_id: str) -> Any:
        return SimpleNamespace(history=self.history)


def answer(channel: str, agent: str, text: str) -> Message:
    return Message(
        id=new_id(),
        channel=channel,
        created_at="2025-01-02T03:04:05.678Z",
        role="agent",
        agent=agent,
        parts=[Part(kind="text", text=text)],
    )


def system(channel: str) -> Message:
    return Message(id=new_id(), channel=channel, created_at="", role="system", code="agent-joined")


@pytest.fixture(params=KINDS)
def history(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    made = make_history(request.param, tmp_path)
    yield made
    made.close()


def test_an_answer_pages_away_from_its_message_is_retried_with_that_message(
    history: History,
) -> None:
    stored = stored_channel()
    history.put_channel(stored)
    channel = stored.channel.id
    asked = text_message(channel, "@alpha @beta look at this")
    notes = [system(channel) for _ in range(150)]  # more than a page between them
    first = answer(channel, "alpha", "one")
    second = answer(channel, "beta", "two")
    later = [text_message(channel, f"later {n}") for n in range(120)]
    for message in [asked, *notes, first, second, *later]:
        history.add_message(message)

    found = find_kept(Views(history), channel, second.id)
    assert (found.message.id, found.agent) == (asked.id, "beta")
    found = find_kept(Views(history), channel, first.id)
    assert (found.message.id, found.agent) == (asked.id, "alpha")
    found = find_kept(Views(history), channel, later[3].id)
    assert (found.message.id, found.agent) == (later[3].id, "")
    assert find_kept(Views(history), channel, asked.id).message == asked

    with pytest.raises(UserError, match="a system message cannot be sent again"):
        find_kept(Views(history), channel, notes[0].id)
    with pytest.raises(UserError, match="there is no message"):
        find_kept(Views(history), channel, new_id())


def test_an_answer_with_no_user_message_before_it_cannot_be_retried(history: History) -> None:
    stored = stored_channel()
    history.put_channel(stored)
    lonely = answer(stored.channel.id, "alpha", "nobody asked")
    history.add_message(lonely)
    with pytest.raises(UserError, match="no longer in this conversation"):
        find_kept(Views(history), stored.channel.id, lonely.id)
