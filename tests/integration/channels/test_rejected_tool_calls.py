"""A tool call whose permission the person rejected is `rejected` (issue 29), not only `failed`:
its card says so, live, in the finished answer and in history; an allow given to a later request
about the same tool call clears it, and an allowed one never has it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.integration.channels.conftest import Chat

NOTE = "Cancelled: the answer ended before this tool call finished."


def tools(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [p["tool"] for p in message["parts"] if p["kind"] == "tool"]


def live_tool(chat: Chat, message_id: str, since: int) -> list[dict[str, Any]]:
    """The tool call as each of the page's deltas showed it, in order."""
    return [
        p["part"]["tool"]
        for p in chat.log.named("message:delta", since=since)
        if p["messageId"] == message_id and (p.get("part") or {}).get("kind") == "tool"
    ]


def test_a_rejected_tool_call_is_rejected_live_in_the_answer_and_after_a_restart(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Direct("perm")  # the fake leaves its tool call pending: it ends failed
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit")
    request = chat.log.wait("permission:requested", since=mark)
    assert request["toolCall"]["rejected"] is False
    chat.channels.AnswerPermission(request["id"], "reject")
    answer = chat.finished(room.id, "perm", since=mark)
    [tool] = tools(answer)
    assert (tool["status"], tool["rejected"]) == ("failed", True)
    assert NOTE not in tool["output"]  # the person said no: nothing was cancelled
    shown = live_tool(chat, answer["id"], mark)
    assert shown[0]["rejected"] is False and shown[-1]["rejected"] is True
    chat.sk.close()

    again = open_chat()
    kept = again.channels.Conversation(room.id)["messages"][-1]
    assert kept["id"] == answer["id"]
    assert [(t["status"], t["rejected"]) for t in tools(kept)] == [("failed", True)]


def test_the_demo_agents_edit_rejected_then_reported_failed_stays_rejected(chat: Chat) -> None:
    room = chat.channels.Direct("demo")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "/edit")
    request = chat.log.wait("permission:requested", since=mark, timeout=20)
    assert request["toolCall"]["diffs"]  # the diff it asks about
    chat.channels.AnswerPermission(request["id"], "reject")
    answer = chat.finished(room.id, "demo", since=mark)
    [tool] = tools(answer)
    assert (tool["status"], tool["rejected"]) == ("failed", True)  # its own `failed` after ours
    assert "permission was rejected" in tool["output"]


def test_an_allow_after_a_reject_clears_it_and_an_allowed_call_is_never_rejected(
    chat: Chat,
) -> None:
    room = chat.channels.Direct("perm2")  # asks twice about the same tool call in one turn
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit")
    first = chat.log.wait("permission:requested", since=mark)
    chat.channels.AnswerPermission(first["id"], "reject")
    second = chat.log.wait("permission:requested", lambda p: p["id"] != first["id"], since=mark)
    chat.channels.AnswerPermission(second["id"], "allow")
    answer = chat.finished(room.id, "perm2", since=mark)
    assert [t["rejected"] for t in tools(answer)] == [False]
    assert [t["rejected"] for t in live_tool(chat, answer["id"], mark)][-1] is False
    assert any(t["rejected"] for t in live_tool(chat, answer["id"], mark))  # rejected meanwhile

    other = chat.channels.Direct("perm")
    mark = chat.log.mark()
    chat.channels.Send(other.id, "edit")
    request = chat.log.wait("permission:requested", since=mark)
    chat.channels.AnswerPermission(request["id"], "allow")
    allowed = chat.finished(other.id, "perm", since=mark)
    assert [t["rejected"] for t in tools(allowed)] == [False]
