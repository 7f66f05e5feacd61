"""The built-in demo agent offers modes and options (issue 14), so the pickers can be tried
with no real agent: its session shows them, choosing changes what its `/status` says."""

from __future__ import annotations

from typing import Any

from tests.integration.channels.conftest import Chat


def status(chat: Chat, room: str) -> str:
    mark = chat.log.mark()
    chat.channels.Send(room, "/status")
    answer = chat.finished(room, "demo", since=mark)
    chat.idle(room, since=mark)
    return str(answer["parts"][0]["text"])


def demo_session(chat: Chat) -> tuple[str, dict[str, Any]]:
    room = chat.channels.Direct("demo").id
    chat.channels.Prepare(room)
    return room, chat.channels.Conversation(room)["sessions"]["demo"]


def test_the_demo_agent_offers_two_modes_a_model_and_a_switch(chat: Chat) -> None:
    _room, session = demo_session(chat)

    assert [(m["id"], bool(m["description"])) for m in session["modes"]] == [
        ("ask", True),
        ("code", True),
    ]
    assert session["mode"] == "code"
    model, thoughts = session["options"]
    assert (model["id"], model["kind"], model["category"]) == ("model", "select", "model")
    assert [c["value"] for c in model["choices"]] == ["demo-swift", "demo-sage", "demo-tiny"]
    assert (thoughts["kind"], thoughts["value"]) == ("boolean", True)


def test_the_demo_agent_says_the_mode_and_model_chosen_for_it(chat: Chat) -> None:
    room, _session = demo_session(chat)
    assert "Mode: **Code**" in status(chat, room)

    chat.sk.api.SessionService.SetMode(room, "demo", "ask")
    chosen = chat.sk.api.SessionService.SetOption(room, "demo", "model", "demo-sage")
    chat.sk.api.SessionService.SetOption(room, "demo", "show_thoughts", False)

    assert chosen.mode == "ask"
    said = status(chat, room)
    assert "Mode: **Ask**" in said
    assert "Model: **Demo Sage**" in said
    assert "Thoughts: hidden" in said


def test_the_demo_agent_keeps_its_mode_when_its_session_is_resumed(
    open_chat: Any,
) -> None:
    chat = open_chat()
    room, _session = demo_session(chat)
    chat.sk.api.SessionService.SetMode(room, "demo", "ask")
    chat.sk.close()

    again = open_chat()
    assert "Mode: **Ask**" in status(again, room)
    assert again.channels.Conversation(room)["sessions"]["demo"]["mode"] == "ask"
