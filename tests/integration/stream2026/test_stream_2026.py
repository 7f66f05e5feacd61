"""What the stream carries now (issue 26), through the real app and a fake agent speaking as
claude-agent-acp 0.101: cost and rate limits on the meter, messages by id, plans by id, a
compaction, a sub-agent nested with its prompt, stream, permission and reply; Stop cancels it."""

from __future__ import annotations

from typing import Any

from tests.integration.stream2026.conftest import Stream


def kinds(message: dict[str, Any]) -> list[str]:
    return [p["kind"] for p in message["parts"]]


def test_initialize_advertises_compaction_and_sub_agents(stream: Stream) -> None:
    stream.finished(stream.ask("hello"))
    [init] = stream.received("initialize")
    caps = init["params"]["clientCapabilities"]
    assert caps["session"]["compaction"] == {}
    assert caps["subagents"] == {}
    assert caps["plan"] == {}  # plan_update / plan_removed
    assert caps["terminal"] is True  # the SDK's own are still there


def test_cost_and_rate_limit_windows_reach_the_meter_and_stay_with_the_conversation(
    stream: Stream,
) -> None:
    mark = stream.ask("usage")
    stream.finished(mark)
    changed = stream.log.wait(
        "usage:changed",
        lambda p: p["usage"]["used"] == 60_000,
        since=mark,
    )["usage"]
    assert changed["cost"] == {"amount": 0.4213, "currency": "USD"}  # kept from the first
    assert [(w["window"], w["status"], w["utilization"]) for w in changed["rateLimits"]] == [
        ("five_hour", "allowed", 0.42),
        ("seven_day", "allowed_warning", 0.91),
    ]
    kept = stream.channels.Conversation(stream.channel)["usage"]["streamer"]
    assert kept["cost"]["amount"] == 0.4213 and len(kept["rateLimits"]) == 2


def test_message_ids_split_and_merge_the_answers_parts(stream: Stream) -> None:
    message = stream.finished(stream.ask("messages"))
    assert [(p["kind"], p["text"], p["messageId"]) for p in message["parts"]] == [
        ("text", "First again", "m1"),
        ("text", "Second", "m2"),
        ("thought", "Thinking", "m3"),
    ]


def test_plans_by_id_are_updated_and_removed(stream: Stream) -> None:
    message = stream.finished(stream.ask("plans"))
    p1, p2 = message["parts"]
    assert p1["planId"] == "p1" and not p1["removed"]
    assert [(e["content"], e["status"]) for e in p1["plan"]] == [
        ("Read", "completed"),
        ("Write", "in_progress"),
    ]
    assert p2["planId"] == "p2" and p2["removed"] and p2["text"] == ""


def test_a_compaction_is_a_line_with_its_summary(stream: Stream) -> None:
    mark = stream.ask("compact")
    running = stream.log.wait(
        "message:delta", lambda p: p["kind"] == "compaction" and p.get("part"), since=mark
    )["part"]["compaction"]
    assert running["status"] == "in_progress"
    message = stream.finished(mark)
    assert kinds(message) == ["text", "compaction", "text"]
    compaction = message["parts"][1]["compaction"]
    assert compaction["status"] == "completed"
    assert compaction["summary"] == "We fixed the parser; tests pass."
    # kept: the history has it as it was shown
    [kept] = [
        m
        for m in stream.channels.Conversation(stream.channel)["messages"]
        if m["id"] == message["id"]
    ]
    assert kept["parts"][1]["compaction"]["summary"] == compaction["summary"]


def test_a_sub_agent_is_nested_with_its_prompt_its_work_its_permission_and_its_reply(
    stream: Stream,
) -> None:
    mark = stream.ask("subagent")
    asked = stream.log.wait("permission:requested", lambda p: True, since=mark)
    assert asked["toolCall"]["title"] == "Read parser.py"
    stream.channels.AnswerPermission(asked["id"], "yes")
    message = stream.finished(mark)
    assert kinds(message) == ["tool", "subagent", "text"]  # no stray card for the child's call
    tool, part = message["parts"][0]["tool"], message["parts"][1]["subagent"]
    assert tool["sessions"] == ["stream-child"] and tool["status"] == "completed"
    assert (part["sessionId"], part["title"], part["state"], part["stopReason"]) == (
        "stream-child",
        "Explore",
        "idle",
        "end_turn",
    )
    assert part["canCancel"] is True
    assert (part["prompt"], part["reply"]) == ("Find the parser", "It is in src/parser.py")
    nested = [(p["kind"], p["text"] or p["tool"]["title"]) for p in part["parts"]]
    assert nested == [("text", "Looking in src/"), ("tool", "Read parser.py")]
    assert part["parts"][1]["tool"]["output"] == "yes"  # the person's answer reached the child


def test_stop_cancels_the_sub_agents_too(stream: Stream) -> None:
    mark = stream.ask("hold")
    stream.log.wait(
        "message:delta",
        lambda p: (
            p["kind"] == "subagent"
            and p.get("part", {}).get("subagent", {}).get("state") == "running"
        ),
        since=mark,
    )
    stream.channels.Cancel(stream.channel)
    message = stream.finished(mark)
    assert message["stopReason"] == "cancelled"
    cancels = {c["params"]["sessionId"] for c in stream.received("session/cancel")}
    assert cancels == {"stream-session", "stream-child"}
