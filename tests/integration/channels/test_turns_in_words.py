"""Issue 29, turns in words, with real agent processes: the turn line's "who next" (TurnChanged
and Conversation `next`), the recipients a Stop leaves without an answer (a kept
`recipients-dropped` line), and @all routing to every member in the channel's order."""

from __future__ import annotations

from tests.integration.channels.conftest import Chat


def test_the_turn_says_who_is_next_and_stop_keeps_a_line_naming_who_will_not_answer(
    chat: Chat,
) -> None:
    room = chat.channels.Create("relay")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@slow, then @alpha and @beta")
    turn = chat.log.wait(
        "turn:changed", lambda p: p["channel"] == room.id and p["answering"] == "slow", since=mark
    )
    assert turn["next"] == ["alpha", "beta"]
    chat.log.wait("message:delta", lambda p: p["channel"] == room.id, since=mark)
    assert chat.channels.Conversation(room.id)["next"] == ["alpha", "beta"]

    chat.channels.Cancel(room.id)
    line = chat.system(room.id, "recipients-dropped", since=mark)
    assert line["dropped"] == ["alpha", "beta"]
    idle = chat.idle(room.id, since=mark)
    assert idle["next"] == []
    kept = chat.channels.Conversation(room.id)["messages"]
    # Kept below the stopped answer, as it was shown; the dropped never got the message.
    assert [(m["role"], m["code"]) for m in kept][-2:] == [
        ("agent", None),
        ("system", "recipients-dropped"),
    ]
    assert chat.prompts("alpha") == [] and chat.prompts("beta") == []


def test_stop_while_waiting_for_an_agent_busy_elsewhere_drops_it_too(chat: Chat) -> None:
    first, second = chat.channels.Create("first"), chat.channels.Create("second")
    mark = chat.log.mark()
    chat.channels.Send(first.id, "@slow work")
    chat.log.wait("message:delta", lambda p: p["channel"] == first.id, since=mark)
    chat.channels.Send(second.id, "@slow @alpha you too")
    chat.log.wait(
        "turn:changed",
        lambda p: p["channel"] == second.id and p["answering"] == "slow" and p["next"] == ["alpha"],
        since=mark,
    )
    chat.channels.Cancel(second.id)
    assert chat.system(second.id, "recipients-dropped", since=mark)["dropped"] == ["slow", "alpha"]
    chat.channels.Cancel(first.id)
    chat.idle(first.id, since=mark)
    assert chat.prompts("alpha") == []


def test_a_stop_with_nobody_left_to_answer_adds_no_line(chat: Chat) -> None:
    room = chat.channels.Create("alone")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@slow go")
    chat.log.wait("message:delta", lambda p: p["channel"] == room.id, since=mark)
    chat.channels.Cancel(room.id)
    chat.idle(room.id, since=mark)
    codes = [m["code"] for m in chat.channels.Conversation(room.id)["messages"]]
    assert "recipients-dropped" not in codes


def test_at_all_is_answered_by_every_member_in_the_channels_order(chat: Chat) -> None:
    room = chat.channels.Create("everyone")
    chat.channels.AddMember(room.id, "beta")
    chat.channels.AddMember(room.id, "alpha")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@all status?")
    chat.idle(room.id, since=mark)
    answers = [
        p["message"]["agent"]
        for p in chat.log.named("message:updated", since=mark)
        if p["message"]["role"] == "agent" and p["message"]["done"]
    ]
    assert answers == ["beta", "alpha"]
    assert chat.prompts("beta")[-1].endswith("@all status?")
