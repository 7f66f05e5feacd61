"""Sending a message again (issue 17): `ChannelService.Resend` with real agent processes — the
built-in demo agent (twice, as two members) and the scriptable fakes — in a headless app."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.core.errors import UserError
from tests.integration.channels.conftest import FAST, Chat, config_text
from tests.waiting import EventLog

SECOND_DEMO = "  - name: demo2\n    builtin: demo\n"


@pytest.fixture
def open_chat(tmp_path: Path) -> Iterator[Callable[[], Chat]]:
    """Opens the app on one configuration (two demo agents and the fakes); again = a restart."""
    opened: list[Sidekicks] = []
    log_dir = tmp_path / "agent-logs"
    log_dir.mkdir()
    config = tmp_path / "resend.yaml"
    config.write_text(config_text(log_dir, SECOND_DEMO), encoding="utf-8")

    def open_() -> Chat:
        for sk in opened:
            sk.close()
        sk = Sidekicks(config=config, tuning=FAST).start()
        opened.append(sk)
        log = EventLog()
        sk.events.subscribe(log)
        return Chat(sk, log, log_dir)

    yield open_
    for sk in opened:
        sk.close()


@pytest.fixture
def chat(open_chat: Callable[[], Chat]) -> Chat:
    return open_chat()


def text_of(message: dict[str, Any]) -> str:
    return "".join(p["text"] for p in message["parts"] if p["kind"] == "text")


def user_message(chat: Chat, channel: str, message_id: str, since: int = 0) -> dict[str, Any]:
    return chat.log.wait(
        "message:updated",
        lambda p: p["channel"] == channel and p["message"]["id"] == message_id,
        since=since,
    )["message"]


def answers_since(chat: Chat, channel: str, mark: int) -> list[tuple[str, str]]:
    """The finished answers heard since `mark`: (agent, text)."""
    return [
        (p["message"]["agent"], text_of(p["message"]))
        for p in chat.log.named("message:updated", since=mark)
        if p["channel"] == channel and p["message"]["role"] == "agent" and p["message"]["done"]
    ]


def test_resending_a_user_message_sends_the_same_text_as_a_new_message(chat: Chat) -> None:
    direct = chat.channels.Direct("demo")
    mark = chat.log.mark()
    first = chat.channels.Send(direct.id, "/echo one more time")
    chat.finished(direct.id, "demo", since=mark)
    chat.idle(direct.id, since=mark)

    mark = chat.log.mark()
    again = chat.channels.Resend(direct.id, first)
    assert again != first
    assert text_of(user_message(chat, direct.id, again, since=mark)) == "/echo one more time"
    answer = chat.finished(direct.id, "demo", since=mark)
    assert "one more time" in text_of(answer)
    chat.idle(direct.id, since=mark)
    users = [m for m in chat.channels.Conversation(direct.id)["messages"] if m["role"] == "user"]
    assert [m["id"] for m in users] == [first, again]  # the first one stays


def test_retrying_an_answer_in_a_channel_of_two_demo_agents_makes_only_that_agent_answer(
    chat: Chat,
) -> None:
    room = chat.channels.Create("pair", "", ["demo", "demo2"])
    mark = chat.log.mark()
    asked = chat.channels.Send(room.id, "@demo @demo2 /echo hello both")
    chat.finished(room.id, "demo", since=mark)
    second = chat.finished(room.id, "demo2", since=mark)
    chat.idle(room.id, since=mark)

    mark = chat.log.mark()
    retry = chat.channels.Resend(room.id, second["id"])
    assert retry not in (asked, second["id"])
    resent = user_message(chat, room.id, retry, since=mark)
    assert text_of(resent) == "@demo @demo2 /echo hello both"
    chat.finished(room.id, "demo2", since=mark)
    chat.idle(room.id, since=mark)
    assert answers_since(chat, room.id, mark) == [("demo2", "hello both")]
    kept = chat.channels.Conversation(room.id)["messages"]
    assert second["id"] in [m["id"] for m in kept]  # the original answer stays

    # The message sent afresh (not a retry) is routed as it says again: both answer.
    mark = chat.log.mark()
    chat.channels.Resend(room.id, asked)
    chat.finished(room.id, "demo", since=mark)
    chat.finished(room.id, "demo2", since=mark)


def test_a_retry_sent_while_the_channel_answers_waits_its_turn_and_stays_for_that_agent(
    chat: Chat,
) -> None:
    room = chat.channels.Create("queue", "", ["demo", "demo2", "perm"])
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@demo @demo2 /echo first")
    demo_answer = chat.finished(room.id, "demo", since=mark)
    chat.idle(room.id, since=mark)

    mark = chat.log.mark()
    chat.channels.Send(room.id, "@perm may I?")  # busy until the person answers its request
    request = chat.log.wait("permission:requested", since=mark)
    retry = chat.channels.Resend(room.id, demo_answer["id"])
    assert user_message(chat, room.id, retry, since=mark)["queued"] is True
    chat.channels.AnswerPermission(request["id"], "allow")
    chat.finished(room.id, "demo", since=mark)
    chat.idle(room.id, since=mark)
    assert [agent for agent, _text in answers_since(chat, room.id, mark)] == ["perm", "demo"]


def test_a_message_dropped_by_stop_is_resent_with_its_attachments_once(
    chat: Chat, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("the notes\n", encoding="utf-8")
    direct = chat.channels.Direct("slow")
    mark = chat.log.mark()
    chat.channels.Send(direct.id, "keep going")
    chat.log.wait("message:delta", lambda p: p["channel"] == direct.id, since=mark)
    staged = chat.sk.api.AttachmentService.AttachFile(direct.id, str(notes))
    dropped = chat.channels.Send(direct.id, "read these notes", [staged.id])
    chat.channels.Cancel(direct.id)
    shown = user_message(chat, direct.id, dropped, since=mark)
    chat.log.wait(
        "message:updated",
        lambda p: p["message"]["id"] == dropped and p["message"]["error"] == "cancelled",
        since=mark,
    )
    chat.idle(direct.id, since=mark)
    assert shown["attachments"][0]["path"] == str(notes)
    assert dropped not in [m["id"] for m in chat.channels.Conversation(direct.id)["messages"]]

    mark = chat.log.mark()
    again = chat.channels.Resend(direct.id, dropped)
    sent = user_message(chat, direct.id, again, since=mark)
    assert text_of(sent) == "read these notes"
    assert [(a["name"], a["path"]) for a in sent["attachments"]] == [("notes.txt", str(notes))]
    chat.log.wait("message:delta", lambda p: p["channel"] == direct.id, since=mark)
    assert chat.prompts("slow")[-1].startswith("read these notes")
    chat.channels.Cancel(direct.id)
    chat.idle(direct.id, since=mark)
    kept = chat.channels.Conversation(direct.id)["messages"]
    assert again in [m["id"] for m in kept]
    with pytest.raises(UserError, match="no message"):  # resent once: it is not kept any more
        chat.channels.Resend(direct.id, dropped)


def test_a_dropped_message_is_gone_after_a_restart(open_chat: Callable[[], Chat]) -> None:
    chat = open_chat()
    direct = chat.channels.Direct("slow")
    mark = chat.log.mark()
    chat.channels.Send(direct.id, "keep going")
    chat.log.wait("message:delta", lambda p: p["channel"] == direct.id, since=mark)
    dropped = chat.channels.Send(direct.id, "later")
    chat.channels.Cancel(direct.id)
    chat.idle(direct.id, since=mark)
    chat = open_chat()
    with pytest.raises(UserError, match=f"there is no message {dropped} in this conversation"):
        chat.channels.Resend(direct.id, dropped)


def test_resend_refuses_system_messages_unknown_ids_and_unfinished_answers(chat: Chat) -> None:
    room = chat.channels.Create("refusals", "", ["slow"])
    joined = chat.channels.Conversation(room.id)["messages"][0]
    assert joined["code"] == "agent-joined"
    with pytest.raises(UserError, match="a system message cannot be sent again"):
        chat.channels.Resend(room.id, joined["id"])
    with pytest.raises(UserError, match="there is no message NOPE in this conversation"):
        chat.channels.Resend(room.id, "NOPE")
    with pytest.raises(UserError, match="no channel"):
        chat.channels.Resend("NOPE", joined["id"])

    mark = chat.log.mark()
    chat.channels.Send(room.id, "go on")
    live = chat.log.wait(
        "message:updated",
        lambda p: p["message"]["role"] == "agent" and not p["message"]["done"],
        since=mark,
    )["message"]
    with pytest.raises(UserError, match="this answer is not finished"):
        chat.channels.Resend(room.id, live["id"])
    chat.channels.Cancel(room.id)
    chat.idle(room.id, since=mark)
    # Ended (cancelled), it can be retried — by a member only.
    chat.channels.RemoveMember(room.id, "slow")
    with pytest.raises(UserError, match="slow is not a member of this channel"):
        chat.channels.Resend(room.id, live["id"])
