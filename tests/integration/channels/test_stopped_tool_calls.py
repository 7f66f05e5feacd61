"""Tool calls the agent left pending or running when its answer ended (#16 item 7): nothing will
update them any more, so they show cancelled (`failed`, with a note) — live, in history, and in
records an older version kept that way."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from app.core.ids import new_id
from app.history.base import StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Channel, Message, Part, PlanEntry, ToolCall
from app.paths import data_dir
from tests.integration.channels.conftest import Chat

NOTE = "Cancelled: the answer ended before this tool call finished."


def tools(message: dict) -> list[dict]:
    return [p["tool"] for p in message["parts"] if p["kind"] == "tool"]


def test_a_tool_call_waiting_for_permission_when_stopped_is_cancelled_live_and_in_history(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    room = chat.channels.Direct("perm")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit")
    request = chat.log.wait("permission:requested", since=mark)
    assert request["toolCall"]["status"] == "pending"
    chat.channels.Cancel(room.id)
    answer = chat.finished(room.id, "perm", since=mark)
    assert answer["stopReason"] == "cancelled"
    assert [(t["status"], t["output"]) for t in tools(answer)] == [("failed", NOTE)]
    live = [
        p["part"]["tool"]["status"]
        for p in chat.log.named("message:delta", since=mark)
        if p["messageId"] == answer["id"] and (p.get("part") or {}).get("kind") == "tool"
    ]
    assert live[0] == "pending" and live[-1] == "failed"  # the page's live message changes too
    chat.sk.close()

    again = open_chat()
    kept = again.channels.Conversation(room.id)["messages"][-1]
    assert kept["id"] == answer["id"]
    assert [(t["status"], t["output"]) for t in tools(kept)] == [("failed", NOTE)]


def test_an_old_record_with_tool_calls_left_running_reads_cancelled_after_a_restart(
    tmp_path: Path, open_chat: Callable[..., Chat]
) -> None:
    history = LmdbHistory(data_dir(tmp_path / "chat.yaml"))
    channel = Channel(id=new_id(), name="old", members=["alpha"])
    history.put_channel(StoredChannel(channel=channel))
    tool = ToolCall(id="t1", title="Run tests", kind="execute", status="in_progress")
    waiting = ToolCall(id="t2", title="Edit a.py", kind="edit", status="pending", output="half")
    done = ToolCall(id="t3", title="Read b.py", kind="read", status="completed", output="ok")
    plan = [PlanEntry(content="step", status="in_progress", priority="medium")]
    old = Message(
        id=new_id(), channel=channel.id, created_at="2026-01-01T00:00:00Z", role="agent",
        agent="alpha", stop_reason="cancelled",
        parts=[Part(kind="tool", tool=tool), Part(kind="tool", tool=waiting),
               Part(kind="tool", tool=done), Part(kind="plan", plan=plan)],
    )  # fmt: skip
    history.add_message(old)
    history.close()

    chat = open_chat()
    conversation = json.loads(chat.channels.Conversation(channel.id).text)
    read = conversation["messages"][-1]
    assert [(t["id"], t["status"], t["output"]) for t in tools(read)] == [
        ("t1", "failed", NOTE),
        ("t2", "failed", "half\n" + NOTE),
        ("t3", "completed", "ok"),
    ]
    assert read["parts"][3]["plan"][0]["status"] == "in_progress"  # a plan is the agent's word
