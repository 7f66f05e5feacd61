"""The stream of 2026 at the ACP boundary (issue 26): what the SDK 0.12.1 types (messageId, cost,
plan_update, plan_removed) and what it drops (compaction, sub-agents, session messages, a tool
call's `session` content), carried past it by our transport and typed by stream_extensions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from acp.schema import SessionNotification

from app.acp.stream_extensions import CAPABILITIES, incoming, outgoing
from app.acp.translate import session_event
from app.acp.updates import (
    CompactionChanged,
    CompactionChunk,
    PlanContentChanged,
    PlanItem,
    PlanRemoved,
    RateLimit,
    SessionCost,
    SessionMessage,
    SubagentChanged,
    TextDelta,
    Unhandled,
    UsageChanged,
)


def through(update: dict[str, Any]) -> object:
    """An update as the agent writes it, through our transport's rewrite and the SDK."""
    message = incoming({"jsonrpc": "2.0", "method": "session/update",
                        "params": {"sessionId": "s", "update": update}})  # fmt: skip
    message = json.loads(json.dumps(message))  # what the SDK gets is plain JSON
    notification = SessionNotification.model_validate(message["params"])
    return session_event(notification.update)


CASES: list[tuple[str, dict[str, Any], object]] = [
    (
        "a chunk's messageId",
        {"sessionUpdate": "agent_message_chunk", "messageId": "m1",
         "content": {"type": "text", "text": "hi"}},
        TextDelta("text", "hi", "m1"),
    ),
    (
        "a thought without one",
        {"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "hm"}},
        TextDelta("thought", "hm", None),
    ),
    (
        "usage with its cost and claude's rate-limit window",
        {"sessionUpdate": "usage_update", "used": 10, "size": 100,
         "cost": {"amount": 0.25, "currency": "USD"},
         "_meta": {"_claude/rateLimit": {"status": "allowed_warning", "rateLimitType": "five_hour",
                                         "utilization": 0.82, "resetsAt": 1767000000}}},
        UsageChanged(10, 100, SessionCost(0.25, "USD"),
                     (RateLimit("five_hour", "allowed_warning", 0.82, 1767000000.0),)),
    ),
    (
        "usage without either",
        {"sessionUpdate": "usage_update", "used": 1, "size": 2},
        UsageChanged(1, 2),
    ),
    (
        "a plan of items by id",
        {"sessionUpdate": "plan_update", "plan": {"type": "items", "planId": "p",
         "entries": [{"content": "a", "status": "pending", "priority": "high"}]}},
        PlanContentChanged("p", entries=(PlanItem("a", "pending", "high"),)),
    ),
    (
        "a Markdown plan",
        {"sessionUpdate": "plan_update",
         "plan": {"type": "markdown", "planId": "q", "content": "# Do"}},
        PlanContentChanged("q", markdown="# Do"),
    ),
    (
        "a plan removed",
        {"sessionUpdate": "plan_removed", "planId": "p"},
        PlanRemoved("p"),
    ),
    (
        "a compaction starts",
        {"sessionUpdate": "compaction_update", "compactionId": "c1", "status": "in_progress"},
        CompactionChanged("c1", "in_progress"),
    ),
    (
        "a compaction ends with its summary",
        {"sessionUpdate": "compaction_update", "compactionId": "c1", "status": "completed",
         "summary": [{"type": "text", "text": "We fixed "}, {"type": "text", "text": "it."}]},
        CompactionChanged("c1", "completed", summary="We fixed it."),
    ),
    (
        "a compaction fails",
        {"sessionUpdate": "compaction_update", "compactionId": "c2", "status": "failed",
         "error": "too big"},
        CompactionChanged("c2", "failed", error="too big"),
    ),
    (
        "a summary chunk",
        {"sessionUpdate": "compaction_summary_chunk", "compactionId": "c1",
         "content": {"type": "text", "text": "part"}},
        CompactionChunk("c1", "part"),
    ),
    (
        "a sub-agent announced (claude's RFD form)",
        {"sessionUpdate": "subagent_update", "sessionId": "child", "title": "Explore",
         "description": "Explore", "cwd": "/w", "capabilities": {"cancel": {}},
         "state": {"state": "running"}},
        SubagentChanged("child", "Explore", "Explore", "/w", "running", can_cancel=True),
    ),
    (
        "a sub-agent ends in error",
        {"sessionUpdate": "subagent_update", "sessionId": "child",
         "state": {"state": "idle", "stopReason": "error",
                   "error": {"code": -32603, "message": "boom"}}},
        SubagentChanged("child", state="idle", stop_reason="error", error="boom"),
    ),
    (
        "a session message",
        {"sessionUpdate": "session_message", "messageId": "t1:reply", "senderSessionId": "child",
         "recipientSessionId": "s", "content": [{"type": "text", "text": "done"}]},
        SessionMessage("t1:reply", "done", sender="child", recipient="s"),
    ),
    (
        "one without its id is not ours to guess",
        {"sessionUpdate": "compaction_update", "status": "completed"},
        Unhandled("compaction_update"),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("update", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_update_becomes_its_typed_event(update: dict[str, Any], expected: object) -> None:
    assert through(update) == expected


def test_a_tool_calls_session_content_names_its_sub_agent_sessions() -> None:
    event = through(
        {"sessionUpdate": "tool_call", "toolCallId": "t", "title": "Agent",
         "content": [{"type": "session", "sessionId": "child"},
                     {"type": "content", "content": {"type": "text", "text": "x"}}]}
    )  # fmt: skip
    assert event.sessions == ("child",)
    assert event.texts == ("x",)
    plain = through({"sessionUpdate": "tool_call", "toolCallId": "t", "title": "Read"})
    assert plain.sessions is None


def test_what_the_sdk_knows_goes_through_untouched() -> None:
    message = {"method": "session/update", "params": {"sessionId": "s", "update": {
        "sessionUpdate": "session_info_update", "title": "T"}}}  # fmt: skip
    assert incoming(message) is message
    other = {"method": "fs/read_text_file", "id": 1, "params": {"path": "/x"}}
    assert incoming(other) is other


def test_initialize_says_the_capabilities_the_sdk_cannot_keeping_the_others() -> None:
    sent = outgoing(
        {"method": "initialize", "id": 0, "params": {"protocolVersion": 1,
         "clientCapabilities": {"terminal": True, "session": {"configOptions": {"boolean": {}}}}}}
    )  # fmt: skip
    caps = sent["params"]["clientCapabilities"]
    assert caps["terminal"] is True
    assert caps["session"] == {"configOptions": {"boolean": {}}, "compaction": {}}
    assert caps["subagents"] == CAPABILITIES["subagents"] == {}
    assert outgoing({"method": "session/new", "params": {}}) == {
        "method": "session/new",
        "params": {},
    }
