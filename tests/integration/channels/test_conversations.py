"""Channels and direct conversations with real agent processes (SPEC §4)."""

from __future__ import annotations

import pytest

from app.core.errors import UserError
from app.models.conversation import Message
from tests.integration.channels.conftest import Chat


def test_a_direct_conversation_with_the_demo_gets_every_part_kind(chat: Chat) -> None:
    direct = chat.channels.Direct("demo")
    assert (direct.direct, direct.members, direct.name) == ("demo", ["demo"], "")
    assert chat.channels.Direct("demo").id == direct.id  # created once
    mark = chat.log.mark()
    message_id = chat.channels.Send(direct.id, "Show me what you can do")
    request = chat.log.wait("permission:requested", since=mark)
    assert request["toolCall"]["kind"] == "edit"
    assert request["rejections"] == 0
    chat.channels.AnswerPermission(request["id"], "allow")
    chat.log.wait("permission:resolved", lambda p: p["id"] == request["id"], since=mark)
    answer = chat.finished(direct.id, "demo", since=mark)
    assert answer["stopReason"] == "end_turn"
    kinds = [p["kind"] for p in answer["parts"]]
    assert {"thought", "plan", "tool", "text"} <= set(kinds)
    tools = [p["tool"] for p in answer["parts"] if p["kind"] == "tool"]
    assert {t["kind"] for t in tools} >= {"read", "search", "edit", "execute"}
    edit = next(t for t in tools if t["kind"] == "edit")
    assert edit["status"] == "completed"
    assert edit["diffs"] and edit["diffs"][0]["newText"]
    plan = next(p["plan"] for p in answer["parts"] if p["kind"] == "plan")
    assert {e["status"] for e in plan} == {"completed"}
    assert "```python" in next(p["text"] for p in answer["parts"] if p["kind"] == "text")
    deltas = chat.log.named("message:delta", since=mark)
    assert any(d["kind"] == "text" and d["text"] for d in deltas)
    usage = chat.log.wait("usage:changed", since=mark)
    assert usage["agent"] == "demo"
    assert usage["usage"]["size"] == 200000
    commands = chat.log.wait("commands:changed", since=mark)
    assert "bench" in {c["name"] for c in commands["commands"]}
    assert [c.wire() for c in chat.channels.Commands("demo")] == commands["commands"]
    conversation = chat.channels.Conversation(direct.id)
    assert conversation["messages"][0]["id"] == message_id
    assert conversation["messages"][-1] == answer
    assert conversation["usage"]["demo"]["size"] == 200000
    assert conversation["busy"] is False


def test_a_rejected_edit_fails_the_tool_call(chat: Chat) -> None:
    direct = chat.channels.Direct("demo")
    mark = chat.log.mark()
    chat.channels.Send(direct.id, "/edit")
    request = chat.log.wait("permission:requested", since=mark)
    chat.channels.AnswerPermission(request["id"], "reject")
    answer = chat.finished(direct.id, "demo", since=mark)
    tool = next(p["tool"] for p in answer["parts"] if p["kind"] == "tool")
    assert tool["status"] == "failed"


def test_mentions_join_and_answer_in_order_and_see_each_others_work(chat: Chat) -> None:
    dev = chat.channels.Create("dev", "the dev room")
    chat.sk.api.HandoffService.SetHandoffs(dev.id, 0)  # the fakes echo the mentions
    mark = chat.log.mark()
    chat.channels.Send(dev.id, "hello everyone")
    chat.system(dev.id, "no-recipient", since=mark)
    chat.idle(dev.id, since=mark)

    mark = chat.log.mark()
    chat.channels.Send(dev.id, "@alpha please start")
    joined = chat.system(dev.id, "agent-joined", since=mark)
    assert joined["agent"] == "alpha"
    first = chat.finished(dev.id, "alpha", since=mark)
    assert first["parts"][0]["text"].startswith("echo: ")
    assert chat.log.wait("channels:changed", since=mark)["channels"][-1]["members"] == ["alpha"]
    chat.idle(dev.id, since=mark)

    mark = chat.log.mark()
    chat.channels.Send(dev.id, "and go on")  # no mention: the last agent that answered
    chat.finished(dev.id, "alpha", since=mark)
    assert chat.prompts("alpha")[-1] == "and go on"  # it has seen everything before
    chat.idle(dev.id, since=mark)

    mark = chat.log.mark()
    chat.channels.Send(dev.id, "@beta then @alpha: review")
    beta = chat.finished(dev.id, "beta", since=mark)
    alpha = chat.finished(dev.id, "alpha", since=mark)
    assert beta["id"] < alpha["id"]  # in mention order
    beta_prompt = chat.prompts("beta")[-1]
    assert "[user] hello everyone" in beta_prompt
    assert "[@alpha] echo: " in beta_prompt  # beta sees alpha's earlier work
    assert beta_prompt.endswith("@beta then @alpha: review")
    alpha_prompt = chat.prompts("alpha")[-1]
    assert "[@beta] echo: " in alpha_prompt  # and alpha sees beta's answer to this message
    assert not any(line.startswith("[@alpha]") for line in alpha_prompt.splitlines())
    assert chat.channels.Conversation(dev.id)["channel"]["members"] == ["alpha", "beta"]


def test_an_agent_command_is_sent_alone_to_that_agent(chat: Chat) -> None:
    dev = chat.channels.Create("cmd")
    mark = chat.log.mark()
    chat.channels.Send(dev.id, "some context first")
    chat.idle(dev.id, since=mark)
    mark = chat.log.mark()
    chat.channels.Send(dev.id, "/beta:hello world")
    answer = chat.finished(dev.id, "beta", since=mark)
    assert chat.prompts("beta") == ["/hello world"]
    assert answer["parts"][0]["text"] == "echo: /hello world"


def test_several_members_and_nobody_answered_yet_is_no_recipient(chat: Chat) -> None:
    dev = chat.channels.Create("two")
    chat.channels.AddMember(dev.id, "alpha")
    chat.channels.AddMember(dev.id, "beta")
    mark = chat.log.mark()
    chat.channels.Send(dev.id, "who answers?")
    chat.system(dev.id, "no-recipient", since=mark)
    assert chat.prompts("alpha") == [] and chat.prompts("beta") == []


def test_messages_sent_while_answering_are_queued_and_cancel_drops_them(chat: Chat) -> None:
    room = chat.channels.Create("queue")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@slow start")
    chat.log.wait("message:delta", lambda p: p["channel"] == room.id, since=mark)
    queued_id = chat.channels.Send(room.id, "and then this")
    queued = chat.log.wait(
        "message:updated", lambda p: p["message"]["id"] == queued_id, since=mark
    )["message"]
    assert queued["queued"] is True
    turn = chat.log.wait("turn:changed", lambda p: p["queued"] == 1, since=mark)
    assert (turn["busy"], turn["answering"]) == (True, "slow")
    assert chat.channels.Conversation(room.id)["queued"] == 1
    chat.channels.Cancel(room.id)
    answer = chat.finished(room.id, "slow", since=mark)
    assert answer["stopReason"] == "cancelled"
    dropped = chat.log.wait(
        "message:updated",
        lambda p: p["message"]["id"] == queued_id and not p["message"]["queued"],
        since=mark,
    )["message"]
    assert dropped["error"] == "cancelled"
    chat.idle(room.id, since=mark)
    messages = chat.channels.Conversation(room.id)["messages"]
    assert queued_id not in [m["id"] for m in messages]  # a dropped message is not kept
    assert any(r.get("method") == "session/cancel" for r in chat.received("slow"))


def test_queued_messages_go_out_in_order(chat: Chat) -> None:
    room = chat.channels.Create("order")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@alpha one")
    chat.channels.Send(room.id, "two")
    chat.channels.Send(room.id, "three")
    chat.idle(room.id, since=mark)
    chat.log.wait("turn:changed", lambda p: not p["busy"] and p["queued"] == 0, since=mark)
    assert chat.prompts("alpha")[-2:] == ["two", "three"]
    answers = [
        p["message"]["parts"][0]["text"]
        for p in chat.log.named("message:updated", since=mark)
        if p["message"]["role"] == "agent" and p["message"]["done"]
    ]
    assert [a.rsplit(" ", 1)[-1] for a in answers] == ["one", "two", "three"]


def test_a_channel_waiting_for_an_agent_busy_elsewhere_says_whose_turn_it_is(chat: Chat) -> None:
    first, second = chat.channels.Create("first"), chat.channels.Create("second")
    mark = chat.log.mark()
    chat.channels.Send(first.id, "@slow work")
    chat.log.wait("message:delta", lambda p: p["channel"] == first.id, since=mark)
    chat.channels.Send(second.id, "@slow you too")
    waiting = chat.log.wait(
        "turn:changed",
        lambda p: p["channel"] == second.id and p["answering"] == "slow",
        since=mark,
    )
    assert waiting["busy"] is True
    assert chat.prompts("slow") == ["@slow work"]  # not yet: it answers one channel at a time
    chat.channels.Cancel(first.id)
    chat.log.wait("message:delta", lambda p: p["channel"] == second.id, since=mark)
    chat.channels.Cancel(second.id)
    chat.idle(second.id, since=mark)


def test_refusals_are_counted_during_a_turn(chat: Chat) -> None:
    room = chat.channels.Direct("perm2")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit twice")
    first = chat.log.wait("permission:requested", since=mark)
    assert first["rejections"] == 0
    assert chat.channels.Conversation(room.id)["permissions"][0]["id"] == first["id"]
    chat.channels.AnswerPermission(first["id"], "reject")
    second = chat.log.wait("permission:requested", lambda p: p["id"] != first["id"], since=mark)
    assert second["rejections"] == 1
    chat.channels.AnswerPermission(second["id"], "allow")
    answer = chat.finished(room.id, "perm2", since=mark)
    assert answer["parts"][-1]["text"].endswith("permission: allow" + "echo: edit twice")


def test_answering_an_unknown_request_or_option_is_a_clear_error(chat: Chat) -> None:
    room = chat.channels.Direct("perm")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit")
    request = chat.log.wait("permission:requested", since=mark)
    with pytest.raises(UserError, match="no pending permission request"):
        chat.channels.AnswerPermission("nope", "allow")
    with pytest.raises(UserError, match=r"maybe is not one of this request's options"):
        chat.channels.AnswerPermission(request["id"], "maybe")
    chat.channels.AnswerPermission(request["id"], "allow")
    chat.finished(room.id, "perm", since=mark)


def test_cancel_answers_pending_permission_requests_cancelled(chat: Chat) -> None:
    room = chat.channels.Direct("perm")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit")
    request = chat.log.wait("permission:requested", since=mark)
    chat.channels.Cancel(room.id)
    chat.log.wait("permission:resolved", lambda p: p["id"] == request["id"], since=mark)
    answer = chat.finished(room.id, "perm", since=mark)
    assert answer["stopReason"] == "cancelled"
    assert chat.channels.Conversation(room.id)["permissions"] == []


def test_an_agent_crashing_mid_answer_ends_the_message_and_the_channel_goes_on(
    chat: Chat,
) -> None:
    room = chat.channels.Create("crash")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@crashy do it")
    answer = chat.finished(room.id, "crashy", since=mark)
    assert answer["stopReason"] is None
    assert "connection closed" in answer["error"]
    assert "dying mid-turn" in answer["error"]
    chat.idle(room.id, since=mark)
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@alpha still there?")
    assert chat.finished(room.id, "alpha", since=mark)["stopReason"] == "end_turn"


def test_an_agent_that_cannot_start_is_reported_unavailable(open_chat) -> None:
    chat = open_chat("  - name: ghost\n    command: [no-such-agent-program]\n")
    room = chat.channels.Direct("ghost")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "hello?")
    message = chat.system(room.id, "agent-unavailable", since=mark)
    assert message["agent"] == "ghost"
    assert "`no-such-agent-program` was not found" in message["error"]


def test_members_are_added_and_removed_with_system_messages(chat: Chat) -> None:
    room = chat.channels.Create("members")
    mark = chat.log.mark()
    assert chat.channels.AddMember(room.id, "alpha").members == ["alpha"]
    assert chat.channels.AddMember(room.id, "beta").members == ["alpha", "beta"]
    assert chat.channels.RemoveMember(room.id, "alpha").members == ["beta"]
    codes = [
        (p["message"]["code"], p["message"]["agent"])
        for p in chat.log.named("message:updated", since=mark)
    ]
    assert codes == [("agent-joined", "alpha"), ("agent-joined", "beta"), ("agent-left", "alpha")]
    with pytest.raises(UserError, match="not a member"):
        chat.channels.RemoveMember(room.id, "alpha")
    with pytest.raises(UserError, match="already a member"):
        chat.channels.AddMember(room.id, "beta")
    with pytest.raises(UserError, match="no agent named `nobody`"):
        chat.channels.AddMember(room.id, "nobody")


def test_bad_channel_requests_are_clear_errors_and_change_nothing(chat: Chat) -> None:
    room = chat.channels.Create("General", "")
    direct = chat.channels.Direct("alpha")
    before = chat.channels.List()
    cases = [
        (lambda: chat.channels.Create("", ""), "needs a name"),
        (lambda: chat.channels.Create("   ", ""), "needs a name"),
        (lambda: chat.channels.Create("general", ""), "already exists"),
        (lambda: chat.channels.Create("x" * 65, ""), "at most 64"),
        (lambda: chat.channels.Create("ok", "d" * 65), "at most 64"),
        (lambda: chat.channels.Rename(direct.id, "  ", ""), "needs a title"),
        (lambda: chat.channels.Rename("nope", "x", ""), "no channel"),
        (lambda: chat.channels.Send(room.id, "   "), "empty"),
        (lambda: chat.channels.Send("nope", "hi"), "no channel"),
        (lambda: chat.channels.RemoveMember(direct.id, "alpha"), "single member"),
        (lambda: chat.channels.Older(room.id, ""), "beforeId"),
        (lambda: chat.channels.Older(room.id, 3), "`beforeId` must be text"),  # type: ignore[arg-type]
        (lambda: chat.channels.Send(room.id, None), "`text` must be text"),  # type: ignore[arg-type]
        (lambda: chat.channels.Create(["x"], ""), "`name` must be text"),  # type: ignore[arg-type]
        (lambda: chat.channels.Direct("nobody"), "no agent named"),
    ]
    for call, message in cases:
        with pytest.raises(UserError, match=message):
            call()
    assert chat.channels.List() == before
    renamed = chat.channels.Rename(room.id, "GENERAL", "same name, new case")
    assert (renamed.name, renamed.description) == ("GENERAL", "same name, new case")


def test_delete_stops_the_answer_and_removes_the_history(chat: Chat) -> None:
    room = chat.channels.Create("doomed")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "@slow go")
    chat.log.wait("message:delta", lambda p: p["channel"] == room.id, since=mark)
    chat.channels.Delete(room.id)
    assert room.id not in [c.id for c in chat.channels.List()]
    with pytest.raises(UserError, match="no channel"):
        chat.channels.Conversation(room.id)
    assert chat.sk._parts.history.last_messages(room.id) == ([], False)
    assert any(r.get("method") == "session/cancel" for r in chat.received("slow"))


def test_conversation_shows_the_last_100_and_older_pages_back(chat: Chat) -> None:
    room = chat.channels.Create("long")
    mark = chat.log.mark()
    for i in range(125):  # no member: each message gets a no-recipient answer
        chat.channels.Send(room.id, f"message {i}")
    chat.log.wait(
        "message:updated",
        lambda p: p["channel"] == room.id and p["message"]["code"] == "no-recipient"
        and len(chat.log.named("message:updated", since=mark)) >= 250,
        since=mark,
    )  # fmt: skip
    chat.idle(room.id, since=mark)
    first = chat.channels.Conversation(room.id)
    assert len(first["messages"]) == 100
    assert first["more"] is True
    older = chat.channels.Older(room.id, first["messages"][0]["id"])
    assert len(older["messages"]) == 100
    assert older["more"] is True
    oldest = chat.channels.Older(room.id, older["messages"][0]["id"])
    assert (len(oldest["messages"]), oldest["more"]) == (50, False)
    texts = [
        m["parts"][0]["text"]
        for page in (oldest, older, first)
        for m in page["messages"]
        if m["role"] == "user"
    ]
    assert texts == [f"message {i}" for i in range(125)]


def test_prepare_opens_the_sessions_of_members_that_never_announced_commands(
    chat: Chat,
) -> None:
    room = chat.channels.Create("prep")
    chat.channels.AddMember(room.id, "loader")
    chat.channels.AddMember(room.id, "alpha")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "some past")  # two members: no-recipient
    chat.idle(room.id, since=mark)
    chat.channels.Prepare(room.id)
    event = chat.log.wait("commands:changed", lambda p: p["agent"] == "loader", since=mark)
    assert event["commands"] == [{"name": "hello", "description": "Say hello", "hint": "who"}]
    assert chat.channels.Commands("loader")[0].name == "hello"
    sessions = [r for r in chat.received("loader") if r.get("method") == "session/new"]
    assert len(sessions) == 1
    chat.channels.Send(room.id, "@loader hi")
    chat.finished(room.id, "loader", since=mark)
    assert len([r for r in chat.received("loader") if r.get("method") == "session/new"]) == 1
    # The prepared session serves the first answer, which still gets the channel's past.
    assert chat.prompts("loader")[0].startswith("Messages in #prep since your last answer:")
    assert "[user] some past" in chat.prompts("loader")[0]


def test_cancel_stops_a_channel_that_waits_for_an_agent_busy_elsewhere(chat: Chat) -> None:
    first, second = chat.channels.Create("busy-a"), chat.channels.Create("busy-b")
    mark = chat.log.mark()
    chat.channels.Send(first.id, "@slow work")
    chat.log.wait("message:delta", lambda p: p["channel"] == first.id, since=mark)
    chat.channels.Send(second.id, "@slow me too")
    chat.log.wait(
        "turn:changed",
        lambda p: p["channel"] == second.id and p["answering"] == "slow",
        since=mark,
    )
    chat.channels.Cancel(second.id)
    chat.idle(second.id, since=mark, timeout=5)  # not when the other channel is done
    assert chat.channels.Conversation(first.id)["busy"] is True
    assert chat.prompts("slow") == ["@slow work"]  # the waiting message was never sent
    chat.channels.Cancel(first.id)
    chat.idle(first.id, since=mark)


def test_conversations_read_while_answers_stream_and_finish_show_each_message_once(
    chat: Chat,
) -> None:
    """Conversation reads on the caller's thread (no core-loop hop): a read at any moment of
    streaming, finishing, storing and dequeuing has every message at most once, the stored
    and live ones in the order they were sent and answered, and never misses one that had
    finished before the read began."""
    direct = chat.channels.Direct("demo")
    mark = chat.log.mark()
    sent = [chat.channels.Send(direct.id, f"/bench {n}") for n in (3000, 2000, 1000)]
    problems: list[str] = []
    reads = 0
    while True:
        finished = {
            p["message"]["id"]
            for p in chat.log.named("message:updated", since=mark)
            if p["channel"] == direct.id and p["message"]["done"]
            and p["message"]["role"] == "agent"
        }  # fmt: skip
        idle = any(not p["busy"] for p in chat.log.named("turn:changed", since=mark))
        messages = chat.channels.Conversation(direct.id)["messages"]
        reads += 1
        ids = [m["id"] for m in messages]
        shown = [m for m in messages if not m["queued"]]
        roles = [m["role"] for m in shown]
        users = [m["id"] for m in shown if m["role"] == "user"]
        if len(set(ids)) != len(ids):
            problems.append(f"a message twice: {ids}")
        if roles != (["user", "agent"] * 3)[: len(roles)] or users != sent[: len(users)]:
            problems.append(f"out of order: {roles} {users}")
        if not finished <= set(ids):
            problems.append(f"finished before the read, missing: {finished - set(ids)}")
        if idle and len(finished) == 3:
            break
    assert problems == []
    assert reads > 10  # the reads did overlap the answers
    final = chat.channels.Conversation(direct.id)["messages"]
    assert [m["role"] for m in final] == ["user", "agent"] * 3  # as the page showed them
    assert [m["id"] for m in final if m["role"] == "user"] == sent


def test_an_answer_that_cannot_be_saved_says_so_and_the_channel_goes_on(chat: Chat) -> None:
    history = chat.sk._parts.history
    keep = history.add_message
    failures = []

    def add_message(message: Message) -> None:
        if message.role == "agent" and not failures:
            failures.append(message.id)
            raise OSError(28, "No space left on device")
        keep(message)

    history.add_message = add_message  # type: ignore[method-assign]
    direct = chat.channels.Direct("alpha")
    mark = chat.log.mark()
    chat.channels.Send(direct.id, "first")
    lost = chat.finished(direct.id, "alpha", since=mark)
    assert lost["id"] == failures[0]
    assert lost["error"].startswith("this answer could not be saved: OSError")
    assert "No space left on device" in lost["error"]
    chat.idle(direct.id, since=mark)
    mark = chat.log.mark()
    chat.channels.Send(direct.id, "second")
    kept = chat.finished(direct.id, "alpha", since=mark)
    assert kept["error"] == ""
    chat.idle(direct.id, since=mark)
    conversation = chat.channels.Conversation(direct.id)
    assert conversation["busy"] is False
    assert [m["id"] for m in conversation["messages"] if m["role"] == "agent"] == [kept["id"]]
