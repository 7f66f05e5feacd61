"""New session (issue 17): the members start new ACP sessions after a divider; what came before it
is not sent to them again (nor to a member who joins later, nor after a restart); refused while
the channel answers; the agents' processes go on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.core.errors import UserError
from tests.integration.channels.conftest import Chat


def methods(chat: Chat, agent: str, method: str) -> list[dict[str, Any]]:
    return [m for m in chat.received(agent) if m.get("method") == method]


def answered(chat: Chat, room: str, text: str, agent: str) -> dict[str, Any]:
    mark = chat.log.mark()
    chat.channels.Send(room, text)
    answer = chat.finished(room, agent, since=mark)
    chat.idle(room, since=mark)
    return answer


def test_after_a_new_session_earlier_messages_are_not_sent_even_to_a_member_joining_later(
    chat: Chat,
) -> None:
    room = chat.channels.Create("fresh", members=["alpha"]).id
    answered(chat, room, "@alpha the secret is 41", "alpha")
    mark = chat.log.mark()
    chat.channels.NewSession(room)
    divider = chat.system(room, "new-session", since=mark)
    assert divider["role"] == "system"

    answered(chat, room, "@alpha what now", "alpha")
    answered(chat, room, "@beta and you", "beta")  # beta joins after the divider

    assert len(methods(chat, "alpha", "session/new")) == 2  # a new session…
    assert len(methods(chat, "alpha", "initialize")) == 1  # …on the same process
    assert "secret" not in chat.prompts("alpha")[-1]
    beta_prompt = chat.prompts("beta")[-1]
    assert "secret" not in beta_prompt
    assert "[@alpha] echo: @alpha what now" in beta_prompt  # what came after it is sent
    codes = [m["code"] for m in chat.channels.Conversation(room)["messages"]]
    assert codes.count("new-session") == 1


def test_without_a_new_session_a_joining_member_is_sent_the_earlier_messages(
    chat: Chat,
) -> None:
    room = chat.channels.Create("stale", members=["alpha"]).id
    answered(chat, room, "@alpha the secret is 41", "alpha")
    answered(chat, room, "@beta and you", "beta")
    assert "the secret is 41" in chat.prompts("beta")[-1]  # what the new session prevents


def test_a_new_session_holds_across_a_restart_and_clears_usage(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Create("kept", members=["loader"]).id
    answered(chat, room, "@loader the secret is 41", "loader")
    assert "loader" in chat.channels.Conversation(room)["usage"]
    old_session = methods(chat, "loader", "session/new")[0]
    chat.channels.NewSession(room)
    assert "loader" not in chat.channels.Conversation(room)["usage"]
    chat.sk.close()

    again = open_chat()
    answered(again, room, "@loader hello again", "loader")
    assert methods(again, "loader", "session/load") == []  # not the old session resumed
    assert len(methods(again, "loader", "session/new")) == 2
    assert old_session  # the first run's
    assert "secret" not in again.prompts("loader")[-1]


def test_a_new_session_is_refused_while_the_channel_answers(chat: Chat) -> None:
    room = chat.channels.Create("busy", members=["slow"]).id
    mark = chat.log.mark()
    chat.channels.Send(room, "@slow go on")
    chat.log.wait("message:delta", lambda p: p["channel"] == room, since=mark, timeout=20)
    with pytest.raises(UserError, match="Stop the answer first"):
        chat.channels.NewSession(room)
    chat.channels.Cancel(room)
    chat.idle(room, since=mark)
    codes = [m["code"] for m in chat.channels.Conversation(room)["messages"]]
    assert "new-session" not in codes


def test_a_direct_conversation_starts_afresh_too(chat: Chat) -> None:
    room = chat.channels.Direct("alpha").id
    answered(chat, room, "first", "alpha")
    chat.channels.NewSession(room)
    answered(chat, room, "second", "alpha")
    assert len(methods(chat, "alpha", "session/new")) == 2
