"""An ACP agent streaming what agents stream in 2026 (issue 26), as claude-agent-acp 0.101 does.

    python tests/fakes/acp2026_stream.py

A prompt's last word picks the answer:
  usage      usage_update with `cost` and claude's `_meta["_claude/rateLimit"]`: the five_hour
             window, then one without cost with the seven_day window
  messages   chunks by messageId: m1, m2, a thought m3, m1 again
  plans      plan_update items p1, Markdown p2, p1 again (one done), plan_removed p2
  compact    compaction_update in_progress, two compaction_summary_chunk, completed
  subagent   a sub-agent in claude's RFD form: a tool call with `session` content naming it,
             subagent_update (running, cancel capability), the prompt as session_message (the
             parent's and the child's views), the child's own text and tool call (and its
             permission request, answered in the parent), subagent_update idle, its reply
  hold       announces a sub-agent, then streams until session/cancel came for both sessions
             (the parent's and the child's), then ends `cancelled`
Anything else is answered `echo: <text>`. Every stdin line is appended to $FAKE_LOG.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, request, send, update

SESSION = "stream-session"
CHILD = "stream-child"
cancelled: set[str] = set()
cancel_seen = threading.Condition()


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def usage(sid: str) -> None:
    update(
        sid,
        {
            "sessionUpdate": "usage_update",
            "used": 50_000,
            "size": 200_000,
            "cost": {"amount": 0.4213, "currency": "USD"},
            "_meta": {
                "_claude/rateLimit": {
                    "status": "allowed",
                    "rateLimitType": "five_hour",
                    "utilization": 0.42,
                    "resetsAt": 1767225600,
                }
            },
        },
    )
    update(
        sid,
        {
            "sessionUpdate": "usage_update",
            "used": 60_000,
            "size": 200_000,
            "_meta": {
                "_claude/rateLimit": {
                    "status": "allowed_warning",
                    "rateLimitType": "seven_day",
                    "utilization": 0.91,
                    "resetsAt": 1767571200,
                }
            },
        },
    )
    chunk(sid, "counted")  # fmt: skip


def messages(sid: str) -> None:
    for kind, mid, value in [
        ("agent_message_chunk", "m1", "First "),
        ("agent_message_chunk", "m2", "Second"),
        ("agent_thought_chunk", "m3", "Thinking"),
        ("agent_message_chunk", "m1", "again"),
    ]:
        update(sid, {"sessionUpdate": kind, "messageId": mid, "content": text(value)})


def plans(sid: str) -> None:
    def items(*entries: tuple[str, str]) -> dict[str, Any]:
        return {"type": "items", "planId": "p1", "entries": [
            {"content": c, "status": s, "priority": "medium"} for c, s in entries]}  # fmt: skip

    update(sid, {"sessionUpdate": "plan_update", "plan": items(("Read", "pending"))})
    update(
        sid,
        {
            "sessionUpdate": "plan_update",
            "plan": {"type": "markdown", "planId": "p2", "content": "# Draft\n- one"},
        },
    )
    update(
        sid,
        {
            "sessionUpdate": "plan_update",
            "plan": items(("Read", "completed"), ("Write", "in_progress")),
        },
    )
    update(sid, {"sessionUpdate": "plan_removed", "planId": "p2"})  # fmt: skip


def compact(sid: str) -> None:
    chunk(sid, "Before.")
    update(
        sid,
        {"sessionUpdate": "compaction_update", "compactionId": "cmp-1", "status": "in_progress"},
    )
    for piece in ("We fixed the parser; ", "tests pass."):
        update(
            sid,
            {
                "sessionUpdate": "compaction_summary_chunk",
                "compactionId": "cmp-1",
                "content": text(piece),
            },
        )
    update(
        sid, {"sessionUpdate": "compaction_update", "compactionId": "cmp-1", "status": "completed"}
    )
    chunk(sid, " After.")  # fmt: skip


def announce(sid: str) -> None:
    update(
        sid,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "launch-1",
            "title": "Agent: Explore",
            "kind": "other",
            "status": "in_progress",
            "content": [{"type": "session", "sessionId": CHILD}],
        },
    )
    update(sid, {"sessionUpdate": "subagent_update", "sessionId": CHILD, "title": "Explore",
                 "description": "Explore", "capabilities": {"cancel": {}},
                 "state": {"state": "running"}})  # fmt: skip


def subagent(sid: str) -> None:
    announce(sid)
    prompt = {"sessionUpdate": "session_message", "messageId": "launch-1",
              "senderSessionId": sid, "recipientSessionId": CHILD,
              "content": [text("Find the parser")]}  # fmt: skip
    update(sid, {**prompt, "recipientMessageId": "launch-1"})
    update(CHILD, {**prompt, "senderMessageId": "launch-1"})
    chunk(CHILD, "Looking in src/")
    update(CHILD, {"sessionUpdate": "tool_call", "toolCallId": "child-read",
                   "title": "Read parser.py", "kind": "read", "status": "pending",
                   "locations": [{"path": "/src/parser.py"}]})  # fmt: skip
    asked = request("session/request_permission", {
        "sessionId": CHILD,
        "toolCall": {"toolCallId": "child-read", "title": "Read parser.py", "kind": "read"},
        "options": [{"optionId": "yes", "name": "Allow", "kind": "allow_once"}],
    })  # fmt: skip
    outcome = asked.get("result", {}).get("outcome", {})
    update(
        CHILD,
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "child-read",
            "status": "completed",
            "content": [{"type": "content", "content": text(outcome.get("optionId", "?"))}],
        },
    )
    update(
        sid,
        {
            "sessionUpdate": "subagent_update",
            "sessionId": CHILD,
            "state": {"state": "idle", "stopReason": "end_turn"},
        },
    )
    update(
        sid,
        {
            "sessionUpdate": "session_message",
            "messageId": "launch-1:reply",
            "senderSessionId": CHILD,
            "recipientSessionId": sid,
            "content": [text("It is in src/parser.py")],
        },
    )
    update(
        sid, {"sessionUpdate": "tool_call_update", "toolCallId": "launch-1", "status": "completed"}
    )
    chunk(sid, "Done.")  # fmt: skip


def hold(sid: str) -> str:
    announce(sid)
    deadline = time.monotonic() + 20
    with cancel_seen:
        while not {sid, CHILD} <= cancelled and time.monotonic() < deadline:
            cancel_seen.wait(0.05)
    chunk(CHILD, "stopped")
    update(
        sid,
        {
            "sessionUpdate": "subagent_update",
            "sessionId": CHILD,
            "state": {"state": "idle", "stopReason": "cancelled"},
        },
    )
    return "cancelled"


ANSWERS = {"usage": usage, "messages": messages, "plans": plans, "compact": compact,
           "subagent": subagent}  # fmt: skip


def answer(rid: object, sid: str, words: list[str]) -> None:
    last = words[-1] if words else ""
    stop = "end_turn"
    if last in ANSWERS:
        ANSWERS[last](sid)
    elif last == "hold":
        stop = hold(sid)
    else:
        chunk(sid, "echo: " + " ".join(words))
    send({"id": rid, "result": {"stopReason": stop}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    if method == "initialize":
        send(
            {
                "id": rid,
                "result": {
                    "protocolVersion": 1,
                    "agentCapabilities": {},
                    "agentInfo": {"name": "stream-2026", "version": "1.0.0"},
                },
            }
        )
    elif method == "session/new":
        send({"id": rid, "result": {"sessionId": SESSION}})
    elif method == "session/cancel":
        with cancel_seen:
            cancelled.add(params.get("sessionId", ""))
            cancel_seen.notify_all()
    elif method == "session/prompt":
        said = "".join(b.get("text", "") for b in params.get("prompt", []))
        words = said.split()
        # answered on a thread: the main loop goes on reading (permission answers, cancels)
        threading.Thread(target=answer, args=(rid, params.get("sessionId", ""), words)).start()
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


if __name__ == "__main__":
    rpc.serve(handle)
