"""One permission inbox (issue 17) through ChannelService with real agent processes: every
channel's pending requests in one list, answered from there; "always allow" rules given by the
demo agent's "Always allow", applied in another channel, listed, revoked, kept across a restart."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.integration.channels.conftest import Chat


def edit_tool(answer: dict[str, Any]) -> dict[str, Any]:
    return next(p["tool"] for p in answer["parts"] if p["kind"] == "tool")


def test_permissions_lists_every_channels_pending_requests_oldest_first(chat: Chat) -> None:
    first = chat.channels.Direct("perm")
    second = chat.channels.Create("ops", "", ["perm2"])
    mark = chat.log.mark()
    chat.channels.Send(first.id, "edit")
    asked_first = chat.log.wait("permission:requested", since=mark, timeout=20)
    chat.channels.Send(second.id, "@perm2 edit")
    asked_second = chat.log.wait(
        "permission:requested", lambda p: p["channel"] == second.id, since=mark, timeout=20
    )
    listed = [r.wire() for r in chat.sk.api.InboxService.Permissions()]
    assert listed == [asked_first, asked_second]

    chat.channels.AnswerPermission(asked_second["id"], "allow")
    chat.log.wait("permission:resolved", lambda p: p["id"] == asked_second["id"], since=mark)
    left = chat.sk.api.InboxService.Permissions()
    assert [r.id for r in left][:1] == [asked_first["id"]]
    assert asked_second["id"] not in [r.id for r in left]
    # perm2 goes on once answered and may already have asked its second question (below).
    assert all(r.agent == "perm2" and r.channel == second.id for r in left[1:])
    # Answered from the list, it is answered in its conversation too.
    assert all(
        p["id"] != asked_second["id"] for p in chat.channels.Conversation(second.id)["permissions"]
    )
    chat.channels.AnswerPermission(asked_first["id"], "reject")
    chat.finished(first.id, "perm", since=mark)
    # perm2 asks twice in one turn: its second request is the only one left.
    again = chat.log.wait(
        "permission:requested",
        lambda p: p["id"] != asked_second["id"] and p["agent"] == "perm2",
        since=mark,
        timeout=20,  # the agent goes on after the first answer: slow on a busy machine
    )
    assert [r.id for r in chat.sk.api.InboxService.Permissions()] == [again["id"]]
    chat.channels.AnswerPermission(again["id"], "allow")
    chat.finished(second.id, "perm2", since=mark)
    assert chat.sk.api.InboxService.Permissions() == []
    assert chat.sk.api.InboxService.PermissionRules() == []  # neither answer was "always"


def test_always_allow_is_a_rule_that_answers_the_same_agent_in_another_channel(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    direct = chat.channels.Direct("demo")
    mark = chat.log.mark()
    chat.channels.Send(direct.id, "/edit")
    asked = chat.log.wait("permission:requested", since=mark, timeout=20)
    chat.channels.AnswerPermission(asked["id"], "allow-always")
    changed = chat.log.wait("permission-rules:changed", since=mark)
    [rule] = chat.sk.api.InboxService.PermissionRules()
    assert (rule.agent, rule.kind, rule.channel, rule.example) == (
        "demo",
        "edit",
        direct.id,
        "Edit sidekicks_demo.py",
    )
    assert changed["rules"] == [rule.wire()]
    chat.finished(direct.id, "demo", since=mark)

    # Another channel: the demo's new session asks again, and the rule answers at once.
    room = chat.channels.Create("review", "", ["demo"])
    mark = chat.log.mark()
    chat.channels.Send(room.id, "/demo:edit")
    answer = chat.finished(room.id, "demo", since=mark)
    assert chat.log.named("permission:requested", since=mark) == []
    tool = edit_tool(answer)
    assert (tool["status"], tool["allowedByRule"]) == ("completed", rule.id)
    stored = chat.channels.Conversation(room.id)["messages"][-1]
    assert edit_tool(stored)["allowedByRule"] == rule.id

    # Another agent is still asked.
    perm = chat.channels.Direct("perm")
    mark = chat.log.mark()
    chat.channels.Send(perm.id, "edit")
    other = chat.log.wait("permission:requested", since=mark, timeout=20)
    chat.channels.AnswerPermission(other["id"], "allow")
    chat.finished(perm.id, "perm", since=mark)

    # The rule outlives the app; revoked, the demo asks again.
    chat.sk.close()
    chat = open_chat()
    assert chat.sk.api.InboxService.PermissionRules() == [rule]
    mark = chat.log.mark()
    assert chat.sk.api.InboxService.RevokePermissionRule(rule.id) == []
    assert chat.log.wait("permission-rules:changed", since=mark)["rules"] == []
    again = chat.channels.Create("again", "", ["demo"])
    chat.channels.Send(again.id, "/demo:edit")
    asked = chat.log.wait("permission:requested", since=mark, timeout=20)
    assert asked["channel"] == again.id
    chat.channels.AnswerPermission(asked["id"], "reject")
    assert edit_tool(chat.finished(again.id, "demo", since=mark))["allowedByRule"] == ""
