"""Answers that stress what Sidekicks keeps of a stream (fake_agent.py runs them on a prompt).

split-emoji       an emoji sent as its two UTF-16 halves in two chunks (as agents that chunk by
                  UTF-16 position do), a half that never gets its pair, and a tool title with a
                  lone half; JSON escapes, so the line itself is valid JSON
permission-flood  $FAKE_FLOOD (default 2000) permission requests at once, then says how many
                  were answered and how
"""

from __future__ import annotations

import os
from collections import Counter

from rpc import answer_to, chunk, send, send_request, update

HIGH, LOW = "\ud83d", "\ude00"  # 😀 = U+1F600 = D83D DE00


def run(behaviours: set[str], sid: str, rid: int) -> bool:
    """Answers the prompt if one of these behaviours is on; False to let the fake go on."""
    if "split-emoji" in behaviours:
        split_emoji(sid)
    elif "permission-flood" in behaviours:
        permission_flood(sid)
    else:
        return False
    send({"id": rid, "result": {"stopReason": "end_turn"}})
    return True


def split_emoji(sid: str) -> None:
    for text in ("smile ", HIGH, LOW, " and a lost half ", HIGH):
        chunk(sid, text)
    chunk(sid, "thinking", kind="agent_thought_chunk")
    chunk(sid, "end " + LOW)
    update(sid, {"sessionUpdate": "tool_call", "toolCallId": "t1", "title": f"bad {LOW} title",
                 "kind": "read", "status": "completed"})  # fmt: skip


def permission_flood(sid: str) -> None:
    count = int(os.environ.get("FAKE_FLOOD", "2000"))
    ids = [
        send_request(
            "session/request_permission",
            {
                "sessionId": sid,
                "toolCall": {"toolCallId": f"t{n}", "title": f"Edit {n}", "kind": "edit"},
                "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
            },
        )
        for n in range(count)
    ]
    outcomes = Counter(
        answer_to(rid).get("result", {}).get("outcome", {}).get("outcome", "?") for rid in ids
    )
    chunk(sid, "flood answered: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
