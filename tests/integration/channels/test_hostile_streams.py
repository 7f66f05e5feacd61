"""Streams a well-behaved agent would not send, and that must not cost an answer or the app."""

from __future__ import annotations

import time
from collections.abc import Callable

from app.channels.permissions import MAX_PENDING_PER_CHANNEL
from tests.agents import agent_yaml
from tests.integration.channels.conftest import Chat

EMOJI = "\U0001f600"


def test_an_emoji_split_into_utf16_halves_is_joined_shown_and_kept(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat(agent_yaml("halves", "split-emoji"))
    direct = chat.channels.Direct("halves")
    chat.channels.Send(direct.id, "go")
    answer = chat.finished(direct.id, "halves")
    assert answer["error"] == ""
    texts = [p["text"] for p in answer["parts"] if p["kind"] in ("text", "thought")]
    # Joined across chunks; a half that never got its pair is shown as U+FFFD, wherever it is.
    assert texts == [f"smile {EMOJI} and a lost half \ufffd", "thinking", "end \ufffd"]
    tool = next(p["tool"] for p in answer["parts"] if p["kind"] == "tool")
    assert tool["title"] == "bad \ufffd title"
    # What the page was streamed adds up to what was kept.
    streamed = "".join(
        p["text"] or ""
        for p in chat.log.named("message:delta")
        if p["messageId"] == answer["id"] and p["index"] == 0
    )
    assert streamed == texts[0]
    stored = chat.channels.Conversation(direct.id)["messages"]
    assert [m["parts"] for m in stored if m["id"] == answer["id"]] == [answer["parts"]]


def test_a_user_message_with_half_a_character_is_kept(open_chat: Callable[..., Chat]) -> None:
    chat = open_chat()
    direct = chat.channels.Direct("alpha")
    chat.channels.Send(direct.id, "pasted \ud83d half")
    answer = chat.finished(direct.id, "alpha")
    assert answer["error"] == ""
    messages = chat.channels.Conversation(direct.id)["messages"]
    assert messages[0]["parts"][0]["text"] == "pasted \ufffd half"


def test_a_flood_of_permission_requests_keeps_the_channel_answering(
    open_chat: Callable[..., Chat], monkeypatch: object
) -> None:
    flood = 2000
    chat = open_chat(agent_yaml("flood", "permission-flood", env={"FAKE_FLOOD": str(flood)}))
    direct = chat.channels.Direct("flood")
    chat.channels.Send(direct.id, "go")
    chat.log.wait(
        "permission:requested",
        lambda p: p["channel"] == direct.id,
        timeout=30,
    )
    # The channel holds at most MAX_PENDING_PER_CHANNEL requests; the others were answered
    # cancelled at once, so the agent is not left waiting and the page has a bounded list.
    pending = chat.channels.Conversation(direct.id)["permissions"]
    assert 0 < len(pending) <= MAX_PENDING_PER_CHANNEL
    started = time.monotonic()
    for _ in range(3):
        assert chat.channels.List()  # the core answers while the flood is pending
    list_seconds = time.monotonic() - started
    chat.channels.Cancel(direct.id)
    answer = chat.finished(direct.id, "flood", timeout=60)
    assert "flood answered: cancelled 2000" in "".join(p["text"] for p in answer["parts"])
    print(f"3 List calls during a flood of {flood}: {list_seconds * 1000:.1f} ms")
