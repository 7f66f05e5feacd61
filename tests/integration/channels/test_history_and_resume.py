"""History survives restarts; agents resume their sessions (SPEC §4 History)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app import Sidekicks
from app.core.errors import UserError
from tests.integration.channels.conftest import FAST, Chat
from tests.waiting import wait_for


def methods(chat: Chat, agent: str, method: str) -> list[dict]:
    return [m for m in chat.received(agent) if m.get("method") == method]


def test_channels_members_messages_and_commands_survive_a_restart(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Create("keep", "kept across restarts")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@loader hi")
    chat.finished(room.id, "loader", since=mark)
    chat.idle(room.id, since=mark)
    before = chat.channels.Conversation(room.id)
    commands = chat.channels.Commands("loader")
    assert commands
    chat.sk.close()

    again = open_chat()
    assert [c.wire() for c in again.channels.List()] == [before["channel"]]
    after = again.channels.Conversation(room.id)
    assert after["messages"] == before["messages"]
    assert after["usage"] == before["usage"]
    assert again.channels.Commands("loader") == commands


def test_an_agent_that_can_load_resumes_its_session_without_duplicating_history(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Create("resume")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@loader first")
    chat.finished(room.id, "loader", since=mark)
    chat.idle(room.id, since=mark)
    session_id = methods(chat, "loader", "session/new")[0]["params"]
    chat.sk.close()

    again = open_chat()
    mark = again.log.mark()
    again.channels.Send(room.id, "second")  # the last responder answers
    answer = again.finished(room.id, "loader", since=mark)
    assert answer["parts"][0]["text"] == "echo: second"
    loads = methods(again, "loader", "session/load")
    assert len(loads) == 1
    assert len(methods(again, "loader", "session/new")) == 1  # only the first run's
    assert loads[0]["params"]["sessionId"].startswith("fake-session-")
    assert session_id["cwd"] == loads[0]["params"]["cwd"]
    assert again.prompts("loader")[-1] == "second"  # it remembers: no context needed
    texts = [
        p["text"]
        for m in again.channels.Conversation(room.id)["messages"]
        for p in m["parts"]
        if p["kind"] == "text"
    ]
    assert "replayed" not in texts  # the replay does not come back as a message


def test_an_agent_without_load_gets_the_latest_messages_in_its_first_prompt(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Create("fresh")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@alpha remember the number 42")
    chat.finished(room.id, "alpha", since=mark)
    chat.idle(room.id, since=mark)
    chat.sk.close()

    again = open_chat()
    mark = again.log.mark()
    again.channels.Send(room.id, "what was the number?")
    again.finished(room.id, "alpha", since=mark)
    prompt = again.prompts("alpha")[-1]
    assert "Messages in #fresh since your last answer:" in prompt
    assert "[user] @alpha remember the number 42" in prompt
    assert prompt.endswith("what was the number?")


def test_an_answer_interrupted_by_closing_the_app_is_not_kept(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Create("interrupted")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@slow take your time")
    chat.log.wait("message:delta", lambda p: p["channel"] == room.id, since=mark)
    chat.sk.close()

    again = open_chat()
    messages = again.channels.Conversation(room.id)["messages"]
    assert [(m["role"], m["code"]) for m in messages] == [
        ("user", None), ("system", "agent-joined"),
    ]  # fmt: skip


def test_a_second_sidekicks_on_the_same_file_keeps_history_in_memory(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    first = open_chat()
    assert first.sk.api.ConfigService.Current().history_problem == ""
    with Sidekicks(config=tmp_path / "chat.yaml", tuning=FAST) as second:
        problem = second.api.ConfigService.Current().history_problem
        assert "Another Sidekicks" in problem
        room = second.api.ChannelService.Create("in memory")
        assert second.api.ChannelService.List() == [room]
    assert first.channels.List() == []  # the first one's history was not touched


def test_opening_another_configuration_switches_history(
    open_chat: Callable[..., Chat], tmp_path: Path
) -> None:
    chat = open_chat()
    room = chat.channels.Create("here")
    first_config = chat.sk.api.ConfigService.Current().path
    other = tmp_path / "other.yaml"
    other.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    chat.channels.Send(room.id, "kept here")
    outcomes: set[str] = set()
    done = threading.Event()

    def read() -> None:
        # Reads go on while the histories are closed and opened (they do not wait for the
        # core loop): each one is this channel's conversation or "no channel", nothing else.
        while not done.is_set():
            try:
                texts = [m["parts"][0]["text"] for m in chat.channels.Conversation(room.id)[
                    "messages"] if m["role"] == "user"]  # fmt: skip
                outcomes.add("conversation" if texts == ["kept here"] else f"wrong: {texts}")
            except UserError as err:
                outcomes.add("no channel" if "no channel" in str(err) else repr(err))
            time.sleep(0)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        wait_for(lambda: "conversation" in outcomes, what="a read before the switch")
        chat.sk.api.ConfigService.Open(str(other))
        assert chat.channels.List() == []
        there = chat.channels.Create("there")
        assert chat.channels.Conversation(there.id)["messages"] == []
        wait_for(lambda: "no channel" in outcomes, what="a read while the other history is open")
        chat.sk.api.ConfigService.Open(first_config)
        assert chat.channels.List() == [room]
    finally:
        done.set()
        reader.join(10)
    assert outcomes == {"conversation", "no channel"}


def test_a_message_that_waited_in_the_queue_stays_where_it_was_sent_after_a_restart(
    open_chat: Callable[..., Chat],
) -> None:
    # Typed before the first answers started, so its id is older than theirs; it is sent
    # (and shown) after both, and must stay there in history and in what agents are given.
    chat = open_chat()
    room = chat.channels.Create("order")
    chat.sk.api.HandoffService.SetHandoffs(room.id, 0)  # the fakes echo the mentions
    mark = chat.log.mark()
    first = chat.channels.Send(room.id, "@alpha @beta first")
    second = chat.channels.Send(room.id, "second")
    chat.log.wait(
        "message:updated",
        lambda p: p["message"]["id"] == second and not p["message"]["queued"],
        since=mark,
    )
    chat.idle(room.id, since=chat.log.mark() - 1)
    expected = [(first, "user"), ("", "alpha"), ("", "beta"), (second, "user"), ("", "beta")]

    def shown(conversation: dict) -> list[tuple[str, str]]:
        return [
            (
                m["id"] if m["role"] == "user" else "",
                m["role"] if m["role"] == "user" else m["agent"],
            )
            for m in conversation["messages"]
            if m["role"] != "system"
        ]

    chat.log.wait(
        "message:updated",
        lambda p: p["message"]["role"] == "agent" and p["message"]["done"]
        and len([e for e in chat.log.named("message:updated", since=mark)
                 if e["message"]["role"] == "agent" and e["message"]["done"]]) == 3,
        since=mark,
    )  # fmt: skip
    chat.idle(room.id, since=mark)
    assert shown(chat.channels.Conversation(room.id)) == expected
    chat.sk.close()

    again = open_chat()
    assert shown(again.channels.Conversation(room.id)) == expected


def test_a_member_added_while_an_answer_streams_stays_below_that_answer_after_a_restart(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Create("joining")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@slow go on")  # slow joins, then answers until cancelled
    chat.log.wait(
        "message:delta", lambda p: p["channel"] == room.id and p["kind"] == "text", since=mark
    )
    chat.channels.AddMember(room.id, "alpha")  # shown below the streaming answer

    def order(conversation: Any) -> list[str]:
        return [f"{m['code'] or m['role']}:{m['agent']}" for m in conversation["messages"]]

    shown = ["user:", "agent-joined:slow", "agent:slow", "agent-joined:alpha"]
    assert order(chat.channels.Conversation(room.id)) == shown  # read during the answer
    chat.channels.Cancel(room.id)
    chat.idle(room.id, since=mark)
    assert order(chat.channels.Conversation(room.id)) == shown
    chat.sk.close()
    again = open_chat()
    assert order(again.channels.Conversation(room.id)) == shown
